//! Formula parity between the CLI and the page, one formula at a time: each case is compiled by
//! the formula engine and evaluated by Rhai, then translated to JavaScript and run by the page's
//! own `renderers/html/runtime.js` (and `library.js`) in Node, with the DOM stubbed out. The two
//! must agree on the value's type and its text (Rhai's string conversion), or both must fail.
//! Cases the subset rejects are listed separately and must fail `compile` with a hint.
//!
//! Node: `node` on PATH (or `LABFORGE_NODE`). Without it the test prints a SKIPPED line, or
//! fails when the `CI` environment variable is set.

use crate::common;
use labforge::formula::{js, FormulaEngine};
use rhai::{Dynamic, Scope};
use serde_json::{json, Value as J};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The scope every case sees (all numbers real, as controls and constants are).
const SCOPE: &str = r#"{"x": 1.5, "neg": -7.5, "n": 7, "zero": 0, "s": "héllo", "flag": true,
  "list": [3, 1, 4, 1, 5], "m": {"a": 1, "b": "t", "len": 9}, "empty": []}"#;

/// The audit's heavy formulas (`contains` over a 9,000-item list in a loop, lists and strings
/// grown one item at a time) just under the work budget: both sides finish, charging the same.
const BUDGET_UNDER: &[&str] = &[
    "let a = range(0, 9000); let n = 0; for i in range(0, 54) { if contains(a, i) { n += 1; } } n",
    "let a = []; for i in range(0, 994) { a += i; } len(a)",
    "let t = \"\"; for i in range(0, 703) { t += \"é\"; } len(t)",
    // A variable read copies a list in Rust: inside a loop it costs the list's items.
    "let a = range(0, 9000); let n = 0; for i in range(0, 54) { let b = a; n += len(b); } n",
    // A library function takes its list by value: the read is charged.
    "let a = range(1, 9001); let n = 0; for i in range(0, 54) { n += fleet::jain(a); } n",
    // A lab function's body charges its work; it takes its lists by value.
    "scan(big(), 54)",
    "scan(range(0, 9000), 54) + f1(1)",
    "let a = range(0, 9000); let n = 0; for i in range(0, 54) { n += total([i]) + pick(a, i); } n",
    // Draws charge their count, a Poisson draw 1 + ⌈λ⌉; list statistics their list's length.
    "let n = 0; for i in range(0, 49) { n += len(rand::normal(i, 10000, 0, 1)); } n",
    "len(rand::poisson(1, 10000, 47))",
    "let a = rand::uniform(1, 10000); let n = 0; for i in range(0, 24) { n += stats::percentile(a, 50); } n",
];

/// The same one step further: both sides stop with the budget's error.
const BUDGET_OVER: &[&str] = &[
    "let a = range(0, 9000); let n = 0; for i in range(0, 55) { if contains(a, i) { n += 1; } } n",
    "let a = []; for i in range(0, 995) { a += i; } len(a)",
    "let t = \"\"; for i in range(0, 704) { t += \"é\"; } len(t)",
    "let a = range(0, 9000); let n = 0; for i in range(0, 55) { let b = a; n += len(b); } n",
    "let a = range(1, 9001); let n = 0; for i in range(0, 55) { n += fleet::jain(a); } n",
    "scan(big(), 55)",
    "let a = range(0, 9000); let n = 0; for i in range(0, 55) { n += total(a); } n",
    "let n = 0; for i in range(0, 51) { n += len(rand::normal(i, 10000, 0, 1)); } n",
    "len(rand::poisson(1, 10000, 49))",
    "let a = rand::uniform(1, 10000); let n = 0; for i in range(0, 25) { n += stats::percentile(a, 50); } n",
];

