//! The give-away lint: prose a student reads before answering a prediction must not state the
//! answer. For each prediction with a `claim` output (or a numeric prediction's output), the
//! claimed value at the prediction's scenario is compared with every number in the texts shown
//! before the question: the lab's header, every earlier part (all of it is open by then), and this
//! part's title, stakeholder, concept and question. Options are the choices and are not judged;
//! feedback, the explore section and the later parts come after the answer.

use super::compile::{header_texts, part_static_texts, CompiledPart, Origin};
use super::lint::{live_texts, locate_in_file, prose_numbers};
use super::template::{line_col, segments, Segment};
use super::{display, CompiledLab, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::{as_number, references};
use crate::model::*;
use indexmap::IndexMap;

/// The answer a prediction asks for.
struct Answer<'a> {
    /// The part the prediction belongs to.
    part: usize,
    /// The claimed (or graded) output.
    name: &'a str,
    /// Its value at the prediction's scenario.
    value: f64,
    /// Its text as the output shows it (for the message), or the plain value.
    shown: String,
}

const HINT: &str = "move it after the question: into the option's feedback, the explore section, or behind the lock";

/// The hint for what the printed handout shows at the controls' defaults.
const HANDOUT_HINT: &str = "the student handout prints the part's instruments and banners at the controls' defaults (and its math peek and reflection at the scenario) next to the question: give the part defaults other than the prediction's scenario, or move the number into feedback";

/// Where a text is read, which decides what counts as stating the answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Before the question, on the page and in the handout: a placeholder naming the claimed
    /// output gives it away whatever its value.
    Before,
    /// In the printed handout next to the question (the part's instruments and banners at the
    /// defaults, its math peek and reflection at the scenario): only a value equal to the
    /// answer gives it away, since the defaults may differ from the scenario.
    Handout,
}

/// Does `v`, written with `decimals` decimals, state `x`?
fn states(v: f64, decimals: usize, x: f64) -> bool {
    if v == 0.0 || (v < 10.0 && decimals == 0) {
        return false; // zero and small whole numbers ("2 minutes", "5x") are too common to judge
    }
    let scale = 10f64.powi(decimals as i32);
    ((x.abs() * scale).round() / scale - v).abs() < 0.5 / scale * 1e-6 + 1e-12
}

/// A part's texts read before its prediction is answered (its options are the choices).
fn before_question(model: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = vec![&model.title];
    if let Some(s) = &model.stakeholder {
        v.push(&s.role);
        v.push(&s.message);
    }
    v.extend(model.concept.iter());
    v.extend(model.prediction.iter().map(|p| &p.question));
    v.extend(model.prediction.iter().filter_map(|p| p.lock_text.as_ref()));
    v
}

/// The outputs a part's handout tabulates at the defaults, each with where it is named: its
/// metric cards and tables, or every output when it has neither.
fn handout_rows(model: &Part) -> Vec<(&str, Pos)> {
    let mut v: Vec<(&str, Pos)> = Vec::new();
    for inst in &model.instruments {
        match inst {
            Instrument::Metrics(cs) => {
                v.extend(cs.iter().map(|c| (c.output.value.as_str(), c.output.pos)))
            }
            Instrument::Table(t) => v.extend(t.outputs.iter().map(|o| (o.value.as_str(), o.pos))),
            _ => {}
        }
    }
    let tabled = model
        .instruments
        .iter()
        .any(|i| matches!(i, Instrument::Metrics(_) | Instrument::Table(_)));
    if !tabled {
        v.extend(model.outputs.keys().map(|k| (k.as_str(), Pos::UNKNOWN)));
    }
    v
}

/// A part's texts the handout prints after its question (at the scenario): the math peek and
/// the reflection's question and choices (its feedback is the key's).
fn after_question(model: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = Vec::new();
    if let Some(m) = &model.math_peek {
        v.push(&m.title);
        v.push(&m.body);
    }
    if let Some(r) = &model.reflection {
        v.push(&r.question);
        v.extend(r.options.iter().map(|o| &o.text));
    }
    v
}

