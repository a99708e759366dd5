//! Numbers in an option's feedback (issue 25): judged against what the feedback is about, the
//! option it answers (its text, its claim) and the answer, not against any value of the lab a
//! wrong number often hits. See [`super::numbers`] for the rest of the numbers in words.

use super::numbers::{name_unit, Candidate};
use super::quantity::{self, Family, Unit};
use super::{CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::model::*;

impl CompiledLab {
    /// A feedback a student reads after answering: its numbers may state the part's values
    /// (at the scenario or the defaults), the lab's givens and the option it answers (its text,
    /// its claim); `other_feedback` any option it may follow. A number in the unit of the
    /// output the options claim about is about that output: it states the option's number, the
    /// answer, or a given (not another value of the part that happens to share the unit), and
    /// a bound there ("25% or less") is read as the number it quotes.
    pub(super) fn check_feedback(
        &self,
        part: &CompiledPart,
        model: &Part,
        sev: &Evaluation,
        fed: &Fed,
        [givens, sc, dc]: [&[Candidate]; 3],
        out: &mut Vec<Diagnostic>,
    ) {
        let about: Vec<(usize, &Choice)> = match fed.option {
            Some(i) => vec![(i, &fed.options[i])],
            None => fed.options.iter().enumerate().collect(),
        };
        let quoted = self.option_quantities(part, about.iter().copied(), sev);
        let unit = fed.claim.and_then(|c| claim_unit(model, c));
        let claimed = match fed.option {
            Some(i) if unit.is_some() => claimed(unit.as_ref(), i, &fed.options[i]),
            _ => Vec::new(),
        };
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
};

/// How a text is read: a bound in this unit is read as the number it states.
#[derive(Clone, Copy)]
pub(super) struct About<'a> {
    pub(super) bounds_in: Option<&'a Unit>,
    /// What a number in that unit may state (instead of every value of the part).
    pub(super) narrow: &'a [Candidate],
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