/// Lab functions every case may call (the lab's `functions:`), compiled by the lab compiler.
const FUNCTIONS: &str = r#"
id: fns
title: Functions
parts: [ { id: a, title: A } ]
functions:
  - { name: sq, args: [v], body: v * v }
  - { name: hyp, args: [a, b], body: "sqrt(sq(a) + sq(b))" }
  - name: total
    args: [xs]
    body: |
      let t = 0;
      for v in xs { t += v; }
      t
  - { name: scan, args: [xs, k], body: "let n = 0; for i in range(0, k) { if contains(xs, i) { n += 1; } } n" }
  - { name: pick, args: [xs, i], body: "at(xs, i)" }
  - { name: label, args: [name, v], body: "name + \"=\" + v" }
  - { name: grow, args: [xs], body: "let ys = xs; ys += 9; len(ys)" }
  - { name: big, args: [], body: "range(0, 9000)" }
  - { name: f1, args: [v], body: "f2(v) + 1" }
  - { name: f2, args: [v], body: "f3(v) + 1" }
  - { name: f3, args: [v], body: "v * 2" }
  - { name: nth, args: [xs, i], body: "let a = 1;\nlet b = at(xs, i);\nb" }
  - { name: outer, args: [xs], body: "let n = len(xs);\n\npick(xs, n)" }
  - { name: cond, args: [v], body: "let a = v;\nif a { 1 } else { 2 }" }
  - { name: deep, args: [xs], body: "let t = 0;\nfor i in range(0, 3) {\n  t += nth(xs, i * 4);\n}\nt" }
"#;

/// Lab-function calls: nested, with loops, lists, strings, errors inside the body, a caller's
/// list left unchanged by a function that grows its copy.
const FUNCTION_CASES: &[&str] = &[
    "hyp(3, 4)",
    "sq(x) + hyp(x, n)",
    "total(list)",
    "total([])",
    "label(s, x)",
    "pick(list, 2)",
    "pick(list, 9)",
    "pick(list, x)",
    "grow(list) + len(list)",
    "f1(x)",
    "let t = 0; for i in range(0, 20) { t += f1(i); } t",
    "sq(\"a\")",
    "hyp(m.a, m.len)",
    // An error on a later line of the body, in a function called by a function, in a loop.
    "nth(list, 7)",
    "nth(list, 2)",
    "outer(list)",
    "cond(x)",
    "deep(list)",
    // Errors outside functions, in the same words on both sides.
    "hw(\"NoSuchDevice\")",
    "hw(\"H100\").no_such_field",
    "fmt(x, 1, \"eng\")",
    "range(5, 1)",
    "linspace(0, 1, 0)",
    "logspace(0, 1, 5)",
    "list[n]",
    "x.foo",
];

