//! Fuzzing load → check → eval → render (every renderer, student and key) on stable Rust, with
//! proptest and a fixed seed:
//!
//! - **mutations** of the labs under `labs/` and `tests/inputs/` (bytes cut, lines duplicated or
//!   swapped, numbers and lab-text tokens replaced by hostile ones), which mostly exercise the
//!   loader's and checker's diagnostics;
//! - **generated valid labs** (random parts, controls, formulas from a small grammar, outputs,
//!   panels, charts and banners), which mostly reach evaluation and rendering.
//!
//! Every case must not panic; a lab that checks clean must evaluate every part and render with
//! every renderer; rendering twice gives the same bytes. `cargo test --test it fuzz::` runs a short
//! deterministic run; a longer one: `LABFORGE_FUZZ_CASES=100000 cargo test --release --test fuzz`
//! (`LABFORGE_FUZZ_SEED=n` picks another seed; a failing case is printed, shrunk, in full).

use crate::common;
use common::root;
use indexmap::IndexMap;
use labforge::eval::{load_source, CompiledLab};
use labforge::load::Source;
use labforge::render::{renderer, RenderOptions};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// Cases per strategy: `LABFORGE_FUZZ_CASES`, or a few seconds' worth in a debug build.
fn cases(default: u32) -> u32 {
    std::env::var("LABFORGE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A runner with a fixed seed (`LABFORGE_FUZZ_SEED` to change it), so a run is reproducible.
fn runner(cases: u32) -> TestRunner {
    let seed: u64 = std::env::var("LABFORGE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(13);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// What the pipeline reached, for the statistics a run prints.
#[derive(Default, Debug)]
struct Reached {
    loaded: usize,
    clean: usize,
    rendered: usize,
}

/// The whole pipeline on one lab text; `Err` describes a broken promise (a panic fails too).
fn pipeline(text: &str, reached: &mut Reached) -> Result<(), String> {
    let lab = match load_source(Source::new("fuzz.yaml", text)) {
        Ok(l) => l,
        Err((_, diags)) => {
            if diags.is_empty() {
                return Err("a lab that does not compile has no diagnostic".into());
            }
            return Ok(());
        }
    };
    reached.loaded += 1;
    let diags = lab.check_semantics();
    for d in &diags {
        if d.message.is_empty() {
            return Err(format!("a diagnostic without a message: {d:?}"));
        }
    }
    let _ = lab.run_tests();
    if diags.iter().any(|d| d.is_error()) {
        return Ok(());
    }
    reached.clean += 1;
    // A check-clean lab evaluates every part at its defaults, and renders.
    if let Err(e) = evaluate_all(&lab) {
        // Say whether a fresh load fails the same way (else state leaked between cases).
        let fresh = load_source(Source::new("fuzz.yaml", text))
            .map_err(|_| "does not compile".to_string())
            .and_then(|l| evaluate_all(&l));
        return Err(format!(
            "{e} (meter: {} units in total; a fresh load: {fresh:?})",
            lab.engine.meter().total_used()
        ));
    }
    for name in ["html", "markdown", "handout-html"] {
        for key in [false, true] {
            let r = renderer(name).expect("renderer");
            let opts = RenderOptions {
                answer_key: key,
                templates: None,
                ..RenderOptions::default()
            };
            let a = r
                .render(&lab, "fuzz", &opts)
                .map_err(|e| format!("{name} (key {key}) failed on a clean lab: {e}"))?;
            // Same lab, same bytes: again from the same compiled lab, and from a fresh load.
            let b = r.render(&lab, "fuzz", &opts).map_err(|e| e.to_string())?;
            if a != b {
                return Err(format!("{name} (key {key}) is not deterministic"));
            }
            let again = load_source(Source::new("fuzz.yaml", text))
                .map_err(|_| "the lab stopped compiling")?;
            if r.render(&again, "fuzz", &opts).map_err(|e| e.to_string())? != a {
                return Err(format!("{name} (key {key}) differs between two loads"));
            }
        }
    }
    reached.rendered += 1;
    Ok(())
}

fn evaluate_all(lab: &CompiledLab) -> Result<(), String> {
    for part in &lab.parts {
        lab.start_update();
        let inputs = lab
            .inputs(part, &IndexMap::new())
            .map_err(|e| format!("part `{}`: defaults rejected: {e}", part.id))?;
        let ev = lab
            .evaluate(part, &inputs)
            .map_err(|e| format!("part `{}` fails at its defaults: {e}", part.id))?;
        lab.outputs(&ev)
            .and_then(|_| lab.callouts(&ev))
            .and_then(|_| lab.charts(&ev))
            .map_err(|e| format!("part `{}`: {e}", part.id))?;
    }
    Ok(())
}

// ------------------------------------------------------------------ mutations of the seeds

fn seeds() -> Vec<String> {
    let mut files = Vec::new();
    for dir in ["labs", "tests/inputs"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) == Some("yaml") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Text a mutation may put in place of a number, a word or a line.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "-1e308",
    "65536",
    "4294967296",
    "NaN",
    ".nan",
    "-.inf",
    "0.0000001",
    "\"\"",
    "''",
    "~",
    "null",
    "[]",
    "{}",
    "{{",
    "}}",
    "{{ @x }}",
    "{{ }}",
    "__proto__",
    "/../../x",
    "<script>alert(1)</script>",
    "\u{1b}]0;x\u{7}",
    "é",
    "\u{202e}",
    "#",
    ":",
    "- ",
    "&a",
    "*a",
    "!!str",
    "while true { }",
    "loop { }",
    "1/0",
    "digits: 65536",
    "id: \"\"",
    "requires: [a]",
    "may_never_fire: true",
];

#[derive(Debug, Clone)]
enum Mutation {
    Cut(usize, usize),
    DupLine(usize),
    SwapLines(usize, usize),
    Token(usize, usize),
    Number(usize, usize),
}

/// `i` taken modulo `t.len() + 1`, moved back to the nearest character boundary of `t`: a
/// position at which a mutation may cut or insert.
fn char_boundary(t: &str, i: usize) -> usize {
    let mut i = i % (t.len() + 1);
    while !t.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, ms: &[Mutation]) -> String {
    let mut t = text.to_string();
    for m in ms {
        let at = |i: usize, t: &str| char_boundary(t, i);
        match *m {
            Mutation::Cut(a, n) => {
                let a = at(a, &t);
                let b = at(a + n % 64, &t).max(a);
                t.replace_range(a..b, "");
            }
            Mutation::DupLine(i) | Mutation::SwapLines(i, _) if t.lines().count() == 0 => {
                let _ = i;
            }
            Mutation::DupLine(i) => {
                let mut lines: Vec<&str> = t.lines().collect();
                let i = i % lines.len();
                lines.insert(i, lines[i]);
                t = lines.join("\n");
            }
            Mutation::SwapLines(i, j) => {
                let mut lines: Vec<&str> = t.lines().collect();
                let n = lines.len();
                lines.swap(i % n, j % n);
                t = lines.join("\n");
            }
            Mutation::Token(i, k) => {
                let a = at(i, &t);
                t.insert_str(a, TOKENS[k % TOKENS.len()]);
            }
            Mutation::Number(i, k) => {
                // Replace the digits of the i-th number in the text.
                let nums: Vec<(usize, usize)> = numbers(&t);
                if !nums.is_empty() {
                    let (a, b) = nums[i % nums.len()];
                    t.replace_range(a..b, TOKENS[k % 10]);
                }
            }
        }
    }
    t
}

fn numbers(t: &str) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            v.push((s, i));
        } else {
            i += 1;
        }
    }
    v
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Numbers replaced keep the YAML valid most often, so that more cases reach evaluation.
    prop_oneof![
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Mutation::Cut(a, n)),
        1 => any::<usize>().prop_map(Mutation::DupLine),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, k)| Mutation::Token(a, k)),
        6 => (any::<usize>(), any::<usize>()).prop_map(|(a, k)| Mutation::Number(a, k)),
    ]
}

