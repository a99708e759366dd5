//! Parity cases for `units::`, the devices (`hw(id)`), the models (`model(id)`) and the global functions: `fmt` and
//! `fmt_pct` (ties, specials, magnitudes, random doubles), `clamp`, `range`, `linspace`,
//! `logspace` and the math functions.

use labforge::library;

use super::{grid, n, s, Case, Rng, INF, NAN};

pub fn cases(v: &mut Vec<Case>, rng: &mut Rng) {
    let xs: &[f64] = &[
        0.0, -0.0, 1.0, 2.5, 120.0, 3.125, 80.0, 0.1, 0.35, 2450.0, 1e15, 1e-300, 5e-324, 1.7e308,
        -7.5, NAN, INF, -INF,
    ];
    for doc in library::functions() {
        if doc.path.starts_with("units::") {
            grid(v, doc.path, &[xs]);
        }
    }

    for d in library::hardware() {
        v.push(Case {
            path: "hw",
            args: vec![s(&d.id)],
        });
    }
    for id in ["H999", "", "h100", "constructor", "__proto__", "toString"] {
        v.push(Case {
            path: "hw",
            args: vec![s(id)],
        });
    }
    // Every model (every field), then ids that are not models: the same error text.
    for m in library::models() {
        v.push(Case {
            path: "model",
            args: vec![s(&m.id)],
        });
    }
    for id in [
        "bert",
        "",
        "BERT-base",
        "H100",
        "constructor",
        "__proto__",
        "hasOwnProperty",
    ] {
        v.push(Case {
            path: "model",
            args: vec![s(id)],
        });
    }

    // Formatting: ties, specials, magnitudes, then random doubles.
    let mut fmt_values: Vec<f64> = vec![
        0.0,
        -0.0,
        0.125,
        0.375,
        0.625,
        2.5,
        3.5,
        0.5,
        1.5,
        -2.5,
        1.005,
        2.675,
        0.045,
        1e21,
        -1e21,
        1e22,
        123456789.125,
        -123456789.125,
        -0.001,
        -0.006,
        999999.5,
        999.9999,
        0.1,
        0.2,
        0.30000000000000004,
        1609.9689437998486,
        26.832815729997478,
        0.22777777777777777,
        1152000.0,
        2.45e12,
        5e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        9007199254740993.0,
        4503599627370495.5,
        1e15,
        999999999999999.9,
        99.995,
        9.995,
        10.25,
        100.5,
        NAN,
        INF,
        -INF,
    ];
    for k in 0..64 {
        fmt_values.push(k as f64 / 8.0);
        fmt_values.push(-(k as f64) / 16.0 - 1000.0);
        fmt_values.push(k as f64 * 1000.0 + 0.5);
    }
    for _ in 0..300 {
        fmt_values.push(rng.any_finite());
    }
    for _ in 0..300 {
        // Values of everyday magnitude with a few decimals.
        let mant = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        let exp = rng.below(16) as i32 - 6;
        let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        fmt_values.push(sign * mant * 10f64.powi(exp));
    }
    let digits: &[f64] = &[0.0, 1.0, 2.0, 3.0, 5.0, 20.0, 2.9, -1.0, NAN, 25.0, INF];
    for &x in &fmt_values {
        v.push(Case {
            path: "fmt",
            args: vec![n(x)],
        });
        for &d in digits {
            v.push(Case {
                path: "fmt",
                args: vec![n(x), n(d)],
            });
        }
        for &d in &[0.0, 2.0, 3.0, 20.0] {
            v.push(Case {
                path: "fmt",
                args: vec![n(x), n(d), s("sci")],
            });
        }
        for &d in &[0.0, 1.0, 2.0] {
            v.push(Case {
                path: "fmt_pct",
                args: vec![n(x), n(d)],
            });
        }
    }

    let g: &[f64] = &[
        -1.5, -0.5, -0.0, 0.0, 0.3, 0.5, 1.0, 2.5, 7.0, NAN, INF, -INF,
    ];
    grid(v, "clamp", &[g, &[0.0, -1.0, NAN], &[1.0, 5.0, NAN]]);
    grid(
        v,
        "range",
        &[
            &[0.0, 0.1, -2.0, 2.5, 3.0, 1e20, NAN, -INF],
            &[0.0, 1.1, 2.5, 5.0, 12.0, -3.0, NAN, INF],
        ],
    );
    grid(
        v,
        "linspace",
        &[
            &[0.0, 0.1, 60.0, 1.0, -5.0, 1e-320, NAN, INF],
            &[1.0, 0.98, 10800.0, 0.0, 1e-320, 8.0, NAN],
            &[0.0, 1.0, 2.0, 5.0, 20.0, 100.0, 200.0, 2.5, -1.0, NAN, 2e6],
        ],
    );
    // Scientific notation: exact ties (1.125, 0.5) round to even on both sides; a rounding
    // carry moves the exponent (9.9999 -> 1.00×10¹); an unknown style is the same error.
    for (x, d) in [
        (1.125, 2.0),
        (0.5, 0.0),
        (2.5, 0.0),
        (9.9999, 2.0),
        (99.95, 2.0),
        (0.0, 2.0),
        (-0.0, 1.0),
    ] {
        v.push(Case {
            path: "fmt",
            args: vec![n(x), n(d), s("sci")],
        });
    }
    v.push(Case {
        path: "fmt",
        args: vec![n(1.0), n(2.0), s("eng")],
    });
    grid(
        v,
        "logspace",
        &[
            &[1.0, 0.001, 60.0, 1e-300, 0.0, -1.0, NAN, INF],
            &[1024.0, 1.0, 1e6, 1e300, 0.0, NAN],
            &[0.0, 1.0, 2.0, 11.0, 50.0, 2.5, -1.0, NAN, 2e6],
        ],
    );
    let m: &[f64] = &[
        -2.5,
        -1.5,
        -0.5,
        -0.49999999999999994,
        -0.0,
        0.0,
        0.49999999999999994,
        0.5,
        1.5,
        2.5,
        2.1,
        1000.0,
        4503599627370495.5,
        1e300,
        5e-324,
        0.1,
        2.0,
        1e-10,
        NAN,
        INF,
        -INF,
    ];
    for path in [
        "ceil", "log10", "log2", "abs", "floor", "round", "sqrt", "exp", "ln",
    ] {
        grid(v, path, &[m]);
    }
    for _ in 0..200 {
        let x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 100.0 - 20.0;
        for path in ["exp", "ln", "log10", "log2", "sqrt"] {
            v.push(Case {
                path,
                args: vec![n(x)],
            });
        }
        let y = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 10.0 - 3.0;
        v.push(Case {
            path: "pow",
            args: vec![n(x.abs()), n(y)],
        });
    }
    let pw: &[f64] = &[
        0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 10.0, 1e300, NAN, INF, -INF, 3.0, -0.5,
    ];
    grid(v, "pow", &[pw, pw]);
    grid(v, "min", &[g, g]);
    grid(v, "max", &[g, g]);
}
