//! `roofline::` — the roofline model of attainable throughput.
//!
//! Units are the caller's, kept consistent: peak in FLOP/s (or TFLOP/s), bandwidth in bytes/s
//! (or TB/s, so that TFLOP/s ÷ TB/s = FLOP/byte), arithmetic intensity in FLOP/byte. A negative
//! or NaN argument gives NaN.

use rhai::{FuncRegistration, Module};

use super::{bad, FnDoc};

/// min(peak, ai × bw), NaN-propagating (Rust's `f64::min` would drop a NaN).
pub(crate) fn attainable(peak: f64, ai: f64, bw: f64) -> f64 {
    if bad(peak) || bad(ai) || bad(bw) {
        return f64::NAN;
    }
    let memory = ai * bw;
    if memory < peak {
        memory
    } else {
        peak
    }
}

/// Ridge point: the intensity at which the memory roof meets the compute roof, peak / bw.
pub(crate) fn ridge(peak: f64, bw: f64) -> f64 {
    if bad(peak) || bad(bw) {
        return f64::NAN;
    }
    peak / bw
}

/// Arithmetic intensity of C(m×n) = A(m×k)·B(k×n), each matrix moved once:
/// 2mnk / (bytes·(mk + kn + mn)).
pub(crate) fn gemm_ai(m: f64, n: f64, k: f64, bytes: f64) -> f64 {
    if bad(m) || bad(n) || bad(k) || bad(bytes) {
        return f64::NAN;
    }
    2.0 * m * n * k / (bytes * (m * k + k * n + m * n))
}

/// Roofline time of a kernel: max(flops / peak, bytes / bw).
pub(crate) fn time_s(flops: f64, bytes: f64, peak: f64, bw: f64) -> f64 {
    if bad(flops) || bad(bytes) || bad(peak) || bad(bw) {
        return f64::NAN;
    }
    let compute = flops / peak;
    let memory = bytes / bw;
    if compute < memory {
        memory
    } else {
        compute
    }
}

pub(crate) fn module() -> Module {
    let mut m = Module::new();
    FuncRegistration::new("attainable").set_into_module(&mut m, attainable);
    FuncRegistration::new("ridge").set_into_module(&mut m, ridge);
    FuncRegistration::new("gemm_ai").set_into_module(&mut m, gemm_ai);
    FuncRegistration::new("time_s").set_into_module(&mut m, time_s);
    m
}

