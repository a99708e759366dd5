//! Global functions: `hw`, formatting, list builders and the math functions Rhai lacks.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map};

use super::format::{self, digits_arg};
use super::{hardware, runtime_error, whole, FnDoc};

/// Largest list `range` and `linspace` build.
pub(crate) const MAX_LIST: f64 = 1_000_000.0;

type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

/// `x` limited to `[lo, hi]`: lo when x < lo, hi when x > hi, else x (so NaN stays NaN).
pub(crate) fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// from, from+1, … while < to.
pub(crate) fn range(from: f64, to: f64) -> RhaiResult<Vec<f64>> {
    let mut out = Vec::new();
    let mut i = 0.0;
    while from + i < to {
        if out.len() as f64 >= MAX_LIST {
            return Err(runtime_error(
                "range: more than 1000000 elements".to_string(),
            ));
        }
        out.push(from + i);
        i += 1.0;
    }
    Ok(out)
}

/// numpy.linspace(a, b, n) with endpoint=True.
pub(crate) fn linspace(a: f64, b: f64, n: f64) -> RhaiResult<Vec<f64>> {
    let Some(count) = whole(n, MAX_LIST) else {
        return Err(runtime_error(
            "linspace: n must be a whole number from 0 to 1000000".to_string(),
        ));
    };
    match count {
        0 => Ok(Vec::new()),
        1 => Ok(vec![a]),
        _ => {
            let div = n - 1.0;
            let delta = b - a;
            let step = delta / div;
            let mut out: Vec<f64> = (0..count)
                .map(|i| {
                    let i = i as f64;
                    if step == 0.0 {
                        i / div * delta + a
                    } else {
                        i * step + a
                    }
                })
                .collect();
            out[count as usize - 1] = b;
            Ok(out)
        }
    }
}

/// `n` values from `lo` to `hi` inclusive, evenly spaced on a logarithmic scale (numpy
/// `geomspace`): value i = lo × (hi/lo)^(i/(n-1)), the first exactly lo and the last exactly hi.
pub(crate) fn logspace(lo: f64, hi: f64, n: f64) -> RhaiResult<Vec<f64>> {
    if !(lo > 0.0 && hi > 0.0 && lo.is_finite() && hi.is_finite()) {
        return Err(runtime_error(
            "logspace: lo and hi must be positive and finite".to_string(),
        ));
    }
    let Some(count) = whole(n, MAX_LIST) else {
        return Err(runtime_error(
            "logspace: n must be a whole number from 0 to 1000000".to_string(),
        ));
    };
    let ratio = hi / lo;
    let mut out: Vec<f64> = (0..count)
        .map(|i| lo * pow(ratio, i as f64 / (n - 1.0)))
        .collect();
    if let Some(first) = out.first_mut() {
        *first = lo;
    }
    if count > 1 {
        out[count as usize - 1] = hi;
    }
    Ok(out)
}

/// `fmt(x, digits, style)`: `"sci"` is scientific notation ([`format::sci`]).
fn fmt_style(x: f64, digits: f64, style: ImmutableString) -> RhaiResult<String> {
    match style.as_str() {
        "sci" => Ok(format::sci(x, digits_arg(digits))),
        other => Err(runtime_error(format!(
            "fmt: unknown style \"{other}\" (the style is \"sci\")"
        ))),
    }
}

/// Rust's `powf` (C99 `pow`): pow(1, y) = 1 and pow(-1, ±∞) = 1 even for NaN/∞ exponents.
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}

pub(crate) fn to_array(values: Vec<f64>) -> Array {
    values.into_iter().map(Dynamic::from_float).collect()
}

