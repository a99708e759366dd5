//! Course records from outside (a link's `#lf-course=` fragment, an import, the record file
//! itself) are data to check, never a copy to take whole. This is the one rule of
//! docs/formats.md ("How course records merge"), written twice: here for the terminal and in
//! `renderers/html/course.js` (`LF_COURSE.core`) for the page; `tests/it/fuzz.rs` and
//! `tests/it/record_merge.rs` run both on the same inputs and compare.
//!
//! 1. [`bounds`]: size, keys and nesting are checked in one pass over the text, before it is
//!    parsed.
//! 2. [`clean`]: a lab's ledger keeps only what the lab can have, by its [`shape`]: its parts, a
//!    prediction or reflection that is one of its options (a numeric prediction: a finite
//!    number), controls the part has with a value in their range. Everything else is dropped
//!    and named.
//! 3. [`merge_lab`]: part by part, answer by answer. An answer this copy lacks is taken; a locked
//!    prediction is never replaced; a reflection or decision log that differs from this copy's
//!    is a conflict, replaced only when the student said so (`replace`).

use crate::eval::CompiledLab;
use crate::load::check::option_id;
use crate::model::{Control, Value};
use serde_json::{json, Map, Value as J};

/// The largest record text read (bytes of UTF-8).
pub const MAX_BYTES: usize = 512 * 1024;
/// The most keys (`"name":`) a record may hold, all objects together.
pub const MAX_KEYS: usize = 10_000;
/// The deepest nesting of objects and arrays.
pub const MAX_DEPTH: usize = 32;

