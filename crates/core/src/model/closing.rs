//! The end of a lab: the synthesis (takeaways, cards, self-assessment, decision log), the
//! heads-up display and the saved progress record.

use super::*;

/// The closing synthesis.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Synthesis {
    /// Key takeaways.
    #[serde(default)]
    pub takeaways: Vec<Objective>,
    /// Cards such as "What's Next" and "Textbook & TinyTorch".
    #[serde(default)]
    pub cards: Vec<Card>,
    /// Self-assessment questions: each a question, or `{ question, answer }` with the answer
    /// shown only in the answer key.
    #[serde(default)]
    pub self_assessment: Vec<SelfAssessmentItem>,
    /// Note under the self-assessment.
    #[serde(default)]
    pub self_assessment_note: Option<Text>,
    /// The decision log.
    #[serde(default)]
    pub decision_log: Option<DecisionLog>,
}

/// A titled card.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Heading.
    pub title: Text,
    /// Body (Markdown).
    pub body: Text,
    /// Accent colour.
    #[serde(default)]
    pub color: Option<Color>,
}

/// The decision log the student writes at the end.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionLog {
    /// Instructions above the box (Markdown).
    pub prompt: Text,
    /// Placeholder text in the box.
    #[serde(default)]
    pub placeholder: Option<String>,
}

/// The heads-up display.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hud {
    /// Lab label, e.g. `Vol2 · Lab 06`. Without it the HUD shows `Vol 2 · Lab 6` from the
    /// lab's `volume` and `number`; `check` warns when the two disagree.
    #[serde(default)]
    pub label: Option<Spanned<String>>,
    /// Chapter label, e.g. `v2_06 · Fault Tolerance`.
    #[serde(default)]
    pub chapter_label: Option<String>,
    /// Parts whose prediction is shown as CORRECT/REVIEW.
    pub parts: Vec<Spanned<String>>,
    /// Tiers, first whose `when` holds wins. Scope: `correct` (record part id -> bool) and
    /// `correct_count`. The last tier may omit `when`. Optional: without tiers the HUD shows
    /// the parts alone and no standing.
    #[serde(default)]
    pub tiers: Vec<Tier>,
}

/// A HUD tier.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// Name, e.g. `Optimal`.
    pub name: String,
    /// Condition (Rhai); omit on the last tier.
    #[serde(default)]
    pub when: Option<Expr>,
    /// Colour.
    #[serde(default)]
    pub color: Option<Color>,
}

/// The saved progress record.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LedgerSpec {
    /// Chapter key, e.g. `v2_06` (default: the lab's `chapter`).
    #[serde(default)]
    pub chapter: Option<String>,
    /// Key of the decision-log text (default `student_justification`). Letters, digits, `_`
    /// and `-`, starting with a letter or `_`.
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_-]*$"), length(max = 64))]
    pub justification_key: Option<Spanned<String>>,
}
