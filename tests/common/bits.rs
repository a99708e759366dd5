//! Differential tests of numbers, Rust against the page, to the bit: the page's numbers as it
//! writes them (`String(x)`), compared by their bits, and one round trip through a browser
//! script that reads a JSON of cases and writes a JSON of results.

use serde_json::Value as J;
use std::path::Path;

/// A number as the page's JavaScript writes it (`String(x)`, so `NaN` and `±Infinity` too).
pub fn parse(s: &str) -> f64 {
    match s {
        "NaN" => f64::NAN,
        "Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        x => x.parse().unwrap_or_else(|_| panic!("a number: {x}")),
    }
}

/// The same number, bit for bit (any NaN is a NaN).
pub fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Runs `script` (tests/browser/) on `page` with `cases` written to `dir/cases.json`; fails
/// unless it says "all passed" and the page reported no error; returns its `dir/result.json`.
pub fn page_cases(script: &str, page: &Path, dir: &Path, cases: &J) -> J {
    let cases_path = dir.join("cases.json");
    let result_path = dir.join("result.json");
    std::fs::write(&cases_path, cases.to_string()).unwrap();
    let (ok, text) = super::node(script, &[page, &cases_path, &result_path]);
    assert!(ok && text.contains("all passed"), "{text}");
    println!("{text}");
    let got: J = serde_json::from_slice(&std::fs::read(&result_path).unwrap()).unwrap();
    assert_eq!(got["errors"], serde_json::json!([]), "page errors");
    got
}