/// Refuses a text over [`MAX_BYTES`], with more than [`MAX_KEYS`] keys or nested deeper than
/// [`MAX_DEPTH`], in one pass and before any parsing.
pub fn bounds(text: &str) -> Result<(), String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "{} bytes is too large for a course record (at most {MAX_BYTES})",
            text.len()
        ));
    }
    let (mut depth, mut keys, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match b {
                _ if esc => esc = false,
                b'\\' => esc = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!("nested deeper than {MAX_DEPTH} levels"));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b':' => {
                keys += 1;
                if keys > MAX_KEYS {
                    return Err(format!("more than {MAX_KEYS} keys"));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// What a lab's ledger can hold, as the page's data carries it (`course.labs[i][3]`):
/// `[[part id, prediction, reflection, [[control id, spec], ...], questions?], ...]` (the
/// questions only in a part that asks some, [`super::questions::shape`]). A prediction is
/// `null` (none asked), `"num"` (a number) or its option ids; a reflection `null` or its option
/// ids. A control's spec: `["n", lo, hi]` (a number from `lo` to `hi`, either `null` for no
/// bound, tolerance included), `["v", [numbers]]` (one of these, within 1e-9 relative),
/// `["o", [values]]` (one of these values), `["b"]` (a boolean), `["k", [ids]]` (a record of
/// these ids to booleans).
pub fn shape(lab: &CompiledLab) -> J {
    let parts: Vec<J> = lab
        .lab
        .parts
        .iter()
        .map(|p| {
            let ids = |opts: &[crate::model::Choice]| -> J {
                opts.iter()
                    .enumerate()
                    .map(|(i, o)| J::from(option_id(i, o)))
                    .collect()
            };
            let pred = match &p.prediction {
                None => J::Null,
                Some(pr) if pr.numeric.is_some() => J::from("num"),
                Some(pr) => ids(&pr.options),
            };
            let refl = p.reflection.as_ref().map_or(J::Null, |r| ids(&r.options));
            let mut ctls: Vec<J> = p
                .controls
                .iter()
                .map(|c| json!([c.id().value, control_spec(c)]))
                .collect();
            // A value kept for later labs (`records:`) beside the settings: any number.
            for (k, at) in &lab.lab.records {
                if at.value.split_once('.').map(|x| x.0) == Some(p.id.value.as_str()) {
                    ctls.push(json!([format!("@{k}"), ["n", null, null]]));
                }
            }
            let mut v = json!([p.id.value, pred, refl, ctls]);
            if let (Some(qs), Some(a)) = (super::questions::shape(p), v.as_array_mut()) {
                a.push(qs);
            }
            v
        })
        .collect();
    J::Array(parts)
}

/// [`shape`] of a lab on any of its tracks: a lab with tracks takes, part by part, the union
/// of its tracks' shapes (a slider's range on one track may not be another's), so a record
/// made on one track's page is not dropped on another's. A lab without tracks: its shape.
pub fn shape_on_every_track(lab: &CompiledLab) -> Result<J, crate::diag::Diagnostic> {
    let mut out = shape(lab);
    for t in lab.other_tracks() {
        let other = lab.on_track_or_first(&t)?;
        union_shape(&mut out, &shape(&other));
    }
    Ok(out)
}

/// `a` widened by `b`, both shapes of one lab (same parts, same controls, same option ids).
fn union_shape(a: &mut J, b: &J) {
    let Some(parts) = a.as_array_mut() else {
        return;
    };
    for (pa, pb) in parts.iter_mut().zip(b.as_array().into_iter().flatten()) {
        let Some(ctls) = pa[3].as_array_mut() else {
            continue;
        };
        for (ca, cb) in ctls.iter_mut().zip(pb[3].as_array().into_iter().flatten()) {
            if ca[0] == cb[0] {
                ca[1] = union_spec(&ca[1], &cb[1]);
            }
        }
    }
}

fn union_spec(a: &J, b: &J) -> J {
    let list = |s: &J| s[1].as_array().cloned().unwrap_or_default();
    match (a[0].as_str(), b[0].as_str()) {
        (Some("n"), Some("n")) => {
            let lo = match (a[1].as_f64(), b[1].as_f64()) {
                (Some(x), Some(y)) => J::from(x.min(y)),
                _ => J::Null,
            };
            let hi = match (a[2].as_f64(), b[2].as_f64()) {
                (Some(x), Some(y)) => J::from(x.max(y)),
                _ => J::Null,
            };
            json!(["n", lo, hi])
        }
        (Some(k @ ("v" | "o" | "k")), Some(k2)) if k == k2 => {
            let mut vals = list(a);
            for v in list(b) {
                if !vals.iter().any(|x| same(x, &v)) {
                    vals.push(v);
                }
            }
            json!([k, vals])
        }
        // Another kind of control on another track cannot be: keep the first.
        _ => a.clone(),
    }
}

/// The course record's `track` after a merge: mine when I have one of the course's tracks,
/// else theirs when it is one (else none). The page's `core.mergeTrack` is the same rule.
pub fn merge_track(mine: &J, theirs: &J, tracks: &[&str]) -> J {
    mine_else_theirs(mine, theirs, |t| {
        t.as_str().is_some_and(|s| tracks.contains(&s))
    })
}

/// Mine when `ok` holds of it, else theirs when it holds of theirs, else null: the rule of the
/// record's single values (`track`, `student`).
fn mine_else_theirs(mine: &J, theirs: &J, ok: impl Fn(&J) -> bool) -> J {
    if ok(mine) {
        mine.clone()
    } else if ok(theirs) {
        theirs.clone()
    } else {
        J::Null
    }
}

/// The longest student identifier a record keeps (UTF-16 units, as the page counts them).
pub const MAX_STUDENT: usize = 100;

/// The record's `student` after a merge (course.js `mergeStudent`): mine when it is a name
/// (a string, not blank, at most [`MAX_STUDENT`] long), else theirs when it is one, else none.
pub fn merge_student(mine: &J, theirs: &J) -> J {
    mine_else_theirs(mine, theirs, |t| {
        t.as_str()
            .is_some_and(|s| !s.trim().is_empty() && s.encode_utf16().count() <= MAX_STUDENT)
    })
}

fn slack(x: f64) -> f64 {
    1e-9 * x.abs().max(1.0)
}

fn control_spec(c: &Control) -> J {
    let num = |x: Option<f64>| x.filter(|x| x.is_finite()).map_or(J::Null, J::from);
    match c {
        Control::Slider(s) => {
            if let Some(v) = &s.values {
                return json!(["v", v.value]);
            }
            let (min, max) = (
                s.min.as_ref().map(|m| m.value),
                s.max.as_ref().map(|m| m.value),
            );
            let (lo, hi) = match (s.exponent_base, min, max) {
                (Some(b), Some(a), Some(z)) => (Some(b.powf(a)), Some(b.powf(z))),
                (Some(_), _, _) => (None, None),
                (None, a, z) => (a, z),
            };
            let (lo, hi) = match (lo, hi) {
                (Some(a), Some(z)) => (Some(a.min(z)), Some(a.max(z))),
                x => x,
            };
            json!([
                "n",
                num(lo.map(|x| x - slack(x))),
                num(hi.map(|x| x + slack(x)))
            ])
        }
        Control::Number(n) => json!(["n", num(n.min), num(n.max)]),
        Control::Select(s) | Control::Radio(s) => {
            let vals: Vec<J> = s.options.value.values().map(value_json).collect();
            json!(["o", vals])
        }
        Control::Switch(_) => json!(["b"]),
        Control::Checkboxes(c) => {
            let ids: Vec<J> = c.options.keys().map(|k| J::from(k.as_str())).collect();
            json!(["k", ids])
        }
    }
}

fn value_json(v: &Value) -> J {
    let mut j = crate::formula::to_json(&crate::eval::value_to_dynamic(v));
    crate::ledger::whole_numbers(&mut j);
    j
}

/// The same JSON value, numbers compared as numbers (`16` and `16.0` are one value).
fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A track id as `course.yaml` allows it (lowercase letters, digits, dashes; at most 40).
pub fn is_track_id(s: &str) -> bool {
    crate::load::tracks::is_track_id(s)
}

/// A typed number as the ledger keeps it: trimmed, no `,`/`_`, a finite decimal.
pub(super) fn is_number_text(s: &str) -> bool {
    crate::ledger::numeric_answer(s).is_some()
}

/// How a name from a record is shown to the student: a plain id as it is, anything else not
/// at all (it could carry terminal escapes or be very long).
pub fn named(what: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        format!("{what} `{key}`")
    } else {
        format!("{what} with an unusual name")
    }
}

/// A text from a record shown in a message: itself when a plain id, else `…`.
pub fn plain(key: &str) -> String {
    if named("", key).ends_with('`') {
        key.to_string()
    } else {
        "…".into()
    }
}

fn letter(id: &str) -> String {
    format!("Part {}", crate::model::part_letter(id))
}

fn answers(pred: &J, x: &J) -> bool {
    match (pred, x.as_str()) {
        (J::String(_), Some(s)) => is_number_text(s),
        (J::Array(ids), Some(s)) => ids.iter().any(|i| i.as_str() == Some(s)),
        _ => false,
    }
}

fn control_ok(spec: &J, v: &J) -> bool {
    let kind = spec[0].as_str().unwrap_or_default();
    match kind {
        "n" => v.as_f64().is_some_and(|x| {
            spec[1].as_f64().is_none_or(|lo| x >= lo) && spec[2].as_f64().is_none_or(|hi| x <= hi)
        }),
        "v" => v.as_f64().is_some_and(|x| {
            spec[1]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(J::as_f64)
                .any(|a| (a - x).abs() <= slack(a))
        }),
        "o" => spec[1].as_array().into_iter().flatten().any(|o| same(o, v)),
        "b" => v.is_boolean(),
        "k" => v.as_object().is_some_and(|m| {
            m.iter().all(|(k, b)| {
                b.is_boolean()
                    && spec[1]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|i| i.as_str() == Some(k))
            })
        }),
        _ => false,
    }
}

/// Keys of `o` that are not in `known`, sorted, as the student is told of them.
pub fn unknown(
    o: &Map<String, J>,
    known: &[&str],
    what: &str,
    pre: &str,
    tail: &str,
) -> Vec<String> {
    let mut plain: Vec<&str> = Vec::new();
    let mut odd = 0;
    for k in o.keys().filter(|k| !known.contains(&k.as_str())) {
        if named(what, k).ends_with('`') {
            plain.push(k);
        } else {
            odd += 1;
        }
    }
    plain.sort_unstable();
    let mut out: Vec<String> = plain
        .iter()
        .map(|k| format!("{pre}{} {tail}", named(what, k)))
        .collect();
    if odd > 0 {
        out.push(format!("{pre}{odd} × {what} with an unusual name {tail}"));
    }
    out
}

/// `l` with only what the lab of `shape` can have; and what was dropped, one sentence each.
/// `l` is a ledger of this lab (its `lab` and `version` were checked by the caller).
pub fn clean(l: &J, shape: &J) -> (J, Vec<String>) {
    let mut dropped = Vec::new();
    let no = Map::new();
    let given = l["parts"].as_object().unwrap_or(&no);
    let sp: Vec<&J> = shape.as_array().into_iter().flatten().collect();
    let ids: Vec<&str> = sp.iter().filter_map(|p| p[0].as_str()).collect();
    dropped.extend(unknown(given, &ids, "a part", "", "the lab does not have"));
    let mut parts = Map::new();
    for p in &sp {
        let Some(pid) = p[0].as_str() else { continue };
        let part = letter(pid);
        let mut out = Map::new();
        let a = match given.get(pid) {
            None => &no,
            Some(J::Object(a)) => a,
            Some(_) => {
                dropped.push(format!("{part}: answers that are not a part's"));
                &no
            }
        };
        if let Some(x) = a.get("prediction") {
            if answers(&p[1], x) {
                out.insert("prediction".into(), x.clone());
                // The track the answer was given on (a lab with tracks): an id, or nothing.
                if let Some(t) = a
                    .get("track")
                    .filter(|t| t.as_str().is_some_and(is_track_id))
                {
                    out.insert("track".into(), t.clone());
                }
                for k in ["prediction_correct", "prediction_locked_at"] {
                    let ok = |v: &J| {
                        if k == "prediction_correct" {
                            v.is_boolean()
                        } else {
                            v.is_string()
                        }
                    };
                    if let Some(v) = a.get(k).filter(|v| ok(v)) {
                        out.insert(k.into(), v.clone());
                    }
                }
                let looks: Vec<J> = a
                    .get("prediction_attempts")
                    .and_then(J::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|x| answers(&p[1], x))
                    .cloned()
                    .collect();
                if !looks.is_empty() {
                    out.insert("prediction_attempts".into(), J::Array(looks));
                }
            } else {
                dropped.push(format!("{part}: a prediction that is none of its answers"));
            }
        }
        if let Some(x) = a.get("reflection") {
            if answers(&p[2], x) && p[2].is_array() {
                out.insert("reflection".into(), x.clone());
                if let Some(v) = a.get("reflection_correct").filter(|v| v.is_boolean()) {
                    out.insert("reflection_correct".into(), v.clone());
                }
            } else {
                dropped.push(format!("{part}: a reflection that is none of its answers"));
            }
        }
        if let Some(q) = super::questions::clean(a, &p[4], &part, &mut dropped) {
            out.insert("questions".into(), q);
        }
        let specs: Vec<&J> = p[3].as_array().into_iter().flatten().collect();
        if let Some(c) = a.get("controls") {
            let c = c.as_object().unwrap_or(&no);
            let cids: Vec<&str> = specs.iter().filter_map(|s| s[0].as_str()).collect();
            let pre = format!("{part}: ");
            dropped.extend(unknown(
                c,
                &cids,
                "a control",
                &pre,
                "the part does not have",
            ));
            let mut ctl = Map::new();
            for s in &specs {
                let Some(cid) = s[0].as_str() else { continue };
                match c.get(cid) {
                    Some(v) if control_ok(&s[1], v) => {
                        let mut v = v.clone();
                        crate::ledger::whole_numbers(&mut v);
                        ctl.insert(cid.into(), v);
                    }
                    Some(_) => dropped.push(format!(
                        "{part}: {} out of its range",
                        named("the control", cid)
                    )),
                    None => {}
                }
            }
            if !ctl.is_empty() {
                out.insert("controls".into(), J::Object(ctl));
            }
        }
        parts.insert(pid.into(), J::Object(out));
    }
    let log = match &l["decision_log"] {
        J::String(s) => s.clone(),
        J::Null => String::new(),
        _ => {
            dropped.push("a decision log that is not text".into());
            String::new()
        }
    };
    let mut r = Map::new();
    r.insert("format".into(), J::from(crate::ledger::FORMAT));
    r.insert("lab".into(), l["lab"].clone());
    r.insert("version".into(), l["version"].clone());
    let chapter = l["chapter"].as_str().unwrap_or_default();
    r.insert("chapter".into(), J::from(chapter));
    let mut complete = true;
    for p in &sp {
        let a = &parts[p[0].as_str().unwrap_or_default()];
        complete &= (p[1].is_null() || !a["prediction"].is_null())
            && (p[2].is_null() || !a["reflection"].is_null())
            && super::questions::complete(a, &p[4]);
    }
    r.insert("parts".into(), J::Object(parts));
    r.insert("decision_log".into(), J::from(log));
    r.insert("complete".into(), J::from(complete));
    if let Some(pos) = l["position"].as_str() {
        r.insert("position".into(), J::from(pos));
    }
    let mut r = J::Object(r);
    crate::ledger::whole_numbers(&mut r);
    (r, dropped)
}

/// What merging one lab's copy did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Answers this copy lacked, now taken: `Part A`, `the decision log`.
    pub taken: Vec<String>,
    /// Answers that differ from this copy's: replaced when `replace`, else kept.
    pub conflicts: Vec<String>,
    /// Locked predictions that differ (never replaced).
    pub locked: Vec<String>,
}

