//! The questions: a prediction (locked in once, then only looked at) and a reflection, with
//! their feedback, drawn from the lab's [view](crate::view).

use super::term::Style;
use super::ui::{self, Item, Stop};
use super::{answers, md, Res, Session, Source};
use crate::ledger::numeric_answer;
use crate::model::*;
use crate::view::Prose;

impl Session<'_> {
    /// A question's options as list items (key = option id).
    fn choices(options: &[crate::view::OptionView]) -> Vec<Item> {
        options
            .iter()
            .map(|o| Item {
                key: o.id.clone(),
                text: o.text.plain(),
            })
            .collect()
    }

    pub(super) fn prediction(&mut self, i: usize, part: &Part) -> Res<()> {
        let Some(pred) = &part.prediction else {
            return Ok(());
        };
        let pid = part.id.value.clone();
        // Locked in on another track: its question, options and feedback as they were there.
        let other = self.locked_on_other(&pid).is_some();
        let alt = self.locked_view(&pid);
        let pv = alt
            .as_ref()
            .and_then(|v| v.parts.iter().find(|p| p.id == pid))
            .unwrap_or_else(|| self.pv(&pid))
            .prediction
            .as_ref()
            .expect("a prediction view");
        let question = pv.question.plain();
        let items = Self::choices(&pv.options);
        // Feedback for each answer: an option's (or the question's other), or the numeric pair.
        let option_fb: Vec<(String, Option<String>)> = pv
            .options
            .iter()
            .map(|o| (o.id.clone(), o.feedback.as_ref().map(Prose::plain)))
            .collect();
        let other_fb = pv.other_feedback.as_ref().map(Prose::plain);
        let numeric_fb = pv.numeric.as_ref().map(|n| {
            (
                n.correct_feedback.as_ref().map(Prose::plain),
                n.other_feedback.as_ref().map(Prose::plain),
                n.bands
                    .iter()
                    .map(|b| b.feedback.plain())
                    .collect::<Vec<_>>(),
            )
        });
        let answered = self.ledger.parts[&pid].prediction.clone();
        let fresh = answered.is_none();
        let answer = match answered {
            Some(a) => {
                self.scr.println("");
                self.print(md::render_prefixed(
                    &question,
                    &self.scr,
                    "Your prediction: ",
                    "  ",
                ));
                let shown = match items.iter().find(|it| it.key == a) {
                    Some(it) => format!("{a}) {}", it.text),
                    None => a.clone(),
                };
                self.print(md::render_prefixed(&shown, &self.scr, "  → ", "    "));
                // Locked in on another track: said, and judged there (the ledger's verdict).
                let on = self.ledger.parts[&pid]
                    .track
                    .as_deref()
                    .filter(|t| Some(*t) != self.lab.track.as_deref());
                if let Some(t) = on {
                    let note = format!(
                        "(locked in on the {} track, and judged on it)",
                        super::track::name_of(&self.lab.tracks, t)
                    );
                    for x in md::render_prefixed(&note, &self.scr, "    ", "    ") {
                        self.scr.println(&self.scr.paint(Style::Dim, &x));
                    }
                }
                a
            }
            None => {
                self.scr.println("");
                self.scr
                    .println(&self.scr.paint(Style::Bold, "Make your prediction"));
                if let Some(t) = &pv.lock_text {
                    let t = format!("🔒 {}", t.plain());
                    self.print(md::render_prefixed(&t, &self.scr, "", "  "));
                }
                let a = self.ask_prediction(&items, pred, &pid, &question)?;
                // Locked in: the first answer is the one that counts.
                let rec = &mut self.ledger.parts[&pid];
                rec.prediction = Some(a.clone());
                rec.prediction_locked_at = Some(crate::ledger::now());
                rec.track = self.lab.track.clone();
                self.advance(i, 1);
                self.save()?;
                self.refresh_view();
                a
            }
        };
        // Reveal the feedback, at the width the window has now (it may have been resized
        // while the options were open).
        self.scr.refresh();
        let correct = self.ledger.parts[&pid].prediction_correct.unwrap_or(false);
        let fb = match numeric_fb {
            // The verdict's feedback, then the band's the answer falls in (as the page shows).
            Some((right, wrong, bands)) => {
                let verdict = if correct { right } else { wrong };
                let band = pred
                    .numeric
                    .as_ref()
                    .zip(answer.trim().parse::<f64>().ok())
                    .and_then(|(n, x)| n.band_of(x))
                    .and_then(|i| bands.get(i).cloned());
                match (verdict, band) {
                    (Some(v), Some(b)) => Some(format!("{v}\n\n{b}")),
                    (v, b) => v.or(b),
                }
            }
            None => option_fb
                .into_iter()
                .find(|(id, _)| *id == answer)
                .and_then(|(_, f)| f)
                .or(other_fb),
        };
        // Live feedback: at the controls' current values, with `answer` the locked-in answer.
        let fb = match self.lab.part(&pid).filter(|_| pred.live && !other) {
            Some(cp) => {
                let inputs = self.inputs_of(cp, part);
                let ev = self.lab.evaluate(cp, &inputs).map_err(super::eval_stop)?;
                crate::view::answer_feedback(self.lab, cp, &ev, &answer, correct)
                    .map_err(|e| Stop::bad(format!("the lab failed to evaluate: {e}")))?
                    .map(|p| p.plain())
            }
            None => fb,
        };
        self.verdict(correct, fb);
        if fresh {
            self.pause()?;
        }
        Ok(())
    }

    fn ask_prediction(
        &mut self,
        items: &[Item],
        pred: &Prediction,
        pid: &str,
        question: &str,
    ) -> Res<String> {
        let scr = self.scr;
        match &mut self.source {
            Source::Answers(a) => {
                let v = a.answer("prediction", pid)?;
                scr.print_lines(&md::render_prefixed(question, &scr, "? ", "  "));
                if let Some(n) = &pred.numeric {
                    let x = numeric_answer(&v).ok_or_else(|| {
                        a.bad(format!(
                            "answers: the prediction of part `{pid}` is a number, not `{v}`"
                        ))
                    })?;
                    in_box(n, &x).map_err(|e| {
                        a.bad(format!("answers: the prediction of part `{pid}`: {e}"))
                    })?;
                    ui::echo_text(&scr, &x);
                    return Ok(x);
                }
                let k = answers::choose(a, &scr, items, &v, pid, "prediction")?;
                Ok(items[k].key.clone())
            }
            Source::Prompt(p) => {
                if let Some(n) = &pred.numeric {
                    let unit = n
                        .unit
                        .as_deref()
                        .map(|u| format!(" ({u})"))
                        .unwrap_or_default();
                    scr.print_lines(&md::render_prefixed(question, &scr, "? ", "  "));
                    let default = n
                        .default
                        .as_ref()
                        .map(|d| crate::library::format::auto(d.value));
                    let q = match &default {
                        Some(d) => format!("Your estimate{unit} [Enter: {d}]:"),
                        None => format!("Your estimate{unit}:"),
                    };
                    let mut got = None;
                    p.input(&scr, &q, &mut |s: &str| {
                        let s = match (&default, s.trim()) {
                            (Some(d), "") => d.as_str(),
                            _ => s,
                        };
                        got = numeric_answer(s);
                        match &got {
                            None => Err(format!("type a number, e.g. 42 (not `{}`)", s.trim())),
                            Some(x) => in_box(n, x),
                        }
                    })?;
                    return Ok(got.unwrap_or_default());
                }
                let k = p.commit(&scr, question, items, 0)?;
                Ok(items[k].key.clone())
            }
        }
    }

    pub(super) fn reflection(&mut self, i: usize, part: &Part) -> Res<()> {
        if part.reflection.is_none() {
            self.advance(i + 1, 0);
            return self.save();
        }
        self.scr.refresh();
        let pid = part.id.value.clone();
        let r = self
            .pv(&pid)
            .reflection
            .as_ref()
            .expect("a reflection view");
        let question = r.question.plain();
        let items = Self::choices(&r.options);
        let feedback: Vec<Option<String>> = r
            .options
            .iter()
            .map(|o| o.feedback.as_ref().map(Prose::plain))
            .collect();
        self.scr.println("");
        self.scr.println(&self.scr.paint(Style::Bold, "Reflection"));
        let scr = self.scr;
        let k = match &mut self.source {
            Source::Answers(a) => {
                let v = a.answer("reflection", &pid)?;
                scr.print_lines(&md::render_prefixed(&question, &scr, "? ", "  "));
                answers::choose(a, &scr, &items, &v, &pid, "reflection")?
            }
            Source::Prompt(p) => p.answer(&scr, &question, &items, 0)?,
        };
        let rec = &mut self.ledger.parts[&pid];
        rec.reflection = Some(items[k].key.clone());
        if rec.track.is_none() && part.prediction.is_none() {
            rec.track = self.lab.track.clone();
        }
        self.advance(i + 1, 0);
        self.save()?;
        let correct = self.ledger.parts[&pid].reflection_correct.unwrap_or(false);
        self.verdict(correct, feedback[k].clone());
        self.pause()
    }
}

