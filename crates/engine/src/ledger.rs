//! The progress record a student's run saves: the same JSON from the terminal prompt and the
//! page's export (`renderers/html/runtime.js`, `ledger()`). Written atomically (temp file, fsync,
//! rename).
//!
//! Both writers derive every field but `position` from the answers alone, the same way:
//! - `complete` is true when every prediction, reflection and question the lab asks is answered
//!   (the decision log is optional on both sides). Where the terminal's walk stands — including
//!   whether it has been through the synthesis — is `position`, which only the terminal writes.
//! - `*_correct` and the HUD follow [`prediction_correct`]; in `hud.parts` a part whose
//!   prediction is not locked in yet is `pending` (as the page's bar and the terminal show it;
//!   records written before said `review`, and still load).
//! - A numeric prediction is the number as typed, trimmed, without `,`/`_` separators
//!   ([`numeric_answer`]); never rounded for display.
//! - `controls` holds every control of every part, in the lab's order, at the position the
//!   student left it — the default where untouched (the page records them so from the moment it
//!   loads). Values are JSON as the page's `JSON.stringify` writes them: a whole number is `16`,
//!   not `16.0`. [`Ledger::refresh`] fills and normalises; entries for controls the lab does
//!   not have are dropped. A lab-level control (the lab's `controls:`) has one value in every
//!   part that shows it.
//! - A prediction is a commitment: `prediction` is the first answer locked in (a button on the
//!   page, Enter in the terminal) and never changes; `prediction_locked_at` is when (UTC,
//!   RFC 3339); `prediction_attempts` lists, in order, every other option (or number) the
//!   student looked at after locking in. The HUD, `*_correct` and both exports follow the
//!   locked answer only. Format 2 added these; records of format 1 still load.

pub mod questions;

use crate::eval::CompiledLab;
use crate::load::check::option_id;
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;
use serde::{Deserialize, Serialize};

/// The values of `records:` that part `p` computes, at the settings `a` holds, kept beside them
/// as `@NAME` for later labs of the course (`eval::carried`); one that is not a finite number
/// at these settings is left out.
fn keep_records(lab: &CompiledLab, p: &Part, a: &mut PartAnswers) {
    let mine: Vec<(&String, &str)> = lab
        .lab
        .records
        .iter()
        .filter_map(|(k, at)| {
            let (pid, n) = at.value.split_once('.')?;
            (pid == p.id.value).then_some((k, n))
        })
        .collect();
    if mine.is_empty() {
        return;
    }
    let Some(cp) = lab.part(&p.id.value) else {
        return;
    };
    let mut set = IndexMap::new();
    for c in &p.controls {
        let id = &c.id().value;
        let val = a
            .controls
            .get(id)
            .and_then(|v| serde_json::from_value::<Value>(v.clone()).ok());
        if let Some(d) = val
            .and_then(|v| crate::eval::validate_control(c, &crate::eval::value_to_dynamic(&v)).ok())
        {
            set.insert(id.clone(), d);
        }
    }
    let ev = lab
        .inputs(cp, &set)
        .ok()
        .and_then(|inputs| lab.evaluate(cp, &inputs).ok());
    for (k, n) in mine {
        let x = ev
            .as_ref()
            .and_then(|ev| ev.values.get(n))
            .and_then(crate::formula::as_number)
            .filter(|x| x.is_finite());
        match x {
            Some(x) => {
                let mut v = serde_json::json!(x);
                whole_numbers(&mut v);
                a.controls.insert(format!("@{k}"), v);
            }
            None => {
                a.controls.shift_remove(&format!("@{k}"));
            }
        }
    }
}

/// Format tag of the record.
pub const FORMAT: &str = "labforge-ledger/2";

/// Older formats this labforge still reads (upgraded on load: their fields are a subset).
pub const READS: &[&str] = &["labforge-ledger/1"];