/// Formulas both sides must compute identically.
const SAME: &[&str] = &[
    // seeded draws and list statistics (library::random, library::stats): same values, same
    // charges, same errors
    "stats::percentile(rand::lognormal(7, 10000, 2.3, 0.5), 99)",
    "stats::histogram(rand::normal(3, 1000, 0, 1), -3, 3, 12)",
    "stats::sort(rand::poisson(2, 20, 3.5))",
    "let d = rand::exponential(5, 200, 2.0); stats::percentile(d, 50) + at(stats::sort(d), 199)",
    "rand::pareto(9, 3, 1, 1.5)",
    "rand::uniform(1, 2.5)",
    "rand::uniform(-1, 2)",
    // More draws than a formula's list may hold: the same size error on both sides.
    "len(rand::uniform(1, 20000))",
    "stats::histogram(list, 0, 0, 3)",
    "stats::psi([1, 2, 3], list)",
    "stats::erf(0.5) + stats::normal_cdf(1, 0, 1) + stats::lognormal_cdf(20, 2.3, 0.5)",
    "train::flops(175e9, 300e9) + train::chinchilla_tokens(70e9)",
    "rel::stacked_availability(0.99, 3) + rel::ckpt_bytes_per_param(\"fp16_adam_mixed\")",
    // arithmetic, precedence, unary minus, real division, `%` and `**`
    "1 + 2 * 3 - 4 / 8",
    "-x ** 2",
    "-(x) ** 2",
    "2 ** -1 + 2 ** 0.5",
    "7 % 3 + neg % 2 + 7 % -3 + -7 % 3",
    "x % 0",
    "neg ** 0.5",
    "1 ** (0 / 0)",
    "(0 - 1) ** (1 / 0)",
    "1 / zero + -1 / zero",
    "0 * -1",
    "7 / 2",
    "x - -x",
    "!flag || !(x > 1)",
    "1 < 2 == true",
    // integers from `len`
    "len(s)",
    "len(list) / 2",
    "len(list) % 2",
    "len(list) * len(s) - 1",
    "-len(list)",
    "len(list) ** 2",
    "len(list) + x",
    "len(list) == 5",
    "len(list) > 4.5",
    "abs(-len(list))",
    "min(len(list), len(s))",
    "max(len(list), 2)",
    "max(2, len(list))",
    "sign(len(list))",
    "sign(-len(list))",
    "sign(0 - x)",
    "sign(x)",
    "sqrt(len(list))",
    "floor(len(list))",
    "round(len(list))",
    "is_nan(len(list))",
    "sum([len(list), 1])",
    "at(list, len(list) - 1)",
    "to_string(len(list))",
    "\"n=\" + len(list)",
    "len(list) + \"!\"",
    "`${len(list)}`",
    "len(list) ** 3",
    "len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list) * len(list)",
    "len(list) % 0",
    "len(empty) / len(empty)",
    "s.len",
    "list.len + 1",
    "m.len",
    // strings
    "\"a\" + 1",
    "1 + \"a\"",
    "\"a\" + flag",
    "flag + \"a\"",
    "\"a\" + 1e20",
    "\"a\" + 1e-20",
    "\"a\" + 123456789012345.0",
    "\"a\" + 0.1 + 0.2",
    "\"a\" + (0.1 + 0.2)",
    "\"a\" + -0.0",
    "\"a\" + list",
    "\"a\" + m",
    "\"a\" + [\"q\\\"t\", flag]",
    "\"a\" + m.nothing",
    "\"tab\\there\\nnl \\U0001F600 \\\\ </script>\"",
    "\"b\" < \"a\" || \"a\" < \"b\"",
    "\"Z\" < \"a\"",
    "\"\\uFFFF\" < \"\\U0001F600\"",
    "\"\\uFFFF\" + \"\\U0001F600\" + len(\"\\U0001F600\")",
    "\"é\" > \"z\"",
    "s == \"héllo\"",
    "to_upper(s) + to_lower(\"ÀB\")",
    "contains(s, \"ll\")",
    "s + s",
    // mixed-type comparisons
    "1 == \"1\"",
    "1 != \"1\"",
    "\"1\" < 1",
    "flag == 1",
    "flag < true",
    "list == [3, 1, 4, 1, 5]",
    "list == [3, 1, 4, 1]",
    "list != m",
    "m == #{a: 1, b: \"t\", len: 9}",
    "list < m",
    "[1] + [2]",
    "[1] + 2",
    "m + m",
    "m + #{a: 5, c: 1}",
    "list < list",
    "m < m",
    "flag > false",
    "\"a\" <= \"a\"",
    "m.x < m.y",
    "m.x == m.y",
    "m.x <= m.y",
    // Rhai (a checked build) compares two numbers relative to the larger one: within
    // f64::EPSILON they are equal. fault-tolerance part d's chart: at 13 replicas and 4600 QPS
    // the 11-replica bar's load ratio is 1.2999999999999998, which is not `< 1.3` in Rust.
    "4600 / 10 / (4600 / 13) < 1.3",
    "[1.2999999999999998 < 1.3, 1.3 > 1.2999999999999998, 1.2999999999999998 >= 1.3]",
    "[1.3 <= 1.2999999999999998, 1.2999999999999998 == 1.3, 1.2999999999999998 != 1.3]",
    "[0.1 + 0.2 == 0.3, 0.1 + 0.2 != 0.3, 0.1 + 0.2 > 0.3, 0.3 < 0.1 + 0.2]",
    "[1e-300 == 0, 0 < 1e-300, 0 <= -1e-300, 1e-300 != 0, 1e-300 > 0, -1e-300 >= 0]",
    "[1 < 1.0000000000000002, 1 < 1.0000000000000004, 1.0000000000000004 == 1, 5 == 5]",
    "let z = 0 / 0; [z == z, z != z, z < 1, z <= 0, z >= 0, z == 0, z != 0, z == 5, z != 5]",
    "let i = 1 / 0; [i == i, i != i, i > 1, i >= 1, 1 < i, -i < i, i == 1e308]",
    "[[0.1 + 0.2] == [0.3], [0.1 + 0.2] != [0.3], #{a: 0.1 + 0.2} == #{a: 0.3}]",
    "let z = 0 / 0; [[z] == [z], [z] != [z], [z] == [0], #{a: z} != #{a: 1}]",
    "[contains([0.1 + 0.2], 0.3), contains([[0.1 + 0.2]], [0.3]), contains([1e-300], 0)]",
    "hw(\"H100\").name + len(hw(\"H100\"))",
    "hw(1)",
    "fleet::jain(list) + fleet::jain([1, 1])",
    "fleet::jain(\"ab\")",
    "fmt(x) + fmt(x, 2) + x.fmt(1)",
    "queue::pk_wait(\"a\", 1, 1)",
    // The course topics' namespaces, their string arguments and their errors.
    "collective::ring_allreduce_s(1e9, n + 1, 5e-6, 50e9) + collective::tree_allreduce_s(1e9, 9, 5e-6, 50e9)",
    "collective::hier_allreduce_s(1e9, 8, 16, 3e-6, 450e9, 5e-6, 50e9)",
    "roofline::attainable(989.5, roofline::gemm_ai(n, n, n, 2), 3.35)",
    "llm::kv_cache_gb(80, 8, 128, 4096, 16, \"fp16\") + llm::weight_gb(70e9, \"int4\")",
    "llm::weight_gb(70e9, \"int3\")",
    "llm::weight_gb(70e9, 4)",
    "energy::workload_j(1e9, \"fp32_mult\", 1e8, 1e9) + energy::op_pj(\"dram_read_32b\")",
    "carbon::operational_t(carbon::energy_kwh(1024, 700, 720), 1.1, 429)",
    "let a = [1]; a += 2; a",
    "let a = [1]; a += [2]; a",
    "let a = [1]; a += [[2]]; a",
    "let q = #{a: 1}; q += #{b: 2}; q",
    "let t = \"a\"; t += 1; t",
    "let t = 1; t += \"a\"; t",
    // booleans
    "x > 1 && n < 10 || x == 0",
    "false && n",
    "true || n",
    "flag && n",
    "n && true",
    "flag & true",
    "flag | false",
    "flag ^ true",
    "!1",
    "if n { 2 } else { 3 }",
    // maps and properties
    "m.a + m.len",
    "m.nothing",
    "m[\"b\"]",
    "m[\"zz\"]",
    "#{__proto__: 1, constructor: 2, toString: 3}",
    "let q = #{__proto__: 1}; q.__proto__ + len(q)",
    "let q = #{constructor: 5}; q.constructor",
    "let q = #{}; q.constructor",
    "let q = #{}; q.__proto__",
    "let q = #{}; q.toString",
    "x.constructor",
    "s.__proto__",
    "keys(#{b: 1, a: 2, B: 3})",
    "values(#{b: 1, a: 2})",
    "contains(m, \"a\") && !contains(m, \"constructor\")",
    "#{\"with space\": 1, \"é\": 2}",
    "4 in list",
    "\"ll\" in s",
    "\"a\" in m",
    // blocks, shadowing, loops
    "if x > 5 { 1 }",
    "let y = if x > 5 { 1 }; y",
    "let x = x * 2; { let x = x + 1; x } + x",
    "let t = 0; for v in list { let t = t + v; } t",
    "let t = 0; for v in list { let w = v; t += w; } t",
    "let t = 0; for v in list { for w in list { if w > 3 { break; } t += w; } t += 100; } t",
    "let t = 0; let i = 0; while i < 5 { i += 1; if i == 2 { continue; } t += i; } t",
    "let t = 0; loop { t += 1; if t > 3 { break; } } t",
    "let c = \"\"; for ch in \"abc\" { c = ch + c; } c",
    "let c = 0; for ch in \"abc\" { if ch == \"b\" { c += 1; } } c",
    "let c = []; for ch in \"ab\" { c += ch; } c",
    "let c = []; for ch in \"ab\" { c += [ch]; } c",
    "{ let q = n + 1; q * 2 }",
    "let a = 1; let a = a + 1; a",
    "const c = 2; c * 3",
    "let v = 10; for v in list { v += 1; } v",
    "let a = 1; let b = { a = 5; a + 1 }; a + b",
    "let t = 0; for v in list { t += if v > 2 { v } else { let w = v * 10; w }; } t",
    "let x = x; x = 3; x",
    "let q = { let z = 2; z * 3 }; q",
    "for v in list { v }",
    "let a = []; for v in list { a += [v * 2]; } a",
    "let a = [1, 2]; let b = a; a += [3]; b",
    // arrays
    "[1, \"a\", flag, [2]]",
    "\"\" + [m.nothing, #{a: m.nothing}]",
    "\"\" + [1e20, 1e-20, 0.1, -0.0, 1 / zero, -1 / zero, zero / zero, 123456789.0, 1e15, 1e16]",
    // (control characters other than tab and line breaks do not compile: see load::text)
    "\"\" + [\"a\\tb\", \"é\", \"\\r\\n\", \"'\", \"\\\\\"]",
    "\"\" + #{\"k\\t\": 1, \"q\\\"\": [\"x\"]}",
    "len([[1], 2])",
    "at(list, 1.5)",
    "at(list, -1)",
    "at(list, 5)",
    "sum(list) + sum(empty)",
    "sum([1, \"a\"])",
    "contains(list, 4) && !contains(list, \"4\")",
    "contains([[1]], [1])",
    // builtins
    "round(2.5) + round(-2.5) + round(0.49999999999999994)",
    "round(-0.2)",
    "floor(-0.5)",
    "ceiling(-0.5)",
    "abs(-0.0)",
    "log(100) + log(8, 2) + ln(x) + exp(x)",
    "min(0 / 0, 1)",
    "max(0 / 0, 1)",
    "min(1, 0 / 0)",
    "is_finite(1 / zero) || is_infinite(1 / zero)",
    "sign(0 / 0)",
    "sqrt(-1)",
    "atan(1, 2) + atan(-1, -2)",
    "x.atan(2)",
    "to_string(x) + to_string(flag) + to_string(s)",
    "x.abs() + (n / 3).floor()",
    "x.to_string()",
    "s.to_upper()",
    "abs(\"a\")",
    "sqrt(\"a\")",
    "fmt(x * 1000, 1) + \" | \" + fmt(x)",
    // limits
    "let a = [1]; loop { a += a; } a",
    "let t = \"ab\"; loop { t += t; } t",
    "let t = \"ab\"; for i in list { t = `${t}${t}${t}${t}${t}${t}${t}${t}`; } len(t)",
    "let a = [1]; for i in list { a = a + a + a + a + a + a + a + a; } len(a)",
    "let a = [0]; while len(a) < 10001 { a += a; } len(a)",
    "let t = \"\"; while len(t) < 10001 { t += \"x\"; } len(t)",
    "let i = 0; loop { i += 1; } i",
    "len(range(0, 20000))",
    "let a = [1]; for i in range(0, 60) { a = [a, a]; } len(a)",
    "let q = #{a: 1}; for i in range(0, 60) { q = #{a: q, b: q}; } len(q)",
    "let t = \"é\"; while len(t) < 6000 { t += \"é\"; } len(t)",
    "let t = \"é\"; while len(t) < 4000 { t += \"é\"; } len(t)",
    "let t = \"é\"; let a = [t]; for i in range(0, 20) { a += a; } len(a)",
];

