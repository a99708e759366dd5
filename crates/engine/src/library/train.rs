//! `train::` — training compute, data, pipeline bubbles and memory.

use rhai::{EvalAltResult, FuncRegistration, ImmutableString, Module};

use super::{bad, lookup, whole, FnDoc};

/// Largest stage or micro-batch count `pipeline_bubble` accepts.
const MAX_COUNT: f64 = 1e9;

/// Training compute ≈ 6 FLOPs per parameter per token (2 forward, 4 backward).
pub(crate) fn flops(params: f64, tokens: f64) -> f64 {
    if bad(params) || bad(tokens) {
        return f64::NAN;
    }
    6.0 * params * tokens
}

/// Chinchilla's compute-optimal data: 20 tokens per parameter.
pub(crate) fn chinchilla_tokens(params: f64) -> f64 {
    if bad(params) {
        return f64::NAN;
    }
    20.0 * params
}

/// Idle fraction of a synchronous pipeline: (p − 1) / (p − 1 + m).
pub(crate) fn pipeline_bubble(stages: f64, microbatches: f64) -> f64 {
    match (whole(stages, MAX_COUNT), whole(microbatches, MAX_COUNT)) {
        (Some(p), Some(m)) if p >= 1 && m >= 1 => (stages - 1.0) / (stages - 1.0 + microbatches),
        _ => f64::NAN,
    }
}

/// Activations kept for the backward pass: layers × s·b·h·(34 + 5·a·s/h) bytes (16-bit), in GB.
pub(crate) fn activation_gb(seq: f64, batch: f64, hidden: f64, heads: f64, layers: f64) -> f64 {
    if [seq, batch, hidden, heads, layers].into_iter().any(bad) {
        return f64::NAN;
    }
    layers * (seq * batch * hidden * (34.0 + 5.0 * heads * seq / hidden)) / 1e9
}

/// Bytes of training state per parameter: weights, gradients and optimizer state.
pub(crate) const STATE: &[(&str, f64)] = &[
    // fp16 weights 2 + fp16 gradients 2 + fp32 master weights, Adam m and v 12 (ZeRO's K = 12).
    ("fp16_adam_mixed", 16.0),
    ("bf16_adam_mixed", 16.0),
    // fp32 weights 4 + gradients 4 + Adam m 4 + v 4.
    ("fp32_adam", 16.0),
];