/// Does a text read the student's answer (`answer`, `prediction.x`)? The student handout has
/// none and prints such text without it.
fn reads_answer(s: &str) -> bool {
    s.contains("answer") || s.contains("prediction.")
}

/// The part's instrument texts and the banners that fire at `ev` (the defaults).
fn live_texts_printed<'a>(
    lab: &CompiledLab,
    part: &CompiledPart,
    ev: &Evaluation,
    model: &'a Part,
) -> Vec<&'a Text> {
    let banner = |t: &Text| {
        model.feedback.iter().any(|r| {
            r.title.iter().any(|x| std::ptr::eq(x, t))
                || r.callout().is_some_and(|(_, c)| std::ptr::eq(c, t))
        })
    };
    let mut v: Vec<&Text> = live_texts(model)
        .into_iter()
        .filter(|t| !banner(t))
        .collect();
    for r in &model.feedback {
        if reads_answer(&r.when.value) {
            continue;
        }
        let on = lab
            .eval_expr(Some(part), Some(ev), &r.when.value, &[])
            .ok()
            .and_then(|d| d.as_bool().ok())
            .unwrap_or(false);
        if on {
            v.extend(r.title.iter().chain(r.callout().map(|(_, t)| t)));
        }
    }
    v
}

impl CompiledLab {
    /// Warnings for prose that states a prediction's answer before the question.
    pub(super) fn lint_giveaways(&self, out: &mut Vec<Diagnostic>) {
        let header = header_texts(&self.lab);
        for (pi, part) in self.parts.iter().enumerate() {
            let Some(answer) = self.answer(part) else {
                continue;
            };
            for t in &header {
                self.giveaway_in(None, None, t, &answer, out);
            }
            for (ei, earlier) in self.parts[..pi].iter().enumerate() {
                let model = &self.lab.parts[ei];
                if let Ok(sev) = self.evaluate(earlier, &self.scenario(earlier)) {
                    for t in part_static_texts(model) {
                        self.giveaway_in(Some(earlier), Some(&sev), t, &answer, out);
                    }
                }
                let defaults = self.inputs(earlier, &IndexMap::new()).unwrap_or_default();
                if let Ok(dev) = self.evaluate(earlier, &defaults) {
                    for t in live_texts(model) {
                        self.giveaway_in(Some(earlier), Some(&dev), t, &answer, out);
                    }
                }
            }
            if let Ok(sev) = self.evaluate(part, &self.scenario(part)) {
                for t in before_question(&self.lab.parts[pi]) {
                    self.giveaway_in(Some(part), Some(&sev), t, &answer, out);
                }
            }
            self.lint_handout(pi, &answer, out);
        }
        for (pi, part) in self.parts.iter().enumerate() {
            self.lint_live_feedback(pi, part, out);
        }
    }

