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
//!
//! The argument tuples are in `tests/library_js/`: `namespaces.rs` (`queue::`, `rel::`,
//! `fleet::`, `cost::`), `topics.rs` (the namespaces in `renderers/html/library/*.js`) and
//! `globals.rs` (`units::`, `hw`, `model`, the global functions). That the scripts stay plain ES2019 is
//! `tests/it/library_js_syntax.rs`.

use crate::common;
#[path = "library_js/formulas.rs"]
mod formulas;
#[path = "library_js/globals.rs"]
mod globals;
#[path = "library_js/namespaces.rs"]
mod namespaces;
#[path = "library_js/sim.rs"]
mod sim;
#[path = "library_js/topics.rs"]
mod topics;
use std::collections::{BTreeMap, BTreeSet};
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
    /// A record (`sim::cluster`'s configuration), keys in order.
    M(Vec<(String, Arg)>),
    B(bool),
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

pub use crate::common::Rng;

impl Rng {
    /// A finite double with uniformly random bits.
    fn any_finite(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next());
            if x.is_finite() {
                return x;
            }
        }
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
    // One random stream, drawn in this order (fleet lists, then formatted and math values).
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    namespaces::cases(&mut v, &mut rng);
    topics::cases(&mut v);
    globals::cases(&mut v, &mut rng);
    formulas::cases(&mut v, &mut rng);
    sim::cases(&mut v);
    v
}

// ---------------------------------------------------------------- Rust side

fn to_dynamic(arg: &Arg) -> Dynamic {
    match arg {
        Arg::N(x) => Dynamic::from_float(*x),
        Arg::S(x) => Dynamic::from(x.clone()),
        Arg::A(xs) => Dynamic::from_array(xs.iter().map(to_dynamic).collect()),
        Arg::M(kv) => Dynamic::from_map(
            kv.iter()
                .map(|(k, x)| (k.as_str().into(), to_dynamic(x)))
                .collect(),
        ),
        Arg::B(b) => Dynamic::from_bool(*b),
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
        Arg::M(kv) => {
            json!({"t": "m", "v": kv.iter().map(|(k, x)| json!([k, arg_json(x)])).collect::<Vec<_>>()})
        }
        Arg::B(b) => json!({"t": "b", "v": b}),
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
const lib = labforgeLibrary(input.hardware, input.models);
function dec(a) {
  if (a.t === "n") return Number(a.v);
  if (a.t === "s" || a.t === "b") return a.v;
  if (a.t === "m") {
    const o = {};
    for (const [k, x] of a.v) o[k] = dec(x);
    return o;
  }
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
            Arg::M(kv) => format!(
                "#{{{}}}",
                kv.iter()
                    .map(|(k, x)| format!("{k}: {}", arg(x)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Arg::B(b) => b.to_string(),
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
        "models": library::models_json(library::models()),
        "cases": cases.iter().map(|c| json!({
            "path": c.path,
            "args": c.args.iter().map(arg_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    std::fs::write(&input, serde_json::to_vec(&payload).unwrap()).unwrap();
    let output = Command::new(&node)
        .arg(&runner)
        .args(common::library_js_paths())
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

    // hw and model maps: the JS object keys come out in the same (sorted) order as Rhai's map.
    for (i, c) in cases.iter().enumerate() {
        if c.path == "hw" || c.path == "model" {
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
    // stats::, rand:: and sim:: use the library's own exp and ln: the same bits, not just close.
    let inexact: Vec<_> = stats
        .non_identical_paths
        .keys()
        .filter(|p| p.starts_with("stats::") || p.starts_with("rand::") || p.starts_with("sim::"))
        .collect();
    assert!(inexact.is_empty(), "not bit-identical: {inexact:?}");
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