#[test]
fn mutated_seed_labs_never_panic() {
    let seeds = seeds();
    assert!(seeds.len() > 10, "the seed corpus is there");
    let reached = std::cell::RefCell::new(Reached::default());
    let mut r = runner(cases(60));
    let strategy = (0..seeds.len(), prop::collection::vec(mutation(), 1..3));
    let result = r.run(&strategy, |(i, ms)| {
        let text = apply(&seeds[i], &ms);
        pipeline(&text, &mut reached.borrow_mut())
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- lab ---\n{text}")))
    });
    println!("mutations: {:?}", reached.borrow());
    if let Err(e) = result {
        panic!("{e}");
    }
}

// ------------------------------------------------------------------ generated valid labs

/// A formula over `names` from a small grammar: numbers, names, arithmetic, calls, `if`, and
/// (at the top) a bounded loop.
fn formula(names: Vec<String>) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (1u32..100).prop_map(|n| n.to_string()),
        (0u32..1000).prop_map(|n| format!("{}.{}", n / 10, n % 10)),
        proptest::sample::select(names),
    ];
    let expr = leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                proptest::sample::select(vec!["+", "-", "*", "/"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                proptest::sample::select(vec!["abs", "sqrt", "floor", "exp", "ln"]),
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if {c} > 1 {{ {a} }} else {{ {b} }}")),
        ]
    });
    (expr, 0u32..4, 1u32..60).prop_map(|(e, kind, n)| match kind {
        0 => format!("let t = 0; for i in range(0, {n}) {{ t += i; }} t + {e}"),
        1 => format!(
            "let a = range(0, {n}); if contains(a, {}) {{ {e} }} else {{ 0 }}",
            n / 2
        ),
        _ => e,
    })
}

