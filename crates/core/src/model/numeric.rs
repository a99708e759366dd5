//! Numeric predictions: the student types a number, graded against an output with a relative
//! or absolute tolerance, with graded bands of feedback (too low / close / too high).

use super::{Spanned, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A numeric prediction graded against an output.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NumericAnswer {
    /// The output the answer is compared with, at the prediction's scenario.
    pub output: Spanned<String>,
    /// Relative tolerance (0.1 = within ±10%, the default). Also written `tol`.
    #[serde(default, alias = "tol")]
    pub tolerance: Option<Spanned<f64>>,
    /// Absolute tolerance in the output's unit (within ±abs_tol), instead of `tolerance`.
    #[serde(default)]
    pub abs_tol: Option<Spanned<f64>>,
    /// Smallest answer the box takes.
    #[serde(default)]
    pub min: Option<Spanned<f64>>,
    /// Largest answer the box takes.
    #[serde(default)]
    pub max: Option<Spanned<f64>>,
    /// Granularity of the box: it takes only its steps, from `min` (else `default`, else 0), on
    /// the page and in the terminal (any number is accepted when absent).
    #[serde(default)]
    pub step: Option<Spanned<f64>>,
    /// The number the box starts with (empty when absent).
    #[serde(default)]
    pub default: Option<Spanned<f64>>,
    /// Unit shown next to the input box.
    #[serde(default)]
    pub unit: Option<String>,
    /// Feedback when the answer is within tolerance.
    #[serde(default)]
    pub correct_feedback: Option<Text>,
    /// Feedback otherwise.
    #[serde(default)]
    pub other_feedback: Option<Text>,
    /// Graded feedback by where the answer falls, listed from low to high; together they cover
    /// every answer the box takes (`min` to `max`), without overlapping.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"to": 400, "feedback": "Too low: the queue amplifies the wait."}, {"from": 400, "to": 800, "feedback": "Close."}, {"from": 800, "feedback": "Too high."}]))]
    pub bands: Vec<NumericBand>,
}

/// A range of answers and its feedback: `from` (inclusive) up to `to` (exclusive; the last
/// band includes it). A missing bound is open.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NumericBand {
    /// Lowest answer in the band (inclusive).
    #[serde(default)]
    pub from: Option<Spanned<f64>>,
    /// Where the next band starts (exclusive, except for the last band).
    #[serde(default)]
    pub to: Option<Spanned<f64>>,
    /// Feedback for an answer in this band (Markdown), e.g. `Too low: ...`.
    pub feedback: Text,
}

impl NumericAnswer {
    /// The relative tolerance (default 0.1).
    pub fn rel_tol(&self) -> f64 {
        self.tolerance.as_ref().map_or(0.1, |t| t.value)
    }

    /// Is `x` right when the expected value is `want`?
    pub fn accepts(&self, x: f64, want: f64) -> bool {
        match &self.abs_tol {
            Some(a) => (x - want).abs() <= a.value,
            None => (x - want).abs() <= self.rel_tol() * want.abs(),
        }
    }

    /// Where the box's steps start: `min`, else `default`, else 0 (the step base of an HTML
    /// number input, which the page is).
    pub fn step_base(&self) -> f64 {
        self.min
            .as_ref()
            .or(self.default.as_ref())
            .map_or(0.0, |b| b.value)
    }

    /// Is `x` off the box's steps (`step_base() + k·step`)? Then the two steps around it.
    /// `None` without a `step`, or on one. This is the step rule of the page's number input,
    /// so the page and the terminal refuse the same answers.
    pub fn off_step(&self, x: f64) -> Option<(f64, f64)> {
        let step = self.step.as_ref().map(|s| s.value).filter(|s| *s > 0.0)?;
        let base = self.step_base();
        let k = (x - base) / step;
        ((k - k.round()).abs() > 1e-9 * k.abs().max(1.0))
            .then(|| (base + k.floor() * step, base + k.ceil() * step))
    }

    /// The index of the band `x` falls in.
    pub fn band_of(&self, x: f64) -> Option<usize> {
        let last = self.bands.len().checked_sub(1)?;
        self.bands.iter().enumerate().position(|(i, b)| {
            let above = b.from.as_ref().is_none_or(|f| x >= f.value);
            let below = b.to.as_ref().is_none_or(|t| x < t.value);
            let top = i == last && b.to.as_ref().is_some_and(|t| x == t.value);
            above && (below || top)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric(yaml: &str) -> NumericAnswer {
        serde_saphyr::from_str(yaml).unwrap()
    }

    #[test]
    fn tolerances_and_bands() {
        let n = numeric("{output: w, abs_tol: 2, bands: [{to: 5, feedback: lo}, {from: 5, to: 10, feedback: mid}, {from: 10, feedback: hi}]}");
        assert!(n.accepts(12.0, 10.0) && !n.accepts(12.5, 10.0));
        assert_eq!(n.band_of(-100.0), Some(0));
        assert_eq!(n.band_of(5.0), Some(1));
        assert_eq!(n.band_of(10.0), Some(2));
        let r = numeric("{output: w, tol: 0.5, max: 10, bands: [{to: 5, feedback: lo}, {from: 5, to: 10, feedback: hi}]}");
        assert!(r.accepts(15.0, 10.0) && !r.accepts(15.1, 10.0));
        assert_eq!(r.band_of(10.0), Some(1)); // the last band includes its upper bound
        assert_eq!(r.band_of(10.5), None);
        assert_eq!(numeric("{output: w}").rel_tol(), 0.1);
    }

    #[test]
    fn the_box_takes_its_steps_only() {
        // As the page's number input: steps from min, else from default, else from 0.
        let n = numeric("{output: w, min: 0, max: 100, step: 5}");
        assert_eq!(n.off_step(55.0), None);
        assert_eq!(n.off_step(0.0), None);
        assert_eq!(n.off_step(52.0), Some((50.0, 55.0)));
        assert_eq!(n.off_step(52.5), Some((50.0, 55.0)));
        assert_eq!(n.off_step(7.0), Some((5.0, 10.0)));
        let d = numeric("{output: w, step: 5, default: 2}");
        assert_eq!(d.off_step(52.0), None);
        assert_eq!(d.off_step(55.0), Some((52.0, 57.0)));
        let z = numeric("{output: w, step: 0.1}");
        assert_eq!(z.off_step(0.3), None);
        assert_eq!(z.off_step(-12.7), None);
        assert!(z.off_step(0.35).is_some());
        assert_eq!(numeric("{output: w}").off_step(52.5), None);
    }
}
