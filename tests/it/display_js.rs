//! Output display parity between Rust (`eval::format_output`) and the page's
//! `renderers/html/runtime.js` (`formatOutput`), run in Node with the DOM stubbed out: caps read
//! `≥ cap`, a non-zero value never reads 0, a time under one unit steps down, and negatives put
//! the minus sign before the currency, the same on both sides.
//!
//! Node: `node` on PATH (or `LABFORGE_NODE`). Without it the test prints a SKIPPED line, or
//! fails when the `CI` environment variable is set.

use crate::common;
use labforge::eval::format_output;
use labforge::model::Output;
use rhai::Dynamic;
use serde_json::{json, Value as J};

const DRIVER: &str = r#"
const fs = require('fs');
const [lib, rhai, format, model, record, report, tracks, runtime, data] = process.argv.slice(2, 11).map((p) => fs.readFileSync(p, 'utf8'));
const R = require(process.argv[11])([lib, rhai, format, model, record + '\n' + report + '\n' + tracks, runtime], { maxOps: 500000, labOps: 20000000, maxSize: [10000, 10000, 1000], hardware: {} });
const num = (v) => v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v;
process.stdout.write(JSON.stringify(JSON.parse(data).map(([o, v]) => R.formatOutput(o, num(v)))));
"#;

/// `[output fields, value]` cases.
fn cases() -> Vec<(J, f64)> {
    let mut v = Vec::new();
    let outs = [
        json!({"unit": "min", "digits": 1, "cap": 999}),
        json!({"unit": "min", "digits": 0}),
        json!({"unit": "h", "digits": 1}),
        json!({"unit": "h", "digits": 0}),
        json!({"unit": "TB", "digits": 1}),
        json!({"prefix": "$", "digits": 0}),
        json!({"prefix": "$", "unit": "/day", "digits": 0}),
        json!({"unit": "%", "digits": 1}),
        json!({"unit": "x"}),
        json!({"unit": "×", "cap": 100}),
        json!({}),
        json!({"unit": "s", "digits": 2}),
    ];
    let values = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.4083,
        24.5 / 60.0,
        0.0224,
        0.00004,
        -0.00004,
        999.0,
        998.95,
        154_440.0,
        -1545.4,
        -1376.255,
        1e-9,
        0.5,
        0.999,
        12.345,
        1e16,
        -0.004,
        0.125,
        2.5e-7,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        100.0,
        250.0,
    ];
    for o in &outs {
        for x in values {
            v.push((o.clone(), x));
        }
    }
    v
}

fn js_num(x: f64) -> J {
    if x.is_nan() {
        json!("nan")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(x)
    }
}

#[test]
fn outputs_read_the_same_in_rust_and_the_page() {
    let Some(node) = common::node_or_skip("display parity") else {
        return;
    };
    let cases = cases();
    let rust: Vec<String> = cases
        .iter()
        .map(|(o, x)| {
            let o: Output = serde_json::from_value(o.clone()).unwrap();
            format_output(&o, &Dynamic::from_float(*x))
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("labforge-display-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.json");
    let d: Vec<J> = cases.iter().map(|(o, x)| json!([o, js_num(*x)])).collect();
    std::fs::write(&data, J::from(d).to_string()).unwrap();
    let driver = dir.join("driver.js");
    std::fs::write(&driver, DRIVER).unwrap();
    let root = common::root().join("renderers/html");
    let stdout = common::node_stdout(
        &node,
        &[
            &driver,
            &root.join("library.js"),
            &root.join("rhai.js"),
            &root.join("format.js"),
            &root.join("chart-model.js"),
            &root.join("ledger.js"),
            &root.join("report.js"),
            &root.join("tracks.js"),
            &root.join("runtime.js"),
            &data,
            &common::root().join("tests/browser/runtime-stub.cjs"),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let page: Vec<String> = serde_json::from_slice(&stdout).unwrap();
    let mut bad = Vec::new();
    for (((o, x), r), p) in cases.iter().zip(&rust).zip(&page) {
        if r != p {
            bad.push(format!("{o} at {x}: rust `{r}`, page `{p}`"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // The figures the issue names.
    let find = |o: J, x: f64| {
        let i = cases
            .iter()
            .position(|c| c.0 == o && c.1.to_bits() == x.to_bits())
            .unwrap();
        rust[i].clone()
    };
    assert_eq!(
        find(json!({"unit": "min", "digits": 1, "cap": 999}), 154_440.0),
        "≥ 999.0 min"
    );
    assert_eq!(
        find(json!({"unit": "min", "digits": 0}), 24.5 / 60.0),
        "24.5 s"
    );
    assert_eq!(find(json!({"unit": "TB", "digits": 1}), 0.0224), "0.02 TB");
    assert_eq!(
        find(json!({"prefix": "$", "digits": 0}), -1545.4),
        "−$1,545"
    );
}
