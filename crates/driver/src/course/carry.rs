//! Checks of a lab's `carry_forward:` against its course: each entry names an earlier lab of the
//! same course (by id) and, optionally, a part of this lab. Located errors with hints.

use super::{Course, Locate};
use crate::diag::{did_you_mean, Diagnostic};
use crate::load::Source;
use crate::model::{Control, Lab, Pos};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::SystemTime;

/// The ids of the course's labs in order (a lab that cannot be read has none: its own
/// diagnostics say why).
pub fn lab_ids(course: &Course) -> Vec<Option<String>> {
    course.file.labs.iter().map(|p| lab_id(p)).collect()
}

/// A lab file's id, read once while the file stays the same (its size and modification time):
/// `check DIR` and `render DIR` ask each lab for its course's ids, which read and parsed every
/// lab of the course again for each lab (a 30-lab course: 900 parses, 20–38× the time of a
/// 4-lab course).
fn lab_id(p: &Path) -> Option<String> {
    type Stamp = (u64, Option<SystemTime>);
    type Read = HashMap<PathBuf, (Stamp, Option<String>)>;
    static READ: LazyLock<Mutex<Read>> = LazyLock::new(Default::default);
    let meta = std::fs::metadata(p).ok()?;
    let stamp = (meta.len(), meta.modified().ok());
    let lock = || READ.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, id)) = lock().get(p) {
        if *s == stamp {
            return id.clone();
        }
    }
    let id = Source::read(p)
        .ok()
        .and_then(|src| crate::load::parse(&src).ok().map(|l| l.id.value));
    #[cfg(test)]
    PARSED.lock().unwrap().push(p.to_path_buf());
    lock().insert(p.to_path_buf(), (stamp, id.clone()));
    id
}

/// Every lab file [`lab_id`] parsed, in order (for the tests).
#[cfg(test)]
pub(super) static PARSED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Diagnostics for `lab` (read from `lab_path`, named `file` in messages).
pub fn check(lab_path: &Path, lab: &Lab, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if lab.carry_forward.is_empty() && lab.reads.is_empty() {
        return out;
    }
    for c in &lab.carry_forward {
        if let Some(p) = &c.part {
            if !lab.parts.iter().any(|x| x.id.value == p.value) {
                let ids: Vec<&str> = lab.parts.iter().map(|x| x.id.value.as_str()).collect();
                out.push(
                    Diagnostic::error(file, p.pos, format!("no part `{}` in this lab", p.value))
                        .with_hint(
                            did_you_mean(&p.value, ids.iter().copied())
                                .unwrap_or_else(|| format!("parts: {}", ids.join(", "))),
                        ),
                );
            }
        }
    }
    let (first, what) = match lab.carry_forward.first() {
        Some(c) => (c.from.pos, "carry_forward"),
        None => (lab.reads[0].from.pos, "reads"),
    };
    let course = match super::find_for(lab_path).map(|p| super::load(&p)) {
        None => {
            out.push(
                Diagnostic::error(file, first, format!("`{what}` needs a course, and this lab is in none"))
                    .with_hint("put a course.yaml listing the earlier lab and then this one in this folder or one above it"),
            );
            return out;
        }
        Some(Err((_, d))) => {
            out.push(
                Diagnostic::error(file, first, "the course this lab belongs to has errors")
                    .with_hint(format!(
                        "fix course.yaml first: {}",
                        d.first().map(|d| d.message.as_str()).unwrap_or("")
                    )),
            );
            return out;
        }
        Some(Ok(c)) => c,
    };
    let Some(me) = course.position(lab_path) else {
        out.push(
            Diagnostic::error(
                file,
                first,
                format!("this lab is not listed in {}", course.path.display()),
            )
            .with_hint("add it to the course's `labs:` after the labs it carries decisions from"),
        );
        return out;
    };
    let ids = lab_ids(&course);
    let earlier: Vec<&str> = ids[..me].iter().flatten().map(String::as_str).collect();
    for c in &lab.carry_forward {
        let from = c.from.value.as_str();
        if earlier.contains(&from) {
            continue;
        }
        let (msg, hint) = not_earlier(
            from,
            lab,
            &ids[me + 1..],
            &earlier,
            (
                "name an earlier lab of the course",
                "",
                "a lab can show only the decisions of labs listed before it in course.yaml",
            ),
        );
        out.push(Diagnostic::error(file, pos_or(c.from.pos), msg).with_hint(hint));
    }
    for r in &lab.reads {
        let from = r.from.value.as_str();
        let Some(at) = ids[..me].iter().position(|i| i.as_deref() == Some(from)) else {
            let (msg, hint) = not_earlier(
                from,
                lab,
                &ids[me + 1..],
                &earlier,
                (
                    "read from an earlier lab of the course",
                    ": its numbers are not there yet",
                    "a lab reads only from labs listed before it in course.yaml",
                ),
            );
            out.push(Diagnostic::error(file, pos_or(r.from.pos), msg).with_hint(hint));
            continue;
        };
        let Some(src) = Source::read(&course.file.labs[at]).ok() else {
            continue;
        };
        let Ok(them) = crate::load::parse(&src) else {
            continue;
        };
        if let Some((kind, key)) = r.kind() {
            if let Some((msg, hint)) = missing(&them, kind, &key.value) {
                out.push(Diagnostic::error(file, pos_or(key.pos), msg).with_hint(hint));
            }
        }
    }
    out
}

