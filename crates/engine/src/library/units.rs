//! `units::` — exact unit conversions.
//!
//! Decimal prefixes (k, M, G, T, P = 10^3 … 10^15) for bytes, FLOP/s and bandwidth; binary
//! prefixes only where the name says so (GiB = 2^30 bytes). Each conversion is one IEEE
//! multiplication or division by an exactly representable factor (plus, for GB↔GiB, one of
//! each in a fixed order), so Rust and JS agree bit for bit.

use rhai::{FuncRegistration, Module};

use super::FnDoc;

const SI: &str = "SI prefixes, BIPM SI Brochure (9th ed., 2019); exact by definition.";
const IEC: &str = "IEC 80000-13 binary prefixes (1 GiB = 2^30 bytes) and SI prefixes \
                   (1 GB = 10^9 bytes); exact by definition.";
const TIME: &str = "1 min = 60 s, 1 h = 3600 s, 1 day = 24 h (exact by definition).";
const BITS: &str = "1 byte = 8 bits; exact by definition.";

macro_rules! conversions {
    ($( ($name:literal, |$x:ident| $body:expr, $summary:literal, $units:literal, $source:expr, $example:literal) ),* $(,)?) => {
        pub(crate) fn module() -> Module {
            let mut m = Module::new();
            $(
                FuncRegistration::new($name).set_into_module(&mut m, |$x: f64| -> f64 { $body });
            )*
            m
        }

        /// The conversion named `name` applied to `x` (for tests and Rust callers).
        #[cfg(test)]
        pub(crate) fn convert(name: &str, value: f64) -> Option<f64> {
            match name {
                $( $name => Some((|$x: f64| -> f64 { $body })(value)), )*
                _ => None,
            }
        }

        pub(crate) const DOCS: &[FnDoc] = &[
            $(
                FnDoc {
                    path: concat!("units::", $name),
                    signature: concat!("units::", $name, "(x: f64) -> f64"),
                    summary: $summary,
                    units: $units,
                    source: $source,
                    example: concat!("units::", $name, "(", $example, ")"),
                },
            )*
        ];
    };
}