const WILLIAMS: &str = "S. Williams, A. Waterman, D. Patterson, \"Roofline: An Insightful \
                        Visual Performance Model for Multicore Architectures\", Communications \
                        of the ACM 52(4), 2009.";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "roofline::attainable",
        signature: "roofline::attainable(peak: f64, ai: f64, bw: f64) -> f64",
        summary: "Attainable throughput under the roofline: min(peak, ai × bw). Below the ridge \
                  point the kernel is memory-bound (ai × bw), above it compute-bound (peak). \
                  Negative or NaN arguments → NaN.",
        units: "peak: FLOP/s; ai: arithmetic intensity, FLOP/byte; bw: bytes/s; result: FLOP/s. \
                Scaled units work if consistent: TFLOP/s with TB/s gives TFLOP/s.",
        source: WILLIAMS,
        example: "roofline::attainable(989.5, 100.0, 3.35)",
    },
    FnDoc {
        path: "roofline::ridge",
        signature: "roofline::ridge(peak: f64, bw: f64) -> f64",
        summary: "Ridge point: the arithmetic intensity at which the memory roof meets the \
                  compute roof, peak / bw. A kernel needs at least this many FLOP per byte to \
                  reach peak (H100 SXM BF16: 989.5 TFLOP/s ÷ 3.35 TB/s ≈ 295 FLOP/byte). \
                  Negative or NaN arguments → NaN.",
        units: "peak: FLOP/s; bw: bytes/s (or TFLOP/s and TB/s); result: FLOP/byte.",
        source: WILLIAMS,
        example: "roofline::ridge(989.5, 3.35)",
    },
    FnDoc {
        path: "roofline::gemm_ai",
        signature: "roofline::gemm_ai(m: f64, n: f64, k: f64, bytes: f64) -> f64",
        summary: "Arithmetic intensity of a matrix multiply C(m×n) = A(m×k)·B(k×n) when each \
                  matrix crosses the memory bus once: 2mnk / (bytes·(mk + kn + mn)). Square \
                  n×n in 2-byte elements: n/3. A matrix-vector product (n = 1) stays near \
                  1 FLOP/byte, far below any ridge. Negative or NaN arguments → NaN.",
        units: "m, n, k: matrix dimensions; bytes: bytes per element (4 FP32, 2 FP16/BF16, 1 \
                FP8/INT8); result: FLOP/byte.",
        source: "Standard GEMM operation and traffic count (2mnk FLOP; A, B read and C written \
                 once); roofline as in Williams, Waterman & Patterson 2009.",
        example: "roofline::gemm_ai(4096.0, 4096.0, 4096.0, 2.0)",
    },
    FnDoc {
        path: "roofline::time_s",
        signature: "roofline::time_s(flops: f64, bytes: f64, peak: f64, bw: f64) -> f64",
        summary: "Roofline lower bound on a kernel's run time: max(flops/peak, bytes/bw), the \
                  slower of computing and moving the data. Negative or NaN arguments → NaN.",
        units: "flops: FLOP; bytes: bytes; peak: FLOP/s; bw: bytes/s; result: seconds.",
        source: WILLIAMS,
        example: "roofline::time_s(1.4e14, 1e11, 989.5e12, 3.35e12)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roofs_and_ridge() {
        // H100 SXM BF16 dense 989.5 TFLOP/s, 3.35 TB/s: ridge 295.37 FLOP/byte.
        let r = ridge(989.5, 3.35);
        assert!((r - 295.373_134_328_358_2).abs() < 1e-9, "{r}");
        // Below the ridge the memory roof: 100 FLOP/B × 3.35 TB/s = 335 TFLOP/s.
        assert_eq!(attainable(989.5, 100.0, 3.35), 335.0);
        // At and above the ridge, the peak.
        assert_eq!(attainable(989.5, 400.0, 3.35), 989.5);
        assert_eq!(attainable(989.5, r, 3.35), 989.5);
        assert!(attainable(f64::NAN, 1.0, 1.0).is_nan());
        assert!(attainable(1.0, f64::NAN, 1.0).is_nan());
        assert!(ridge(-1.0, 1.0).is_nan());
    }

    #[test]
    fn gemm_intensity() {
        // Square n×n×n in FP16: 2n³ / (2·3n²) = n/3.
        assert!((gemm_ai(4096.0, 4096.0, 4096.0, 2.0) - 4096.0 / 3.0).abs() < 1e-9);
        // Matrix-vector 4096×4096 by a vector (n = 1), FP16: 2·4096² / (2·(4096² + 2·4096))
        // = 4096 / 4098 ≈ 0.9995 FLOP/byte.
        let gemv = gemm_ai(4096.0, 1.0, 4096.0, 2.0);
        assert!((gemv - 4096.0 / 4098.0).abs() < 1e-12, "{gemv}");
        // INT4 weights (0.5 byte) quadruple the FP16 intensity... of the same shape.
        assert!(
            (gemm_ai(64.0, 64.0, 64.0, 0.5) - 4.0 * gemm_ai(64.0, 64.0, 64.0, 2.0)).abs() < 1e-12
        );
        assert!(gemm_ai(-1.0, 1.0, 1.0, 2.0).is_nan());
    }

    #[test]
    fn kernel_time() {
        // 1.4e14 FLOP at 989.5e12 FLOP/s = 0.1415 s; 1e11 B at 3.35e12 B/s = 0.02985 s.
        assert_eq!(time_s(1.4e14, 1e11, 989.5e12, 3.35e12), 1.4e14 / 989.5e12);
        assert_eq!(time_s(1e9, 1e11, 989.5e12, 3.35e12), 1e11 / 3.35e12);
        assert!(time_s(1.0, f64::NAN, 1.0, 1.0).is_nan());
    }
}