#[derive(Debug, Clone)]
struct GenPart {
    controls: Vec<(u8, f64)>,
    formulas: Vec<String>,
    digits: Vec<Option<u8>>,
    chart: Option<(u8, String)>,
    banner: Option<(String, f64)>,
    panel: bool,
}

fn part(index: usize) -> impl Strategy<Value = GenPart> {
    let controls = prop::collection::vec((0u8..3, 1.0f64..50.0), 1..4);
    controls.prop_flat_map(move |controls| {
        let mut names: Vec<String> = (0..controls.len()).map(|i| format!("c{i}")).collect();
        names.push("base".into());
        let _ = index;
        let fs = (1usize..4).prop_flat_map(move |n| {
            // Formula k may read the controls and the formulas before it.
            let mut v = Vec::new();
            for k in 0..n {
                let mut scope = names.clone();
                scope.extend((0..k).map(|j| format!("f{j}")));
                v.push(formula(scope).boxed());
            }
            v
        });
        (
            Just(controls),
            fs,
            prop::collection::vec(prop::option::of(0u8..4), 4),
            prop::option::of((0u8..2, formula(vec!["x".into(), "c0".into()]))),
            prop::option::of((
                prop::sample::select(vec!["f0 > 1", "c0 < 10", "f0 >= 0 || c0 > 0"]),
                1.0f64..5.0,
            )),
            any::<bool>(),
        )
            .prop_map(
                |(controls, formulas, digits, chart, banner, panel)| GenPart {
                    controls,
                    formulas,
                    digits,
                    chart,
                    banner: banner.map(|(c, x)| (c.to_string(), x)),
                    panel,
                },
            )
    })
}

fn yaml_lab(parts: &[GenPart]) -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "id: generated\ntitle: Generated lab\nconstants:\n  base: { value: 2.5, unit: x, source: fuzz }\nparts:\n",
    );
    for (pi, p) in parts.iter().enumerate() {
        let _ = writeln!(s, "  - id: p{pi}\n    title: Part {pi}\n    controls:");
        for (ci, (kind, v)) in p.controls.iter().enumerate() {
            let d = v.round().max(1.0);
            let _ = match kind {
                0 => writeln!(s, "      - slider: {{ id: c{ci}, label: \"C{ci}\", min: 1, max: 50, step: 1, default: {d} }}"),
                1 => writeln!(s, "      - number: {{ id: c{ci}, label: \"C{ci}\", min: 1, max: 50, default: {d} }}"),
                _ => writeln!(s, "      - select: {{ id: c{ci}, label: \"C{ci}\", options: {{ \"Low\": 2, \"High\": {d} }}, default: \"Low\" }}"),
            };
        }
        s.push_str("    formulas:\n");
        for (fi, f) in p.formulas.iter().enumerate() {
            let _ = writeln!(s, "      f{fi}: {}", yaml_str(f));
        }
        s.push_str("    outputs:\n");
        for fi in 0..p.formulas.len() {
            let digits = p.digits[fi]
                .map(|d| format!(", digits: {d}"))
                .unwrap_or_default();
            let _ = writeln!(s, "      f{fi}: {{ label: \"F{fi}\", unit: min{digits} }}");
        }
        s.push_str("    instruments:\n      - metrics: [");
        let cards: Vec<String> = (0..p.formulas.len())
            .map(|fi| format!("{{ output: f{fi} }}"))
            .collect();
        s.push_str(&cards.join(", "));
        s.push_str("]\n");
        if p.panel {
            let _ = writeln!(
                s,
                "      - panel:\n          title: \"Values\"\n          lines:\n            - \"f0 = {{{{ fmt(f0, 2) }}}} ({{{{ @f0 }}}})\""
            );
        }
        if let Some((kind, y)) = &p.chart {
            let kind = if *kind == 0 { "line" } else { "bar" };
            let _ = writeln!(
                s,
                "      - chart:\n          id: ch{pi}\n          kind: {kind}\n          sweep: {{ var: x, from: 1, to: 8, step: 1 }}\n          series:\n            - {{ name: S, x: x, y: {} }}",
                yaml_str(y)
            );
        }
        // Every control is read somewhere: a table of a formula reading them all.
        let all: Vec<String> = (0..p.controls.len()).map(|ci| format!("c{ci}")).collect();
        let _ = writeln!(s, "      - table: {{ outputs: [sum_c] }}");
        let _ = writeln!(s, "    feedback:");
        let _ = writeln!(
            s,
            "      - when: sum_c >= 0\n        info: \"Sum {{{{ fmt(sum_c, 1) }}}}\""
        );
        if let Some((cond, _)) = &p.banner {
            let _ = writeln!(s, "      - when: {}\n        warn: \"Check {{{{ f0 }}}}\"\n        may_never_fire: true", yaml_str(cond));
        }
        // sum_c goes last in formulas: insert it before `outputs:` of this part.
        let idx = s.rfind("    outputs:\n      f0:").expect("outputs");
        s.insert_str(idx, &format!("      sum_c: {}\n", all.join(" + ")));
        let idx = s.rfind("    instruments:\n").expect("instruments");
        s.insert_str(idx, "      sum_c: { label: \"Sum\" }\n");
    }
    s
}