pub(crate) fn register(engine: &mut Engine) {
    engine.register_fn("hw", |id: ImmutableString| -> RhaiResult<Map> {
        hardware::hw(id.as_str())
    });
    engine.register_fn("model", |id: ImmutableString| -> RhaiResult<Map> {
        super::models::model_in(&[], id.as_str())
    });
    engine.register_fn("fmt", |x: f64| -> String { format::auto(x) });
    engine.register_fn("fmt", |x: f64, digits: f64| -> String {
        format::fixed(x, digits_arg(digits), true)
    });
    engine.register_fn("fmt", fmt_style);
    engine.register_fn("fmt_pct", |x: f64, digits: f64| -> String {
        format::fixed(x * 100.0, digits_arg(digits), true) + "%"
    });
    engine.register_fn("clamp", clamp);
    engine.register_fn("range", |from: f64, to: f64| -> RhaiResult<Array> {
        range(from, to).map(to_array)
    });
    engine.register_fn("linspace", |a: f64, b: f64, n: f64| -> RhaiResult<Array> {
        linspace(a, b, n).map(to_array)
    });
    engine.register_fn("logspace", |a: f64, b: f64, n: f64| -> RhaiResult<Array> {
        logspace(a, b, n).map(to_array)
    });
    engine.register_fn("ceil", |x: f64| -> f64 { x.ceil() });
    engine.register_fn("log10", |x: f64| -> f64 { x.log10() });
    engine.register_fn("log2", |x: f64| -> f64 { x.log2() });
    engine.register_fn("pow", pow);
}

const RHAI_STD: &str =
    "Rhai standard package (BasicMathPackage / LogicPackage), not re-registered; \
                        the JS library mirrors Rhai's semantics.";