/// Constructs outside the subset: `compile` must reject them with a hint.
const REJECTED: &[&str] = &[
    "let a = [1]; a[0] = 2; a",
    "switch x { 1 => 2, _ => 3 }",
    "do { x } while false",
    "try { x } catch { 1 }",
    "x ?? 1",
    "'c'",
    "()",
    "return 1",
    "throw 1",
    "let t = 0; for v in list { t += { if v > 2 { break; } v }; } t",
    "for (v, i) in list { v }",
    "let t = 0; loop { break t; }",
    "let t = 1; t <<= 2; t",
    "fmt(1, 2, \"sci\", 4)",
    "log(100, 10, 1)",
    "sin()",
    "contains(list)",
    "to_string(1, 2)",
    "sum(list, 1)",
    "x.sin(1)",
    "x = 3; x",
    "x += 1; x",
    "if flag { let q = 1; } q = 2; q",
    "for v in list { v = 1; } v = 2; 1",
    "let t = { let q = 1; q }; q = 2; t",
    "const c = 2; c = 3; c",
    "const c = 2; c += 3; c",
    "m.nothing?.a",
    "m?.a",
    "m?[\"b\"]",
    "m.a.nothing?.b",
    "m.nothing?[\"b\"]",
    "x.fmt(1, \"sci\", 4)",
    "queue::pk_wait(1)",
];

