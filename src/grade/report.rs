//! The class report page (`report.html`): a roster of every student first, then the records
//! not graded, then per lab each question's tally and the decision logs. Everything on it is
//! the students' or the lab's text, so the template is rendered with HTML escaping always on
//! and the page gets the print documents' Content-Security-Policy (no script, no request).

use super::{csv_name, Graded, LabGrades, PartGrade, Problem};
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::load::check::option_id;
use crate::model::Choice;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// How a class answered one question: each option with its text, how many chose it, and
/// whether it is the right one.
#[derive(Debug, Serialize)]
pub struct Tally {
    pub part: String,
    pub question: String,
    pub options: Vec<TallyRow>,
    pub unanswered: usize,
}

#[derive(Debug, Serialize)]
pub struct TallyRow {
    pub id: String,
    pub text: String,
    /// Right on the default track (a lab without tracks: right).
    pub correct: bool,
    pub count: usize,
    /// A lab with tracks: per track (in the lab's order), how many chose it on that track and
    /// whether it is right there.
    pub by_track: Vec<TrackCount>,
}

/// How many chose an option on one track, and whether it is right there.
#[derive(Debug, Serialize)]
pub struct TrackCount {
    pub track: String,
    pub label: String,
    pub count: usize,
    pub correct: bool,
}

/// One track of a lab in the class: how many students are on it, and per question how many
/// answered it on that track and how many of them got it right.
#[derive(Debug, Serialize)]
pub struct TrackRow {
    pub id: String,
    pub label: String,
    pub students: usize,
    pub parts: Vec<TrackPart>,
}

#[derive(Debug, Serialize)]
pub struct TrackPart {
    pub part: String,
    pub answered: usize,
    pub correct: usize,
}

/// Per track of the lab (none without tracks): students on it, and right answers per part.
pub fn track_rows(g: &LabGrades) -> Vec<TrackRow> {
    let lab = g.lab;
    lab.tracks
        .tracks
        .iter()
        .map(|t| {
            let on = |pg: &PartGrade| pg.track.as_deref() == Some(t.id.as_str());
            let mut parts = Vec::new();
            for (k, p) in lab.lab.parts.iter().enumerate() {
                let l = crate::model::part_letter(&p.id.value);
                let answers = g.graded.iter().map(|s| &s.parts[k]).filter(|a| on(a));
                if p.prediction.is_some() {
                    let a: Vec<&PartGrade> =
                        answers.clone().filter(|a| a.prediction.is_some()).collect();
                    parts.push(TrackPart {
                        part: format!("{l} prediction"),
                        answered: a.len(),
                        correct: a
                            .iter()
                            .filter(|a| a.prediction_correct == Some(true))
                            .count(),
                    });
                }
                if p.reflection.is_some() {
                    let a: Vec<&PartGrade> = answers.filter(|a| a.reflection.is_some()).collect();
                    parts.push(TrackPart {
                        part: format!("{l} reflection"),
                        answered: a.len(),
                        correct: a
                            .iter()
                            .filter(|a| a.reflection_correct == Some(true))
                            .count(),
                    });
                }
            }
            TrackRow {
                id: t.id.clone(),
                label: t.label.clone(),
                students: g
                    .graded
                    .iter()
                    .filter(|s| s.track.as_deref() == Some(t.id.as_str()))
                    .count(),
                parts,
            }
        })
        .collect()
}

/// The per-question tallies of a lab: predictions (numeric ones as right/wrong) and
/// reflections.
pub fn tallies(g: &LabGrades) -> Vec<Tally> {
    let lab = g.lab;
    let mut out = Vec::new();
    for (k, p) in lab.lab.parts.iter().enumerate() {
        let title = format!("Part {}", crate::model::part_letter(&p.id.value));
        // The texts as the student read them, at the prediction's scenario (evaluated once).
        let cp = lab.part(&p.id.value);
        let ev = cp.and_then(|cp| lab.evaluate(cp, &lab.scenario(cp)).ok());
        let text = |t: &str| {
            lab.render_text(cp, ev.as_ref(), t, &[])
                .unwrap_or_else(|_| t.to_string())
        };
        if let Some(pred) = &p.prediction {
            let answers: Vec<&PartGrade> = g.graded.iter().map(|s| &s.parts[k]).collect();
            let options = if pred.numeric.is_some() {
                vec![
                    row("right", "within the tolerance", true, &answers, |a| {
                        a.prediction.is_some() && a.prediction_correct == Some(true)
                    }),
                    row("wrong", "outside the tolerance", false, &answers, |a| {
                        a.prediction.is_some() && a.prediction_correct != Some(true)
                    }),
                ]
            } else {
                let mut rows =
                    choice_rows(&pred.options, &text, &answers, |a| a.prediction.as_deref());
                per_track(
                    g,
                    &mut rows,
                    &answers,
                    |a| a.prediction.as_deref(),
                    |l| {
                        l.lab.parts[k]
                            .prediction
                            .as_ref()
                            .map(|q| q.options.clone())
                    },
                );
                rows
            };
            out.push(Tally {
                part: format!("{title} · prediction"),
                question: text(&pred.question.value),
                options,
                unanswered: answers.iter().filter(|a| a.prediction.is_none()).count(),
            });
        }
        if let Some(r) = &p.reflection {
            let answers: Vec<&PartGrade> = g.graded.iter().map(|s| &s.parts[k]).collect();
            let mut options = choice_rows(&r.options, &text, &answers, |a| a.reflection.as_deref());
            per_track(
                g,
                &mut options,
                &answers,
                |a| a.reflection.as_deref(),
                |l| {
                    l.lab.parts[k]
                        .reflection
                        .as_ref()
                        .map(|q| q.options.clone())
                },
            );
            out.push(Tally {
                part: format!("{title} · reflection"),
                question: text(&r.question.value),
                options,
                unanswered: answers.iter().filter(|a| a.reflection.is_none()).count(),
            });
        }
    }
    out
}

