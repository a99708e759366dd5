//! `rel::` — reliability, checkpointing and checkpoint sizes.
//!
//! Times may be in any unit as long as all arguments of one call use the same unit; the
//! result is in that unit too. Negative or NaN times give NaN.

use rhai::{EvalAltResult, FuncRegistration, ImmutableString, Module};

use super::{bad, lookup, FnDoc};

/// MTBF of a series system of `n` identical components: mttf / n.
pub(crate) fn system_mtbf(mttf: f64, n: f64) -> f64 {
    if bad(mttf) || bad(n) {
        return f64::NAN;
    }
    mttf / n
}

/// Probability of at least one failure within `duration` under an exponential lifetime:
/// 1 - exp(-duration/mtbf), computed as -expm1(-duration/mtbf).
pub(crate) fn failure_prob(duration: f64, mtbf: f64) -> f64 {
    if bad(duration) || bad(mtbf) {
        return f64::NAN;
    }
    -(-duration / mtbf).exp_m1()
}

/// Young's first-order optimum checkpoint interval sqrt(2 * t_write * mtbf).
pub(crate) fn young_daly(t_write: f64, mtbf: f64) -> f64 {
    if bad(t_write) || bad(mtbf) {
        return f64::NAN;
    }
    (2.0 * t_write * mtbf).sqrt()
}

/// Daly's higher-order optimum checkpoint interval.
pub(crate) fn daly(t_write: f64, mtbf: f64) -> f64 {
    if bad(t_write) || bad(mtbf) {
        return f64::NAN;
    }
    if t_write >= 2.0 * mtbf {
        return mtbf;
    }
    let r = t_write / (2.0 * mtbf);
    (2.0 * t_write * mtbf).sqrt() * (1.0 + r.sqrt() / 3.0 + r / 9.0) - t_write
}

/// Fraction of time lost: writing (t_write/interval) plus expected rework (interval/(2 mtbf)).
pub(crate) fn ckpt_waste(t_write: f64, interval: f64, mtbf: f64) -> f64 {
    if bad(t_write) || bad(interval) || bad(mtbf) {
        return f64::NAN;
    }
    t_write / interval + interval / (2.0 * mtbf)
}

/// `ckpt_waste` at Young's interval, in closed form sqrt(2 t_write / mtbf).
pub(crate) fn ckpt_waste_opt(t_write: f64, mtbf: f64) -> f64 {
    if bad(t_write) || bad(mtbf) {
        return f64::NAN;
    }
    (2.0 * t_write / mtbf).sqrt()
}

/// Checkpoint size in bytes: params * bytes_per_param.
pub(crate) fn ckpt_bytes(params: f64, bytes_per_param: f64) -> f64 {
    params * bytes_per_param
}

/// Bytes each parameter contributes to a training checkpoint, per scheme. Gradients are not
/// checkpointed (they are recomputed in the next step), so no scheme counts them.
pub(crate) const SCHEMES: &[(&str, f64)] = &[
    // fp16 working weights 2 + fp32 master weights 4 + Adam first moment 4 + second moment 4.
    ("fp16_adam_mixed", 14.0),
    // fp32 weights 4 + Adam first moment 4 + second moment 4 (the weights are the master copy).
    ("fp32_adam", 12.0),
    ("bf16_weights", 2.0),
    ("fp32_weights", 4.0),
    ("int8_weights", 1.0),
];

pub(crate) fn bytes_per_param(scheme: &str) -> Result<f64, Box<EvalAltResult>> {
    lookup("rel::bytes_per_param", "scheme", SCHEMES, scheme)
}

/// The checkpoint bytes per parameter under its explicit name (`rel::bytes_per_param` is the
/// old name; `train::state_bytes_per_param` is the training memory, gradients included).
pub(crate) fn ckpt_bytes_per_param(scheme: &str) -> Result<f64, Box<EvalAltResult>> {
    lookup("rel::ckpt_bytes_per_param", "scheme", SCHEMES, scheme)
}

/// Availability of k independent replicas of which any one suffices: 1 − (1 − a)^k.
pub(crate) fn stacked_availability(a: f64, k: f64) -> f64 {
    if a.is_nan() || !(0.0..=1.0).contains(&a) || bad(k) {
        return f64::NAN;
    }
    let q = 1.0 - a;
    if q == 1.0 {
        // No replica is ever up (C's pow(1, ∞) = 1; JavaScript's Math.pow gives NaN).
        return 0.0;
    }
    1.0 - q.powf(k)
}