/// A student's answers in one part.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PartAnswers {
    /// Chosen prediction option id, or the typed number as text for numeric predictions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction_correct: Option<bool>,
    /// When the prediction was locked in (UTC, RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction_locked_at: Option<String>,
    /// Other options (or numbers) looked at after locking in, in order; never a new answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prediction_attempts: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflection: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reflection_correct: Option<bool>,
    /// Every control's position as the student left it (defaults where untouched).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub controls: IndexMap<String, serde_json::Value>,
    /// The track the part was answered on (a lab with tracks): set when its prediction is
    /// locked in (or, in a part that asks none, its reflection answered), and never changed
    /// after; its answers are judged on that track ([`Ledger::refresh_on`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// Answers to the part's `questions:`, by question id ([`questions`]).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub questions: IndexMap<String, questions::QuestionAnswer>,
}

/// The saved record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub format: String,
    pub lab: String,
    pub version: u32,
    pub chapter: String,
    /// The seeds' flat design record: `partA_prediction`, `partA_correct`, `partA_reflection`, ...,
    /// and the decision log under `student_justification` (or the lab's `justification_key`).
    /// Derived from the answers ([`Ledger::refresh`]): a course record's copy may leave it out.
    #[serde(default)]
    pub design: IndexMap<String, serde_json::Value>,
    pub parts: IndexMap<String, PartAnswers>,
    #[serde(default)]
    pub decision_log: String,
    /// HUD: per listed part `correct`, `review` or `pending` (not answered yet), and the tier.
    /// Derived like `design`.
    #[serde(default)]
    pub hud: HudState,
    /// Every prediction, reflection and question of the lab is answered (see the module docs).
    #[serde(default)]
    pub complete: bool,
    /// Where the terminal prompt resumes: `PART.prediction`, `PART.explore`, `PART.reflection`,
    /// `synthesis` or `done` (the furthest step reached). Absent in a fresh record and optional
    /// for other writers (the page's export); answers alone still tell what is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The student's track, for a lab with tracks (in a course the course record keeps it too,
    /// [`crate::record::CourseRecord::track`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// The student's name or identifier as they typed it (optional; kept in the course record,
    /// shown in the report, sent nowhere). Records without it still load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
    /// The terminal asked for the name (a lab on its own) and the student left it empty: not
    /// asked again for this record. In a course the course record keeps it
    /// ([`crate::record::CourseRecord::student_skipped`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub student_skipped: bool,
}

/// What the HUD shows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HudState {
    pub parts: IndexMap<String, String>,
    pub tier: Option<String>,
}

/// `partA` for part id `a`; `part_queue` for longer ids.
pub fn part_key(id: &str) -> String {
    if id.chars().count() == 1 {
        format!("part{}", id.to_uppercase())
    } else {
        format!("part_{id}")
    }
}

/// The record's `chapter`: the lab's `ledger.chapter`, else its `chapter`, else its id.
pub fn chapter(lab: &Lab) -> String {
    lab.ledger
        .as_ref()
        .and_then(|l| l.chapter.clone())
        .or_else(|| lab.chapter.clone())
        .unwrap_or_else(|| lab.id.value.clone())
}

/// The design record's key for the decision log: `ledger.justification_key`, else
/// `student_justification`.
pub fn justification_key(lab: &Lab) -> String {
    lab.ledger
        .as_ref()
        .and_then(|l| l.justification_key.as_ref().map(|k| k.value.clone()))
        .unwrap_or_else(|| "student_justification".into())
}

/// Now, as the ledger writes times: UTC, RFC 3339, whole seconds.
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

impl Ledger {
    /// An empty record for a lab.
    pub fn new(lab: &CompiledLab) -> Ledger {
        let mut l = Ledger {
            format: FORMAT.into(),
            lab: lab.lab.id.value.clone(),
            version: lab.lab.version,
            chapter: chapter(&lab.lab),
            design: IndexMap::new(),
            parts: lab
                .lab
                .parts
                .iter()
                .map(|p| (p.id.value.clone(), PartAnswers::default()))
                .collect(),
            decision_log: String::new(),
            hud: HudState::default(),
            complete: false,
            position: None,
            track: lab.track.clone(),
            student: None,
            student_skipped: false,
        };
        l.refresh(lab);
        l
    }