/// What is wrong with reading `key` (of `kind`) from the earlier lab `them`, if anything.
fn missing(them: &Lab, kind: &str, key: &str) -> Option<(String, String)> {
    let from = &them.id.value;
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    match kind {
        "record" => {
            if them.records.contains_key(key) {
                return None;
            }
            let keys: Vec<&str> = them.records.keys().map(String::as_str).collect();
            Some((
                format!("`{from}` records no `{key}`"),
                did_you_mean(key, keys.iter().copied()).unwrap_or_else(|| {
                    format!("its `records:` are {}; a lab keeps a value for later labs by listing it there", list(keys.iter().map(|s| s.to_string()).collect()))
                }),
            ))
        }
        "control" => {
            let numeric = |c: &Control| matches!(c, Control::Slider(_) | Control::Number(_));
            let all: Vec<String> = them
                .parts
                .iter()
                .flat_map(|p| {
                    let own = p
                        .controls
                        .iter()
                        .filter(|c| numeric(c))
                        .map(|c| c.id().value.clone());
                    let shared = p.lab_controls.iter().map(|w| w.value.clone()).filter(|id| {
                        them.controls
                            .iter()
                            .any(|c| c.id().value == *id && numeric(c))
                    });
                    own.chain(shared)
                        .map(move |id| format!("{}.{id}", p.id.value))
                })
                .collect();
            if all.iter().any(|x| x == key) {
                return None;
            }
            Some((
                format!("`{from}` has no slider or number input `{key}`"),
                did_you_mean(key, all.iter().map(String::as_str)).unwrap_or_else(|| {
                    format!(
                        "write `PART.CONTROL`; its numeric controls: {}",
                        list(all.clone())
                    )
                }),
            ))
        }
        _ => {
            let parts: Vec<String> = them
                .parts
                .iter()
                .filter(|p| p.prediction.as_ref().is_some_and(|x| x.numeric.is_some()))
                .map(|p| p.id.value.clone())
                .collect();
            if parts.iter().any(|p| p == key) {
                return None;
            }
            Some((
                format!("`{from}` has no part `{key}` with a numeric prediction"),
                format!("parts of `{from}` that ask for a number: {}", list(parts)),
            ))
        }
    }
}

/// Why `from` (a lab a `carry_forward:` or `reads:` entry names) is not an earlier lab of the
/// course: this lab, a later one, or none, with the hint. `words` are the entry's own: the hint
/// for this lab, what follows "comes after this lab in the course", and the hint for a later lab.
fn not_earlier(
    from: &str,
    lab: &Lab,
    later: &[Option<String>],
    earlier: &[&str],
    words: (&str, &str, &str),
) -> (String, String) {
    let (this_hint, after, after_hint) = words;
    if from == lab.id.value {
        (format!("`{from}` is this lab"), this_hint.to_string())
    } else if later.iter().flatten().any(|i| i == from) {
        (
            format!("`{from}` comes after this lab in the course{after}"),
            after_hint.to_string(),
        )
    } else {
        (
            format!("no earlier lab `{from}` in the course"),
            did_you_mean(from, earlier.iter().copied()).unwrap_or_else(|| {
                if earlier.is_empty() {
                    "this is the course's first lab: no lab comes before it".into()
                } else {
                    format!("earlier labs: {}", earlier.join(", "))
                }
            }),
        )
    }
}

fn pos_or(p: Pos) -> Pos {
    if p.is_known() {
        p
    } else {
        Pos::new(1, 1)
    }
}