fn scope_values() -> (BTreeSet<String>, Vec<(String, Dynamic)>) {
    let v: J = serde_json::from_str(SCOPE).unwrap();
    let mut names = BTreeSet::new();
    let mut vals = Vec::new();
    for (k, x) in v.as_object().unwrap() {
        names.insert(k.clone());
        vals.push((k.clone(), to_dynamic(x)));
    }
    (names, vals)
}

fn to_dynamic(v: &J) -> Dynamic {
    match v {
        J::Number(n) => Dynamic::from_float(n.as_f64().unwrap()),
        J::String(s) => Dynamic::from(s.clone()),
        J::Bool(b) => Dynamic::from_bool(*b),
        J::Array(a) => Dynamic::from_array(a.iter().map(to_dynamic).collect()),
        J::Object(m) => Dynamic::from_map(
            m.iter()
                .map(|(k, x)| (k.as_str().into(), to_dynamic(x)))
                .collect(),
        ),
        J::Null => Dynamic::UNIT,
    }
}

/// What a value looks like from outside: its type and its text.
fn outcome(r: Result<Dynamic, String>) -> J {
    match r {
        Ok(v) => json!({"type": v.type_name(), "text": v.to_string()}),
        Err(e) => json!({"error": e}),
    }
}

const DRIVER: &str = r#"
const fs = require('fs');
const [lib, rhai, format, model, record0, report, tracks, runtime, fns, data] = process.argv.slice(2, 12).map((p) => fs.readFileSync(p, 'utf8'));
const record = record0 + '\n' + report + '\n' + tracks;
const D = JSON.parse(data);
const R = require(process.argv[12])([lib, fns, rhai, format, model, record, runtime], { maxOps: D.maxOps, labOps: D.labOps, maxSize: D.maxSize, hardware: D.hardware, msg: D.msg });
function typeName(x) {
  if (x === undefined || x === null) return '()';
  if (typeof x === 'number') return 'f64';
  if (typeof x === 'bigint') return 'i64';
  if (typeof x === 'boolean') return 'bool';
  if (typeof x === 'string') return 'string';
  return Array.isArray(x) ? 'array' : 'map';
}
const out = [];
for (let i = 0; i < D.count; i++) {
  const S = R.fromJson(D.scope);
  try { const v = R.run(i, S); out.push({ type: typeName(v), text: R.tostr(v), ops: R.ops()[0] }); }
  catch (e) { out.push({ error: String(e && e.message), internal: e.name !== 'Error', ops: R.ops()[0] }); }
}
process.stdout.write(JSON.stringify(out));
"#;