/// Fills each option's per-track counts (a lab with tracks): the answers given on each track,
/// and whether the option is right there (`options_on`: the question's options as compiled for
/// a track).
fn per_track(
    g: &LabGrades,
    rows: &mut [TallyRow],
    answers: &[&PartGrade],
    pick: impl Fn(&PartGrade) -> Option<&str>,
    options_on: impl Fn(&CompiledLab) -> Option<Vec<Choice>>,
) {
    for t in &g.lab.tracks.tracks {
        let opts = g.on_track(Some(t.id.as_str())).and_then(&options_on);
        for (i, r) in rows.iter_mut().enumerate() {
            r.by_track.push(TrackCount {
                track: t.id.clone(),
                label: t.label.clone(),
                count: answers
                    .iter()
                    .filter(|a| a.track.as_deref() == Some(t.id.as_str()))
                    .filter(|a| pick(a) == Some(r.id.as_str()))
                    .count(),
                correct: opts
                    .as_ref()
                    .and_then(|o| o.get(i))
                    .is_some_and(|o| o.correct),
            });
        }
    }
}

fn row(
    id: &str,
    text: &str,
    correct: bool,
    answers: &[&PartGrade],
    counts: impl Fn(&PartGrade) -> bool,
) -> TallyRow {
    TallyRow {
        id: id.into(),
        text: text.into(),
        correct,
        count: answers.iter().filter(|a| counts(a)).count(),
        by_track: Vec::new(),
    }
}

fn choice_rows(
    options: &[Choice],
    text: &dyn Fn(&str) -> String,
    answers: &[&PartGrade],
    pick: impl Fn(&PartGrade) -> Option<&str>,
) -> Vec<TallyRow> {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let id = option_id(i, o);
            TallyRow {
                text: text(&o.text.value),
                correct: o.correct,
                count: answers.iter().filter(|a| pick(a) == Some(&id)).count(),
                by_track: Vec::new(),
                id,
            }
        })
        .collect()
}

/// The class report page's template, overridable with `--templates DIR` like the others.
pub const REPORT_TEMPLATE: &str = include_str!("../../renderers/grade/report.html.j2");

#[derive(Serialize)]
struct ReportLab {
    id: String,
    title: String,
    csv: String,
    students: usize,
    complete: usize,
    mean: String,
    asked: usize,
    tallies: Vec<Tally>,
    /// Per question of the parts' `questions:`: every student's answer.
    readings: Vec<super::Reading>,
    /// Per track (a lab with tracks): students, and right answers per question.
    tracks: Vec<TrackRow>,
    logs: Vec<ReportNote>,
    notes: Vec<ReportNote>,
}

#[derive(Serialize)]
struct ReportNote {
    student: String,
    text: String,
}

/// One row of the roster: a student and a lab.
#[derive(Serialize)]
struct RosterRow {
    student: String,
    lab: String,
    /// A record of this lab was graded for the student.
    graded: bool,
    complete: bool,
    /// Predictions right, out of those the lab asks (shown only for a graded record).
    score: usize,
    asked: usize,
    /// What the record leaves unanswered: `Part A: reflection`, `decision log (empty)`.
    missing: Vec<String>,
    /// Without a graded record: the student's records that were not graded, and why.
    refused: Vec<String>,
}

/// What `s` leaves unanswered, part by part, in the lab's order; an empty decision log last
/// (it does not count for `complete`, but a TA grades it).
fn missing(lab: &CompiledLab, s: &Graded) -> Vec<String> {
    let mut out: Vec<String> = lab
        .lab
        .parts
        .iter()
        .zip(&s.parts)
        .filter_map(|(p, g)| {
            let mut left = Vec::new();
            if p.prediction.is_some() && g.prediction.is_none() {
                left.push("prediction");
            }
            if p.reflection.is_some() && g.reflection.is_none() {
                left.push("reflection");
            }
            (!left.is_empty()).then(|| {
                format!(
                    "Part {}: {}",
                    crate::model::part_letter(&p.id.value),
                    left.join(", ")
                )
            })
        })
        .collect();
    let asks_log = lab
        .lab
        .synthesis
        .as_ref()
        .is_some_and(|s| s.decision_log.is_some());
    if asks_log && s.decision_log.trim().is_empty() {
        out.push("decision log (empty)".into());
    }
    out
}

