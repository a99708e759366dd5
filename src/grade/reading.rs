//! Written work and questions in `labforge grade`: each student's answer to each of a part's
//! `questions:` ([`QuestionGrade`], recomputed from the lab), and the report's reading view
//! per question ([`readings`]): every student's answer with their track and their prediction
//! beside it, empty and too-short written answers flagged, and for a choice or select-all the
//! class's tally per option.

use super::{LabGrades, PartGrade};
use crate::ledger::PartAnswers;
use crate::model::question::{word_count, SELECT_RULE};
use crate::model::*;
use serde::Serialize;

/// One student's answer to one question.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionGrade {
    pub id: String,
    pub kind: &'static str,
    /// The answer as text (a select-all's ids joined by `, `); `None`: not answered.
    pub answer: Option<String>,
    /// A graded question: right or not (a select-all: exactly the right set).
    pub correct: Option<bool>,
    /// A select-all's credit, 0 to 1.
    pub score: Option<f64>,
    /// A written answer's words, and whether they are fewer than the question's `min_words`.
    pub words: usize,
    pub too_short: bool,
    pub answered_at: Option<String>,
}

/// The answers of `a` to the questions of `p`, in the lab's order (the record refreshed).
pub(super) fn question_grades(p: &Part, a: &PartAnswers) -> Vec<QuestionGrade> {
    p.questions
        .iter()
        .map(|q| {
            let qa = a.questions.get(&q.id.value);
            let answer = qa.map(|x| x.text());
            let words = answer.as_deref().map_or(0, word_count);
            QuestionGrade {
                id: q.id.value.clone(),
                kind: q.kind().key(),
                correct: qa
                    .and(q.is_graded().then_some(()))
                    .map(|_| qa.and_then(|x| x.correct).unwrap_or(false)),
                score: qa.and_then(|x| x.score),
                too_short: q.kind() == QuestionKind::Text && words < q.min_words() as usize,
                words,
                answered_at: qa.and_then(|x| x.answered_at.clone()),
                answer,
            }
        })
        .collect()
}

/// The CSV's columns for the questions of `p` (`letter` its letter): the answer, then for a
/// graded question whether it is right (a select-all: its credit), for a written one its words.
pub(super) fn csv_head(p: &Part, letter: &str, head: &mut Vec<String>) {
    for q in &p.questions {
        let id = &q.id.value;
        head.push(format!("{letter} {id}"));
        match q.kind() {
            QuestionKind::Text => head.push(format!("{letter} {id} words")),
            QuestionKind::SelectAll => head.push(format!("{letter} {id} credit")),
            _ if q.is_graded() => head.push(format!("{letter} {id} correct")),
            _ => {}
        }
    }
}

/// The cells of [`csv_head`] for one student's part.
pub(super) fn csv_cells(p: &Part, pg: &PartGrade, row: &mut Vec<String>) {
    for (q, g) in p.questions.iter().zip(&pg.questions) {
        row.push(g.answer.clone().unwrap_or_default());
        let answered = g.answer.is_some();
        match q.kind() {
            QuestionKind::Text => row.push(if answered {
                g.words.to_string()
            } else {
                String::new()
            }),
            QuestionKind::SelectAll => row.push(
                g.score
                    .map_or_else(|| "unanswered".to_string(), |s| format!("{s:.2}")),
            ),
            _ if q.is_graded() => row.push(match g.correct {
                None => "unanswered".into(),
                Some(true) => "yes".into(),
                Some(false) => "no".into(),
            }),
            _ => {}
        }
    }
}

/// A question of the report's reading view.
#[derive(Debug, Serialize)]
pub struct Reading {
    /// `Part A`.
    pub part: String,
    pub id: String,
    pub kind: &'static str,
    /// As the student read it (its placeholders at the scenario).
    pub prompt: String,
    pub min_words: u32,
    /// A select-all's rule, in words.
    pub rule: Option<&'static str>,
    /// Per option (a choice or select-all): how many chose it.
    pub options: Vec<ReadingOption>,
    pub rows: Vec<ReadingRow>,
    /// Flagged: not answered, too short.
    pub unanswered: usize,
    pub short: usize,
}

