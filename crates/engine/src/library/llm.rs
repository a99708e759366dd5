//! `llm::` — memory of a served language model: weights and KV cache, by precision.

use rhai::{EvalAltResult, FuncRegistration, ImmutableString, Module};

use super::{bad, lookup, whole, FnDoc};

/// Bytes per stored element for each precision name.
pub(crate) const PRECISIONS: &[(&str, f64)] = &[
    ("fp32", 4.0),
    ("fp16", 2.0),
    ("bf16", 2.0),
    ("fp8", 1.0),
    ("int8", 1.0),
    ("int4", 0.5),
];

fn bytes(path: &str, precision: &str) -> Result<f64, Box<EvalAltResult>> {
    lookup(path, "precision", PRECISIONS, precision)
}

/// Weight memory: params × bytes / 1e9 (GB).
pub(crate) fn weight_gb(params: f64, precision: &str) -> Result<f64, Box<EvalAltResult>> {
    let b = bytes("llm::weight_gb", precision)?;
    Ok(if bad(params) {
        f64::NAN
    } else {
        params * b / 1e9
    })
}

/// KV cache: 2 (K and V) × layers × kv_heads × head_dim × seq_len × batch × bytes / 1e9 (GB).
pub(crate) fn kv_cache_gb(
    layers: f64,
    kv_heads: f64,
    head_dim: f64,
    seq_len: f64,
    batch: f64,
    precision: &str,
) -> Result<f64, Box<EvalAltResult>> {
    let b = bytes("llm::kv_cache_gb", precision)?;
    if [layers, kv_heads, head_dim, seq_len, batch]
        .into_iter()
        .any(bad)
    {
        return Ok(f64::NAN);
    }
    Ok(2.0 * layers * kv_heads * head_dim * seq_len * batch * b / 1e9)
}

/// Sequences whose KV cache fits next to the weights: ⌊(mem − weights) / kv_per_seq⌋, ≥ 0.
pub(crate) fn max_batch(mem_gb: f64, weights_gb: f64, kv_gb_per_seq: f64) -> f64 {
    if bad(mem_gb) || bad(weights_gb) || bad(kv_gb_per_seq) {
        return f64::NAN;
    }
    let free = mem_gb - weights_gb;
    if free <= 0.0 {
        return 0.0;
    }
    (free / kv_gb_per_seq).floor()
}

/// Tokens a paged KV cache allocates for `seq_len` tokens: whole blocks, ⌈s/B⌉·B.
fn paged_tokens(seq_len: f64, block: f64) -> Option<f64> {
    let b = whole(block, 1e9).filter(|&b| b >= 1)? as f64;
    if bad(seq_len) {
        return None;
    }
    Some((seq_len / b).ceil() * b)
}

/// KV cache with PagedAttention's fixed-size blocks: kv_cache_gb at ⌈s/B⌉·B tokens.
#[allow(clippy::too_many_arguments)]
pub(crate) fn paged_kv_gb(
    layers: f64,
    kv_heads: f64,
    head_dim: f64,
    seq_len: f64,
    batch: f64,
    block: f64,
    precision: &str,
) -> Result<f64, Box<EvalAltResult>> {
    let b = bytes("llm::paged_kv_gb", precision)?;
    let Some(tokens) = paged_tokens(seq_len, block) else {
        return Ok(f64::NAN);
    };
    if [layers, kv_heads, head_dim, batch].into_iter().any(bad) {
        return Ok(f64::NAN);
    }
    Ok(2.0 * layers * kv_heads * head_dim * tokens * batch * b / 1e9)
}

/// The share of a paged allocation left empty: (⌈s/B⌉·B − s) / (⌈s/B⌉·B).
pub(crate) fn paged_kv_waste(seq_len: f64, block: f64) -> f64 {
    match paged_tokens(seq_len, block) {
        Some(t) if t > 0.0 => (t - seq_len) / t,
        Some(_) => 0.0,
        None => f64::NAN,
    }
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("bytes_per")
        .set_into_module(&mut m, |p: ImmutableString| bytes("llm::bytes_per", &p));
    FuncRegistration::new("weight_gb")
        .set_into_module(&mut m, |params: f64, p: ImmutableString| {
            weight_gb(params, &p)
        });
    FuncRegistration::new("kv_cache_gb").set_into_module(
        &mut m,
        |l: f64, h: f64, d: f64, s: f64, b: f64, p: ImmutableString| kv_cache_gb(l, h, d, s, b, &p),
    );
    FuncRegistration::new("max_batch").set_into_module(&mut m, max_batch);
    FuncRegistration::new("paged_kv_gb").set_into_module(
        &mut m,
        |l: f64, h: f64, d: f64, s: f64, b: f64, blk: f64, p: ImmutableString| {
            paged_kv_gb(l, h, d, s, b, blk, &p)
        },
    );
    FuncRegistration::new("paged_kv_waste").set_into_module(&mut m, paged_kv_waste);
    m
}

