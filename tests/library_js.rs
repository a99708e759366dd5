//! Parity of the built-in library between Rust (Rhai) and JavaScript (Node).
//!
//! For every `FnDoc` in `labforge::library::functions()` this evaluates a set of argument
//! tuples (edge cases included) through a Rhai engine after `library::register`, and the
//! same tuples through `renderers/html/library.js` in Node, then compares: numbers within
//! 1e-12 relative (and counts how many are bit-identical), strings, bools and error messages
//! exactly. A path without cases fails the test.
//!
//! Node: `node` on PATH (or `LABFORGE_NODE`). Without it the test prints a SKIPPED line, or
//! fails when the `CI` environment variable is set.

mod common;
#[path = "library_js/topics.rs"]
mod topics;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use labforge::library;
use rhai::{Dynamic, Engine, EvalAltResult, Scope};
use serde_json::{json, Value as J};

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

#[derive(Clone, Debug)]
enum Arg {
    N(f64),
    S(String),
    A(Vec<Arg>),
}

#[derive(Clone, Debug)]
enum Out {
    Num(f64),
    Str(String),
    Bool(bool),
    Arr(Vec<Out>),
    Map(BTreeMap<String, Out>),
    Err(String),
}

struct Case {
    path: &'static str,
    args: Vec<Arg>,
}

fn n(x: f64) -> Arg {
    Arg::N(x)
}
fn s(x: &str) -> Arg {
    Arg::S(x.to_string())
}
fn a(xs: &[f64]) -> Arg {
    Arg::A(xs.iter().map(|&x| Arg::N(x)).collect())
}

