//! The answers to a part's `questions:` in the record (`parts.PART.questions.ID`): the answer
//! (an option id, a list of option ids for a select-all, a number as typed, or the written
//! text), when it was given, and, for a graded question, whether it is right (`correct`) and,
//! for a select-all, its `score` by [`crate::model::question::select_score`]. Both writers
//! (this and the page's `questions.js`) derive `correct` and `score` from the answer alone.
//! A question may be answered again; `answered_at` is the last answer's time.

use crate::eval::CompiledLab;
use crate::load::check::option_id;
use crate::model::question::{bound_text, select_score, word_count, MAX_TEXT_ANSWER};
use crate::model::*;
use serde::{Deserialize, Serialize};

/// An answer: one option id, number or text; or a select-all's option ids. Anything else a
/// record holds (a number, a record) is `Other`, which [`admit`] refuses: the answer is dropped
/// and named, never the whole record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    One(String),
    Set(Vec<String>),
    Other(serde_json::Value),
}

/// A student's answer to one question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionAnswer {
    pub answer: Answer,
    /// A graded question's answer is right (a select-all: exactly the right set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// A select-all's partial credit, 0 to 1 (a whole number written as the page writes it:
    /// `1`, not `1.0`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "as_javascript"
    )]
    pub score: Option<f64>,
    /// When it was answered (UTC, RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_at: Option<String>,
}

impl QuestionAnswer {
    /// A new answer, given now.
    pub fn now(answer: Answer) -> QuestionAnswer {
        QuestionAnswer {
            answer,
            correct: None,
            score: None,
            answered_at: Some(super::now()),
        }
    }

    /// The answer as one text (a select-all's ids joined by `, `).
    pub fn text(&self) -> String {
        match &self.answer {
            Answer::One(s) => s.clone(),
            Answer::Set(v) => v.join(", "),
            Answer::Other(_) => String::new(),
        }
    }
}

fn as_javascript<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => s.serialize_i64(*v as i64),
        Some(v) => s.serialize_f64(*v),
        None => s.serialize_none(),
    }
}

/// The ids of `options`, in order.
pub fn ids(options: &[Choice]) -> Vec<String> {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| option_id(i, o))
        .collect()
}

/// The ids of the correct options.
pub fn correct_ids(options: &[Choice]) -> Vec<String> {
    options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.correct)
        .map(|(i, o)| option_id(i, o))
        .collect()
}

/// `ans` as the question can have it (a written answer cut to its bound, a number without its
/// separators), or why not.
pub fn admit(q: &PartQuestion, ans: &Answer) -> Result<Answer, String> {
    let ids = ids(&q.spec.options);
    match (q.kind(), ans) {
        (QuestionKind::Choice, Answer::One(a)) if ids.contains(a) => Ok(ans.clone()),
        (QuestionKind::SelectAll, Answer::Set(v))
            if v.iter().all(|a| ids.contains(a))
                && v.iter().enumerate().all(|(i, a)| !v[..i].contains(a)) =>
        {
            // In the options' order, as both writers keep it.
            Ok(Answer::Set(
                ids.into_iter().filter(|i| v.contains(i)).collect(),
            ))
        }
        (QuestionKind::Numeric, Answer::One(a)) => super::numeric_answer(a)
            .map(Answer::One)
            .ok_or_else(|| format!("`{a}` is not a number")),
        (QuestionKind::Text, Answer::One(a)) if word_count(a) > 0 => Ok(Answer::One(bound_text(a))),
        (QuestionKind::Text, Answer::One(_)) => Err("an empty written answer".into()),
        (k, Answer::Other(_)) => Err(format!("not an answer to a {} question", k.key())),
        (k, a) => Err(format!(
            "`{}` is not an answer to a {} question",
            crate::load::text::for_terminal(&clip(&match a {
                Answer::One(s) => s.clone(),
                Answer::Set(v) => v.join(", "),
                Answer::Other(_) => String::new(),
            })),
            k.key()
        )),
    }
}

fn clip(s: &str) -> String {
    let mut c: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        c.push('…');
    }
    c
}

/// Sets `correct` and `score` of `a` from its answer.
pub fn judge(lab: &CompiledLab, part: &Part, q: &PartQuestion, a: &mut QuestionAnswer) {
    a.correct = None;
    a.score = None;
    match (q.kind(), &a.answer) {
        (QuestionKind::Choice, Answer::One(x)) if !q.is_opinion() => {
            a.correct = Some(correct_ids(&q.spec.options).contains(x));
        }
        (QuestionKind::SelectAll, Answer::Set(v)) => {
            let (score, exact) = select_score(&correct_ids(&q.spec.options), v);
            a.score = Some(score);
            a.correct = Some(exact);
        }
        (QuestionKind::Numeric, Answer::One(x)) => {
            a.correct = Some(numeric_right(lab, part, q, x));
        }
        _ => {}
    }
}

/// The value a numeric question is graded against, at the part's scenario.
pub fn numeric_target(lab: &CompiledLab, part: &Part, q: &PartQuestion) -> Option<f64> {
    let n = q.numeric()?;
    let cp = lab.part(&part.id.value)?;
    let ev = lab.evaluate(cp, &lab.scenario(cp)).ok()?;
    ev.values
        .get(&n.output.value)
        .and_then(crate::formula::as_number)
}

fn numeric_right(lab: &CompiledLab, part: &Part, q: &PartQuestion, x: &str) -> bool {
    let (Some(n), Some(want)) = (q.numeric(), numeric_target(lab, part, q)) else {
        return false;
    };
    x.parse::<f64>().is_ok_and(|x| n.accepts(x, want))
}

/// Keeps the answers `part` can have: its questions, each answer admitted; names the rest in
/// `dropped`.
pub fn sanitize(
    part: &Part,
    label: &str,
    answers: &mut indexmap::IndexMap<String, QuestionAnswer>,
    dropped: &mut Vec<String>,
) {
    for (id, mut a) in std::mem::take(answers) {
        let Some(q) = part.questions.iter().find(|q| q.id.value == id) else {
            dropped.push(format!(
                "{label}: an answer to a question `{}` the part does not ask",
                crate::load::text::for_terminal(&clip(&id))
            ));
            continue;
        };
        match admit(q, &a.answer) {
            Ok(ans) => {
                a.answer = ans;
                if a.answered_at
                    .as_ref()
                    .is_some_and(|t| t.chars().count() > 64)
                {
                    a.answered_at = None;
                }
                answers.insert(id, a);
            }
            Err(why) => dropped.push(format!("{label}: question `{id}`: {why}")),
        }
    }
}

/// Every question of `part` is answered in `answers`.
pub fn all_answered(part: &Part, answers: &indexmap::IndexMap<String, QuestionAnswer>) -> bool {
    part.questions
        .iter()
        .all(|q| answers.contains_key(&q.id.value))
}

/// The longest written answer kept, for the docs and the tests.
pub const MAX_TEXT: usize = MAX_TEXT_ANSWER;
