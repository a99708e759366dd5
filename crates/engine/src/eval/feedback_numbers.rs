//! Numbers in an option's feedback (issue 25): judged against what the feedback is about, the
//! option it answers (its text, its claim) and the answer, not against any value of the lab a
//! wrong number often hits. See [`super::numbers`] for the rest of the numbers in words.

use super::numbers::{name_unit, Candidate};
use super::quantity::{self, Family, Unit};
use super::{CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::references;
use crate::model::*;
use std::collections::BTreeSet;

impl CompiledLab {
    /// A feedback a student reads after answering: its numbers may state the values its part
    /// reads or shows ([`CompiledLab::part_reads`]: at the scenario or the defaults, the lab's
    /// givens it reads among them) and the option it answers (its text, its claim); `other_feedback` any option it may follow. A number in the unit of the
    /// output the options claim about is about that output: it states the option's number, the
    /// answer, or a given (not another value of the part that happens to share the unit), and
    /// a bound there ("25% or less") is read as the number it quotes.
    pub(super) fn check_feedback(
        &self,
        part: &CompiledPart,
        sev: &Evaluation,
        fed: &Fed,
        [givens, sc, dc]: [&[Candidate]; 3],
        reads: &BTreeSet<String>,
        out: &mut Vec<Diagnostic>,
    ) {
        let about: Vec<(usize, &Choice)> = match fed.option {
            Some(i) => vec![(i, &fed.options[i])],
            None => fed.options.iter().enumerate().collect(),
        };
        let model = &self.lab.parts[part.index];
        let quoted = self.option_quantities(part, about.iter().copied(), sev);
        let unit = fed.claim.and_then(|c| claim_unit(model, c));
        let claimed = match fed.option {
            Some(i) if unit.is_some() => claimed(unit.as_ref(), i, &fed.options[i]),
            _ => Vec::new(),
        };
        // Only the values the part reads or shows: a lab-level value every part sees (another
        // part's target, a simulation's constant) is not what this feedback is about.
        let is_read = |c: &&Candidate| {
            let base = c.name.split('.').next().unwrap_or_default();
            c.name.contains("::") || reads.contains(base)
        };
        let read =
            |c: &[Candidate]| -> Vec<Candidate> { c.iter().filter(is_read).cloned().collect() };
        let unread: Vec<Candidate> = givens.iter().filter(|c| !is_read(c)).cloned().collect();
        let (givens, sc, dc) = (&read(givens)[..], &read(sc)[..], &read(dc)[..]);
        let answer: Vec<Candidate> = [sc, dc]
            .into_iter()
            .flatten()
            .filter(|c| Some(c.name.as_str()) == fed.claim)
            .cloned()
            .collect();
        let narrow = [givens, &answer, &quoted, &claimed].concat();
        let every = [givens, sc, dc, &quoted, &claimed].concat();
        let about = About {
            bounds_in: unit.as_ref(),
            narrow: &narrow,
            feedback: true,
            unread: &unread,
        };
        self.check_text(
            Some(part),
            Some(sev),
            fed.text,
            sc,
            &every,
            false,
            about,
            out,
        );
    }
}

impl CompiledLab {
    /// The names part `part` reads or shows: its own constants, controls and formulas, every
    /// name its expressions (placeholders, conditions, charts) read, and, in turn, the
    /// lab-level formulas and constants those read.
    pub(super) fn part_reads(&self, part: &CompiledPart) -> BTreeSet<String> {
        let mut todo: Vec<String> = part.constants.iter().map(|(k, _)| k.clone()).collect();
        todo.extend(part.controls.iter().map(|c| c.id.clone()));
        for f in &part.formulas {
            todo.push(f.name.clone());
            todo.extend(references(&f.expr.ast));
        }
        for e in part.exprs.values() {
            todo.extend(references(&e.ast));
        }
        let mut out = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if !out.insert(n.clone()) {
                continue;
            }
            // A lab-level formula reads what its text names.
            if let Some(e) = self.lab.formulas.get(&n) {
                todo.extend(
                    e.value
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .filter(|w| !w.is_empty() && !out.contains(*w))
                        .map(str::to_string),
                );
            }
        }
        out
    }
}

/// The unit of the output a question's options claim about, when `check` can read it.
fn claim_unit(model: &Part, output: &str) -> Option<Unit> {
    model
        .outputs
        .get(output)
        .and_then(|o| o.unit.as_deref())
        .and_then(quantity::output_unit)
        .or_else(|| name_unit(output))
        .filter(|u| u.family != Family::Other)
}

/// What option `i`'s claim says of the claimed output (its `approx`, `min`, `max`), in `unit`.
fn claimed(unit: Option<&Unit>, i: usize, option: &Choice) -> Vec<Candidate> {
    let name = format!(
        "option {}'s claim",
        crate::load::check::option_id(i, option)
    );
    let c = option.claim.as_ref().map(|c| &c.value);
    c.map(|c| [c.approx, c.min, c.max])
        .into_iter()
        .flatten()
        .flatten()
        .map(|value| Candidate {
            name: name.clone(),
            value,
            unit: unit.cloned(),
            label: None,
        })
        .collect()
}

/// Prose: every value of its part (or the lab) is one it may state.
pub(super) const PLAIN: About = About {
    bounds_in: None,
    narrow: &[],
    feedback: false,
    unread: &[],
};

/// How a text is read: a bound in this unit is read as the number it states.
#[derive(Clone, Copy)]
pub(super) struct About<'a> {
    pub(super) bounds_in: Option<&'a Unit>,
    /// What a number in that unit may state (instead of every value of the part).
    pub(super) narrow: &'a [Candidate],
    /// Whether the text is a feedback (its bounds are read as the numbers they quote).
    pub(super) feedback: bool,
    /// The lab's values its part does not read (named in a hint, never a match).
    pub(super) unread: &'a [Candidate],
}

/// A feedback a student reads after answering a choice question: the question's options and
/// claim output, and the option it answers (none for `other_feedback`).
pub(super) struct Fed<'a> {
    options: &'a [Choice],
    claim: Option<&'a str>,
    /// The index of the option it answers.
    option: Option<usize>,
    text: &'a Text,
}

/// The feedback a student reads after answering each choice question of a part (a live
/// prediction's follows the controls and is read with the banners).
pub(super) fn feedback_texts(part: &Part) -> Vec<Fed<'_>> {
    let mut v: Vec<(&[Choice], Option<&str>, Option<&Text>)> = Vec::new();
    if let Some(p) = part.prediction.as_ref().filter(|p| !p.live) {
        let claim = p.claim.as_ref().map(|c| c.value.as_str());
        v.push((&p.options, claim, p.other_feedback.as_ref()));
    }
    if let Some(r) = &part.reflection {
        v.push((&r.options, None, r.other_feedback.as_ref()));
    }
    for q in &part.questions {
        let claim = q.spec.claim.as_ref().map(|c| c.value.as_str());
        v.push((&q.spec.options, claim, q.spec.feedback.as_ref()));
    }
    let mut out = Vec::new();
    for (options, claim, other) in v {
        for (i, o) in options.iter().enumerate() {
            if let Some(text) = &o.feedback {
                out.push(Fed {
                    options,
                    claim,
                    option: Some(i),
                    text,
                });
            }
        }
        if let Some(text) = other {
            out.push(Fed {
                options,
                claim,
                option: None,
                text,
            });
        }
    }
    out
}