/// Deterministic xorshift64* generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A finite double with uniformly random bits.
    fn any_finite(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next());
            if x.is_finite() {
                return x;
            }
        }
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Cartesian product of per-argument pools.
fn grid(out: &mut Vec<Case>, path: &'static str, pools: &[&[f64]]) {
    let mut idx = vec![0usize; pools.len()];
    loop {
        out.push(Case {
            path,
            args: idx.iter().zip(pools).map(|(&i, p)| n(p[i])).collect(),
        });
        let mut k = pools.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < pools[k].len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let rho: &[f64] = &[0.0, 0.1, 0.5, 0.8, 0.95, 0.999999, 1.0, 1.5, -0.1, NAN, INF];
    let cs: &[f64] = &[0.0, 0.5, 1.0, 3.0, 5.0, -2.0, NAN];
    let svc: &[f64] = &[0.0, 1.0, 5.0, 30.0, 1e9, -1.0, NAN, INF];
    let servers: &[f64] = &[1.0, 2.0, 3.0, 8.0, 64.0, 1000.0, 0.0, 2.5, -1.0, NAN, 2e6];
    let p: &[f64] = &[0.0, 0.5, 0.9, 0.99, 0.999, 1.0, 1.5, -0.1, NAN];

    grid(&mut v, "queue::mm1_wait", &[rho, svc]);
    grid(&mut v, "queue::mm1_sojourn", &[rho, svc]);
    grid(&mut v, "queue::pk_wait", &[rho, cs, svc]);
    grid(&mut v, "queue::pk_amplification", &[cs]);
    grid(&mut v, "queue::pk_amplification", &[&[1e200, -1e-200, INF]]);
    grid(&mut v, "queue::erlang_c", &[servers, rho]);
    grid(&mut v, "queue::erlang_c", &[&[100000.0], &[0.5, 0.999]]);
    grid(&mut v, "queue::mmc_wait", &[servers, rho, svc]);
    grid(
        &mut v,
        "queue::mmc_wait_p",
        &[servers, rho, &[1.0, 30.0, NAN, -1.0], p],
    );
    grid(&mut v, "queue::kingman_wait", &[rho, cs, cs, svc]);

    let t: &[f64] = &[
        0.0, 1e-9, 1.0, 120.0, 2450.0, 10800.0, 50000.0, 1e12, -1.0, NAN, INF,
    ];
    let count: &[f64] = &[0.0, 0.5, 1.0, 8.0, 1000.0, 16000.0, -1.0, NAN, INF];
    grid(&mut v, "rel::system_mtbf", &[t, count]);
    grid(&mut v, "rel::failure_prob", &[t, t]);
    grid(&mut v, "rel::young_daly", &[t, t]);
    grid(&mut v, "rel::daly", &[t, t]);
    grid(
        &mut v,
        "rel::daly",
        &[&[19.999999, 20.0, 20.000001, 0.001], &[10.0]],
    );
    grid(&mut v, "rel::ckpt_waste", &[t, t, t]);
    grid(&mut v, "rel::ckpt_waste_opt", &[t, t]);
    grid(
        &mut v,
        "rel::ckpt_bytes",
        &[
            &[175e9, 7e9, 0.0, -1.0, NAN, INF],
            &[14.0, 12.0, 2.0, 0.5, NAN],
        ],
    );
    for scheme in [
        "fp16_adam_mixed",
        "fp32_adam",
        "bf16_weights",
        "fp32_weights",
        "int8_weights",
        "fp8",
        "",
        "FP16_ADAM_MIXED",
        "fp16_adam_mixed ",
        "it's",
    ] {
        v.push(Case {
            path: "rel::bytes_per_param",
            args: vec![s(scheme)],
        });
    }
    grid(&mut v, "rel::availability", &[t, t]);

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut lists: Vec<Vec<f64>> = vec![
        vec![],
        vec![0.0, 0.0],
        vec![5.0, 5.0, 5.0, 5.0],
        vec![40.0, 30.0, 20.0, 10.0],
        vec![1.0, 2.0],
        vec![0.0, 0.0, 1.0, 0.0],
        vec![1.0, -1.0],
        vec![1.0, NAN],
        vec![1.0, INF],
        vec![1e300, 1e300],
        vec![0.1, 0.2, 0.3],
        vec![1e-300],
        vec![8.0, 3.0, 0.0, 5.0],
        vec![8.0, 8.0, 3.0, 8.0],
        vec![8.0, 7.0, 7.0],
        vec![7.0; 11],
        vec![1.0, 2.0, 3.0, 4.0],
        vec![8.0, 8.0, 4.0, 2.0],
        vec![9.0, 8.5, 4.0],
    ];
    for _ in 0..40 {
        let len = rng.below(40) as usize;
        lists.push((0..len).map(|_| rng.below(9) as f64).collect());
    }
    for _ in 0..20 {
        let len = 1 + rng.below(30) as usize;
        lists.push(
            (0..len)
                .map(|_| (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 1000.0)
                .collect(),
        );
    }
    for l in &lists {
        v.push(Case {
            path: "fleet::jain",
            args: vec![a(l)],
        });
        for gpn in [8.0, 4.0, 0.0, -1.0, NAN, 8.5] {
            v.push(Case {
                path: "fleet::gang_fragmentation",
                args: vec![a(l), n(gpn)],
            });
            for job in [0.0, 8.0, 12.0, 16.0, 24.0, 64.0, -1.0, NAN, 1e9] {
                v.push(Case {
                    path: "fleet::schedulable_gang",
                    args: vec![a(l), n(gpn), n(job)],
                });
            }
        }
    }
    // Non-numeric list elements are errors with the same message.
    for path in [
        "fleet::jain",
        "fleet::gang_fragmentation",
        "fleet::schedulable_gang",
    ] {
        let bad_list = Arg::A(vec![n(1.0), s("two"), n(3.0)]);
        let args = match path {
            "fleet::jain" => vec![bad_list],
            "fleet::gang_fragmentation" => vec![bad_list, n(8.0)],
            _ => vec![bad_list, n(8.0), n(8.0)],
        };
        v.push(Case { path, args });
    }
    grid(
        &mut v,
        "fleet::preempt_cost",
        &[
            &[0.0, 1.0, 8.0, 64.0, 128.0, -1.0, NAN, INF],
            &[0.0, 0.5, 2.0, 8.0, NAN],
            &[0.0, 0.35, 3.0, 2.48, NAN],
        ],
    );
    let replicas: Vec<f64> = (0..13).map(|r| r as f64).chain([-1.0, NAN, 2.5]).collect();
    grid(
        &mut v,
        "fleet::spares_needed",
        &[
            &replicas,
            &[50.0, 100.0, 1000.0, 5000.0, NAN],
            &[10.0, 100.0, 130.0, 325.0, 400.0, 1e9, NAN],
            &[5.0, 0.0, 1.0, 2.5, -1.0, NAN, 10.0],
        ],
    );
    let money: &[f64] = &[0.0, 1.0, 128.0, 16000.0, -2.0, NAN, INF];
    grid(
        &mut v,
        "cost::gpu_hours_cost",
        &[
            money,
            &[0.0, 2.0, 24.0, 0.1, NAN],
            &[3.0, 0.35, 2.48, 4.2, NAN],
        ],
    );
    grid(
        &mut v,
        "cost::daily",
        &[money, &[3.0, 0.35, 2.48, 4.2, 0.1, NAN, INF]],
    );
    topics::cases(&mut v);

    let xs: &[f64] = &[
        0.0, -0.0, 1.0, 2.5, 120.0, 3.125, 80.0, 0.1, 0.35, 2450.0, 1e15, 1e-300, 5e-324, 1.7e308,
        -7.5, NAN, INF, -INF,
    ];
    for doc in library::functions() {
        if doc.path.starts_with("units::") {
            grid(&mut v, doc.path, &[xs]);
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
    grid(&mut v, "clamp", &[g, &[0.0, -1.0, NAN], &[1.0, 5.0, NAN]]);
    grid(
        &mut v,
        "range",
        &[
            &[0.0, 0.1, -2.0, 2.5, 3.0, 1e20, NAN, -INF],
            &[0.0, 1.1, 2.5, 5.0, 12.0, -3.0, NAN, INF],
        ],
    );
    grid(
        &mut v,
        "linspace",
        &[
            &[0.0, 0.1, 60.0, 1.0, -5.0, 1e-320, NAN, INF],
            &[1.0, 0.98, 10800.0, 0.0, 1e-320, 8.0, NAN],
            &[0.0, 1.0, 2.0, 5.0, 20.0, 100.0, 200.0, 2.5, -1.0, NAN, 2e6],
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
        "ceil", "log10", "abs", "floor", "round", "sqrt", "exp", "ln",
    ] {
        grid(&mut v, path, &[m]);
    }
    for _ in 0..200 {
        let x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 100.0 - 20.0;
        for path in ["exp", "ln", "log10", "sqrt"] {
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
    grid(&mut v, "pow", &[pw, pw]);
    grid(&mut v, "min", &[g, g]);
    grid(&mut v, "max", &[g, g]);
    v
}

// ---------------------------------------------------------------- Rust side

fn to_dynamic(arg: &Arg) -> Dynamic {
    match arg {
        Arg::N(x) => Dynamic::from_float(*x),
        Arg::S(x) => Dynamic::from(x.clone()),
        Arg::A(xs) => Dynamic::from_array(xs.iter().map(to_dynamic).collect()),
    }
}

fn from_dynamic(v: &Dynamic) -> Out {
    if let Ok(x) = v.as_float() {
        return Out::Num(x);
    }
    if let Ok(b) = v.as_bool() {
        return Out::Bool(b);
    }
    if v.is_string() {
        return Out::Str(v.clone().into_string().unwrap());
    }
    if let Some(arr) = v.read_lock::<rhai::Array>() {
        return Out::Arr(arr.iter().map(from_dynamic).collect());
    }
    if let Some(map) = v.read_lock::<rhai::Map>() {
        return Out::Map(
            map.iter()
                .map(|(k, x)| (k.to_string(), from_dynamic(x)))
                .collect(),
        );
    }
    panic!("unexpected result type {} ({v:?})", v.type_name());
}

fn error_message(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(v, _) => v.to_string(),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => error_message(inner),
        other => format!("<not a runtime error: {other}>"),
    }
}

fn eval_rust(engine: &Engine, case: &Case) -> Out {
    let mut scope = Scope::new();
    let mut names = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        let name = format!("a{i}");
        scope.push_dynamic(name.clone(), to_dynamic(arg));
        names.push(name);
    }
    let script = format!("{}({})", case.path, names.join(", "));
    match engine.eval_with_scope::<Dynamic>(&mut scope, &script) {
        Ok(v) => from_dynamic(&v),
        Err(e) => Out::Err(error_message(&e)),
    }
}

// ------------------------------------------------------------------ JSON

fn num_text(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x == INF {
        "Infinity".into()
    } else if x == -INF {
        "-Infinity".into()
    } else {
        format!("{x:?}")
    }
}

fn arg_json(arg: &Arg) -> J {
    match arg {
        Arg::N(x) => json!({"t": "n", "v": num_text(*x)}),
        Arg::S(x) => json!({"t": "s", "v": x}),
        Arg::A(xs) => json!({"t": "a", "v": xs.iter().map(arg_json).collect::<Vec<_>>()}),
    }
}

fn out_from_json(j: &J) -> Out {
    let t = j["t"].as_str().expect("tagged value");
    let v = &j["v"];
    match t {
        "n" => {
            let text = v.as_str().unwrap();
            Out::Num(match text {
                "NaN" => NAN,
                "Infinity" => INF,
                "-Infinity" => -INF,
                other => other
                    .parse::<f64>()
                    .unwrap_or_else(|_| panic!("number text {other:?}")),
            })
        }
        "s" => Out::Str(v.as_str().unwrap().to_string()),
        "b" => Out::Bool(v.as_bool().unwrap()),
        "a" => Out::Arr(v.as_array().unwrap().iter().map(out_from_json).collect()),
        "m" => Out::Map(
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, x)| (k.clone(), out_from_json(x)))
                .collect(),
        ),
        "e" => Out::Err(v.as_str().unwrap().to_string()),
        "x" => panic!("JS returned an unsupported value: {v}"),
        other => panic!("unknown tag {other}"),
    }
}

const RUNNER: &str = r#"
"use strict";
const fs = require("fs");
const vm = require("vm");
const scripts = process.argv.slice(2);
const inputPath = scripts.pop();
for (const path of scripts) {
  vm.runInThisContext(fs.readFileSync(path, "utf8"), { filename: path });
}
const input = JSON.parse(fs.readFileSync(inputPath, "utf8"));
const lib = labforgeLibrary(input.hardware);
function dec(a) {
  if (a.t === "n") return Number(a.v);
  if (a.t === "s") return a.v;
  return a.v.map(dec);
}
function enc(x) {
  if (typeof x === "number") {
    let v;
    if (Number.isNaN(x)) v = "NaN";
    else if (x === Infinity) v = "Infinity";
    else if (x === -Infinity) v = "-Infinity";
    else if (Object.is(x, -0)) v = "-0";
    else v = String(x);
    return { t: "n", v };
  }
  if (typeof x === "string") return { t: "s", v: x };
  if (typeof x === "boolean") return { t: "b", v: x };
  if (Array.isArray(x)) return { t: "a", v: x.map(enc) };
  if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    const o = {};
    for (const k of Object.keys(x)) o[k] = enc(x[k]);
    return { t: "m", v: o, keys: Object.keys(x) };
  }
  return { t: "x", v: String(x) };
}
const results = input.cases.map((c) => {
  const f = lib[c.path];
  if (typeof f !== "function") return { t: "e", v: "<missing in library.js: " + c.path + ">" };
  try {
    return enc(f.apply(null, c.args.map(dec)));
  } catch (e) {
    if (!(e instanceof Error)) return { t: "e", v: "<threw a non-Error: " + String(e) + ">" };
    return { t: "e", v: e.message };
  }
});
process.stdout.write(JSON.stringify({ keys: Object.keys(lib), results }));
"#;

fn library_js_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("renderers/html/library.js")
}

/// `library.js` and the scripts of the namespaces kept apart from it
/// (`renderers/html/library/*.js`), sorted.
fn library_js_paths() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("renderers/html/library");
    let mut topics: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    topics.sort();
    assert!(topics.len() >= 5, "{topics:?}");
    let mut all = vec![library_js_path()];
    all.extend(topics);
    all
}