/// A typed number the prediction's box takes: within its `min` and `max`, and on its `step`
/// ([`NumericAnswer::off_step`], the page's rule). The message names the nearest steps.
fn in_box(n: &NumericAnswer, typed: &str) -> Result<(), String> {
    let x: f64 = typed.trim().parse().unwrap_or(f64::NAN);
    let lo = n.min.as_ref().map(|m| m.value);
    let hi = n.max.as_ref().map(|m| m.value);
    let w = crate::library::format::auto;
    let range = || {
        let b = |v: Option<f64>| v.map_or("…".to_string(), w);
        format!("type a number from {} to {}", b(lo), b(hi))
    };
    if !x.is_finite() || lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) {
        return Err(range());
    }
    let Some((below, above)) = n.off_step(x) else {
        return Ok(());
    };
    let near: Vec<String> = [below, above]
        .into_iter()
        .filter(|v| lo.is_none_or(|l| *v >= l) && hi.is_none_or(|h| *v <= h))
        .map(w)
        .collect();
    let step = n.step.as_ref().map_or(0.0, |s| s.value);
    let from = if n.min.is_some() || n.default.is_some() {
        format!(" from {}", w(n.step_base()))
    } else {
        String::new()
    };
    let what = if lo.is_some() || hi.is_some() {
        format!("{}, ", range())
    } else {
        "type a number ".to_string()
    };
    Err(format!(
        "{what}in steps of {}{from}: the nearest are {}",
        w(step),
        near.join(" and ")
    ))
}