    /// Recomputes correctness, completeness, the flat design record and the HUD from the
    /// answers, and writes control values as the page does.
    pub fn refresh(&mut self, lab: &CompiledLab) {
        self.refresh_on(lab, &|_| None);
    }

    /// [`Self::refresh`], judging each part answered on another track than `lab`'s (its
    /// `track`) by that track's compilation, from `on` (`None`: by `lab`).
    pub fn refresh_on<'a>(
        &mut self,
        lab: &'a CompiledLab,
        on: &dyn Fn(&str) -> Option<&'a CompiledLab>,
    ) {
        // A lab-level control is one value: the first part showing it that holds one gives it
        // to every part that shows it (the page and the terminal write a move into them all).
        let mut shared: IndexMap<&str, serde_json::Value> = IndexMap::new();
        for p in &lab.lab.parts {
            for w in &p.lab_controls {
                let saved = self
                    .parts
                    .get(&p.id.value)
                    .and_then(|a| a.controls.get(&w.value));
                if let (false, Some(v)) = (shared.contains_key(w.value.as_str()), saved) {
                    shared.insert(&w.value, v.clone());
                }
            }
        }
        for p in &lab.lab.parts {
            let defaults = lab
                .part(&p.id.value)
                .and_then(|cp| lab.inputs(cp, &IndexMap::new()).ok())
                .unwrap_or_default();
            let a = self.parts.entry(p.id.value.clone()).or_default();
            let mut left = std::mem::take(&mut a.controls);
            for c in &p.controls {
                let id = &c.id().value;
                let own = left.shift_remove(id);
                let v = shared
                    .get(id.as_str())
                    .cloned()
                    .or(own)
                    .or_else(|| defaults.get(id).map(crate::formula::to_json));
                if let Some(mut v) = v {
                    whole_numbers(&mut v);
                    a.controls.insert(id.clone(), v);
                }
            }
            keep_records(lab, p, a);
            // The part as compiled for the track it was answered on.
            let judge = a
                .track
                .as_deref()
                .filter(|t| Some(*t) != lab.track.as_deref())
                .and_then(on)
                .unwrap_or(lab);
            let jp = judge
                .lab
                .parts
                .iter()
                .find(|q| q.id.value == p.id.value)
                .unwrap_or(p);
            a.prediction_correct = match (&jp.prediction, &a.prediction) {
                (Some(pred), Some(ans)) => Some(prediction_correct(judge, jp, pred, ans)),
                _ => None,
            };
            a.reflection_correct = match (&jp.reflection, &a.reflection) {
                (Some(r), Some(ans)) => Some(
                    r.options
                        .iter()
                        .enumerate()
                        .any(|(i, o)| o.correct && &option_id(i, o) == ans),
                ),
                _ => None,
            };
            // In the lab's order of questions.
            let mut qs = std::mem::take(&mut a.questions);
            for q in &jp.questions {
                if let Some(mut qa) = qs.shift_remove(&q.id.value) {
                    questions::judge(judge, jp, q, &mut qa);
                    a.questions.insert(q.id.value.clone(), qa);
                }
            }
        }
        let mut d = IndexMap::new();
        for p in &lab.lab.parts {
            let key = part_key(&p.id.value);
            let a = &self.parts[&p.id.value];
            if p.prediction.is_some() {
                d.insert(
                    format!("{key}_prediction"),
                    a.prediction
                        .clone()
                        .unwrap_or_else(|| "no_selection".into())
                        .into(),
                );
                d.insert(
                    format!("{key}_correct"),
                    a.prediction_correct.unwrap_or(false).into(),
                );
            }
            if p.reflection.is_some() {
                d.insert(
                    format!("{key}_reflection"),
                    a.reflection
                        .clone()
                        .unwrap_or_else(|| "no_selection".into())
                        .into(),
                );
            }
        }
        d.insert(
            justification_key(&lab.lab),
            self.decision_log.clone().into(),
        );
        self.design = d;
        self.hud = hud(lab, self);
        self.complete = lab.lab.parts.iter().all(|p| {
            let a = &self.parts[&p.id.value];
            (p.prediction.is_none() || a.prediction.is_some())
                && (p.reflection.is_none() || a.reflection.is_some())
                && questions::all_answered(p, &a.questions)
        });
    }

    /// Drops what the lab cannot have answered: a prediction or reflection that is none of its
    /// options (or, for a numeric prediction, not a finite number), a control value the control
    /// cannot take, parts and controls the lab does not have. Returns one sentence per dropped
    /// value, naming parts and controls as the student sees them; [`Self::refresh`] then puts
    /// defaults where values were dropped.
    pub fn sanitize(&mut self, lab: &CompiledLab) -> Vec<String> {
        let mut dropped = Vec::new();
        let known: Vec<&str> = lab.lab.parts.iter().map(|p| p.id.value.as_str()).collect();
        for id in self.parts.keys().cloned().collect::<Vec<_>>() {
            if !known.contains(&id.as_str()) {
                self.parts.shift_remove(&id);
                dropped.push(format!("answers for a part `{id}` the lab does not have"));
            }
        }
        for p in &lab.lab.parts {
            let Some(a) = self.parts.get_mut(&p.id.value) else {
                continue;
            };
            let part = format!("Part {}", part_letter(&p.id.value));
            let answers_it = |pred: &Prediction, ans: &str| {
                if pred.numeric.is_some() {
                    numeric_answer(ans).is_some()
                } else {
                    (0..pred.options.len()).any(|i| option_id(i, &pred.options[i]) == ans)
                }
            };
            // Looks after locking in: only answers to the question, and only once locked in.
            let looks = std::mem::take(&mut a.prediction_attempts);
            for x in looks {
                match &p.prediction {
                    Some(pred) if a.prediction.is_some() && answers_it(pred, &x) => {
                        a.prediction_attempts.push(x)
                    }
                    _ => dropped.push(format!(
                        "{part}: a look at `{x}` that is not an answer to its prediction"
                    )),
                }
            }
            if let (Some(ans), Some(pred)) = (&a.prediction, &p.prediction) {
                let ok = answers_it(pred, ans);
                if !ok {
                    dropped.push(format!(
                        "{part}: the prediction `{ans}` is not an answer to it"
                    ));
                    a.prediction = None;
                    a.prediction_locked_at = None;
                    a.prediction_attempts.clear();
                }
            } else if let (Some(ans), None) = (&a.prediction, &p.prediction) {
                dropped.push(format!(
                    "{part}: a prediction `{ans}` for a part that asks none"
                ));
                a.prediction = None;
            }
            if let Some(ans) = &a.reflection {
                let ok = p.reflection.as_ref().is_some_and(|r| {
                    (0..r.options.len()).any(|i| option_id(i, &r.options[i]) == *ans)
                });
                if !ok {
                    dropped.push(format!(
                        "{part}: the reflection `{ans}` is not an answer to it"
                    ));
                    a.reflection = None;
                }
            }
            questions::sanitize(p, &part, &mut a.questions, &mut dropped);
            for (id, v) in std::mem::take(&mut a.controls) {
                // A value kept for later labs (`@NAME`): derived, computed again on refresh.
                if id.starts_with('@') {
                    continue;
                }
                let ctl = p.controls.iter().find(|c| c.id().value == id);
                let valid = ctl.and_then(|c| {
                    let val = serde_json::from_value::<Value>(v.clone()).ok()?;
                    crate::eval::validate_control(c, &crate::eval::value_to_dynamic(&val)).ok()
                });
                match (ctl, valid) {
                    (Some(_), Some(_)) => {
                        a.controls.insert(id, v);
                    }
                    (Some(c), None) => dropped.push(format!(
                        "{part}: `{v}` is not a setting of “{}”; it is back at its default",
                        c.label().value
                    )),
                    (None, _) => {
                        dropped.push(format!("{part}: a control `{id}` the part does not have"))
                    }
                }
            }
        }
        dropped
    }
}