// ------------------------------------------------------------------ compare

#[derive(Default)]
struct Stats {
    numbers: usize,
    bit_identical: usize,
    max_rel: f64,
    max_rel_case: String,
    non_identical_paths: BTreeMap<&'static str, usize>,
}

fn compare(
    path: &'static str,
    rust: &Out,
    js: &Out,
    stats: &mut Stats,
    what: &str,
) -> Result<(), String> {
    match (rust, js) {
        (Out::Num(r), Out::Num(j)) => {
            stats.numbers += 1;
            let same_bits = r.to_bits() == j.to_bits() || (r.is_nan() && j.is_nan());
            if same_bits {
                stats.bit_identical += 1;
                return Ok(());
            }
            *stats.non_identical_paths.entry(path).or_default() += 1;
            if r == j {
                // +0 vs -0.
                return Ok(());
            }
            if r.is_finite() && j.is_finite() {
                let rel = (r - j).abs() / r.abs().max(j.abs());
                if rel > stats.max_rel {
                    stats.max_rel = rel;
                    stats.max_rel_case = what.to_string();
                }
                if rel <= 1e-12 {
                    return Ok(());
                }
            }
            Err(format!("numbers differ: rust {r:?} vs js {j:?}"))
        }
        (Out::Str(r), Out::Str(j)) if r == j => Ok(()),
        (Out::Bool(r), Out::Bool(j)) if r == j => Ok(()),
        (Out::Err(r), Out::Err(j)) if r == j => Ok(()),
        (Out::Arr(r), Out::Arr(j)) if r.len() == j.len() => {
            for (i, (x, y)) in r.iter().zip(j).enumerate() {
                compare(path, x, y, stats, what).map_err(|e| format!("[{i}]: {e}"))?;
            }
            Ok(())
        }
        (Out::Map(r), Out::Map(j)) => {
            let rk: Vec<&String> = r.keys().collect();
            let jk: Vec<&String> = j.keys().collect();
            if rk != jk {
                return Err(format!("map keys differ: rust {rk:?} vs js {jk:?}"));
            }
            for (k, x) in r {
                compare(path, x, &j[k], stats, what).map_err(|e| format!(".{k}: {e}"))?;
            }
            Ok(())
        }
        _ => Err(format!("results differ: rust {rust:?} vs js {js:?}")),
    }
}