pub(crate) const DOCS: &[FnDoc] = &[
    FnDoc {
        path: "hw",
        signature: "hw(id: string) -> map",
        summary: "The built-in device `id` as a record of its numeric fields (f64) plus `name` \
                  (string), e.g. hw(\"H100\").mem_bw_gbs. Fields the vendor does not publish are \
                  absent. An unknown id is an error that lists the known ids. The devices and \
                  their fields are listed at the end of this reference.",
        units: "see the device field table (TFLOP/s, GB, GB/s, W, US$/h, h, MHz, KiB).",
        source: "crates/engine/src/library/hardware.yaml; each device names its datasheet and date.",
        example: "hw(\"H100\")",
    },
    FnDoc {
        path: "model",
        signature: "model(id: string) -> map",
        summary: "The built-in model `id` as a record of its numeric fields (f64) plus `name` \
                  (string), e.g. model(\"bert-base\").params or model(\"resnet-50\").flops. \
                  Figures the source does not give are absent. An unknown id is an error that \
                  lists the known ids. The models, their fields and conventions (1 MAC = 2 \
                  FLOPs) are listed at the end of this reference.",
        units: "see the model field table (counts, tokens, pixels, MACs, FLOPs).",
        source: "crates/engine/src/library/models.yaml; each model names its paper or model card and date.",
        example: "model(\"bert-base\")",
    },
    FnDoc {
        path: "fmt",
        signature: "fmt(x: f64) -> string / fmt(x: f64, digits: f64) -> string / fmt(x: f64, digits: f64, style: string) -> string",
        summary: "Formats a number for display with ',' thousands separators. fmt(x, digits): \
                  exactly `digits` decimals (truncated to a whole number, clamped to 0..20), \
                  rounding the exact binary value with ties to even (0.125 → \"0.12\", 2.5 → \
                  \"2\"). fmt(x): whole numbers below 1e15 without decimals, else 0 decimals \
                  from 100, 1 from 10, 2 below. A '-' sign only when a printed digit is non-zero \
                  (-0 → \"0\"); NaN → \"NaN\"; ±∞ → \"∞\"/\"-∞\". Never exponent notation, \
                  unless asked: fmt(x, digits, \"sci\") writes `digits` decimals of the \
                  mantissa and a superscript exponent (fmt(12345, 2, \"sci\") → \"1.23×10⁴\", \
                  fmt(0.00015, 1, \"sci\") → \"1.5×10⁻⁴\"); any other style is an error.",
        units: "result: text.",
        source: "Rust core::fmt fixed-precision formatting (exact, round-half-to-even), \
                 reproduced digit for digit in JS.",
        example: "fmt(1609.968, 1.0)",
    },
    FnDoc {
        path: "fmt_pct",
        signature: "fmt_pct(x: f64, digits: f64) -> string",
        summary: "A fraction as a percentage: fmt(x × 100, digits) followed by \"%\" \
                  (fmt_pct(0.2278, 1) → \"22.8%\").",
        units: "x: fraction (0.25 = 25%); result: text.",
        source: "Same rules as fmt.",
        example: "fmt_pct(0.2278, 1.0)",
    },
    FnDoc {
        path: "clamp",
        signature: "clamp(x: f64, lo: f64, hi: f64) -> f64",
        summary: "x limited to [lo, hi]: lo if x < lo, hi if x > hi, else x (NaN stays NaN).",
        units: "any; result in the unit of x.",
        source: "Definition.",
        example: "clamp(1.3, 0.0, 1.0)",
    },
    FnDoc {
        path: "range",
        signature: "range(from: f64, to: f64) -> array",
        summary: "The list from, from+1, from+2, … of every value below `to` (exclusive), as \
                  floats; empty when to <= from. At most 1,000,000 elements (else an error). \
                  Replaces Rhai's integer range: `for i in range(0, 5)` iterates 0.0 … 4.0.",
        units: "unit of from.",
        source: "Definition (Python's range with floats).",
        example: "range(0.0, 5.0)",
    },
    FnDoc {
        path: "linspace",
        signature: "linspace(a: f64, b: f64, n: f64) -> array",
        summary: "n evenly spaced values from a to b inclusive, with numpy.linspace semantics: \
                  value i = i × step + a with step = (b-a)/(n-1), the last value exactly b; \
                  n = 1 → [a]; n = 0 → []. n must be a whole number from 0 to 1,000,000 (else \
                  an error).",
        units: "unit of a and b.",
        source: "numpy.linspace (endpoint=True), NumPy reference documentation.",
        example: "linspace(60.0, 10800.0, 5.0)",
    },
    FnDoc {
        path: "ceil",
        signature: "ceil(x: f64) -> f64",
        summary: "Smallest whole number >= x (Rhai only has it as `ceiling`).",
        units: "unit of x.",
        source: "IEEE 754 roundToIntegralTowardPositive (Rust f64::ceil, JS Math.ceil).",
        example: "ceil(2.1)",
    },
    FnDoc {
        path: "log10",
        signature: "log10(x: f64) -> f64",
        summary: "Base-10 logarithm (Rhai only has it as one-argument `log`). x < 0 → NaN; \
                  0 → -∞.",
        units: "dimensionless.",
        source: "Rust f64::log10, JS Math.log10.",
        example: "log10(1000.0)",
    },
    FnDoc {
        path: "log2",
        signature: "log2(x: f64) -> f64",
        summary: "Base-2 logarithm (doublings: log2(1024) = 10). x < 0 → NaN; 0 → -∞.",
        units: "dimensionless.",
        source: "Rust f64::log2, JS Math.log2.",
        example: "log2(1024.0)",
    },
    FnDoc {
        path: "logspace",
        signature: "logspace(lo: f64, hi: f64, n: f64) -> array",
        summary: "n values from lo to hi inclusive, evenly spaced on a log scale (numpy \
                  geomspace; the values, not their exponents): value i = lo × (hi/lo)^(i/(n-1)), \
                  the first exactly lo, the last exactly hi; n = 1 → [lo]; n = 0 → []. lo and \
                  hi must be positive and finite, n a whole number from 0 to 1,000,000 (else an \
                  error). For sweeps over decades: logspace(1, 1024, 11) → 1, 2, 4, …, 1024.",
        units: "unit of lo and hi.",
        source: "numpy.geomspace (endpoint=True), NumPy reference documentation.",
        example: "logspace(1.0, 1024.0, 11.0)",
    },
    FnDoc {
        path: "pow",
        signature: "pow(x: f64, y: f64) -> f64",
        summary: "x raised to the power y (same as Rhai's `x ** y`), with C99 pow special cases \
                  in both runtimes: pow(1, y) = 1 and pow(-1, ±∞) = 1 even for NaN or infinite \
                  y; pow(x, 0) = 1.",
        units: "dimensionless.",
        source: "ISO C99 pow (Rust f64::powf); JS Math.pow adjusted for its two differences.",
        example: "pow(2.0, 10.0)",
    },
    FnDoc {
        path: "min",
        signature: "min(a: f64, b: f64) -> f64",
        summary: "The smaller of a and b: a if a <= b else b (so min(NaN, 1) = 1 and \
                  min(1, NaN) = NaN, as in Rhai).",
        units: "unit of a and b.",
        source: RHAI_STD,
        example: "min(3.0, 7.0)",
    },
    FnDoc {
        path: "max",
        signature: "max(a: f64, b: f64) -> f64",
        summary: "The larger of a and b: a if a >= b else b (so max(NaN, 1) = 1 and \
                  max(1, NaN) = NaN, as in Rhai).",
        units: "unit of a and b.",
        source: RHAI_STD,
        example: "max(3.0, 7.0)",
    },
    FnDoc {
        path: "abs",
        signature: "abs(x: f64) -> f64",
        summary: "Absolute value.",
        units: "unit of x.",
        source: RHAI_STD,
        example: "abs(-2.5)",
    },
    FnDoc {
        path: "floor",
        signature: "floor(x: f64) -> f64",
        summary: "Largest whole number <= x.",
        units: "unit of x.",
        source: RHAI_STD,
        example: "floor(2.7)",
    },
    FnDoc {
        path: "round",
        signature: "round(x: f64) -> f64",
        summary: "Nearest whole number, halves away from zero (round(2.5) = 3, round(-2.5) = -3; \
                  unlike JS Math.round, which the JS library does not use for this).",
        units: "unit of x.",
        source: RHAI_STD,
        example: "round(2.5)",
    },
    FnDoc {
        path: "sqrt",
        signature: "sqrt(x: f64) -> f64",
        summary: "Square root (correctly rounded in both runtimes); x < 0 → NaN.",
        units: "square root of the unit of x.",
        source: RHAI_STD,
        example: "sqrt(2592000.0)",
    },
    FnDoc {
        path: "exp",
        signature: "exp(x: f64) -> f64",
        summary: "e raised to x.",
        units: "dimensionless.",
        source: RHAI_STD,
        example: "exp(1.0)",
    },
    FnDoc {
        path: "ln",
        signature: "ln(x: f64) -> f64",
        summary: "Natural logarithm; x < 0 → NaN, 0 → -∞.",
        units: "dimensionless.",
        source: RHAI_STD,
        example: "ln(2.0)",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(src: &str) -> Dynamic {
        let mut e = Engine::new();
        super::super::register(&mut e);
        e.eval::<Dynamic>(src)
            .unwrap_or_else(|err| panic!("{src}: {err}"))
    }

    #[test]
    fn clamp_values() {
        assert_eq!(clamp(1.3, 0.0, 1.0), 1.0);
        assert_eq!(clamp(-0.3, 0.0, 1.0), 0.0);
        assert_eq!(clamp(0.3, 0.0, 1.0), 0.3);
        assert!(clamp(f64::NAN, 0.0, 1.0).is_nan());
    }

    #[test]
    fn ranges() {
        assert_eq!(range(0.0, 5.0).unwrap(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(range(0.0, 2.5).unwrap(), vec![0.0, 1.0, 2.0]);
        // 0.1 + 1 = 1.1 is not < 1.1: exactly one element.
        assert_eq!(range(0.1, 1.1).unwrap(), vec![0.1]);
        assert_eq!(range(-2.0, 0.0).unwrap(), vec![-2.0, -1.0]);
        assert!(range(3.0, 3.0).unwrap().is_empty());
        assert!(range(5.0, 0.0).unwrap().is_empty());
        assert!(range(f64::NAN, 3.0).unwrap().is_empty());
        assert_eq!(
            range(0.0, f64::INFINITY).unwrap_err().to_string(),
            "Runtime error: range: more than 1000000 elements"
        );
        assert_eq!(range(0.0, 1e6).unwrap().len(), 1_000_000);
        // for-loops over it work in Rhai.
        let total = eval("let t = 0.0; for i in range(0.0, 5.0) { t += i; } t");
        assert_eq!(total.as_float().unwrap(), 10.0);
    }

    #[test]
    fn linspaces() {
        // numpy.linspace(0, 1, 5) = [0, 0.25, 0.5, 0.75, 1].
        assert_eq!(
            linspace(0.0, 1.0, 5.0).unwrap(),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
        // numpy.linspace(0.1, 0.98, 100)[1] = 0.1 + 0.88/99 = 0.10888888888888888
        let v = linspace(0.1, 0.98, 100.0).unwrap();
        assert_eq!(v.len(), 100);
        assert_eq!(v[1], 1.0 * (0.98f64 - 0.1) / 99.0 + 0.1);
        assert_eq!(v[99], 0.98);
        assert_eq!(linspace(2.0, 3.0, 1.0).unwrap(), vec![2.0]);
        assert!(linspace(2.0, 3.0, 0.0).unwrap().is_empty());
        assert_eq!(linspace(3.0, 3.0, 3.0).unwrap(), vec![3.0, 3.0, 3.0]);
        // Decreasing.
        assert_eq!(linspace(1.0, 0.0, 3.0).unwrap(), vec![1.0, 0.5, 0.0]);
        for bad in [-1.0, 2.5, f64::NAN, 2e6] {
            assert_eq!(
                linspace(0.0, 1.0, bad).unwrap_err().to_string(),
                "Runtime error: linspace: n must be a whole number from 0 to 1000000"
            );
        }
    }

    #[test]
    fn math_additions() {
        assert_eq!(eval("ceil(2.1)").as_float().unwrap(), 3.0);
        assert_eq!(eval("log10(1000.0)").as_float().unwrap(), 3.0);
        assert_eq!(eval("pow(2.0, 10.0)").as_float().unwrap(), 1024.0);
        assert_eq!(pow(1.0, f64::NAN), 1.0);
        assert_eq!(pow(-1.0, f64::INFINITY), 1.0);
        assert_eq!(pow(f64::NAN, 0.0), 1.0);
        // Rhai's own functions stay available.
        assert_eq!(eval("min(3.0, 7.0)").as_float().unwrap(), 3.0);
        assert_eq!(eval("max(3.0, 7.0)").as_float().unwrap(), 7.0);
        assert_eq!(eval("round(-2.5)").as_float().unwrap(), -3.0);
        assert_eq!(eval("abs(-2.5)").as_float().unwrap(), 2.5);
    }

    #[test]
    fn formatting_from_formulas() {
        let s = |src: &str| eval(src).into_string().unwrap();
        assert_eq!(s("fmt(1609.968, 1.0)"), "1,610.0");
        assert_eq!(s("fmt(1609.968)"), "1,610");
        assert_eq!(s("fmt(0.125, 2.0)"), "0.12");
        assert_eq!(s("fmt(2.0, 2.9)"), "2.00");
        assert_eq!(s("fmt(-0.0, 0.0)"), "0");
        assert_eq!(s("fmt(1.0/0.0, 0.0)"), "∞");
        assert_eq!(s("fmt_pct(0.2278, 1.0)"), "22.8%");
        assert_eq!(s("fmt_pct(0.5, 0.0)"), "50%");
        assert_eq!(s("fmt(1152000.0, 0.0)"), "1,152,000");
    }

    #[test]
    fn hw_from_formulas() {
        assert_eq!(eval("hw(\"T4\").price_hr").as_float().unwrap(), 0.35);
        assert_eq!(
            eval("hw(\"H100\").name").into_string().unwrap(),
            "NVIDIA H100 SXM5 80GB"
        );
        // Seed lab06: cluster MTBF from the H100 figure.
        assert_eq!(
            eval("rel::system_mtbf(hw(\"H100\").mttf_h, 16000.0)")
                .as_float()
                .unwrap(),
            3.125
        );
    }
}
