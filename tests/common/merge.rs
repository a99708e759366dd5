//! The course record's merge rule run on both sides (tests/it/record_merge.rs, tests/it/fuzz.rs):
//! `labforge::record::merge` in Rust and `renderers/html/course.js` (`LF_COURSE.core`) in Node
//! (`tests/browser/course-core.cjs`), case by case, with results of the same shape.

use labforge::record::merge;
use serde_json::{json, Value as J};
use std::path::Path;

/// One case: a lab's shape, this copy's ledger (or null), the incoming ledger's text, and
/// whether the student said to replace.
pub fn case(shape: &J, mine: Option<&J>, theirs: &str, replace: bool) -> J {
    json!({"shape": shape, "mine": mine, "theirs": theirs, "replace": replace})
}

/// `c` with the course record's tracks: the course's track ids and the `track` of this copy's
/// record and of the incoming one (each a value, maybe not a text); the result then has `track`.
pub fn with_tracks(mut c: J, tracks: &[&str], mine: J, theirs: J) -> J {
    c["tracks"] = json!(tracks);
    c["mine_track"] = mine;
    c["theirs_track"] = theirs;
    c
}

/// What Rust makes of a case: `{bounds, json, clean, dropped, mine, merged, o}` (and `track`
/// for a case [`with_tracks`]), as the Node driver prints it.
pub fn rust(c: &J) -> J {
    let mut r = rust_lab(c);
    if let Some(ids) = c["tracks"].as_array() {
        let ids: Vec<&str> = ids.iter().filter_map(J::as_str).collect();
        r["track"] = merge::merge_track(&c["mine_track"], &c["theirs_track"], &ids);
    }
    r
}

fn rust_lab(c: &J) -> J {
    let text = c["theirs"].as_str().unwrap_or_default();
    if let Err(e) = merge::bounds(text) {
        return json!({"bounds": e});
    }
    let Ok(j) = serde_json::from_str::<J>(text) else {
        return json!({"bounds": null, "json": false});
    };
    if !j.is_object() {
        return json!({"bounds": null, "json": true});
    }
    let shape = &c["shape"];
    let (t, dropped) = merge::clean(&j, shape);
    let mine = (!c["mine"].is_null()).then(|| merge::clean(&c["mine"], shape).0);
    let (merged, o) = merge::merge_lab(mine.as_ref(), &t, shape, c["replace"] == true);
    json!({"bounds": null, "json": true, "clean": t, "dropped": dropped, "mine": mine,
        "merged": merged, "o": {"taken": o.taken, "conflicts": o.conflicts, "locked": o.locked}})
}

/// What the page's JavaScript makes of `cases`, run in `node`.
pub fn js(node: &Path, cases: &[J]) -> Vec<J> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cases.json");
    std::fs::write(&f, serde_json::to_vec(cases).unwrap()).unwrap();
    let root = super::root();
    let out = super::node_stdout(
        node,
        &[
            &root.join("tests/browser/course-core.cjs"),
            &root.join("renderers/html/course.js"),
            &f,
        ],
    );
    serde_json::from_slice(&out).unwrap()
}

/// The same JSON, numbers compared as numbers; a bounds error compared as "refused".
pub fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (J::Object(x), J::Object(y)) => {
            let keys = |m: &serde_json::Map<String, J>| {
                let mut k: Vec<String> = m.keys().cloned().collect();
                k.sort();
                k
            };
            keys(x) == keys(y)
                && x.iter()
                    .all(|(k, v)| k == "bounds" && v.is_null() == y[k].is_null() || same(v, &y[k]))
        }
        _ => a == b,
    }
}
