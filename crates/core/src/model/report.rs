//! `report:`: what the lab report a student hands in holds beyond its fixed contents (the
//! track, the settings, the outputs at those settings, every prediction and question answered,
//! the decision log). The report is one structure, not a free template: the page computes it
//! at run time by the same rules as Rust (`crates/view/src/view/report.rs`), so its switches
//! are few and each is checked at load (`load::report`).

use super::{Spanned, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The sections of a part in the report, in the order they print.
pub const SECTIONS: &[&str] = &[
    "settings",
    "outputs",
    "prediction",
    "reflection",
    "questions",
];

/// What a lab's report says of its own.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportSpec {
    /// The report's heading (default: the lab's title and `— report`). Plain text.
    #[serde(default)]
    pub title: Option<Text>,
    /// A paragraph under the heading: what the report is for (Markdown, no placeholders).
    #[serde(default)]
    pub intro: Option<Text>,
    /// The key outputs to print at the student's settings, as `PART.OUTPUT` (default: every
    /// output of every part).
    #[serde(default)]
    #[schemars(example = serde_json::json!(["a.wait_min", "b.throughput"]))]
    pub outputs: Option<Vec<Spanned<String>>>,
    /// What each part prints, of `settings`, `outputs`, `prediction`, `reflection`,
    /// `questions` (default: all of them; always in that order).
    #[serde(default)]
    pub sections: Option<Vec<Spanned<String>>>,
}

impl ReportSpec {
    /// The part sections the report prints.
    pub fn shows(&self, section: &str) -> bool {
        self.sections
            .as_ref()
            .is_none_or(|s| s.iter().any(|x| x.value == section))
    }
}