impl Session<'_> {
    /// Waits for Enter after feedback on a terminal (answers files and pipes go on).
    pub(super) fn pause(&mut self) -> Res<()> {
        let scr = self.scr;
        match &mut self.source {
            Source::Prompt(p) => p.pause(&scr),
            Source::Answers(_) => Ok(()),
        }
    }

    /// The options of a locked-in choice prediction, for a second look: `(item, correct,
    /// feedback)`. `None` for numeric predictions, parts without one and before locking in.
    /// The lab as compiled for the other track the prediction of `pid` was locked in on, if
    /// it was (and the run has that track's compilation).
    fn locked_on_other(&self, pid: &str) -> Option<&crate::eval::CompiledLab> {
        let a = self.ledger.parts.get(pid)?;
        a.prediction.as_ref()?;
        let t = a
            .track
            .as_deref()
            .filter(|t| Some(*t) != self.lab.track.as_deref())?;
        self.others.get(t)
    }

    /// The lab's view on the track the prediction of `pid` was locked in on, when that is
    /// another than the run's ([`Self::locked_on_other`]).
    fn locked_view(&self, pid: &str) -> Option<crate::view::LabView> {
        let o = self.locked_on_other(pid)?;
        crate::view::lab_with(o, true, &self.locked()).ok()
    }

    pub(super) fn lookable(&self, pid: &str) -> Option<Vec<(Item, bool, Option<String>)>> {
        self.ledger.parts.get(pid)?.prediction.as_ref()?;
        // Locked in on another track: the options as they are there (right and wrong there).
        let alt = self.locked_view(pid);
        let pv = alt
            .as_ref()
            .and_then(|v| v.parts.iter().find(|p| p.id == pid))
            .unwrap_or_else(|| self.pv(pid))
            .prediction
            .as_ref()?;
        if pv.numeric.is_some() {
            return None;
        }
        Some(
            pv.options
                .iter()
                .map(|o| {
                    (
                        Item {
                            key: o.id.clone(),
                            text: o.text.plain(),
                        },
                        o.correct.unwrap_or(false),
                        o.feedback.as_ref().map(Prose::plain),
                    )
                })
                .collect(),
        )
    }

    /// Shows another answer's feedback after locking in: recorded as an attempt, never as a
    /// new answer (the locked one stays).
    pub(super) fn look(&mut self, pid: &str) -> Res<()> {
        let Some(opts) = self.lookable(pid) else {
            return Ok(());
        };
        let locked = self.ledger.parts[pid]
            .prediction
            .clone()
            .unwrap_or_default();
        let items: Vec<Item> = opts.iter().map(|o| o.0.clone()).collect();
        let def = items.iter().position(|i| i.key != locked).unwrap_or(0);
        let scr = self.scr;
        let Source::Prompt(p) = &mut self.source else {
            return Ok(());
        };
        let k = p.select(&scr, "Whose feedback?", &items, def)?;
        let (it, correct, fb) = &opts[k];
        if it.key != locked {
            self.ledger.parts[pid]
                .prediction_attempts
                .push(it.key.clone());
            self.save()?;
        }
        scr.println(&scr.paint(
            Style::Dim,
            &format!(
                "A look at {}; your locked-in answer stays {locked}.",
                it.key
            ),
        ));
        // Live: the option's feedback at the current controls (`answer` stays the locked one).
        let cp = self
            .lab
            .part(pid)
            .filter(|_| self.locked_on_other(pid).is_none());
        let live = cp.filter(|cp| {
            self.lab.lab.parts[cp.index]
                .prediction
                .as_ref()
                .is_some_and(|p| p.live)
        });
        let fb = match live {
            Some(cp) => {
                let part = &self.lab.lab.parts[cp.index];
                let ev = self
                    .lab
                    .evaluate(cp, &self.inputs_of(cp, part))
                    .map_err(super::eval_stop)?;
                crate::view::feedback_at(self.lab, cp, &ev, &it.key, *correct)
                    .map_err(|e| Stop::bad(format!("the lab failed to evaluate: {e}")))?
                    .map(|p| p.plain())
            }
            None => fb.clone(),
        };
        self.verdict(*correct, fb);
        Ok(())
    }
}