conversions! {
    ("s_to_min", |x| x / 60.0, "Seconds to minutes: x / 60.", "x: seconds; result: minutes.", TIME, "1610.0"),
    ("min_to_s", |x| x * 60.0, "Minutes to seconds: x × 60.", "x: minutes; result: seconds.", TIME, "26.8"),
    ("s_to_h", |x| x / 3600.0, "Seconds to hours: x / 3600.", "x: seconds; result: hours.", TIME, "11250.0"),
    ("h_to_s", |x| x * 3600.0, "Hours to seconds: x × 3600.", "x: hours; result: seconds.", TIME, "3.125"),
    ("min_to_h", |x| x / 60.0, "Minutes to hours: x / 60.", "x: minutes; result: hours.", TIME, "90.0"),
    ("h_to_min", |x| x * 60.0, "Hours to minutes: x × 60.", "x: hours; result: minutes.", TIME, "1.5"),
    ("h_to_days", |x| x / 24.0, "Hours to days: x / 24.", "x: hours; result: days.", TIME, "1296.0"),
    ("days_to_h", |x| x * 24.0, "Days to hours: x × 24.", "x: days; result: hours.", TIME, "54.0"),
    ("s_to_days", |x| x / 86400.0, "Seconds to days: x / 86,400.", "x: seconds; result: days.", TIME, "86400.0"),
    ("days_to_s", |x| x * 86400.0, "Days to seconds: x × 86,400.", "x: days; result: seconds.", TIME, "0.5"),
    ("ms_to_s", |x| x / 1000.0, "Milliseconds to seconds: x / 1000.", "x: ms; result: s.", SI, "500.0"),
    ("s_to_ms", |x| x * 1000.0, "Seconds to milliseconds: x × 1000.", "x: s; result: ms.", SI, "0.5"),
    ("gb_to_gib", |x| x * 1e9 / 1073741824.0,
        "Decimal gigabytes to binary gibibytes: x × 10^9 / 2^30 (1 GB ≈ 0.931 GiB).",
        "x: GB (10^9 bytes); result: GiB (2^30 bytes).", IEC, "80.0"),
    ("gib_to_gb", |x| x * 1073741824.0 / 1e9,
        "Binary gibibytes to decimal gigabytes: x × 2^30 / 10^9 (1 GiB ≈ 1.074 GB).",
        "x: GiB (2^30 bytes); result: GB (10^9 bytes).", IEC, "16.0"),
    ("gb_to_tb", |x| x / 1000.0, "Gigabytes to terabytes (decimal): x / 1000.",
        "x: GB; result: TB (10^12 bytes).", SI, "2450.0"),
    ("tb_to_gb", |x| x * 1000.0, "Terabytes to gigabytes (decimal): x × 1000.",
        "x: TB; result: GB.", SI, "2.45"),
    ("mb_to_gb", |x| x / 1000.0, "Megabytes to gigabytes (decimal): x / 1000.",
        "x: MB (10^6 bytes); result: GB.", SI, "512.0"),
    ("gb_to_mb", |x| x * 1000.0, "Gigabytes to megabytes (decimal): x × 1000.",
        "x: GB; result: MB.", SI, "0.5"),
    ("bytes_to_gb", |x| x / 1e9, "Bytes to gigabytes (decimal): x / 10^9.",
        "x: bytes; result: GB.", SI, "2.45e12"),
    ("gb_to_bytes", |x| x * 1e9, "Gigabytes (decimal) to bytes: x × 10^9.",
        "x: GB; result: bytes.", SI, "80.0"),
    ("bytes_to_tb", |x| x / 1e12, "Bytes to terabytes (decimal): x / 10^12.",
        "x: bytes; result: TB.", SI, "2.45e12"),
    ("tb_to_bytes", |x| x * 1e12, "Terabytes (decimal) to bytes: x × 10^12.",
        "x: TB; result: bytes.", SI, "2.45"),
    ("gbps_to_gbs", |x| x / 8.0,
        "Gigabits per second to gigabytes per second: x / 8 (e.g. a 400 Gb/s NIC moves 50 GB/s).",
        "x: Gb/s (10^9 bits/s); result: GB/s (10^9 bytes/s).", BITS, "400.0"),
    ("gbs_to_gbps", |x| x * 8.0, "Gigabytes per second to gigabits per second: x × 8.",
        "x: GB/s; result: Gb/s.", BITS, "900.0"),
    ("tflops_to_flops", |x| x * 1e12, "TFLOP/s to FLOP/s: x × 10^12.",
        "x: TFLOP/s; result: FLOP/s.", SI, "989.5"),
    ("flops_to_tflops", |x| x / 1e12, "FLOP/s to TFLOP/s: x / 10^12.",
        "x: FLOP/s; result: TFLOP/s.", SI, "9.895e14"),
    ("pflops_to_tflops", |x| x * 1000.0, "PFLOP/s to TFLOP/s: x × 1000.",
        "x: PFLOP/s; result: TFLOP/s.", SI, "4.5"),
    ("tflops_to_pflops", |x| x / 1000.0, "TFLOP/s to PFLOP/s: x / 1000.",
        "x: TFLOP/s; result: PFLOP/s.", SI, "1979.0"),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_exact_factors() {
        let c = |n: &str, x: f64| convert(n, x).unwrap();
        // Seed lab06: 1609.97 s = 26.83 min; 3.125 h = 11,250 s.
        assert_eq!(c("s_to_min", 120.0), 2.0);
        assert_eq!(c("min_to_s", 2.0), 120.0);
        assert_eq!(c("h_to_s", 3.125), 11250.0);
        assert_eq!(c("s_to_h", 11250.0), 3.125);
        assert_eq!(c("h_to_min", 1.5), 90.0);
        assert_eq!(c("min_to_h", 90.0), 1.5);
        assert_eq!(c("h_to_days", 36.0), 1.5);
        assert_eq!(c("days_to_h", 1.5), 36.0);
        assert_eq!(c("s_to_days", 86400.0), 1.0);
        assert_eq!(c("days_to_s", 0.5), 43200.0);
        assert_eq!(c("ms_to_s", 500.0), 0.5);
        assert_eq!(c("s_to_ms", 0.5), 500.0);
        // 80 GB = 80e9 / 2^30 GiB = 74.50580596923828 GiB (exact in binary).
        assert_eq!(c("gb_to_gib", 80.0), 74.50580596923828);
        // 1 GiB = 1.073741824 GB.
        assert_eq!(c("gib_to_gb", 1.0), 1.073741824);
        // Seed lab06: 2450 GB = 2.45 TB.
        assert_eq!(c("gb_to_tb", 2450.0), 2.45);
        assert_eq!(c("tb_to_gb", 2.45), 2450.0);
        assert_eq!(c("mb_to_gb", 512.0), 0.512);
        assert_eq!(c("gb_to_mb", 0.512), 512.0);
        assert_eq!(c("bytes_to_gb", 2.45e12), 2450.0);
        assert_eq!(c("gb_to_bytes", 2450.0), 2.45e12);
        assert_eq!(c("bytes_to_tb", 2.45e12), 2.45);
        assert_eq!(c("tb_to_bytes", 2.45), 2.45e12);
        // TPU v5p ICI: 4,800 Gb/s = 600 GB/s.
        assert_eq!(c("gbps_to_gbs", 4800.0), 600.0);
        assert_eq!(c("gbs_to_gbps", 600.0), 4800.0);
        assert_eq!(c("tflops_to_flops", 989.5), 9.895e14);
        assert_eq!(c("flops_to_tflops", 9.895e14), 989.5);
        assert_eq!(c("pflops_to_tflops", 4.5), 4500.0);
        assert_eq!(c("tflops_to_pflops", 4500.0), 4.5);
        assert!(convert("nope", 1.0).is_none());
        assert_eq!(DOCS.len(), 28);
    }
}