impl Outcome {
    /// Nothing taken, nothing in conflict.
    pub fn unchanged(&self) -> bool {
        self.taken.is_empty() && self.conflicts.is_empty()
    }
}

fn answered(a: &J) -> bool {
    !a["prediction"].is_null() || !a["reflection"].is_null() || a["questions"].is_object()
}

/// Merges the cleaned copy `theirs` into the cleaned `mine` (none: a lab this copy has not
/// started), by the rule in the module docs. Returns the merged ledger and what happened.
pub fn merge_lab(mine: Option<&J>, theirs: &J, shape: &J, replace: bool) -> (J, Outcome) {
    let mut o = Outcome::default();
    let blank = json!({"parts": {}, "decision_log": ""});
    let base = mine.unwrap_or(&blank);
    let mut r = mine.filter(|m| m.is_object()).unwrap_or(theirs).clone();
    let mut parts = Map::new();
    let mut complete = true;
    for p in shape.as_array().into_iter().flatten() {
        let Some(pid) = p[0].as_str() else { continue };
        let part = letter(pid);
        let m = base["parts"][pid].as_object().cloned().unwrap_or_default();
        let t = theirs["parts"][pid]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut out = m.clone();
        let had = answered(&J::Object(m.clone()));
        let mut take_controls = false;
        let mut took = false;
        match (m.get("prediction"), t.get("prediction")) {
            (None, Some(_)) => {
                for k in [
                    "prediction",
                    "prediction_correct",
                    "prediction_locked_at",
                    "prediction_attempts",
                    "track",
                ] {
                    if let Some(v) = t.get(k) {
                        out.insert(k.into(), v.clone());
                    }
                }
                took = true;
            }
            (Some(a), Some(b)) if a != b => o.locked.push(part.clone()),
            _ => {}
        }
        match (m.get("reflection"), t.get("reflection")) {
            (None, Some(_)) => {
                out.insert("reflection".into(), t["reflection"].clone());
                out.shift_remove("reflection_correct");
                if let Some(v) = t.get("reflection_correct") {
                    out.insert("reflection_correct".into(), v.clone());
                }
                took = true;
            }
            (Some(a), Some(b)) if a != b => {
                o.conflicts.push(format!("{part}'s reflection"));
                if replace {
                    out.insert("reflection".into(), b.clone());
                    out.shift_remove("reflection_correct");
                    if let Some(v) = t.get("reflection_correct") {
                        out.insert("reflection_correct".into(), v.clone());
                    }
                    take_controls = true;
                }
            }
            _ => {}
        }
        took |= super::questions::merge(&mut out, &t, &p[4], &part, &mut o, replace);
        if took {
            o.taken.push(part.clone());
            take_controls |= !had;
        }
        if take_controls {
            out.shift_remove("controls");
            if let Some(c) = t.get("controls") {
                out.insert("controls".into(), c.clone());
            }
        }
        complete &= (p[1].is_null() || out.contains_key("prediction"))
            && (p[2].is_null() || out.contains_key("reflection"))
            && super::questions::complete(&J::Object(out.clone()), &p[4]);
        parts.insert(pid.into(), J::Object(out));
    }
    let (ml, tl) = (
        base["decision_log"].as_str().unwrap_or_default(),
        theirs["decision_log"].as_str().unwrap_or_default(),
    );
    let mut log = ml.to_string();
    if ml.is_empty() && !tl.is_empty() {
        o.taken.push("the decision log".into());
        log = tl.into();
    } else if !tl.is_empty() && ml != tl {
        o.conflicts.push("the decision log".into());
        if replace {
            log = tl.into();
        }
    }
    r["parts"] = J::Object(parts);
    r["decision_log"] = J::from(log);
    r["complete"] = J::from(complete);
    // Where the terminal resumes: this copy's, else the incoming one's.
    if !r["position"].is_string() {
        if let Some(p) = theirs["position"].as_str() {
            r["position"] = J::from(p);
        }
    }
    (r, o)
}
