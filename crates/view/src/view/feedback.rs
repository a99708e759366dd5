//! Feedback that sees the student: `answer` (the locked-in option's id or the typed number) in
//! an evaluation, a numeric prediction's view (range, tolerance, bands), and the feedback for an
//! answer at some evaluation (frozen at the scenario, or live at the current controls).

use super::build::prose;
use super::{BandView, NumericView, Prose};
use crate::diag::Diagnostic;
use crate::eval::{format_output, CompiledLab, CompiledPart, Evaluation};
use crate::formula::as_number;
use crate::library::format;
use crate::load::check::option_id;
use crate::model::*;
use rhai::Dynamic;

type R<T> = Result<T, Diagnostic>;

/// `ev` with `answer` set to `answer` (text for options, a number for numeric predictions).
pub(super) fn answered(ev: &Evaluation, cp: &CompiledPart, answer: &str) -> Evaluation {
    let mut ev = ev.clone();
    if let Some(unset) = &cp.answer {
        let v = if unset.is_float() {
            Dynamic::from_float(answer.trim().parse::<f64>().unwrap_or(f64::NAN))
        } else {
            Dynamic::from(answer.to_string())
        };
        ev.values.insert("answer".to_string(), v);
    }
    ev
}

/// An answer inside a band: its middle, or beyond its one bound.
fn band_example(b: &NumericBand) -> f64 {
    match (
        b.from.as_ref().map(|x| x.value),
        b.to.as_ref().map(|x| x.value),
    ) {
        (Some(f), Some(t)) => (f + t) / 2.0,
        (Some(f), None) if f > 0.0 => f * 2.0,
        (Some(f), None) => f + 1.0,
        (None, Some(t)) if t > 0.0 => t / 2.0,
        (None, Some(t)) => t - 1.0,
        (None, None) => 0.0,
    }
}

/// A band's range in words.
fn band_range(b: &NumericBand, unit: Option<&str>) -> String {
    let n = |x: f64| match unit {
        Some(u) => format!("{}{}{u}", format::auto(x), format::unit_sep(u, false)),
        None => format::auto(x),
    };
    match (&b.from, &b.to) {
        (None, None) => "any answer".to_string(),
        (None, Some(t)) => format!("below {}", n(t.value)),
        (Some(f), None) => format!("{} and above", n(f.value)),
        (Some(f), Some(t)) => format!("{} to {}", n(f.value), n(t.value)),
    }
}