#[derive(Debug, Serialize)]
pub struct ReadingOption {
    pub id: String,
    pub text: String,
    pub correct: bool,
    pub count: usize,
}

/// One student's answer in the reading view.
#[derive(Debug, Serialize)]
pub struct ReadingRow {
    pub student: String,
    pub track: Option<String>,
    /// The part's prediction as the student locked it in, and whether it was right.
    pub prediction: Option<String>,
    pub prediction_correct: Option<bool>,
    pub answer: Option<String>,
    /// `right`, `wrong`, `partial (50%)`, or nothing (an opinion or a written answer).
    pub verdict: Option<String>,
    /// `not answered`, or `too short: 7 of 12 words`.
    pub flag: Option<String>,
}

/// The reading view of every question of the lab of `g`.
pub fn readings(g: &LabGrades) -> Vec<Reading> {
    let lab = g.lab;
    let view = crate::view::lab(lab, true).ok();
    let mut out = Vec::new();
    for (k, p) in lab.lab.parts.iter().enumerate() {
        let pv = view.as_ref().map(|v| &v.parts[k]);
        for (j, q) in p.questions.iter().enumerate() {
            let qv = pv.and_then(|pv| pv.questions.get(j));
            let prompt = qv.map_or_else(|| q.prompt().value, |v| v.prompt.plain());
            let grades = g
                .graded
                .iter()
                .map(|s| (s, &s.parts[k], &s.parts[k].questions[j]));
            let mut options: Vec<ReadingOption> = qv
                .map(|v| {
                    v.options
                        .iter()
                        .map(|o| ReadingOption {
                            id: o.id.clone(),
                            text: o.text.plain(),
                            correct: o.correct.unwrap_or(false),
                            count: 0,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut rows = Vec::new();
            for (s, pg, qg) in grades {
                let picked: Vec<&str> = match (&qg.answer, q.kind()) {
                    (Some(a), QuestionKind::SelectAll) => a.split(", ").collect(),
                    (Some(a), QuestionKind::Choice) => vec![a.as_str()],
                    _ => vec![],
                };
                for o in options
                    .iter_mut()
                    .filter(|o| picked.contains(&o.id.as_str()))
                {
                    o.count += 1;
                }
                let verdict = match (q.kind(), qg.correct, qg.score) {
                    (QuestionKind::SelectAll, Some(false), Some(sc)) if sc > 0.0 => {
                        Some(format!("partial ({}%)", (sc * 100.0).round()))
                    }
                    (QuestionKind::SelectAll, Some(false), Some(_)) => Some("wrong (0%)".into()),
                    (_, Some(true), _) => Some("right".into()),
                    (_, Some(false), _) => Some("wrong".into()),
                    _ => None,
                };
                let flag = match &qg.answer {
                    None => Some("not answered".to_string()),
                    Some(_) if qg.too_short => Some(format!(
                        "too short: {} of {} words",
                        qg.words,
                        q.min_words()
                    )),
                    Some(_) => None,
                };
                rows.push(ReadingRow {
                    student: s.student.clone(),
                    track: pg.track.clone().or_else(|| s.track.clone()),
                    prediction: pg.prediction.clone(),
                    prediction_correct: pg.prediction_correct.filter(|_| pg.prediction.is_some()),
                    answer: qg.answer.clone(),
                    verdict,
                    flag,
                });
            }
            out.push(Reading {
                part: crate::model::part_label(&p.id.value),
                id: q.id.value.clone(),
                kind: if q.is_opinion() {
                    "opinion"
                } else {
                    q.kind().key()
                },
                prompt,
                min_words: q.min_words(),
                rule: (q.kind() == QuestionKind::SelectAll).then_some(SELECT_RULE),
                unanswered: rows.iter().filter(|r| r.answer.is_none()).count(),
                short: g
                    .graded
                    .iter()
                    .filter(|s| {
                        s.parts[k].questions[j].too_short
                            && s.parts[k].questions[j].answer.is_some()
                    })
                    .count(),
                options,
                rows,
            });
        }
    }
    out
}
