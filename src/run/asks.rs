//! A part's `questions:` at the terminal, after its instruments and before its reflection:
//! each unanswered one asked in order (so a walk resumed after quitting starts at the first
//! unanswered question), recorded with its time, then its verdict and feedback.

use super::term::Style;
use super::ui::{self, Item};
use super::{md, Res, Session, Source};
use crate::ledger::numeric_answer;
use crate::ledger::questions::{Answer, QuestionAnswer};
use crate::model::question::word_count;
use crate::model::*;
use crate::view::{PartQuestionView, Prose};

impl Session<'_> {
    pub(super) fn questions(&mut self, part: &Part) -> Res<()> {
        let pid = part.id.value.clone();
        let qs = self.pv(&pid).questions.clone();
        for (n, q) in qs.iter().enumerate() {
            if self.ledger.parts[&pid].questions.contains_key(&q.id) {
                continue;
            }
            self.scr.refresh();
            self.scr.println("");
            let kind = if q.kind == "select_all" {
                " (select all that apply)"
            } else {
                ""
            };
            self.scr.println(
                &self
                    .scr
                    .paint(Style::Bold, &format!("Question {}{kind}", n + 1)),
            );
            let answer = self.ask(&pid, q)?;
            // The window may have been resized while the question was open.
            self.scr.refresh();
            let rec = &mut self.ledger.parts[&pid];
            rec.questions
                .insert(q.id.clone(), QuestionAnswer::now(answer));
            if rec.track.is_none() && part.prediction.is_none() {
                rec.track = self.lab.track.clone();
            }
            self.save()?;
            self.question_verdict(&pid, q);
            self.pause()?;
        }
        Ok(())
    }

    fn ask(&mut self, pid: &str, q: &PartQuestionView) -> Res<Answer> {
        let scr = self.scr;
        let prompt = q.prompt.plain();
        let items: Vec<Item> = q
            .options
            .iter()
            .map(|o| Item {
                key: o.id.clone(),
                text: o.text.plain(),
            })
            .collect();
        if let Source::Answers(a) = &mut self.source {
            let v = a.question(pid, &q.id)?;
            scr.print_lines(&md::render_prefixed(&prompt, &scr, "? ", "  "));
            let one = |v: &serde_json::Value| super::answers::scalar(v);
            let got = match (q.kind, &v) {
                ("select_all", serde_json::Value::Array(xs)) => {
                    Answer::Set(xs.iter().map(one).collect())
                }
                ("select_all", other) => Answer::Set(
                    one(other)
                        .split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect(),
                ),
                (_, other) => Answer::One(one(other)),
            };
            let model = self
                .lab
                .lab
                .parts
                .iter()
                .find(|p| p.id.value == pid)
                .expect("the part");
            let spec = model
                .questions
                .iter()
                .find(|x| x.id.value == q.id)
                .expect("the question");
            // Option ids in any case, as an answers file's predictions.
            let got = match got {
                Answer::One(s) if q.kind == "choice" => Answer::One(key_of(&items, &s)),
                Answer::Set(v) => Answer::Set(v.iter().map(|s| key_of(&items, s)).collect()),
                other => other,
            };
            let got = crate::ledger::questions::admit(spec, &got)
                .map_err(|e| a.bad(format!("answers: part `{pid}`, question `{}`: {e}", q.id)))?;
            ui::echo_text(
                &scr,
                &crate::load::text::for_terminal(&QuestionAnswer::now(got.clone()).text()),
            );
            return Ok(got);
        }
        let Source::Prompt(p) = &mut self.source else {
            unreachable!()
        };
        Ok(match q.kind {
            "choice" => Answer::One(items[p.answer(&scr, &prompt, &items, 0)?].key.clone()),
            "select_all" => {
                let on = p.multi(&scr, &prompt, &items, &vec![false; items.len()])?;
                Answer::Set(
                    items
                        .iter()
                        .zip(on)
                        .filter(|(_, on)| *on)
                        .map(|(i, _)| i.key.clone())
                        .collect(),
                )
            }
            "numeric" => {
                let n = q.numeric.as_ref();
                let unit = n
                    .and_then(|n| n.unit.clone())
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default();
                let (lo, hi) = (n.and_then(|n| n.min), n.and_then(|n| n.max));
                let typed = p.input(&scr, &format!("{prompt}{unit}"), &mut |s| {
                    let x = numeric_answer(s).and_then(|t| t.parse::<f64>().ok());
                    match x {
                        None => Err(format!(
                            "type a number, e.g. 42 (not `{}`)",
                            crate::load::text::for_terminal(s.trim())
                        )),
                        Some(x) if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) => {
                            Err("that number is outside the box's range".into())
                        }
                        Some(_) => Ok(()),
                    }
                })?;
                Answer::One(numeric_answer(&typed).unwrap_or(typed))
            }
            _ => loop {
                let t = p.text(&scr, &prompt, q.placeholder.as_deref())?;
                if word_count(&t) > 0 {
                    break Answer::One(crate::model::question::bound_text(&t));
                }
                scr.println(&scr.paint(
                    Style::Orange,
                    "  Nothing written yet (Ctrl-D on an empty answer saves and quits).",
                ));
            },
        })
    }

    /// After an answer: right or not (a graded question), the credit of a select-all, a
    /// written answer's length against its minimum, then the feedback.
    fn question_verdict(&self, pid: &str, q: &PartQuestionView) {
        let rec = &self.ledger.parts[pid].questions[&q.id];
        let chosen: Vec<&str> = match &rec.answer {
            Answer::One(s) => vec![s.as_str()],
            Answer::Set(v) => v.iter().map(String::as_str).collect(),
            Answer::Other(_) => vec![],
        };
        let mut fb: Vec<String> = q
            .options
            .iter()
            .filter(|o| chosen.contains(&o.id.as_str()))
            .filter_map(|o| o.feedback.as_ref().map(Prose::plain))
            .collect();
        fb.extend(q.feedback.as_ref().map(Prose::plain));
        let body = fb.join("\n\n");
        match (q.kind, rec.correct) {
            ("select_all", Some(false)) => {
                let pct = (rec.score.unwrap_or(0.0) * 100.0).round();
                let head = self
                    .scr
                    .paint(Style::Orange, &format!("✗ Partly right: {pct}% credit."));
                self.print(md::render_prefixed(
                    &body,
                    &self.scr,
                    &format!("{head} "),
                    "  ",
                ));
            }
            (_, Some(c)) => self.verdict(c, Some(body)),
            (kind, None) => {
                let words = word_count(&rec.text());
                let head = if kind == "text" && words < q.min_words as usize {
                    format!(
                        "Saved ({words} words; at least {} were asked).",
                        q.min_words
                    )
                } else if kind == "text" {
                    format!("Saved ({words} words).")
                } else {
                    "Recorded.".to_string()
                };
                let head = self.scr.paint(Style::Bold, &head);
                let mut l = md::render_prefixed(&body, &self.scr, &format!("{head} "), "  ");
                if l.is_empty() {
                    l.push(head);
                }
                self.print(l);
            }
        }
    }
}

/// The option key `s` names, in any case (else `s` as it is, refused later by `admit`).
fn key_of(items: &[Item], s: &str) -> String {
    items
        .iter()
        .find(|i| i.key.eq_ignore_ascii_case(s.trim()))
        .map_or_else(|| s.trim().to_string(), |i| i.key.clone())
}