/// Steady-state availability mtbf / (mtbf + mttr); an infinite mtbf with a finite mttr is 1.
pub(crate) fn availability(mtbf: f64, mttr: f64) -> f64 {
    if bad(mtbf) || bad(mttr) {
        return f64::NAN;
    }
    if mtbf == f64::INFINITY && mttr.is_finite() {
        return 1.0;
    }
    mtbf / (mtbf + mttr)
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("system_mtbf").set_into_module(&mut m, system_mtbf);
    FuncRegistration::new("failure_prob").set_into_module(&mut m, failure_prob);
    FuncRegistration::new("young_daly").set_into_module(&mut m, young_daly);
    FuncRegistration::new("daly").set_into_module(&mut m, daly);
    FuncRegistration::new("ckpt_waste").set_into_module(&mut m, ckpt_waste);
    FuncRegistration::new("ckpt_waste_opt").set_into_module(&mut m, ckpt_waste_opt);
    FuncRegistration::new("ckpt_bytes").set_into_module(&mut m, ckpt_bytes);
    FuncRegistration::new("bytes_per_param").set_into_module(
        &mut m,
        |scheme: ImmutableString| -> Result<f64, Box<EvalAltResult>> {
            bytes_per_param(scheme.as_str())
        },
    );
    FuncRegistration::new("ckpt_bytes_per_param").set_into_module(
        &mut m,
        |scheme: ImmutableString| -> Result<f64, Box<EvalAltResult>> {
            ckpt_bytes_per_param(scheme.as_str())
        },
    );
    FuncRegistration::new("availability").set_into_module(&mut m, availability);
    FuncRegistration::new("stacked_availability").set_into_module(&mut m, stacked_availability);
    m
}

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "rel::system_mtbf",
        signature: "rel::system_mtbf(mttf: f64, n: f64) -> f64",
        summary: "Mean time between failures of a system that fails when any one of n identical, \
                  independent components with exponential lifetimes fails: mttf / n (failure \
                  rates add). n = 0 → ∞; negative or NaN arguments → NaN.",
        units: "mttf: per-component mean time to failure, any time unit; n: component count; \
                result: same unit as mttf.",
        source: "Series system of exponential components, λ_sys = n·λ (C. E. Ebeling, An \
                 Introduction to Reliability and Maintainability Engineering).",
        example: "rel::system_mtbf(50000.0, 16000.0)",
    },
    FnDoc {
        path: "rel::failure_prob",
        signature: "rel::failure_prob(duration: f64, mtbf: f64) -> f64",
        summary: "Probability of at least one failure during `duration` with exponentially \
                  distributed time between failures: 1 - exp(-duration/mtbf), evaluated as \
                  -expm1(-duration/mtbf) so that short durations keep full precision. \
                  mtbf = 0 → 1; negative or NaN arguments → NaN.",
        units: "duration and mtbf in the same time unit; result: probability in [0, 1].",
        source: "Exponential distribution CDF (Ebeling, An Introduction to Reliability and \
                 Maintainability Engineering).",
        example: "rel::failure_prob(24.0, 3.125)",
    },
    FnDoc {
        path: "rel::young_daly",
        signature: "rel::young_daly(t_write: f64, mtbf: f64) -> f64",
        summary: "First-order optimum checkpoint interval τ = sqrt(2 × t_write × mtbf), the \
                  minimum of rel::ckpt_waste. Valid when t_write ≪ mtbf; see rel::daly for \
                  the higher-order estimate. Negative or NaN arguments → NaN.",
        units: "t_write (time to write one checkpoint) and mtbf in the same time unit; result: \
                same unit.",
        source: "J. W. Young, \"A first order approximation to the optimum checkpoint \
                 interval\", Communications of the ACM 17(9), 1974.",
        example: "rel::young_daly(120.0, 10800.0)",
    },
    FnDoc {
        path: "rel::daly",
        signature: "rel::daly(t_write: f64, mtbf: f64) -> f64",
        summary: "Daly's higher-order optimum checkpoint interval: for δ = t_write < 2M \
                  (M = mtbf), τ = sqrt(2δM) × (1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))) - δ; \
                  for δ >= 2M, τ = M. Negative or NaN arguments → NaN.",
        units: "t_write and mtbf in the same time unit; result: same unit.",
        source: "J. T. Daly, \"A higher order estimate of the optimum checkpoint interval for \
                 restart dumps\", Future Generation Computer Systems 22(3), 2006.",
        example: "rel::daly(120.0, 10800.0)",
    },
    FnDoc {
        path: "rel::ckpt_waste",
        signature: "rel::ckpt_waste(t_write: f64, interval: f64, mtbf: f64) -> f64",
        summary: "Fraction of wall time lost to checkpointing at a given interval (first-order \
                  model): t_write/interval (writing) + interval/(2 × mtbf) (expected rework \
                  after a failure, half an interval on average). interval = 0 → ∞; negative \
                  or NaN arguments → NaN.",
        units: "t_write, interval and mtbf in the same time unit; result: dimensionless \
                fraction (multiply by 100 for %).",
        source: "Young (1974), CACM 17(9); the waste model behind the Young–Daly interval.",
        example: "rel::ckpt_waste(120.0, 600.0, 10800.0)",
    },
    FnDoc {
        path: "rel::ckpt_waste_opt",
        signature: "rel::ckpt_waste_opt(t_write: f64, mtbf: f64) -> f64",
        summary: "rel::ckpt_waste at Young's optimum interval, in closed form \
                  sqrt(2 × t_write / mtbf) (= t_write/τ + τ/(2·mtbf) with τ = sqrt(2·t_write·mtbf)). \
                  mtbf = 0 → ∞; negative or NaN arguments → NaN.",
        units: "t_write and mtbf in the same time unit; result: dimensionless fraction.",
        source: "Young (1974), CACM 17(9).",
        example: "rel::ckpt_waste_opt(120.0, 10800.0)",
    },
    FnDoc {
        path: "rel::ckpt_bytes",
        signature: "rel::ckpt_bytes(params: f64, bytes_per_param: f64) -> f64",
        summary: "Checkpoint size: params × bytes_per_param (see rel::bytes_per_param).",
        units: "params: parameter count (e.g. 175e9); bytes_per_param: bytes; result: bytes \
                (divide by 1e12 for TB).",
        source: "Definition.",
        example: "rel::ckpt_bytes(175e9, rel::bytes_per_param(\"fp16_adam_mixed\"))",
    },
    FnDoc {
        path: "rel::bytes_per_param",
        signature: "rel::bytes_per_param(scheme: string) -> f64",
        summary: "The old name of rel::ckpt_bytes_per_param, kept working (the same table and \
                  values): bytes per parameter in a training checkpoint. \"fp16_adam_mixed\" = 14 (fp16 \
                  weights 2 + fp32 master weights 4 + Adam m 4 + Adam v 4); \"fp32_adam\" = 12 \
                  (fp32 weights 4 + Adam m 4 + v 4; the weights are the master copy); \
                  \"bf16_weights\" = 2, \"fp32_weights\" = 4, \"int8_weights\" = 1 (weights \
                  only). Gradients are never counted: they are not part of a checkpoint (with \
                  gradients, mixed-precision training state is 16 bytes/param as in ZeRO). An \
                  unknown scheme is an error listing the known ones.",
        units: "result: bytes per parameter.",
        source: "S. Rajbhandari et al., \"ZeRO: Memory Optimizations Toward Training Trillion \
                 Parameter Models\", SC 2020, sec. 3 (mixed-precision Adam: 2Ψ fp16 weights + \
                 2Ψ fp16 gradients + 12Ψ fp32 optimizer state).",
        example: "rel::bytes_per_param(\"fp16_adam_mixed\")",
    },
    FnDoc {
        path: "rel::ckpt_bytes_per_param",
        signature: "rel::ckpt_bytes_per_param(scheme: string) -> f64",
        summary: "Bytes per parameter in a training checkpoint: what must be saved to resume. \
                  \"fp16_adam_mixed\" = 14 (fp16 weights 2 + fp32 master weights 4 + Adam m 4 + \
                  Adam v 4; gradients are recomputed, not saved); \"fp32_adam\" = 12; \
                  \"bf16_weights\" = 2, \"fp32_weights\" = 4, \"int8_weights\" = 1 (weights \
                  only, for serving). The memory a training step holds, gradients included, is \
                  train::state_bytes_per_param (16 for mixed-precision Adam). Formerly \
                  rel::bytes_per_param (still accepted). An unknown scheme is an error listing \
                  the known ones.",
        units: "result: bytes per parameter.",
        source: "S. Rajbhandari et al., \"ZeRO: Memory Optimizations Toward Training Trillion \
                 Parameter Models\", SC 2020, sec. 3.1 (mixed-precision Adam holds 2Ψ fp16 \
                 weights + 2Ψ fp16 gradients + 12Ψ fp32 optimizer state; the checkpoint is all \
                 but the gradients).",
        example: "rel::ckpt_bytes_per_param(\"fp16_adam_mixed\") * 70e9 / 1e9",
    },
    FnDoc {
        path: "rel::availability",
        signature: "rel::availability(mtbf: f64, mttr: f64) -> f64",
        summary: "Steady-state (inherent) availability mtbf / (mtbf + mttr). Infinite mtbf with \
                  finite mttr → 1; both 0 → NaN; negative or NaN arguments → NaN.",
        units: "mtbf and mttr (mean time to repair) in the same time unit; result: fraction of \
                time up, in [0, 1].",
        source: "Inherent availability, Ebeling, An Introduction to Reliability and \
                 Maintainability Engineering.",
        example: "rel::availability(720.0, 0.025)",
    },
    FnDoc {
        path: "rel::stacked_availability",
        signature: "rel::stacked_availability(a: f64, k: f64) -> f64",
        summary: "Availability of k independent replicas when any one of them suffices: \
                  1 − (1 − a)^k. Three replicas of 99% each give 99.9999%. k need not be whole \
                  (as a formula); a outside [0, 1], a negative k or NaN → NaN.",
        units: "a: availability of one replica (fraction); k: replica count; result: \
                fraction of time at least one is up.",
        source: "Parallel (redundant) system of independent components, Ebeling, An \
                 Introduction to Reliability and Maintainability Engineering; the course's \
                 calc_availability_stacked (harvard-edge/cs249r_book, mlsysim/core/formulas.py).",
        example: "rel::stacked_availability(0.99, 3.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
    }

    #[test]
    fn checkpoint_and_stacked_availability() {
        assert_eq!(ckpt_bytes_per_param("fp16_adam_mixed").unwrap(), 14.0);
        assert_eq!(bytes_per_param("fp16_adam_mixed").unwrap(), 14.0);
        let err = ckpt_bytes_per_param("fp8").unwrap_err().to_string();
        assert!(
            err.contains("rel::ckpt_bytes_per_param: unknown scheme 'fp8'"),
            "{err}"
        );
        assert!(close(stacked_availability(0.99, 3.0), 0.999_999));
        assert_eq!(stacked_availability(0.5, 0.0), 0.0);
        assert_eq!(stacked_availability(1.0, 2.0), 1.0);
        assert!(
            stacked_availability(1.5, 2.0).is_nan() && stacked_availability(0.9, -1.0).is_nan()
        );
    }

    #[test]
    fn system_mtbf_values() {
        // Seed lab06: 50,000 h / 16,000 GPUs = 3.125 h; / 10,000 = 5 h; / 1,000 = 50 h.
        assert_eq!(system_mtbf(50000.0, 16000.0), 3.125);
        assert_eq!(system_mtbf(50000.0, 10000.0), 5.0);
        assert_eq!(system_mtbf(50000.0, 1000.0), 50.0);
        assert_eq!(system_mtbf(50000.0, 0.0), f64::INFINITY);
        assert!(system_mtbf(50000.0, -1.0).is_nan());
        assert!(system_mtbf(f64::NAN, 1.0).is_nan());
    }

    #[test]
    fn failure_probability() {
        // 1 - e^-1 = 0.6321205588285577 at duration = mtbf.
        assert!(close(failure_prob(5.0, 5.0), 0.6321205588285577));
        // 24 h on a 3.125 h MTBF cluster: 1 - e^-7.68 = 0.999537...
        assert!(close(failure_prob(24.0, 3.125), 1.0 - (-7.68f64).exp()));
        // Tiny durations: 1 - e^-x ~ x - x^2/2: x = 1e-9 -> 9.999999995e-10 (naive 1-exp
        // would lose about half the digits here).
        assert!(close(failure_prob(1e-9, 1.0), 9.999999995e-10));
        assert_eq!(failure_prob(0.0, 5.0), 0.0);
        assert_eq!(failure_prob(1.0, 0.0), 1.0);
        assert_eq!(failure_prob(1.0, f64::INFINITY), 0.0);
        assert!(failure_prob(-1.0, 5.0).is_nan());
    }

    #[test]
    fn young_and_daly() {
        // Seed lab06: sqrt(2 * 120 * 10,800) = sqrt(2,592,000) = 1609.9689437998486 s.
        assert!(close(young_daly(120.0, 10800.0), 1609.9689437998486));
        // Seed lab06 part B: sqrt(2 * 2450 * 18,000) = sqrt(88,200,000) = 9391.4855...
        assert!(close(young_daly(2450.0, 18000.0), 88_200_000f64.sqrt()));
        // Daly, δ = 120, M = 10,800: r = 120/21,600 = 1/180;
        // sqrt(2,592,000) * (1 + sqrt(1/180)/3 + 1/1620) - 120
        // = 1609.96894 * 1.02546252... - 120 = 1530.9629...
        let r: f64 = 1.0 / 180.0;
        let want = 2_592_000f64.sqrt() * (1.0 + r.sqrt() / 3.0 + r / 9.0) - 120.0;
        assert!(close(daly(120.0, 10800.0), want));
        assert!((daly(120.0, 10800.0) - 1530.9629).abs() < 1e-3);
        // δ >= 2M: checkpoint every M.
        assert_eq!(daly(30.0, 10.0), 10.0);
        assert_eq!(daly(20.0, 10.0), 10.0);
        assert_eq!(daly(0.0, 10.0), 0.0);
        assert!(daly(-1.0, 10.0).is_nan());
        assert!(young_daly(1.0, -10.0).is_nan());
    }

    #[test]
    fn checkpoint_waste() {
        // Seed lab06: 120 s writes every 600 s on a 10,800 s MTBF:
        // 120/600 + 600/21,600 = 0.2 + 0.02777... = 0.22777...
        assert!(close(
            ckpt_waste(120.0, 600.0, 10800.0),
            0.2 + 600.0 / 21600.0
        ));
        // At the optimum the two terms are equal and sum to sqrt(2 * 120 / 10,800)
        // = sqrt(1/45) = 0.14907119849998599.
        let tau = young_daly(120.0, 10800.0);
        assert!(close(
            ckpt_waste(120.0, tau, 10800.0),
            ckpt_waste_opt(120.0, 10800.0)
        ));
        assert!(close(ckpt_waste_opt(120.0, 10800.0), 0.14907119849998599));
        assert_eq!(ckpt_waste(120.0, 0.0, 10800.0), f64::INFINITY);
        assert_eq!(ckpt_waste_opt(0.0, 10800.0), 0.0);
        assert_eq!(ckpt_waste_opt(1.0, 0.0), f64::INFINITY);
        assert!(ckpt_waste(-1.0, 1.0, 1.0).is_nan());
    }

    #[test]
    fn checkpoint_sizes() {
        // Seed lab06: 175e9 params * 14 bytes = 2.45e12 bytes = 2.45 TB.
        assert_eq!(bytes_per_param("fp16_adam_mixed").unwrap(), 14.0);
        assert_eq!(ckpt_bytes(175e9, 14.0), 2.45e12);
        assert_eq!(bytes_per_param("fp32_adam").unwrap(), 12.0);
        assert_eq!(bytes_per_param("bf16_weights").unwrap(), 2.0);
        assert_eq!(bytes_per_param("fp32_weights").unwrap(), 4.0);
        assert_eq!(bytes_per_param("int8_weights").unwrap(), 1.0);
        let err = bytes_per_param("fp8").unwrap_err().to_string();
        assert!(
            err.contains(
                "rel::bytes_per_param: unknown scheme 'fp8'; known schemes: fp16_adam_mixed, \
                 fp32_adam, bf16_weights, fp32_weights, int8_weights"
            ),
            "{err}"
        );
    }

    #[test]
    fn availability_values() {
        // 30 days MTBF (720 h), 90 s recovery (0.025 h): 720/720.025 = 0.99996527898...
        assert!(close(availability(720.0, 0.025), 720.0 / 720.025));
        assert_eq!(availability(1.0, 0.0), 1.0);
        assert_eq!(availability(f64::INFINITY, 5.0), 1.0);
        assert!(availability(0.0, 0.0).is_nan());
        assert!(availability(-1.0, 1.0).is_nan());
    }
}