/// A typed numeric prediction as recorded: trimmed, `,` and `_` separators removed; `None`
/// unless it is a finite number (`NaN`, `inf`, `1e400` are not estimates).
pub fn numeric_answer(typed: &str) -> Option<String> {
    let t: String = typed
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != '_')
        .collect();
    t.parse::<f64>().ok().filter(|x| x.is_finite()).map(|_| t)
}

/// `16.0` -> `16`, in place and nested: JSON numbers as JavaScript writes them.
pub(crate) fn whole_numbers(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|_| n.is_f64()) {
                if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
                    *v = serde_json::Value::from(x as i64);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(whole_numbers),
        serde_json::Value::Object(m) => m.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// Is `answer` right for `pred`? Options by id; numeric answers within the tolerance of the
/// output at the prediction's scenario.
pub fn prediction_correct(lab: &CompiledLab, part: &Part, pred: &Prediction, answer: &str) -> bool {
    if let Some(n) = &pred.numeric {
        let Some(x) = numeric_answer(answer).and_then(|a| a.parse::<f64>().ok()) else {
            return false;
        };
        let Some(cp) = lab.part(&part.id.value) else {
            return false;
        };
        let Ok(ev) = lab.evaluate(cp, &lab.scenario(cp)) else {
            return false;
        };
        let Some(want) = ev
            .values
            .get(&n.output.value)
            .and_then(crate::formula::as_number)
        else {
            return false;
        };
        return n.accepts(x, want);
    }
    pred.options
        .iter()
        .enumerate()
        .any(|(i, o)| o.correct && option_id(i, o) == answer)
}

/// The HUD for the answers so far.
pub fn hud(lab: &CompiledLab, ledger: &Ledger) -> HudState {
    let Some(h) = &lab.lab.hud else {
        return HudState::default();
    };
    let mut correct = rhai::Map::new();
    let mut count = 0.0;
    let mut parts = IndexMap::new();
    for p in &h.parts {
        let answer = ledger.parts.get(&p.value);
        let ok = answer.and_then(|a| a.prediction_correct).unwrap_or(false);
        if ok {
            count += 1.0;
        }
        correct.insert(p.value.as_str().into(), Dynamic::from_bool(ok));
        let state = match answer.and_then(|a| a.prediction.as_ref()) {
            None => "pending",
            Some(_) if ok => "correct",
            Some(_) => "review",
        };
        parts.insert(p.value.clone(), state.to_string());
    }
    let extra = [
        ("correct", Dynamic::from_map(correct)),
        ("correct_count", Dynamic::from_float(count)),
    ];
    // No standing before any listed prediction is answered (it would read "Developing" to a
    // student who has not started).
    let started = h.parts.iter().any(|p| {
        ledger
            .parts
            .get(&p.value)
            .is_some_and(|a| a.prediction.is_some())
    });
    let tier = h
        .tiers
        .iter()
        .filter(|_| started)
        .find(|t| match &t.when {
            None => true,
            Some(w) => lab
                .eval_expr(None, None, &w.value, &extra)
                .ok()
                .and_then(|v| v.as_bool().ok())
                .unwrap_or(false),
        })
        .map(|t| t.name.clone());
    HudState { parts, tier }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_answers_are_finite_numbers_as_typed() {
        assert_eq!(numeric_answer(" 1,234.50 ").as_deref(), Some("1234.50"));
        assert_eq!(numeric_answer("1_000").as_deref(), Some("1000"));
        for bad in ["", "NaN", "inf", "-infinity", "1e400", "12abc", ","] {
            assert_eq!(numeric_answer(bad), None, "{bad}");
        }
    }

    #[test]
    fn whole_floats_become_integers_as_in_javascript() {
        let mut v = serde_json::json!({"a": 16.0, "b": [0.5, -0.0, 3.0], "c": true});
        whole_numbers(&mut v);
        assert_eq!(v.to_string(), r#"{"a":16,"b":[0.5,0,3],"c":true}"#);
    }
}
