//! `carry_forward:` — an earlier lab's decision shown in this one. The labs of a course share
//! one course record; a lab that names an earlier lab here shows the decision-log text the
//! student wrote there.

use super::Spanned;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One earlier decision this lab shows.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CarryForward {
    /// The `id` of an earlier lab of the same course (listed before this one in `course.yaml`).
    pub from: Spanned<String>,
    /// Show it at the top of this part (its id); without it, under the lab's header.
    #[serde(default)]
    pub part: Option<Spanned<String>>,
    /// What the reminder says above the student's decision (Markdown, no placeholders).
    #[serde(default)]
    pub prompt: Option<Spanned<String>>,
}

/// A number this lab reads from an earlier lab of its course, as `NAME` (`as:`) in its parts'
/// formulas and prose. Give exactly one of `record`, `control` and `prediction`. The page, the
/// terminal and the handouts (`render --record`) take it from the course record; while that
/// lab is not done, or when what the record holds is not a number inside `range`, it is
/// `default` (and each says so).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Read {
    /// The `id` of an earlier lab of the same course.
    pub from: Spanned<String>,
    /// A value that lab declares under its `records:`.
    #[serde(default)]
    pub record: Option<Spanned<String>>,
    /// A control of that lab, as `PART.CONTROL` (`a.nodes`): the student's setting.
    #[serde(default)]
    pub control: Option<Spanned<String>>,
    /// A part of that lab with a numeric prediction: the number the student locked in.
    #[serde(default)]
    pub prediction: Option<Spanned<String>>,
    /// The name the number has in this lab.
    #[serde(rename = "as")]
    pub name: Spanned<String>,
    /// The number used while the record has none (inside `range`).
    pub default: Spanned<f64>,
    /// `[lo, hi]`: the numbers this lab accepts; `check` proves it at both ends and the default.
    pub range: Spanned<(f64, f64)>,
    /// What the page, terminal and handouts call it (default: the name).
    #[serde(default)]
    pub label: Option<String>,
    /// Its unit, e.g. `GPUs`.
    #[serde(default)]
    pub unit: Option<String>,
}

impl Read {
    /// `record`, `control` or `prediction`, and what it names.
    pub fn kind(&self) -> Option<(&'static str, &Spanned<String>)> {
        match (&self.record, &self.control, &self.prediction) {
            (Some(k), None, None) => Some(("record", k)),
            (None, Some(k), None) => Some(("control", k)),
            (None, None, Some(k)) => Some(("prediction", k)),
            _ => None,
        }
    }
}

/// A value this lab keeps in the course record for later labs to read (`records:`): a
/// formula or output of one of its parts, as `PART.NAME`, kept at the student's settings.
pub type Records = indexmap::IndexMap<String, Spanned<String>>;
