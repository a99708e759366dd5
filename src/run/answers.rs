//! Answers files (`labforge run --answers FILE`): every answer of a run, for autograders.

use super::term::Screen;
use super::ui::{Item, Res, Stop};
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use indexmap::IndexMap;
use serde::Deserialize;
use std::path::Path;

/// An answers file: every answer of a run, for non-interactive runs (autograders).
///
/// ```yaml
/// predictions: { a: C, b: 25 }          # option id, or the number for numeric predictions
/// controls: { a: { cluster_gpus: 8000 } } # applied in order during the part's exploration
/// reflections: { a: B }
/// questions: { a: { lever: A, levers: [A, B], amp: 5, why: "Utilization binds ..." } }
/// decision_log: "I would ..."
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answers {
    #[serde(default)]
    pub predictions: IndexMap<String, serde_json::Value>,
    #[serde(default)]
    pub controls: IndexMap<String, IndexMap<String, serde_json::Value>>,
    #[serde(default)]
    pub reflections: IndexMap<String, serde_json::Value>,
    /// Per part, per question id: an option id, a list of them (a select-all), a number or
    /// the written answer.
    #[serde(default)]
    pub questions: IndexMap<String, IndexMap<String, serde_json::Value>>,
    #[serde(default)]
    pub decision_log: Option<String>,
    /// The file it was read from (its problems are diagnostics of it).
    #[serde(skip)]
    pub file: String,
}

/// What an answers file holds (the example above).
const HINT: &str = "an answers file is YAML (or JSON) with `predictions:`, `controls:`, `reflections:`, `questions:` and `decision_log:`, each answer under the id of a part of this lab that asks it";

impl Answers {
    /// Reads YAML or JSON (JSON is YAML). A file that is not one is a diagnostic of it, where
    /// the parser stopped, with a hint.
    pub fn load(path: &Path) -> Result<Answers, Diagnostic> {
        let file = path.display().to_string();
        // A student's file: bounded like a progress record before it is parsed.
        let text = crate::files::read_text(path, crate::store::MAX_BYTES)
            .map_err(|e| Diagnostic::error(&file, Default::default(), e.to_string()))?;
        let mut a = serde_saphyr::from_str::<Answers>(&text).map_err(|e| {
            let d =
                crate::load::yaml_diagnostic(&crate::load::Source::new(&file, text.as_str()), &e);
            // The parser's own hint (a key's near spelling) when it has one.
            let hint = d.hint.clone().unwrap_or_else(|| HINT.into());
            Diagnostic {
                message: format!("not an answers file: {}", d.message),
                ..d
            }
            .with_hint(hint)
        })?;
        a.file = file;
        Ok(a)
    }

    /// What stops a run at an answer this file lacks or gets wrong: a diagnostic of the file.
    pub(super) fn bad(&self, message: String) -> Stop {
        bad_in(&self.file, message)
    }

    /// [`Self::check`] as a diagnostic of the answers file at `path`.
    pub fn check_file(&self, lab: &CompiledLab, path: &Path) -> Result<(), Diagnostic> {
        self.check(lab).map_err(|e| {
            Diagnostic::error(&path.display().to_string(), Default::default(), e).with_hint(HINT)
        })
    }

    /// Every answer has somewhere to go: each part named is a part of `lab` that asks it, each
    /// control is one of that part's, and a decision log is given only to a lab that keeps one
    /// (a typo or a wrong file would otherwise be skipped silently).
    pub fn check(&self, lab: &CompiledLab) -> Result<(), String> {
        let parts: Vec<&str> = lab.lab.parts.iter().map(|p| p.id.value.as_str()).collect();
        let named = [
            ("predictions", self.predictions.keys().collect::<Vec<_>>()),
            ("controls", self.controls.keys().collect()),
            ("reflections", self.reflections.keys().collect()),
            ("questions", self.questions.keys().collect()),
        ];
        for (section, ids) in named {
            if let Some(id) = ids.into_iter().find(|id| !parts.contains(&id.as_str())) {
                return Err(format!(
                    "{section}: no part `{id}` in this lab (parts: {})",
                    parts.join(", ")
                ));
            }
        }
        for p in &lab.lab.parts {
            let id = p.id.value.as_str();
            if self.predictions.contains_key(id) && p.prediction.is_none() {
                return Err(format!("predictions: part `{id}` asks no prediction"));
            }
            if self.reflections.contains_key(id) && p.reflection.is_none() {
                return Err(format!("reflections: part `{id}` asks no reflection"));
            }
            let qids: Vec<&str> = p.questions.iter().map(|q| q.id.value.as_str()).collect();
            for q in self.questions.get(id).into_iter().flat_map(|m| m.keys()) {
                if !qids.contains(&q.as_str()) {
                    return Err(format!(
                        "questions: part `{id}` asks no question `{q}` (questions: {})",
                        if qids.is_empty() {
                            "none".to_string()
                        } else {
                            qids.join(", ")
                        }
                    ));
                }
            }
            let controls: Vec<&str> = p.controls.iter().map(|c| c.id().value.as_str()).collect();
            for c in self.controls.get(id).into_iter().flat_map(|m| m.keys()) {
                if !controls.contains(&c.as_str()) {
                    return Err(format!(
                        "controls: part `{id}` has no control `{c}` (controls: {})",
                        if controls.is_empty() {
                            "none".to_string()
                        } else {
                            controls.join(", ")
                        }
                    ));
                }
            }
        }
        let keeps_log = lab
            .lab
            .synthesis
            .as_ref()
            .is_some_and(|s| s.decision_log.is_some());
        if self.decision_log.is_some() && !keeps_log {
            return Err(
                "decision_log: this lab keeps no decision log (remove `decision_log:` from the answers file)"
                    .into(),
            );
        }
        Ok(())
    }

    /// The prediction or reflection (`what`) of part `pid`, as text.
    pub(super) fn answer(&self, what: &str, pid: &str) -> Res<String> {
        let section = match what {
            "prediction" => &self.predictions,
            _ => &self.reflections,
        };
        section.get(pid).map(scalar).ok_or_else(|| {
            self.bad(format!(
                "the answers file has no {what} for part `{pid}` ({what}s: {{{pid}: ...}})"
            ))
        })
    }
}

impl Answers {
    /// The answer to question `qid` of part `pid`.
    pub(super) fn question(&self, pid: &str, qid: &str) -> Res<serde_json::Value> {
        self.questions
            .get(pid)
            .and_then(|m| m.get(qid))
            .cloned()
            .ok_or_else(|| {
                self.bad(format!(
                    "the answers file has no answer to question `{qid}` of part `{pid}` (questions: {{{pid}: {{{qid}: ...}}}})"
                ))
            })
    }
}

/// [`Answers::bad`] of the answers file named `file`.
pub(super) fn bad_in(file: &str, message: String) -> Stop {
    Stop::bad(Diagnostic::error(file, Default::default(), message).with_hint(HINT))
}

/// The option of `items` an answer names (its key, any case), echoed as the prompters echo a
/// choice.
pub(super) fn choose(
    a: &Answers,
    scr: &Screen,
    items: &[Item],
    v: &str,
    pid: &str,
    what: &str,
) -> Res<usize> {
    let Some(k) = items
        .iter()
        .position(|it| it.key.eq_ignore_ascii_case(v.trim()))
    else {
        let keys: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
        return Err(a.bad(format!(
            "answers: part `{pid}` has no {what} option `{v}` (options: {})",
            keys.join(", ")
        )));
    };
    super::ui::echo_choice(scr, &items[k]);
    Ok(k)
}

/// A value from an answers file as text (`C`, `25`).
pub(super) fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