fn yaml_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn generated_labs_check_evaluate_and_render() {
    let reached = std::cell::RefCell::new(Reached::default());
    let mut r = runner(cases(20));
    let strategy = prop::collection::vec(part(0), 1..4);
    let result = r.run(&strategy, |parts| {
        let text = yaml_lab(&parts);
        pipeline(&text, &mut reached.borrow_mut())
            .map_err(|e| TestCaseError::fail(format!("{e}\n--- lab ---\n{text}")))
    });
    let reached = reached.into_inner();
    println!("generated: {reached:?}");
    if let Err(e) = result {
        panic!("{e}");
    }
    // The generator's point: most of its labs are valid and reach rendering.
    assert!(
        reached.rendered * 2 > reached.loaded,
        "only {reached:?} of the generated labs reached rendering"
    );
}

// ------------------------------------------------------------------ regressions it found

/// Each render has its own total work budget: rendering one compiled lab again and again (as a
/// program embedding labforge would) used to spend the lab's total after a dozen renders.
#[test]
fn one_compiled_lab_renders_any_number_of_times() {
    let text = std::fs::read_to_string(root().join("tests/inputs/html_heavy.yaml")).unwrap();
    let Ok(lab) = load_source(Source::new("heavy.yaml", text)) else {
        panic!("the lab compiles")
    };
    assert!(lab.check_semantics().iter().all(|d| !d.is_error()));
    for round in 0..6 {
        for name in ["html", "markdown", "handout-html"] {
            renderer(name)
                .unwrap()
                .render(&lab, "heavy", &RenderOptions::default())
                .unwrap_or_else(|e| panic!("render {round} of {name}: {e}"));
        }
    }
}

// ------------------------------------------------------------------ course records

/// One change to a course record's ledger: a node (in pre-order) set to a hostile value,
/// removed, or given a hostile key; or the text cut or given a token (a damaged link).
#[derive(Debug, Clone)]
enum RecordMutation {
    Set(usize, usize),
    Remove(usize),
    AddKey(usize, usize, usize),
    Cut(usize, usize),
    Insert(usize, usize),
}

/// Values and keys a hostile record uses: option ids the labs have and do not have, prototype
/// keys, numbers at the edges, numbers as text, terminal escapes, wrong types.
fn hostile_values() -> Vec<serde_json::Value> {
    use serde_json::json;
    vec![
        json!("A"),
        json!("B"),
        json!("C"),
        json!("Z"),
        json!("__proto__"),
        json!("constructor"),
        json!(" 1,234.5 "),
        json!("NaN"),
        json!("1e400"),
        json!("0x10"),
        json!(""),
        json!("\u{1b}]52;c;eA==\u{7}"),
        json!(16.0),
        json!(-0.0),
        json!(1e300),
        json!(2.5),
        json!(-1),
        json!(64),
        json!(true),
        json!(false),
        json!(null),
        json!([]),
        json!({}),
        json!(["A", "B"]),
        json!({"prediction": "A", "reflection": "A"}),
        json!({"__proto__": {"polluted": true}}),
        json!({"p": true, "q": false}),
    ]
}

