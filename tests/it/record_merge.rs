//! The course record's merge rule (docs/formats.md, "How course records merge") on fixed cases,
//! in Rust (`labforge::record::merge`) and in the page's JavaScript (`renderers/html/course.js`
//! run in Node): each case's outcome is checked in Rust, and the page must give the very same
//! cleaned ledgers, dropped sentences and merges. `tests/it/fuzz.rs` does the same on mutated records.

use crate::common;
use common::merge::{case, js, rust, same, with_tracks};
use serde_json::{json, Value as J};

/// Part `a`: options `x`/`y`, reflection `r1`/`r2`, one control of each kind; part `b`: a numeric
/// prediction; part `c`: a reflection only.
fn shape() -> J {
    json!([
        ["a", ["x", "y"], ["r1", "r2"], [
            ["n", ["n", 0.0, 10.00000001]],
            ["s", ["o", [1, "two", {"k": true}]]],
            ["t", ["b"]],
            ["c", ["k", ["p", "q"]]],
            ["v", ["v", [1, 2, 4]]]
        ]],
        ["b", "num", null, []],
        ["c", null, ["r1", "r2"], []]
    ])
}

fn ledger(parts: J, log: &str) -> J {
    json!({"format": "labforge-ledger/2", "lab": "l", "version": 1, "parts": parts, "decision_log": log})
}

/// A student's four answered parts... here three parts, all answered, and a decision log.
fn answered() -> J {
    ledger(
        json!({
            "a": {"prediction": "x", "prediction_locked_at": "2026-01-01T00:00:00Z", "reflection": "r1",
                  "controls": {"n": 4, "s": "two", "t": true, "c": {"p": true, "q": false}, "v": 2}},
            "b": {"prediction": "12.5"},
            "c": {"reflection": "r2"}
        }),
        "My decision.",
    )
}

/// Part `q` asks a choice `c` (`x`/`y`), a select-all `s` (`a`/`b`/`c`), a number `n` and a
/// text `t`; no prediction.
fn qshape() -> J {
    json!([[
        "q",
        null,
        null,
        [],
        [
            ["c", "c", ["x", "y"]],
            ["s", "s", ["a", "b", "c"]],
            ["n", "n"],
            ["t", "t"]
        ]
    ]])
}

fn qanswers() -> J {
    ledger(
        json!({"q": {"questions": {
            "c": {"answer": "x", "correct": true, "answered_at": "2026-01-01T00:00:00Z"},
            "s": {"answer": ["a", "c"], "correct": false, "score": 0.5},
            "n": {"answer": "12.5", "correct": true},
            "t": {"answer": "Bandwidth binds: the weights stream from memory."}
        }}}),
        "",
    )
}

struct Case {
    name: &'static str,
    case: J,
    check: fn(&J),
}