    /// Live feedback (`live: true`) is worked out at the student's current settings, but the
    /// options it answers are about the scenario: feedback naming the claimed output then shows
    /// "Correct" next to a number that contradicts the option once the controls move.
    fn lint_live_feedback(&self, pi: usize, part: &CompiledPart, out: &mut Vec<Diagnostic>) {
        let Some(p) = self.lab.parts[pi].prediction.as_ref().filter(|p| p.live) else {
            return;
        };
        let Some(claim) = &p.claim else { return };
        let texts = p
            .options
            .iter()
            .filter_map(|o| o.feedback.as_ref())
            .chain(p.other_feedback.iter());
        for t in texts {
            let Ok(segs) = segments(&t.value) else {
                continue;
            };
            for s in segs {
                let (i, needle) = match s {
                    Segment::Expr(e, i)
                        if part
                            .exprs
                            .get(e)
                            .is_some_and(|ce| references(&ce.ast).contains(&claim.value)) =>
                    {
                        (i, e.to_string())
                    }
                    Segment::Output(name, i) if name == claim.value => (i, format!("@{name}")),
                    _ => continue,
                };
                let nth = t.value[..i].matches(&needle).count();
                let pos = locate_in_file(&self.source, t.pos, &needle, nth).unwrap_or_else(|| {
                    let (l, c) = line_col(&t.value, i);
                    Origin::of(&self.source, t.pos).locate(l, c)
                });
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "`{{{{ {needle} }}}}` in live feedback shows `{}` at the student's current settings, next to options about the prediction's scenario: once the controls move, an option can read \"Correct\" beside a number that contradicts it",
                            claim.value
                        ),
                    )
                    .with_hint("drop `live: true` (feedback is then worked out at the scenario, as the question is), or word the feedback about \"your current settings\" without the claimed output"),
                );
            }
        }
    }

    /// What the printed handout shows of a part next to its question: the instruments' rows and
    /// texts and the banners that fire at the controls' defaults, and the math peek and the
    /// reflection at the scenario. The tables of earlier parts (also at their defaults) are
    /// read too; their texts are [`Self::lint_giveaways`]'s.
    fn lint_handout(&self, pi: usize, answer: &Answer, out: &mut Vec<Diagnostic>) {
        for (ei, part) in self.parts[..=pi].iter().enumerate() {
            let model = &self.lab.parts[ei];
            let defaults = self.inputs(part, &IndexMap::new()).unwrap_or_default();
            let Ok(dev) = self.evaluate(part, &defaults) else {
                continue;
            };
            for (name, pos) in handout_rows(model) {
                let Ok(o) = self.output_view(&dev, name) else {
                    continue;
                };
                let states_it = prose_numbers(&o.display)
                    .iter()
                    .any(|(v, d, _, _)| states(*v, *d, answer.value));
                if !states_it {
                    continue;
                }
                let question = &self.parts[answer.part].id;
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        if pos.is_known() { pos } else { model.id.pos },
                        format!(
                            "`{name}` reads {} in the handout's table of part `{}` at the default settings, which gives away the answer to part `{question}`'s prediction: `{}` is {} at the prediction's scenario",
                            o.display, part.id, answer.name, answer.shown
                        ),
                    )
                    .with_hint(HANDOUT_HINT),
                );
            }
            if ei != pi {
                continue;
            }
            let mut texts = live_texts_printed(self, part, &dev, model);
            texts.retain(|t| !reads_answer(&t.value));
            for t in texts {
                self.giveaway_as(Some(part), Some(&dev), t, answer, Reading::Handout, out);
            }
            if let Ok(sev) = self.evaluate(part, &self.scenario(part)) {
                for t in after_question(model) {
                    self.giveaway_as(Some(part), Some(&sev), t, answer, Reading::Handout, out);
                }
            }
        }
    }

    /// The output a part's prediction asks for, with its value at the scenario.
    fn answer(&self, part: &CompiledPart) -> Option<Answer<'_>> {
        let p = self.lab.parts[part.index].prediction.as_ref()?;
        let name = p.claim.as_ref().or(p.numeric.as_ref().map(|n| &n.output))?;
        let ev = self.evaluate(part, &self.scenario(part)).ok()?;
        let v = ev.values.get(&name.value)?;
        let value = as_number(v).filter(|x| x.is_finite())?;
        let shown = self
            .output_view(&ev, &name.value)
            .map(|o| o.display)
            .unwrap_or_else(|_| display(v));
        Some(Answer {
            part: part.index,
            name: &name.value,
            value,
            shown,
        })
    }

    /// Warns for each place in `t` (rendered with `part`/`ev`) that states the answer.
    fn giveaway_in(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Text,
        answer: &Answer,
        out: &mut Vec<Diagnostic>,
    ) {
        self.giveaway_as(part, ev, t, answer, Reading::Before, out)
    }

    /// [`Self::giveaway_in`] for a text read as `reading` says.
    fn giveaway_as(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Text,
        answer: &Answer,
        reading: Reading,
        out: &mut Vec<Diagnostic>,
    ) {
        let Ok(segs) = segments(&t.value) else { return };
        let same_part = part.is_some_and(|p| p.index == answer.part);
        let by_name = same_part && reading == Reading::Before;
        let origin = Origin::of(&self.source, t.pos);
        let at = |offset: usize, needle: &str| {
            let nth = t.value[..offset].matches(needle).count();
            locate_in_file(&self.source, t.pos, needle, nth).unwrap_or_else(|| {
                let (l, c) = line_col(&t.value, offset);
                origin.locate(l, c)
            })
        };
        // In other parts, the header and the handout's printing of this part (judged by value) only
        // computed values count: a given (a control or a constant restated) that happens to
        // equal the answer gives nothing away.
        let givens: Vec<f64> = if by_name {
            vec![]
        } else {
            self.constants
                .iter()
                .map(|(_, v)| v)
                .chain(ev.iter().flat_map(|ev| {
                    ev.values
                        .iter()
                        .filter(|(k, _)| {
                            part.is_some_and(|p| !p.formulas.iter().any(|f| &f.name == *k))
                        })
                        .map(|(_, v)| v)
                }))
                .filter_map(as_number)
                .collect()
        };
        let computed = |e: &str| {
            by_name
                || e.contains("::")
                || part.and_then(|p| p.exprs.get(e)).is_some_and(|ce| {
                    let refs = references(&ce.ast);
                    part.is_some_and(|p| p.formulas.iter().any(|f| refs.contains(&f.name)))
                })
        };
        let mut offset = 0;
        for s in segs {
            let found: Option<(usize, String, &str)> = match s {
                Segment::Lit(lit) => {
                    let base = t.value[offset..]
                        .find(lit)
                        .map(|i| i + offset)
                        .unwrap_or(offset);
                    offset = base + lit.len();
                    prose_numbers(lit)
                        .into_iter()
                        .find(|(v, d, _, _)| {
                            states(*v, *d, answer.value)
                                && !givens.iter().any(|g| states(*v, *d, *g))
                        })
                        .map(|(_, _, i, text)| (base + i, format!("`{text}`"), "the prose"))
                }
                Segment::Expr(e, i) => {
                    offset = i + e.len();
                    let direct = by_name
                        && part
                            .and_then(|p| p.exprs.get(e))
                            .is_some_and(|ce| references(&ce.ast).iter().any(|r| r == answer.name));
                    let rendered = self
                        .eval_expr(part, ev, e, &[])
                        .map(|v| display(&v))
                        .unwrap_or_default();
                    let matches = computed(e)
                        && prose_numbers(&rendered)
                            .iter()
                            .any(|(v, d, _, _)| states(*v, *d, answer.value));
                    (direct || matches).then(|| (i, format!("`{{{{ {e} }}}}`"), "a placeholder"))
                }
                Segment::Output(name, i) => {
                    offset = i + name.len() + 1;
                    let direct = by_name && name == answer.name;
                    let matches = ev
                        .and_then(|ev| self.output_view(ev, name).ok())
                        .is_some_and(|o| {
                            prose_numbers(&o.display)
                                .iter()
                                .any(|(v, d, _, _)| states(*v, *d, answer.value))
                        });
                    (direct || matches)
                        .then(|| (i, format!("`{{{{ @{name} }}}}`"), "a placeholder"))
                }
            };
            let Some((i, what, kind)) = found else {
                continue;
            };
            let needle = match s {
                Segment::Lit(_) => what.trim_matches('`').to_string(),
                Segment::Expr(e, _) => e.to_string(),
                Segment::Output(name, _) => format!("@{name}"),
            };
            let question = &self.parts[answer.part].id;
            let (when, hint) = match reading {
                Reading::Before => ("before it is asked", HINT),
                Reading::Handout => (
                    "in the handout, which prints it next to the question",
                    HANDOUT_HINT,
                ),
            };
            out.push(
                Diagnostic::warning(
                    &self.source.name,
                    at(i, &needle),
                    format!(
                        "{what} in {kind} gives away the answer to part `{question}`'s prediction {when}: `{}` is {} at the prediction's scenario",
                        answer.name, answer.shown
                    ),
                )
                .with_hint(hint),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::states;

    #[test]
    fn a_number_states_a_value_it_rounds_from() {
        assert!(states(1643.0, 0, 1643.4));
        assert!(states(27.4, 1, 27.38));
        assert!(!states(27.0, 0, 1643.4));
        assert!(!states(3.0, 0, 2.6), "small whole numbers are not judged");
        assert!(!states(600.0, 0, 601.0));
    }
}
