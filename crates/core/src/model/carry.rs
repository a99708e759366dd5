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