fn cases() -> Vec<Case> {
    let s = shape();
    let mut invented = serde_json::Map::new();
    for i in 0..10 {
        invented.insert(
            format!("p{i}"),
            json!({"prediction": "x", "reflection": "r1"}),
        );
    }
    invented.insert("__proto__".into(), json!({"prediction": "x"}));
    invented.insert("constructor".into(), json!({"prediction": "x"}));
    let wipe = ledger(J::Object(invented), "");
    let mut many = String::from("{\"parts\":{");
    for i in 0..10_001 {
        many.push_str(&format!("\"k{i}\":0,"));
    }
    many.push_str("\"z\":0}}");
    vec![
        Case {
            name: "invented parts (the 492-byte wipe) change nothing and are named",
            case: case(&s, Some(&answered()), &wipe.to_string(), false),
            check: |r| {
                assert_eq!(r["o"], json!({"taken": [], "conflicts": [], "locked": []}), "{r}");
                assert_eq!(r["merged"]["parts"], r["mine"]["parts"]);
                assert_eq!(r["merged"]["decision_log"], "My decision.");
                let d = r["dropped"].as_array().unwrap();
                assert_eq!(d.len(), 12, "{d:?}");
                for k in ["__proto__", "constructor", "p0", "p9"] {
                    let want = format!("a part `{k}` the lab does not have");
                    assert!(d.iter().any(|x| x == &J::from(want.clone())), "{want}: {d:?}");
                }
            },
        },
        Case {
            name: "answers this copy lacks are taken, part by part",
            case: case(
                &s,
                Some(&ledger(json!({"a": {"prediction": "y"}}), "")),
                &ledger(json!({"a": {"prediction": "x", "reflection": "r2"}, "b": {"prediction": " 1,234 "}, "c": {"reflection": "r1"}}), "Theirs.").to_string(),
                false,
            ),
            check: |r| {
                assert_eq!(r["o"]["taken"], json!(["Part A", "Part B", "Part C", "the decision log"]), "{r}");
                assert_eq!(r["o"]["locked"], json!(["Part A"]));
                let p = &r["merged"]["parts"];
                assert_eq!(p["a"]["prediction"], "y", "the locked prediction stays");
                assert_eq!(p["a"]["reflection"], "r2");
                assert_eq!(p["b"]["prediction"], " 1,234 ");
                assert_eq!(r["merged"]["complete"], true);
            },
        },
        Case {
            name: "a locked prediction is never replaced, even when the student says replace",
            case: case(&s, Some(&answered()), &ledger(json!({"a": {"prediction": "y", "reflection": "r1"}}), "").to_string(), true),
            check: |r| {
                assert_eq!(r["merged"]["parts"]["a"]["prediction"], "x");
                assert_eq!(r["o"], json!({"taken": [], "conflicts": [], "locked": ["Part A"]}), "{r}");
            },
        },
        Case {
            name: "a different reflection and decision log are conflicts, kept without consent",
            case: case(&s, Some(&answered()), &ledger(json!({"c": {"reflection": "r1"}}), "Another.").to_string(), false),
            check: |r| {
                assert_eq!(r["o"]["conflicts"], json!(["Part C's reflection", "the decision log"]), "{r}");
                assert_eq!(r["merged"]["parts"]["c"]["reflection"], "r2");
                assert_eq!(r["merged"]["decision_log"], "My decision.");
            },
        },
        Case {
            name: "... and replaced with it",
            case: case(&s, Some(&answered()), &ledger(json!({"c": {"reflection": "r1"}}), "Another.").to_string(), true),
            check: |r| {
                assert_eq!(r["merged"]["parts"]["c"]["reflection"], "r1");
                assert_eq!(r["merged"]["decision_log"], "Another.");
            },
        },
        Case {
            name: "options, controls and values the lab does not have are dropped and named",
            case: case(&s, None, &ledger(json!({
                "a": {"prediction": "z", "reflection": "r3", "prediction_attempts": ["x"],
                      "controls": {"n": 11, "s": "three", "t": "yes", "c": {"p": true, "z": true}, "v": 3, "zz": 1, "\u{1b}]52;c;": 1}},
                "b": {"prediction": "0x10"},
                "c": "not a part"
            }), "").to_string(), false),
            check: |r| {
                let d: Vec<&str> = r["dropped"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
                assert_eq!(d, [
                    "Part A: a prediction that is none of its answers",
                    "Part A: a reflection that is none of its answers",
                    "Part A: a control `zz` the part does not have",
                    "Part A: 1 × a control with an unusual name the part does not have",
                    "Part A: the control `n` out of its range",
                    "Part A: the control `s` out of its range",
                    "Part A: the control `t` out of its range",
                    "Part A: the control `c` out of its range",
                    "Part A: the control `v` out of its range",
                    "Part B: a prediction that is none of its answers",
                    "Part C: answers that are not a part's",
                ], "{r}");
                assert_eq!(r["clean"]["parts"], json!({"a": {}, "b": {}, "c": {}}));
                assert_eq!(r["o"]["taken"], json!([]));
            },
        },
        Case {
            name: "values in range are kept (numbers as numbers, a select's record value)",
            case: case(&s, None, &ledger(json!({"a": {"controls": {"n": 10.0, "s": {"k": true}, "t": false, "c": {"q": true}, "v": 4.000000001}}, "b": {"prediction": "NaN"}}), "").to_string(), false),
            check: |r| {
                assert_eq!(r["clean"]["parts"]["a"]["controls"].as_object().unwrap().len(), 5, "{r}");
                assert_eq!(r["dropped"], json!(["Part B: a prediction that is none of its answers"]));
            },
        },
        Case {
            name: "nested deeper than the bound: refused before parsing",
            case: case(&s, None, &format!("{}{}", "[".repeat(40), "]".repeat(40)), false),
            check: |r| assert!(r["bounds"].as_str().unwrap().contains("nested deeper"), "{r}"),
        },
        Case {
            name: "more keys than the bound: refused before parsing",
            case: case(&s, None, &many, false),
            check: |r| assert!(r["bounds"].as_str().unwrap().contains("keys"), "{r}"),
        },
        Case {
            name: "a part's track: kept with its prediction when it is a track id, else dropped",
            case: case(&s, None, &ledger(json!({
                "a": {"prediction": "x", "track": "phone"},
                "b": {"prediction": "3", "track": "Not An Id"},
                "c": {"reflection": "r1", "track": "phone"}
            }), "").to_string(), false),
            check: |r| {
                let p = &r["clean"]["parts"];
                assert_eq!(p["a"]["track"], "phone", "{r}");
                assert!(p["b"].get("track").is_none(), "{r}");
                assert!(p["c"].get("track").is_none(), "a track without a prediction: {r}");
                assert_eq!(r["merged"]["parts"]["a"]["track"], "phone", "taken with the prediction");
            },
        },
        Case {
            name: "a prediction locked on one track keeps that track against another track's answer",
            case: case(&s, Some(&ledger(json!({"a": {"prediction": "x", "track": "ring"}}), "")),
                &ledger(json!({"a": {"prediction": "y", "track": "phone"}, "b": {"prediction": "2", "track": "cloud"}}), "").to_string(), true),
            check: |r| {
                let p = &r["merged"]["parts"];
                assert_eq!((&p["a"]["prediction"], &p["a"]["track"]), (&json!("x"), &json!("ring")), "{r}");
                assert_eq!(p["b"]["track"], "cloud", "{r}");
                assert_eq!(r["o"]["locked"], json!(["Part A"]));
            },
        },
        Case {
            name: "the course track: a copy without one takes theirs",
            case: with_tracks(case(&s, None, &answered().to_string(), false), &["phone", "ring"], J::Null, json!("ring")),
            check: |r| assert_eq!(r["track"], "ring", "{r}"),
        },
        Case {
            name: "the course track: mine is kept when I have one",
            case: with_tracks(case(&s, None, &answered().to_string(), false), &["phone", "ring"], json!("phone"), json!("ring")),
            check: |r| assert_eq!(r["track"], "phone", "{r}"),
        },
        Case {
            name: "the course track: one that is not the course's is none (mine: theirs is taken)",
            case: with_tracks(case(&s, None, &answered().to_string(), false), &["phone", "ring"], json!("boat"), json!("ring")),
            check: |r| assert_eq!(r["track"], "ring", "{r}"),
        },
        Case {
            name: "the course track: theirs not the course's, or not a text, is not taken",
            case: with_tracks(case(&s, None, &answered().to_string(), false), &["phone", "ring"], J::Null, json!(["phone"])),
            check: |r| assert_eq!(r["track"], J::Null, "{r}"),
        },
        Case {
            name: "the course track: theirs from another course's tracks is not taken",
            case: with_tracks(case(&s, None, &answered().to_string(), false), &["phone", "ring"], J::Null, json!("cloud")),
            check: |r| assert_eq!(r["track"], J::Null, "{r}"),
        },
        Case {
            name: "question answers: unknown questions and wrong kinds dropped and named, a text bounded",
            case: case(&qshape(), None, &ledger(json!({"q": {"questions": {
                "zz": {"answer": "x"}, "__proto__": {"answer": "x"}, "\u{1b}[2J": {"answer": "x"},
                "c": {"answer": "z", "correct": true},
                "s": {"answer": ["c", "a"], "score": 7, "correct": "yes", "answered_at": "2026-01-01T00:00:00Z"},
                "n": {"answer": "0x10"},
                "t": {"answer": "word ".repeat(3_000), "answered_at": "x".repeat(65)}
            }}}), "").to_string(), false),
            check: |r| {
                let d: Vec<&str> = r["dropped"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
                assert_eq!(d, [
                    "Part Q: an answer to a question `__proto__` the part does not ask",
                    "Part Q: an answer to a question `zz` the part does not ask",
                    "Part Q: 1 × an answer to a question with an unusual name the part does not ask",
                    "Part Q: an answer to the question `c` that is none of its answers",
                    "Part Q: an answer to the question `n` that is none of its answers",
                ], "{r}");
                let q = &r["clean"]["parts"]["q"]["questions"];
                assert_eq!(q["s"], json!({"answer": ["a", "c"], "answered_at": "2026-01-01T00:00:00Z"}), "in the options' order, odd fields dropped: {r}");
                assert_eq!(q["t"]["answer"].as_str().unwrap().chars().count(), 10_000);
                assert!(q["t"].get("answered_at").is_none());
                assert_eq!(r["clean"]["complete"], false);
            },
        },
        Case {
            name: "question answers this copy lacks are taken; one that differs is a conflict",
            case: case(&qshape(), Some(&ledger(json!({"q": {"questions": {"c": {"answer": "y"}}}}), "")), &qanswers().to_string(), false),
            check: |r| {
                assert_eq!(r["o"]["taken"], json!(["Part Q"]), "{r}");
                assert_eq!(r["o"]["conflicts"], json!(["Part Q's question `c`"]));
                let q = &r["merged"]["parts"]["q"]["questions"];
                assert_eq!(q["c"]["answer"], "y", "mine is kept without consent");
                assert_eq!(q["s"]["score"], 0.5);
                assert_eq!(r["merged"]["complete"], true);
            },
        },
        Case {
            name: "... and replaced with it",
            case: case(&qshape(), Some(&ledger(json!({"q": {"questions": {"c": {"answer": "y"}}}}), "")), &qanswers().to_string(), true),
            check: |r| assert_eq!(r["merged"]["parts"]["q"]["questions"]["c"]["answer"], "x", "{r}"),
        },
        Case {
            name: "an identical copy changes nothing",
            case: case(&s, Some(&answered()), &answered().to_string(), false),
            check: |r| assert_eq!(r["o"], json!({"taken": [], "conflicts": [], "locked": []}), "{r}"),
        },
    ]
}

#[test]
fn the_merge_rule_holds_in_rust_case_by_case() {
    for c in cases() {
        let r = rust(&c.case);
        println!("{}", c.name);
        (c.check)(&r);
    }
}

#[test]
fn the_pages_merge_gives_the_same_results_as_rusts() {
    let Some(node) = common::node_or_skip("the page's course merge") else {
        return;
    };
    let cs = cases();
    let inputs: Vec<J> = cs.iter().map(|c| c.case.clone()).collect();
    let page = js(&node, &inputs);
    assert_eq!(page.len(), cs.len());
    for (c, p) in cs.iter().zip(&page) {
        let r = rust(&c.case);
        assert!(same(&r, p), "{}:\nRust: {r}\npage: {p}", c.name);
        (c.check)(p);
    }
}