/// Every student who handed anything in (graded or not), in name order (ignoring case), with
/// a row per lab graded here: a student with no graded record of a lab has a row that says
/// so, with the reasons their files were refused.
fn roster(
    grades: &[LabGrades],
    problems: &[Problem],
    records: &[(String, PathBuf)],
) -> Vec<RosterRow> {
    let mut students: Vec<&str> = records.iter().map(|(s, _)| s.as_str()).collect();
    // As a TA reads a list of names: `alice` before `Bob`, ties in a fixed order.
    students.sort_by_cached_key(|s| (s.to_lowercase(), s.to_string()));
    students.dedup();
    let mut rows = Vec::new();
    for s in students {
        for g in grades {
            let row = match g.graded.iter().find(|r| r.student == s) {
                Some(r) => RosterRow {
                    student: s.into(),
                    lab: title(g.lab),
                    graded: true,
                    complete: r.complete,
                    score: r.score,
                    asked: r.asked,
                    missing: missing(g.lab, r),
                    refused: Vec::new(),
                },
                None => RosterRow {
                    student: s.into(),
                    lab: title(g.lab),
                    graded: false,
                    complete: false,
                    score: 0,
                    asked: 0,
                    missing: Vec::new(),
                    refused: problems
                        .iter()
                        .filter(|p| p.student == s)
                        .map(|p| format!("{}: {}", p.file, p.reason))
                        .collect(),
                },
            };
            rows.push(row);
        }
    }
    rows
}

/// A lab's title as the student read it.
fn title(lab: &CompiledLab) -> String {
    lab.render_text(None, None, &lab.lab.title.value, &[])
        .unwrap_or_else(|_| lab.lab.title.value.clone())
}

/// The class report page: the roster first (every student, what each has left), the records
/// not graded, then per lab completion, each question's tally and the decision logs.
pub fn report(
    grades: &[LabGrades],
    problems: &[Problem],
    records: &[(String, PathBuf)],
    templates: Option<&Path>,
) -> Result<String, Diagnostic> {
    let labs: Vec<ReportLab> = grades
        .iter()
        .map(|g| {
            let n = g.graded.len();
            let total: usize = g.graded.iter().map(|s| s.score).sum();
            ReportLab {
                id: g.lab.lab.id.value.clone(),
                title: title(g.lab),
                csv: csv_name(g.lab),
                students: n,
                complete: g.graded.iter().filter(|s| s.complete).count(),
                mean: if n == 0 {
                    "–".into()
                } else {
                    crate::library::format::fixed(total as f64 / n as f64, 1, false)
                },
                asked: g.graded.first().map(|s| s.asked).unwrap_or_else(|| {
                    g.lab
                        .lab
                        .parts
                        .iter()
                        .filter(|p| p.prediction.is_some())
                        .count()
                }),
                tallies: tallies(g),
                readings: super::readings(g),
                tracks: track_rows(g),
                logs: g
                    .graded
                    .iter()
                    .filter(|s| !s.decision_log.trim().is_empty())
                    .map(|s| ReportNote {
                        student: s.student.clone(),
                        text: s.decision_log.clone(),
                    })
                    .collect(),
                notes: g
                    .graded
                    .iter()
                    .flat_map(|s| {
                        s.notes.iter().map(|t| ReportNote {
                            student: s.student.clone(),
                            text: t.clone(),
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    let graded: usize = grades.iter().map(|g| g.graded.len()).sum();
    let roster = roster(grades, problems, records);
    let mut unfinished: Vec<&str> = roster
        .iter()
        .filter(|r| !r.complete)
        .map(|r| r.student.as_str())
        .collect();
    unfinished.dedup();
    let mut students: Vec<&str> = roster.iter().map(|r| r.student.as_str()).collect();
    students.dedup();
    let students = students.len();
    let overrides = templates.map(|d| crate::safe_fs::template_overrides(d.to_path_buf()));
    let tpl = crate::render::asset(
        &[("report.html.j2", REPORT_TEMPLATE)],
        "report.html.j2",
        overrides.as_ref(),
    )?;
    // An instructor's template that fails is located in it, with a hint (as a render's).
    let located = |e: minijinja::Error| crate::render::template_error(overrides.as_ref(), &e);
    let mut env = minijinja::Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    // Everything in the report is the students' or the lab's text: escaped, always.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template("report.html.j2", &tpl).map_err(located)?;
    env.get_template("report.html.j2")
        .and_then(|t| {
            t.render(minijinja::context! {
                labs => labs, problems => problems, graded => graded, files => records.len(),
                roster => roster, unfinished => unfinished, students => students,
            })
        })
        .map_err(located)
}
