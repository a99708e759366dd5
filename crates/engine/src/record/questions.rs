//! The `questions` of a part in a course record from outside: their part of the merge rule
//! (docs/formats.md, "How course records merge"), beside `merge.rs` and, for the page, in
//! `renderers/html/course.js`. A part's shape lists its questions as
//! `[id, kind, option ids?]`: kind `c` (choice), `s` (select-all), `n` (a number), `t` (text).

use super::merge::{unknown, Outcome};
use crate::model::question::{bound_text, word_count};
use crate::model::{Part, QuestionKind};
use serde_json::{json, Map, Value as J};

/// The questions of `p` as the shape lists them (`None`: the part asks none, and its shape
/// keeps four entries, as before questions).
pub fn shape(p: &Part) -> Option<J> {
    if p.questions.is_empty() {
        return None;
    }
    let qs: Vec<J> = p
        .questions
        .iter()
        .map(|q| {
            let ids = crate::ledger::questions::ids(&q.spec.options);
            match q.kind() {
                QuestionKind::Choice => json!([q.id.value, "c", ids]),
                QuestionKind::SelectAll => json!([q.id.value, "s", ids]),
                QuestionKind::Numeric => json!([q.id.value, "n"]),
                QuestionKind::Text => json!([q.id.value, "t"]),
            }
        })
        .collect();
    Some(J::Array(qs))
}

/// `x` as question `spec` can have it, else `None`.
fn admit(spec: &J, x: &J) -> Option<J> {
    let ids: Vec<&str> = spec[2]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(J::as_str)
        .collect();
    match (spec[1].as_str()?, x) {
        ("c", J::String(s)) if ids.contains(&s.as_str()) => Some(x.clone()),
        ("s", J::Array(v)) => {
            let picked: Vec<&str> = v.iter().map(J::as_str).collect::<Option<_>>()?;
            let dup = picked
                .iter()
                .enumerate()
                .any(|(i, a)| picked[..i].contains(a));
            (!dup && picked.iter().all(|a| ids.contains(a))).then(|| {
                J::from(
                    ids.iter()
                        .filter(|i| picked.contains(i))
                        .copied()
                        .collect::<Vec<_>>(),
                )
            })
        }
        ("n", J::String(s)) if super::merge::is_number_text(s) => Some(x.clone()),
        ("t", J::String(s)) if word_count(s) > 0 => Some(J::from(bound_text(s))),
        _ => None,
    }
}

/// The answers of `a` (a part's answers) its `specs` can have, each with only the fields a
/// record has; the rest named in `dropped`.
pub fn clean(a: &Map<String, J>, specs: &J, part: &str, dropped: &mut Vec<String>) -> Option<J> {
    let given = a.get("questions")?;
    let Some(given) = given.as_object() else {
        dropped.push(format!("{part}: question answers that are not a record"));
        return None;
    };
    let specs: Vec<&J> = specs.as_array().into_iter().flatten().collect();
    let ids: Vec<&str> = specs.iter().filter_map(|s| s[0].as_str()).collect();
    let pre = format!("{part}: ");
    dropped.extend(unknown(
        given,
        &ids,
        "an answer to a question",
        &pre,
        "the part does not ask",
    ));
    // In the lab's order.
    let mut ordered = Map::new();
    for spec in &specs {
        let Some(id) = spec[0].as_str() else { continue };
        let Some(v) = given.get(id) else { continue };
        let Some(ans) = v.get("answer").and_then(|x| admit(spec, x)) else {
            dropped.push(format!(
                "{part}: an answer to the question `{id}` that is none of its answers"
            ));
            continue;
        };
        let mut q = Map::new();
        q.insert("answer".into(), ans);
        if let Some(c) = v.get("correct").filter(|c| c.is_boolean()) {
            q.insert("correct".into(), c.clone());
        }
        if let Some(s) = v
            .get("score")
            .filter(|s| s.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)))
        {
            q.insert("score".into(), s.clone());
        }
        if let Some(t) = v
            .get("answered_at")
            .filter(|t| t.as_str().is_some_and(|t| t.chars().count() <= 64))
        {
            q.insert("answered_at".into(), t.clone());
        }
        ordered.insert(id.into(), J::Object(q));
    }
    (!ordered.is_empty()).then_some(J::Object(ordered))
}

/// Every question of `specs` has an answer in `a`.
pub fn complete(a: &J, specs: &J) -> bool {
    specs.as_array().into_iter().flatten().all(|s| {
        s[0].as_str()
            .is_some_and(|id| !a["questions"][id].is_null())
    })
}

/// Merges their answers `t` into mine `m` (a part's, both cleaned): an answer mine lacks is
/// taken; one that differs is a conflict, replaced when `replace`. Whether any was taken.
pub fn merge(
    out: &mut Map<String, J>,
    t: &Map<String, J>,
    specs: &J,
    part: &str,
    o: &mut Outcome,
    replace: bool,
) -> bool {
    let Some(theirs) = t.get("questions").and_then(J::as_object) else {
        return false;
    };
    let mine = out
        .get("questions")
        .and_then(J::as_object)
        .cloned()
        .unwrap_or_default();
    let mut merged = Map::new();
    let mut took = false;
    for s in specs.as_array().into_iter().flatten() {
        let Some(id) = s[0].as_str() else { continue };
        match (mine.get(id), theirs.get(id)) {
            (None, Some(b)) => {
                merged.insert(id.into(), b.clone());
                took = true;
            }
            (Some(a), Some(b)) if a["answer"] != b["answer"] => {
                o.conflicts.push(format!("{part}'s question `{id}`"));
                merged.insert(id.into(), if replace { b.clone() } else { a.clone() });
            }
            (Some(a), _) => {
                merged.insert(id.into(), a.clone());
            }
            (None, None) => {}
        }
    }
    if merged.is_empty() {
        out.shift_remove("questions");
    } else {
        out.insert("questions".into(), J::Object(merged));
    }
    took
}