fn describe_case(case: &Case) -> String {
    fn arg(a: &Arg) -> String {
        match a {
            Arg::N(x) => format!("{x:?}"),
            Arg::S(x) => format!("{x:?}"),
            Arg::A(xs) => format!("[{}]", xs.iter().map(arg).collect::<Vec<_>>().join(", ")),
        }
    }
    format!(
        "{}({})",
        case.path,
        case.args.iter().map(arg).collect::<Vec<_>>().join(", ")
    )
}

#[test]
fn library_js_matches_rust() {
    let Some(node) = common::node_binary() else {
        if std::env::var_os("CI").is_some() {
            panic!(
                "library_js: `node` was not found (PATH or LABFORGE_NODE) and CI is set: \
                 the Rust/JS parity test cannot run. Install Node.js (Debian package `nodejs`)."
            );
        }
        println!("SKIPPED library_js_matches_rust: `node` not found on PATH (set LABFORGE_NODE)");
        return;
    };

    let cases = cases();

    // Every documented function has cases.
    let covered: BTreeSet<&str> = cases.iter().map(|c| c.path).collect();
    let documented: BTreeSet<&str> = library::functions().iter().map(|d| d.path).collect();
    let missing: Vec<&&str> = documented.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "functions without parity cases: {missing:?}"
    );
    let unknown: Vec<&&str> = covered.difference(&documented).collect();
    assert!(
        unknown.is_empty(),
        "cases for undocumented paths: {unknown:?}"
    );

    let mut engine = Engine::new();
    library::register(&mut engine);
    let rust: Vec<Out> = cases.iter().map(|c| eval_rust(&engine, c)).collect();

    // The brief's literal form evaluates the same as the scope form.
    let literal = engine
        .eval::<Dynamic>("queue::pk_wait(0.8, 3.0, 30.0)")
        .unwrap()
        .as_float()
        .unwrap();
    let scoped = eval_rust(
        &engine,
        &Case {
            path: "queue::pk_wait",
            args: vec![n(0.8), n(3.0), n(30.0)],
        },
    );
    assert!(matches!(scoped, Out::Num(x) if x == literal));
    assert!((literal - 600.0).abs() < 1e-9);

    let dir = std::env::temp_dir().join(format!("labforge-library-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runner = dir.join("runner.js");
    let input = dir.join("input.json");
    std::fs::write(&runner, RUNNER).unwrap();
    let payload = json!({
        "hardware": library::hardware_json(),
        "cases": cases.iter().map(|c| json!({
            "path": c.path,
            "args": c.args.iter().map(arg_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    std::fs::write(&input, serde_json::to_vec(&payload).unwrap()).unwrap();
    let output = Command::new(&node)
        .arg(&runner)
        .args(library_js_paths())
        .arg(&input)
        .output()
        .expect("run node");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let result: J = serde_json::from_slice(&output.stdout).expect("runner prints JSON");

    // The JS library has exactly the documented keys.
    let js_keys: BTreeSet<&str> = result["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(js_keys, documented, "library.js keys vs FnDoc paths");

    let js: Vec<Out> = result["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(out_from_json)
        .collect();
    assert_eq!(js.len(), cases.len());

    // hw maps: the JS object keys come out in the same (sorted) order as Rhai's map.
    for (i, c) in cases.iter().enumerate() {
        if c.path == "hw" {
            if let Some(keys) = result["results"][i].get("keys") {
                let keys: Vec<&str> = keys
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k.as_str().unwrap())
                    .collect();
                let mut sorted = keys.clone();
                sorted.sort_unstable();
                assert_eq!(keys, sorted, "hw({:?}) key order", c.args);
            }
        }
    }

    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for ((case, r), j) in cases.iter().zip(&rust).zip(&js) {
        let what = describe_case(case);
        if let Err(e) = compare(case.path, r, j, &mut stats, &what) {
            failures.push(format!("{what}: {e}"));
        }
    }
    println!(
        "library_js: {} cases over {} functions; {} numbers compared, {} bit-identical, \
         max relative difference {:e}{}",
        cases.len(),
        documented.len(),
        stats.numbers,
        stats.bit_identical,
        stats.max_rel,
        if stats.max_rel > 0.0 {
            format!(" (at {})", stats.max_rel_case)
        } else {
            String::new()
        }
    );
    println!(
        "library_js: not bit-identical per function: {:?}",
        stats.non_identical_paths
    );
    assert!(
        failures.is_empty(),
        "{} mismatches between Rust and JS, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(30)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// library.js stays a plain ES2019 script: no modules, no eval, no newer syntax.
#[test]
fn library_js_is_a_plain_es2019_script() {
    let main = std::fs::read_to_string(library_js_path()).unwrap();
    assert!(main.contains("function labforgeLibrary(hardware)"));
    for path in library_js_paths() {
        let src = std::fs::read_to_string(&path).unwrap();
        es2019_only(&path, &src);
    }
}

fn es2019_only(path: &Path, src: &str) {
    for banned in [
        "?.",
        "??",
        "BigInt",
        "import ",
        "export ",
        "require(",
        "eval(",
        "Function(",
        "=>",
        "`",
        "#",
    ] {
        assert!(
            !src.contains(banned),
            "{} contains {banned:?}",
            path.display()
        );
    }
}