const RECORD_KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "d",
    "z",
    "__proto__",
    "constructor",
    "prediction",
    "reflection",
    "controls",
    "decision_log",
    "prediction_attempts",
    "prediction_locked_at",
    "hasOwnProperty",
    "x0",
];

fn nodes(v: &serde_json::Value) -> usize {
    1 + match v {
        serde_json::Value::Array(a) => a.iter().map(nodes).sum(),
        serde_json::Value::Object(m) => m.values().map(nodes).sum(),
        _ => 0,
    }
}

/// The `i`-th node (pre-order) of `v`, mutably.
fn node(v: &mut serde_json::Value, i: usize) -> Option<&mut serde_json::Value> {
    fn go<'a>(v: &'a mut serde_json::Value, i: &mut usize) -> Option<&'a mut serde_json::Value> {
        if *i == 0 {
            return Some(v);
        }
        *i -= 1;
        match v {
            serde_json::Value::Array(a) => a.iter_mut().find_map(|x| go(x, i)),
            serde_json::Value::Object(m) => m.values_mut().find_map(|x| go(x, i)),
            _ => None,
        }
    }
    let mut i = i;
    go(v, &mut i)
}

fn mutate_record(base: &serde_json::Value, ms: &[RecordMutation]) -> String {
    let vals = hostile_values();
    let mut v = base.clone();
    for m in ms {
        let n = nodes(&v);
        match *m {
            RecordMutation::Set(i, k) => {
                if let Some(x) = node(&mut v, i % n) {
                    *x = vals[k % vals.len()].clone();
                }
            }
            RecordMutation::Remove(i) => {
                if let Some(serde_json::Value::Object(o)) = node(&mut v, i % n) {
                    if let Some(k) = o.keys().next().cloned() {
                        o.shift_remove(&k);
                    }
                }
            }
            RecordMutation::AddKey(i, k, x) => {
                if let Some(serde_json::Value::Object(o)) = node(&mut v, i % n) {
                    o.insert(
                        RECORD_KEYS[k % RECORD_KEYS.len()].into(),
                        vals[x % vals.len()].clone(),
                    );
                }
            }
            RecordMutation::Cut(..) | RecordMutation::Insert(..) => {}
        }
    }
    let mut t = v.to_string();
    for m in ms {
        let at = |i: usize, t: &str| char_boundary(t, i);
        match *m {
            RecordMutation::Cut(a, len) => {
                let a = at(a, &t);
                let b = at(a + len % 16, &t).max(a);
                t.replace_range(a..b, "");
            }
            RecordMutation::Insert(a, k) => {
                let a = at(a, &t);
                t.insert_str(
                    a,
                    ["{", "}", "\"", ",", ":", "[", "\\", "\"__proto__\":{},"][k % 8],
                );
            }
            _ => {}
        }
    }
    t
}

fn record_mutation() -> impl Strategy<Value = RecordMutation> {
    prop_oneof![
        4 => (any::<usize>(), any::<usize>()).prop_map(|(i, k)| RecordMutation::Set(i, k)),
        1 => any::<usize>().prop_map(RecordMutation::Remove),
        3 => (any::<usize>(), any::<usize>(), any::<usize>()).prop_map(|(i, k, x)| RecordMutation::AddKey(i, k, x)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, n)| RecordMutation::Cut(a, n)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, k)| RecordMutation::Insert(a, k)),
    ]
}

