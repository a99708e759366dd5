//! A part's `questions:` as every front end shows them (`model::question`): the prompt, the
//! options, the answer box; with answers, the right options, the feedback, the model answer,
//! the select-all rule and a numeric question's expected value.

use super::build::prose;
use super::{NumericView, OptionView, Prose};
use crate::diag::Diagnostic;
use crate::eval::{CompiledLab, CompiledPart, Evaluation};
use crate::load::check::option_id;
use crate::model::question::SELECT_RULE;
use crate::model::*;
use serde::Serialize;

type R<T> = Result<T, Diagnostic>;

/// One question of a part.
#[derive(Debug, Clone, Serialize)]
pub struct PartQuestionView {
    pub id: String,
    /// `choice`, `select_all`, `numeric` or `text`.
    pub kind: &'static str,
    pub prompt: Prose,
    /// A choice with no right option (recorded, never graded).
    pub opinion: bool,
    /// Choice and select-all: the options (with answers: `correct` and their feedback).
    pub options: Vec<OptionView>,
    /// Numeric: the answer box (with answers: the expected value and what is accepted).
    pub numeric: Option<NumericView>,
    /// Text: the grey text of the empty box, and the fewest words asked (0: any).
    pub placeholder: Option<String>,
    pub min_words: u32,
    /// Text: the lines a printed handout leaves for the answer (about ten handwritten words a
    /// line: `min_words / 10`, at least 2, at most 30; 3 without `min_words`).
    pub writing_lines: u32,
    /// Ids of the earlier questions of the part (or `prediction`) it waits for.
    pub requires: Vec<String>,
    /// Shown once answered.
    pub feedback: Option<Prose>,
    /// Answers only: the model answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Prose>,
    /// Answers only: how a select-all is graded, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The questions of part `cp`, their prose at the scenario evaluation `scen`.
pub(super) fn views(
    lab: &CompiledLab,
    cp: &CompiledPart,
    scen: &Evaluation,
    answers: bool,
) -> R<Vec<PartQuestionView>> {
    let p = &lab.lab.parts[cp.index];
    let st = |t: &Text| prose(lab, Some(cp), Some(scen), t);
    p.questions
        .iter()
        .map(|q| {
            let s = &q.spec;
            let options = s
                .options
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    Ok(OptionView {
                        id: option_id(i, c),
                        text: st(&c.text)?,
                        correct: answers.then_some(c.correct),
                        feedback: if answers {
                            c.feedback.as_ref().map(st).transpose()?
                        } else {
                            None
                        },
                    })
                })
                .collect::<R<Vec<_>>>()?;
            let numeric = match q.numeric() {
                Some(nu) => Some(super::feedback::numeric_view(lab, cp, scen, &nu, answers)?),
                None => None,
            };
            Ok(PartQuestionView {
                id: q.id.value.clone(),
                kind: q.kind().key(),
                prompt: st(&q.prompt())?,
                opinion: q.is_opinion(),
                options,
                numeric,
                placeholder: s.placeholder.as_ref().map(|p| p.value.clone()),
                min_words: q.min_words(),
                writing_lines: match q.min_words() {
                    0 => 3,
                    n => n.div_ceil(10).clamp(2, 30),
                },
                requires: s.requires.iter().map(|r| r.value.clone()).collect(),
                feedback: s.feedback.as_ref().map(st).transpose()?,
                answer: if answers {
                    s.answer.as_ref().map(st).transpose()?
                } else {
                    None
                },
                rule: (answers && q.kind() == QuestionKind::SelectAll)
                    .then(|| SELECT_RULE.to_string()),
            })
        })
        .collect()
}