const KWON: &str = "W. Kwon et al., \"Efficient Memory Management for Large Language Model \
                    Serving with PagedAttention\" (vLLM), SOSP 2023, sec. 3 (KV cache per \
                    token = 2 × hidden size × layers × bytes).";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "llm::bytes_per",
        signature: "llm::bytes_per(precision: string) -> f64",
        summary: "Bytes per stored element: fp32 4, fp16 2, bf16 2, fp8 1, int8 1, int4 0.5 \
                  (two 4-bit values per byte; the small per-group scales of real INT4 formats \
                  are not counted). An unknown name is an error listing the known ones.",
        units: "result: bytes per element.",
        source: "IEEE 754 (fp32, fp16), bfloat16, OCP 8-bit floating point (fp8) and integer \
                 formats; INT4 weight-only quantization as in GPTQ (E. Frantar et al., ICLR \
                 2023).",
        example: "llm::bytes_per(\"int4\")",
    },
    FnDoc {
        path: "llm::weight_gb",
        signature: "llm::weight_gb(params: f64, precision: string) -> f64",
        summary: "Memory of a model's weights: params × llm::bytes_per(precision) / 1e9. A \
                  70e9-parameter model is 140 GB in fp16, 35 GB in int4. A negative or NaN \
                  count → NaN; an unknown precision is an error.",
        units: "params: parameter count; result: GB (decimal).",
        source: "Standard derivation (one stored element per parameter).",
        example: "llm::weight_gb(70e9, \"int4\")",
    },
    FnDoc {
        path: "llm::kv_cache_gb",
        signature: "llm::kv_cache_gb(layers: f64, kv_heads: f64, head_dim: f64, seq_len: f64, \
                    batch: f64, precision: string) -> f64",
        summary: "KV-cache memory: 2 (keys and values) × layers × kv_heads × head_dim × \
                  seq_len × batch × bytes / 1e9. Grouped-query attention is counted by passing \
                  the number of key/value heads (Llama 2 70B: 8), not the query heads (64); \
                  multi-head attention has kv_heads = heads. Negative or NaN arguments → NaN; \
                  an unknown precision is an error.",
        units: "layers, kv_heads, head_dim: model shape; seq_len: tokens per sequence; batch: \
                sequences; result: GB (decimal).",
        source: KWON,
        example: "llm::kv_cache_gb(80.0, 8.0, 128.0, 4096.0, 16.0, \"fp16\")",
    },
    FnDoc {
        path: "llm::max_batch",
        signature: "llm::max_batch(mem_gb: f64, weights_gb: f64, kv_gb_per_seq: f64) -> f64",
        summary: "How many sequences' KV caches fit beside the weights: \
                  ⌊(mem_gb − weights_gb) / kv_gb_per_seq⌋, 0 when the weights alone do not \
                  fit. Ignores activations and fragmentation (which PagedAttention keeps \
                  small). Negative or NaN arguments → NaN.",
        units: "all in GB; result: sequences (whole number).",
        source: KWON,
        example: "llm::max_batch(80.0, 35.0, 1.34)",
    },
    FnDoc {
        path: "llm::paged_kv_gb",
        signature: "llm::paged_kv_gb(layers: f64, kv_heads: f64, head_dim: f64, seq_len: f64, \
                    batch: f64, block_tokens: f64, precision: string) -> f64",
        summary: "KV-cache memory with PagedAttention: each sequence's cache lives in blocks \
                  of block_tokens tokens, so it occupies ⌈seq_len/block_tokens⌉ whole blocks; \
                  llm::kv_cache_gb at that many tokens. vLLM's default block is 16 tokens. \
                  block_tokens must be a whole number from 1 to 1e9, else NaN; negative or NaN \
                  sizes → NaN; an unknown precision is an error.",
        units: "as llm::kv_cache_gb; block_tokens: tokens per block; result: GB (decimal).",
        source: "Kwon et al. (vLLM), SOSP 2023, sec. 4.1 (KV blocks of a fixed number of tokens; \
                 waste bounded by one block per sequence) and sec. 7 (block size 16).",
        example: "llm::paged_kv_gb(80.0, 8.0, 128.0, 1000.0, 16.0, 16.0, \"fp16\")",
    },
    FnDoc {
        path: "llm::paged_kv_waste",
        signature: "llm::paged_kv_waste(seq_len: f64, block_tokens: f64) -> f64",
        summary: "The share of a sequence's paged KV allocation left empty, its last block's \
                  unused slots: (⌈s/B⌉·B − s)/(⌈s/B⌉·B). 1,000 tokens in 16-token blocks waste \
                  0.8%; a contiguous allocation for a 4,096-token maximum would waste 75.6%. \
                  0 for an empty sequence; invalid block_tokens, negative or NaN → NaN.",
        units: "seq_len: tokens; block_tokens: tokens per block; result: fraction.",
        source: "Kwon et al. (vLLM), SOSP 2023, sec. 4.1.",
        example: "llm::paged_kv_waste(1000.0, 16.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vllm_paper_figures() {
        // vLLM sec. 3: OPT-13B, hidden 5120 (40 heads × 128), 40 layers, FP16: "the KV cache
        // of a single token demands 800 KB" = 2 × 5120 × 40 × 2 = 819,200 bytes;
        // 2048 tokens "can be as much as 1.6 GB".
        let token = kv_cache_gb(40.0, 40.0, 128.0, 1.0, 1.0, "fp16").unwrap();
        assert_eq!(token * 1e9, 819_200.0);
        let seq = kv_cache_gb(40.0, 40.0, 128.0, 2048.0, 1.0, "fp16").unwrap();
        assert!((seq - 1.6777216).abs() < 1e-12, "{seq}");
    }

    #[test]
    fn gqa_and_precisions() {
        // Llama 2 70B (80 layers, 8 KV heads of 128): 327,680 B per token in fp16;
        // 4096 tokens × 16 sequences = 21.47 GB. Multi-head (64 KV heads) would be 8×.
        let gqa = kv_cache_gb(80.0, 8.0, 128.0, 4096.0, 16.0, "fp16").unwrap();
        assert!((gqa - 21.474836480).abs() < 1e-9, "{gqa}");
        let mha = kv_cache_gb(80.0, 64.0, 128.0, 4096.0, 16.0, "fp16").unwrap();
        assert!((mha / gqa - 8.0).abs() < 1e-12);
        assert_eq!(weight_gb(70e9, "fp16").unwrap(), 140.0);
        assert_eq!(weight_gb(70e9, "int4").unwrap(), 35.0);
        assert_eq!(weight_gb(70e9, "fp8").unwrap(), 70.0);
        assert_eq!(weight_gb(7e9, "fp32").unwrap(), 28.0);
        assert_eq!(bytes("llm::bytes_per", "bf16").unwrap(), 2.0);
        let err = weight_gb(1.0, "int2").unwrap_err().to_string();
        assert!(err.contains("llm::weight_gb: unknown precision 'int2'; known precisions: fp32, fp16, bf16, fp8, int8, int4"), "{err}");
        assert!(kv_cache_gb(-1.0, 8.0, 128.0, 1.0, 1.0, "fp16")
            .unwrap()
            .is_nan());
    }

    #[test]
    fn paged_blocks() {
        // 1,000 tokens in 16-token blocks: 63 blocks = 1,008 slots, 8 empty.
        assert_eq!(paged_kv_waste(1000.0, 16.0), 8.0 / 1008.0);
        assert_eq!(paged_kv_waste(1024.0, 16.0), 0.0);
        assert_eq!(paged_kv_waste(0.0, 16.0), 0.0);
        assert!(paged_kv_waste(10.0, 0.0).is_nan() && paged_kv_waste(10.0, 1.5).is_nan());
        let paged = paged_kv_gb(80.0, 8.0, 128.0, 1000.0, 1.0, 16.0, "fp16").unwrap();
        let flat = kv_cache_gb(80.0, 8.0, 128.0, 1008.0, 1.0, "fp16").unwrap();
        assert_eq!(paged, flat);
        assert!(paged_kv_gb(80.0, 8.0, 128.0, 1.0, 1.0, 16.0, "fp4").is_err());
    }

    #[test]
    fn batch_that_fits() {
        // 80 GB H100, 35 GB of int4 weights, 1.342 GB per 4096-token sequence: 33 fit.
        let per_seq = kv_cache_gb(80.0, 8.0, 128.0, 4096.0, 1.0, "fp16").unwrap();
        assert_eq!(max_batch(80.0, 35.0, per_seq), 33.0);
        // fp16 weights (140 GB) do not fit on one 80 GB device at all.
        assert_eq!(max_batch(80.0, 140.0, per_seq), 0.0);
        assert_eq!(max_batch(80.0, 35.0, 0.0), f64::INFINITY);
        assert!(max_batch(80.0, f64::NAN, 1.0).is_nan());
    }
}