#[test]
fn formulas_compute_the_same_in_rhai_and_the_page_runtime() {
    let Some(node) = common::node_binary() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "formula parity needs node under CI"
        );
        println!("SKIPPED formula parity: `node` not found (set LABFORGE_NODE)");
        return;
    };
    let lab = labforge::eval::load_source(labforge::load::Source::new("fns.yaml", FUNCTIONS))
        .unwrap_or_else(|e| panic!("the functions lab compiles: {:?}", e.1));
    let engine = &lab.engine;
    let (names, vals) = scope_values();
    let mut bodies = Vec::new();
    let mut rust = Vec::new();
    let mut problems = Vec::new();
    let all = SAME
        .iter()
        .chain(FUNCTION_CASES)
        .chain(BUDGET_UNDER)
        .chain(BUDGET_OVER);
    for src in all {
        let ast = match engine.compile(src, &names) {
            Ok(a) => a,
            Err(e) => {
                problems.push(format!("`{src}`: does not compile: {}", e.message));
                continue;
            }
        };
        let mut scope = Scope::new();
        for (k, v) in &vals {
            scope.push_dynamic(k.as_str(), v.clone());
        }
        let mut r = outcome(engine.eval(&ast, &mut scope).map_err(|e| e.message));
        r["ops"] = json!(engine.meter().eval_used());
        rust.push((*src, r));
        bodies.push(js::translate(&ast));
    }
    let dir = std::env::temp_dir().join(format!("labforge-formula-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("renderers/html");
    let fns = dir.join("fns.js");
    let lab_fns: Vec<_> = lab.functions.iter().map(|f| f.js()).collect();
    std::fs::write(&fns, js::module(&bodies, &lab_fns, &[])).unwrap();
    let data = dir.join("data.json");
    let d = json!({
        "maxOps": labforge::formula::limits::MAX_OPERATIONS,
        "labOps": labforge::formula::limits::LAB_OPERATIONS,
        "maxSize": [
            labforge::formula::limits::MAX_STRING,
            labforge::formula::limits::MAX_ARRAY,
            labforge::formula::limits::MAX_MAP
        ],
        "hardware": labforge::library::hardware_json(),
        "msg": labforge::formula::messages::table(),
        "scope": serde_json::from_str::<J>(SCOPE).unwrap(),
        "count": bodies.len(),
    });
    std::fs::write(&data, d.to_string()).unwrap();
    let driver = dir.join("driver.js");
    std::fs::write(&driver, DRIVER).unwrap();
    // The library with every namespace script a page may carry (renderers/html/library/).
    let lib = dir.join("library-all.js");
    let mut lib_src = std::fs::read_to_string(root.join("library.js")).unwrap();
    let mut topics: Vec<_> = std::fs::read_dir(root.join("library"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    topics.sort();
    for t in topics {
        lib_src.push('\n');
        lib_src.push_str(&std::fs::read_to_string(t).unwrap());
    }
    std::fs::write(&lib, lib_src).unwrap();
    let out = Command::new(node)
        .arg(&driver)
        .arg(&lib)
        .arg(root.join("rhai.js"))
        .arg(root.join("format.js"))
        .arg(root.join("chart-model.js"))
        .arg(root.join("ledger.js"))
        .arg(root.join("report.js"))
        .arg(root.join("tracks.js"))
        .arg(root.join("runtime.js"))
        .arg(&fns)
        .arg(&data)
        .arg(common::root().join("tests/browser/runtime-stub.cjs"))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page: Vec<J> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(page.len(), rust.len());
    for ((src, r), p) in rust.iter().zip(&page) {
        if p.get("internal") == Some(&J::Bool(true)) {
            problems.push(format!("`{src}`: the runtime itself failed: {p}"));
        }
        // Both sides charge the same work (crates/engine/src/formula/budget.rs), to the unit, and an error
        // reads the same on both sides, word for word (crates/engine/src/formula/messages.rs).
        let same = r.get("ops") == p.get("ops")
            && match (r.get("error"), p.get("error")) {
                (Some(a), Some(b)) => a == b,
                (None, None) => r == p,
                _ => false,
            };
        println!("`{src}` -> rhai {r} / page {p}");
        if !same {
            problems.push(format!("`{src}`:\n    rhai {r}\n    page {p}"));
        }
    }
    for (src, r) in &rust {
        let over = r
            .get("error")
            .and_then(J::as_str)
            .is_some_and(|e| e == "the formula ran more than 500000 operations");
        if BUDGET_UNDER.contains(src) && r.get("error").is_some() {
            problems.push(format!("`{src}`: should fit the budget: {r}"));
        }
        if BUDGET_OVER.contains(src) && !over {
            problems.push(format!("`{src}`: should overrun the budget: {r}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} formulas differ:\n  {}",
        problems.len(),
        SAME.len(),
        problems.join("\n  ")
    );
}

#[test]
fn constructs_outside_the_subset_are_rejected_with_a_hint() {
    let engine = FormulaEngine::new();
    let (names, _) = scope_values();
    for src in REJECTED {
        match engine.compile(src, &names) {
            Ok(_) => panic!("`{src}` compiled"),
            Err(e) => assert!(e.hint.is_some(), "`{src}`: no hint: {e:?}"),
        }
    }
}