/// A lab's ledger with every question answered by its first option (numbers: `12`), every
/// control in place and a decision log; or, `half`, only the first part answered.
fn answered_ledger(lab: &CompiledLab, shape: &serde_json::Value, half: bool) -> serde_json::Value {
    let mut l = serde_json::to_value(labforge::ledger::Ledger::new(lab)).unwrap();
    for (i, p) in shape.as_array().unwrap().iter().enumerate() {
        if half && i > 0 {
            break;
        }
        let id = p[0].as_str().unwrap();
        let first = |x: &serde_json::Value| match x {
            serde_json::Value::String(_) => Some(serde_json::Value::from("12")),
            serde_json::Value::Array(a) => a.first().cloned(),
            _ => None,
        };
        if let Some(a) = first(&p[1]) {
            l["parts"][id]["prediction"] = a;
            l["parts"][id]["prediction_locked_at"] = "2026-01-01T00:00:00Z".into();
        }
        if let Some(a) = first(&p[2]) {
            l["parts"][id]["reflection"] = a;
        }
        // A part's questions (the shape's fifth entry): each answered as its kind takes.
        for q in p.get(4).and_then(|q| q.as_array()).into_iter().flatten() {
            let ids = q
                .get(2)
                .and_then(|x| x.as_array())
                .cloned()
                .unwrap_or_default();
            let answer = match q[1].as_str() {
                Some("c") => ids.first().cloned().unwrap_or_default(),
                Some("s") => serde_json::Value::Array(ids.iter().take(2).cloned().collect()),
                Some("n") => "5".into(),
                _ => "Utilization binds, the queue grows.".into(),
            };
            l["parts"][id]["questions"][q[0].as_str().unwrap()] =
                serde_json::json!({"answer": answer, "answered_at": "2026-01-01T00:00:00Z"});
        }
    }
    l["decision_log"] = if half { "" } else { "Mine." }.into();
    l
}

#[test]
fn mutated_course_records_merge_the_same_in_rust_and_the_page() {
    use labforge::record::merge;
    let labs: Vec<CompiledLab> = [
        "labs/fault-tolerance.yaml",
        "labs/compute-infrastructure.yaml",
        "tests/inputs/ok_questions.yaml",
    ]
    .iter()
    .map(|f| labforge::lab::load_lab(&root().join(f)).unwrap())
    .collect();
    let mut r = runner(1);
    let strategy = (
        0..labs.len(),
        any::<bool>(),
        any::<u8>(),
        prop::collection::vec(record_mutation(), 1..4),
    );
    let mut all = Vec::new();
    for _ in 0..cases(300) {
        let (li, replace, who, ms) = strategy.new_tree(&mut r).unwrap().current();
        let lab = &labs[li];
        let shape = merge::shape(lab);
        let full = answered_ledger(lab, &shape, false);
        let half = answered_ledger(lab, &shape, true);
        // Mutated: the incoming copy, and sometimes this copy too.
        let (mine, theirs) = match who % 3 {
            0 => (Some(half.clone()), mutate_record(&full, &ms)),
            1 => (Some(full.clone()), mutate_record(&half, &ms)),
            _ => (None, mutate_record(&full, &ms)),
        };
        all.push(common::merge::case(&shape, mine.as_ref(), &theirs, replace));
    }
    let rust: Vec<serde_json::Value> = all.iter().map(common::merge::rust).collect();
    // The rule's promises, on the Rust side.
    for (c, r) in all.iter().zip(&rust) {
        let Some(merged) = r.get("merged") else {
            continue;
        };
        let (mine, shape) = (&r["mine"], &c["shape"]);
        let ids: Vec<&str> = shape
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p[0].as_str().unwrap())
            .collect();
        let keys: Vec<&str> = merged["parts"]
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, ids, "only the lab's parts, in its order: {c}");
        for id in &ids {
            let (m, g) = (&mine["parts"][id], &merged["parts"][id]);
            if !m["prediction"].is_null() {
                assert_eq!(
                    m["prediction"], g["prediction"],
                    "a locked prediction replaced: {c}"
                );
            }
            if c["replace"] == false && !m["reflection"].is_null() {
                assert_eq!(
                    m["reflection"], g["reflection"],
                    "an answer replaced without consent: {c}"
                );
            }
        }
        if c["replace"] == false && mine["decision_log"].as_str().is_some_and(|s| !s.is_empty()) {
            assert_eq!(mine["decision_log"], merged["decision_log"], "{c}");
        }
        // Cleaning what was cleaned drops nothing more.
        let (again, dropped) = merge::clean(&r["clean"], shape);
        assert!(
            dropped.is_empty() && again == r["clean"],
            "clean is not idempotent: {dropped:?} {c}"
        );
    }
    let reached = rust.iter().filter(|r| r.get("merged").is_some()).count();
    println!(
        "course records: {} cases, {reached} reached the merge",
        all.len()
    );
    assert!(
        reached * 3 > all.len(),
        "too few cases reached the merge: {reached}"
    );
    let Some(node) = common::node_or_skip("the page's course merge") else {
        return;
    };
    let page = common::merge::js(&node, &all);
    for ((c, r), p) in all.iter().zip(&rust).zip(&page) {
        assert!(
            common::merge::same(r, p),
            "Rust and the page differ:\ncase: {c}\nRust: {r}\npage: {p}"
        );
    }
}