pub(crate) fn state_bytes_per_param(scheme: &str) -> Result<f64, Box<EvalAltResult>> {
    lookup("train::state_bytes_per_param", "scheme", STATE, scheme)
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("flops").set_into_module(&mut m, flops);
    FuncRegistration::new("chinchilla_tokens").set_into_module(&mut m, chinchilla_tokens);
    FuncRegistration::new("pipeline_bubble").set_into_module(&mut m, pipeline_bubble);
    FuncRegistration::new("activation_gb").set_into_module(&mut m, activation_gb);
    FuncRegistration::new("state_bytes_per_param")
        .set_into_module(&mut m, |scheme: ImmutableString| {
            state_bytes_per_param(scheme.as_str())
        });
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "train::flops",
        signature: "train::flops(params: f64, tokens: f64) -> f64",
        summary: "Training compute of a dense transformer, 6 × params × tokens: 2 FLOPs per \
                  parameter per token forward and 4 backward, attention's own term neglected. \
                  GPT-3 (175e9 parameters, 300e9 tokens) gives 3.15e23, the paper's 3.14e23. \
                  Negative or NaN → NaN.",
        units: "params: parameter count; tokens: training tokens; result: FLOPs.",
        source: "J. Kaplan et al., \"Scaling Laws for Neural Language Models\" (arXiv:2001.08361, \
                 2020), sec. 2.1 (C ≈ 6NBS); J. Hoffmann et al., \"Training Compute-Optimal \
                 Large Language Models\" (NeurIPS 2022), sec. 3 (C ≈ 6ND).",
        example: "train::flops(175e9, 300e9)",
    },
    FnDoc {
        path: "train::chinchilla_tokens",
        signature: "train::chinchilla_tokens(params: f64) -> f64",
        summary: "Compute-optimal training data by Chinchilla's rule of thumb, 20 tokens per \
                  parameter: 70e9 parameters → 1.4e12 tokens (Chinchilla itself). Negative or \
                  NaN → NaN.",
        units: "params: parameter count; result: tokens.",
        source: "J. Hoffmann et al., \"Training Compute-Optimal Large Language Models\" \
                 (NeurIPS 2022), Table 3 (about 20 tokens per parameter at every compute \
                 budget; Chinchilla: 70B parameters on 1.4T tokens).",
        example: "train::chinchilla_tokens(70e9)",
    },
    FnDoc {
        path: "train::pipeline_bubble",
        signature: "train::pipeline_bubble(stages: f64, microbatches: f64) -> f64",
        summary: "The fraction of a synchronous pipeline's time its stages sit idle (GPipe and \
                  1F1B schedules): (p − 1) / (p − 1 + m) for p stages and m micro-batches per \
                  batch. 8 stages and 32 micro-batches idle 17.9%; more micro-batches shrink \
                  it. p and m must be whole numbers from 1 to 1e9, else NaN.",
        units: "stages, microbatches: counts; result: fraction of time idle.",
        source: "Y. Huang et al., \"GPipe: Efficient Training of Giant Neural Networks using \
                 Pipeline Parallelism\" (NeurIPS 2019), sec. 2.3; D. Narayanan et al., \
                 \"Efficient Large-Scale Language Model Training on GPU Clusters Using \
                 Megatron-LM\" (SC 2021), sec. 2.2.1 (bubble time fraction (p − 1)/m of the \
                 ideal time, which is (p − 1)/(m + p − 1) of the total).",
        example: "train::pipeline_bubble(8.0, 32.0)",
    },
    FnDoc {
        path: "train::activation_gb",
        signature: "train::activation_gb(seq: f64, batch: f64, hidden: f64, heads: f64, \
                    layers: f64) -> f64",
        summary: "Activation memory a transformer keeps for its backward pass, with 16-bit \
                  activations, no recomputation and no tensor or sequence parallelism: layers × \
                  s·b·h·(34 + 5·a·s/h) bytes, in GB (s sequence length, b micro-batch, h hidden \
                  size, a heads). The 5·a·s/h term is attention's s×s scores; selective \
                  recomputation removes it. Negative or NaN → NaN.",
        units: "seq: tokens; batch: sequences; hidden: elements; heads, layers: counts; result: \
                GB (decimal).",
        source: "V. Korthikanti et al., \"Reducing Activation Recomputation in Large \
                 Transformer Models\" (arXiv:2205.05198, 2022), sec. 4.1, eq. 1.",
        example: "train::activation_gb(2048.0, 1.0, 12288.0, 96.0, 96.0)",
    },
    FnDoc {
        path: "train::state_bytes_per_param",
        signature: "train::state_bytes_per_param(scheme: string) -> f64",
        summary: "Bytes per parameter a training step holds in memory: weights, gradients and \
                  optimizer state (activations are separate, train::activation_gb). \
                  \"fp16_adam_mixed\" and \"bf16_adam_mixed\" = 16 (16-bit weights 2 + 16-bit \
                  gradients 2 + fp32 master weights, Adam m and v 12); \"fp32_adam\" = 16 \
                  (weights 4 + gradients 4 + m 4 + v 4). A checkpoint holds less: see \
                  rel::ckpt_bytes_per_param (14 for mixed-precision Adam). An unknown scheme is \
                  an error listing the known ones.",
        units: "result: bytes per parameter.",
        source: "S. Rajbhandari et al., \"ZeRO: Memory Optimizations Toward Training Trillion \
                 Parameter Models\" (SC 2020), sec. 3.1: mixed-precision Adam holds 2Ψ + 2Ψ + \
                 KΨ bytes with K = 12, 16Ψ in all; the course's 16 bytes/param \
                 (harvard-edge/cs249r_book, mlsysim/core/formulas.py, calc_checkpoint_size).",
        example: "train::state_bytes_per_param(\"fp16_adam_mixed\") * 7.5e9 / 1e9",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn papers_figures() {
        // GPT-3: 6 × 175e9 × 300e9 = 3.15e23 (Brown et al. Table D.1: 3.14e23).
        assert_eq!(flops(175e9, 300e9), 3.15e23);
        assert_eq!(chinchilla_tokens(70e9), 1.4e12);
        // Narayanan et al.: p = 8, m = 32 → (p−1)/m = 0.21875 of ideal; 7/39 of the total.
        assert_eq!(pipeline_bubble(8.0, 32.0), 7.0 / 39.0);
        assert_eq!(pipeline_bubble(1.0, 4.0), 0.0);
        assert!(pipeline_bubble(0.0, 4.0).is_nan() && pipeline_bubble(2.5, 4.0).is_nan());
        // Korthikanti et al. eq. 1 for GPT-3 175B at s = 2048, b = 1: per layer
        // 2048·12288·(34 + 5·96·2048/12288) = 2048·12288·114 = 2.869e9 bytes.
        let per_layer = activation_gb(2048.0, 1.0, 12288.0, 96.0, 1.0);
        assert!((per_layer - 2048.0 * 12288.0 * 114.0 / 1e9).abs() < 1e-12);
        assert_eq!(state_bytes_per_param("fp16_adam_mixed").unwrap(), 16.0);
        assert!(state_bytes_per_param("sgd")
            .unwrap_err()
            .to_string()
            .contains("train::state_bytes_per_param: unknown scheme 'sgd'; known schemes: fp16_adam_mixed, bf16_adam_mixed, fp32_adam"));
    }
}