/// A numeric prediction's view: its answer box, and with `answers` what is accepted, the
/// expected value and the feedback (frozen at the scenario `scen`).
pub(super) fn numeric_view(
    lab: &CompiledLab,
    cp: &CompiledPart,
    scen: &Evaluation,
    nu: &NumericAnswer,
    answers: bool,
) -> R<NumericView> {
    let p = &lab.lab.parts[cp.index];
    let v = scen.values.get(&nu.output.value).cloned();
    let target = v.as_ref().and_then(as_number).unwrap_or(f64::NAN);
    // Frozen at the scenario; `answer` (only in live feedback) is an example answer the text
    // applies to: the key for the within-tolerance feedback, else one in the band.
    let at = |t: &Text, x: f64| prose(lab, Some(cp), Some(&answered(scen, cp, &x.to_string())), t);
    let wrong = nu
        .bands
        .iter()
        .map(band_example)
        .find(|x| !nu.accepts(*x, target))
        .unwrap_or(target * 2.0);
    let ost = |t: Option<&Text>, x: f64| {
        if answers {
            t.map(|t| at(t, x)).transpose()
        } else {
            Ok(None)
        }
    };
    let o = p.outputs.get(&nu.output.value).cloned().unwrap_or_default();
    let accepted = match &nu.abs_tol {
        Some(a) => format_output(
            &Output {
                prefix: None,
                digits: None,
                ..o.clone()
            },
            &Dynamic::from_float(a.value),
        ),
        None => format!("{}%", format::auto(nu.rel_tol() * 100.0)),
    };
    let bands = if answers {
        nu.bands
            .iter()
            .map(|b| {
                Ok(BandView {
                    from: b.from.as_ref().map(|x| x.value),
                    to: b.to.as_ref().map(|x| x.value),
                    range: band_range(b, nu.unit.as_deref()),
                    feedback: at(&b.feedback, band_example(b))?,
                })
            })
            .collect::<R<_>>()?
    } else {
        Vec::new()
    };
    Ok(NumericView {
        unit: nu.unit.clone(),
        min: nu.min.as_ref().map(|x| x.value),
        max: nu.max.as_ref().map(|x| x.value),
        step: nu.step.as_ref().map(|x| x.value),
        default: nu.default.as_ref().map(|x| x.value),
        accepted: answers.then(|| format!("±{accepted}")),
        abs_tol: if answers {
            nu.abs_tol.as_ref().map(|a| a.value)
        } else {
            None
        },
        bands,
        answer: answers.then(|| format_output(&o, &v.clone().unwrap_or(Dynamic::UNIT))),
        target: answers.then(|| v.as_ref().and_then(as_number).unwrap_or(f64::NAN)),
        tolerance: answers.then_some(nu.rel_tol()),
        tolerance_pct: answers.then(|| format::auto(nu.rel_tol() * 100.0)),
        correct_feedback: ost(nu.correct_feedback.as_ref(), target)?,
        other_feedback: ost(nu.other_feedback.as_ref(), wrong)?,
        range: match (&nu.min, &nu.max) {
            (None, None) => None,
            (lo, hi) => {
                let w = |b: &Option<Spanned<f64>>| {
                    b.as_ref()
                        .map_or("…".to_string(), |x| format::auto(x.value))
                };
                Some(format!("{} to {}", w(lo), w(hi)))
            }
        },
    })
}

/// The feedback for `answer` to part `cp`'s prediction, evaluated at `ev` with `answer` set:
/// an option's feedback (or the question's other feedback); for a number, the within-tolerance
/// or other feedback followed by its band's. `correct` says whether the answer counts as right.
pub fn answer_feedback(
    lab: &CompiledLab,
    cp: &CompiledPart,
    ev: &Evaluation,
    answer: &str,
    correct: bool,
) -> R<Option<Prose>> {
    feedback_at(lab, cp, &answered(ev, cp, answer), answer, correct)
}

/// The feedback of `shown` (an option's id or a typed number) rendered at `ev` as it is (whose
/// `answer` stays the locked-in one): a look at another option after locking in.
pub fn feedback_at(
    lab: &CompiledLab,
    cp: &CompiledPart,
    ev: &Evaluation,
    shown: &str,
    correct: bool,
) -> R<Option<Prose>> {
    let p = &lab.lab.parts[cp.index];
    let Some(pr) = &p.prediction else {
        return Ok(None);
    };
    let answer = shown;
    let render = |t: &Text| prose(lab, Some(cp), Some(ev), t);
    let texts: Vec<&Text> = match &pr.numeric {
        Some(nu) => {
            let verdict = if correct {
                nu.correct_feedback.as_ref()
            } else {
                nu.other_feedback.as_ref()
            };
            let band = answer
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(|x| nu.band_of(x))
                .map(|i| &nu.bands[i].feedback);
            verdict.into_iter().chain(band).collect()
        }
        None => pr
            .options
            .iter()
            .enumerate()
            .find(|(i, o)| option_id(*i, o) == answer)
            .and_then(|(_, o)| o.feedback.as_ref())
            .or(pr.other_feedback.as_ref())
            .into_iter()
            .collect(),
    };
    let mut out: Option<Prose> = None;
    for t in texts {
        let one = render(t)?;
        out = Some(match out {
            None => one,
            Some(mut all) => {
                all.0.extend(Prose::from_text("\n\n").0);
                all.0.extend(one.0);
                all
            }
        });
    }
    Ok(out)
}
