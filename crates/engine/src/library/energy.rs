//! `energy::` — energy per operation, Horowitz's 45 nm figures.

use rhai::{EvalAltResult, FuncRegistration, ImmutableString, Module};

use super::{bad, lookup, FnDoc};

/// Energy per operation in picojoules, 45 nm process at 0.9 V (Horowitz, ISSCC 2014, fig. 1.1.9).
pub(crate) const OPS: &[(&str, f64)] = &[
    ("int8_add", 0.03),
    ("int16_add", 0.05),
    ("int32_add", 0.1),
    ("fp16_add", 0.4),
    ("fp32_add", 0.9),
    ("int8_mult", 0.2),
    ("int32_mult", 3.1),
    ("fp16_mult", 1.1),
    ("fp32_mult", 3.7),
    ("sram_read_32b", 5.0),
    ("dram_read_32b", 640.0),
];

pub(crate) fn op_pj(op: &str) -> Result<f64, Box<EvalAltResult>> {
    lookup("energy::op_pj", "operation", OPS, op)
}

/// Energy of `count` operations of one kind, in joules.
pub(crate) fn ops_j(count: f64, op: &str) -> Result<f64, Box<EvalAltResult>> {
    let pj = lookup("energy::ops_j", "operation", OPS, op)?;
    Ok(if bad(count) {
        f64::NAN
    } else {
        count * pj / 1e12
    })
}

/// Energy of a workload: `ops` operations of kind `op`, plus `dram_words` 32-bit DRAM reads
/// and `sram_words` 32-bit SRAM (8 KB) reads, in joules.
pub(crate) fn workload_j(
    ops: f64,
    op: &str,
    dram_words: f64,
    sram_words: f64,
) -> Result<f64, Box<EvalAltResult>> {
    let pj = lookup("energy::workload_j", "operation", OPS, op)?;
    if bad(ops) || bad(dram_words) || bad(sram_words) {
        return Ok(f64::NAN);
    }
    Ok((ops * pj + dram_words * 640.0 + sram_words * 5.0) / 1e12)
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("op_pj").set_into_module(&mut m, |op: ImmutableString| op_pj(&op));
    FuncRegistration::new("ops_j")
        .set_into_module(&mut m, |count: f64, op: ImmutableString| ops_j(count, &op));
    FuncRegistration::new("workload_j").set_into_module(
        &mut m,
        |ops: f64, op: ImmutableString, dram: f64, sram: f64| workload_j(ops, &op, dram, sram),
    );
    m
}

const HOROWITZ: &str = "M. Horowitz, \"Computing's energy problem (and what we can do about \
                        it)\", ISSCC 2014, paper 1.1, energy table for a 45 nm process at \
                        0.9 V.";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "energy::op_pj",
        signature: "energy::op_pj(op: string) -> f64",
        summary: "Energy of one operation, in picojoules, at 45 nm: int8_add 0.03, int16_add \
                  0.05, int32_add 0.1, fp16_add 0.4, fp32_add 0.9, int8_mult 0.2, int32_mult \
                  3.1, fp16_mult 1.1, fp32_mult 3.7, sram_read_32b 5 (32-bit read from an \
                  8 KB SRAM), dram_read_32b 640 (32-bit DRAM read). One DRAM read costs as \
                  much as about 170 FP32 multiplies. Newer nodes scale the arithmetic more \
                  than the DRAM access. An unknown name is an error listing the known ones.",
        units: "result: pJ per operation (1 pJ = 1e-12 J).",
        source: HOROWITZ,
        example: "energy::op_pj(\"dram_read_32b\")",
    },
    FnDoc {
        path: "energy::ops_j",
        signature: "energy::ops_j(count: f64, op: string) -> f64",
        summary: "Energy of count operations of one kind: count × energy::op_pj(op) / 1e12. A \
                  negative or NaN count → NaN; an unknown op is an error.",
        units: "count: operations; result: joules.",
        source: HOROWITZ,
        example: "energy::ops_j(1e12, \"fp32_mult\")",
    },
    FnDoc {
        path: "energy::workload_j",
        signature: "energy::workload_j(ops: f64, op: string, dram_words: f64, sram_words: f64) \
                    -> f64",
        summary: "Energy of a workload: ops arithmetic operations of kind op plus dram_words \
                  32-bit DRAM reads (640 pJ each) and sram_words 32-bit SRAM reads (5 pJ \
                  each): (ops·op_pj(op) + 640·dram_words + 5·sram_words) / 1e12. Shows when \
                  data movement, not arithmetic, sets the energy bill. Negative or NaN counts \
                  → NaN; an unknown op is an error.",
        units: "ops, dram_words, sram_words: counts (words are 32-bit); result: joules.",
        source: HOROWITZ,
        example: "energy::workload_j(1e9, \"fp32_mult\", 1e8, 1e9)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_figures() {
        assert_eq!(op_pj("dram_read_32b").unwrap(), 640.0);
        assert_eq!(op_pj("sram_read_32b").unwrap(), 5.0);
        assert_eq!(op_pj("fp32_mult").unwrap(), 3.7);
        assert_eq!(op_pj("fp32_add").unwrap(), 0.9);
        assert_eq!(op_pj("int8_add").unwrap(), 0.03);
        assert_eq!(op_pj("int8_mult").unwrap(), 0.2);
        assert_eq!(op_pj("int32_add").unwrap(), 0.1);
        assert_eq!(op_pj("int32_mult").unwrap(), 3.1);
        assert_eq!(op_pj("fp16_add").unwrap(), 0.4);
        assert_eq!(op_pj("fp16_mult").unwrap(), 1.1);
        // The famous ratio: a DRAM read is ~173 FP32 multiplies, 128 SRAM reads.
        assert!((640.0 / op_pj("fp32_mult").unwrap() - 172.97).abs() < 0.01);
        let err = op_pj("fp64_mult").unwrap_err().to_string();
        assert!(
            err.contains(
                "energy::op_pj: unknown operation 'fp64_mult'; known operations: int8_add,"
            ),
            "{err}"
        );
    }

    #[test]
    fn workloads() {
        // 1e12 FP32 multiplies at 3.7 pJ = 3.7 J.
        assert!((ops_j(1e12, "fp32_mult").unwrap() - 3.7).abs() < 1e-12);
        // 1e9 FP32 multiplies (3.7 mJ) + 1e8 DRAM reads (64 mJ) + 1e9 SRAM reads (5 mJ) = 72.7 mJ.
        let w = workload_j(1e9, "fp32_mult", 1e8, 1e9).unwrap();
        assert!((w - 0.0727).abs() < 1e-12, "{w}");
        assert!(ops_j(-1.0, "fp32_add").unwrap().is_nan());
        assert!(workload_j(1.0, "fp32_add", f64::NAN, 0.0).unwrap().is_nan());
        assert!(workload_j(1.0, "nope", 0.0, 0.0).is_err());
    }
}
