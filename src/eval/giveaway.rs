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
        let Ok(segs) = segments(&t.value) else { return };
        let same_part = part.is_some_and(|p| p.index == answer.part);
        let origin = Origin::of(&self.source, t.pos);
        let at = |offset: usize, needle: &str| {
            let nth = t.value[..offset].matches(needle).count();
            locate_in_file(&self.source, t.pos, needle, nth).unwrap_or_else(|| {
                let (l, c) = line_col(&t.value, offset);
                origin.locate(l, c)
            })
        };
        // In other parts and the header only computed values count: a given (a control or a
        // constant restated) that happens to equal the answer gives nothing away.
        let givens: Vec<f64> = if same_part {
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
            same_part
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
                    let direct = same_part
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
                    let direct = same_part && name == answer.name;
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
            out.push(
                Diagnostic::warning(
                    &self.source.name,
                    at(i, &needle),
                    format!(
                        "{what} in {kind} gives away the answer to part `{question}`'s prediction before it is asked: `{}` is {} at the prediction's scenario",
                        answer.name, answer.shown
                    ),
                )
                .with_hint(HINT),
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
