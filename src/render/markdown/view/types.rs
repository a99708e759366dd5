//! The types of the handout's view model (what templates see); built by [`super::build`].

use serde::Serialize;

/// The whole document.
#[derive(Debug, Serialize)]
pub struct Doc {
    /// True for the answer key.
    pub key: bool,
    /// The lab file's stem (file names).
    pub stem: String,
    pub header: Header,
    pub parts: Vec<PartView>,
    pub synthesis: Option<SynthesisView>,
    /// Worked outputs at the lab's test points (answer key only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestView>,
}

#[derive(Debug, Serialize)]
pub struct Header {
    pub id: String,
    pub version: u32,
    pub title: String,
    pub topic: Option<String>,
    /// e.g. `Vol 2 · Lab 6`.
    pub label: Option<String>,
    pub subtitle: Option<String>,
    pub badges: Vec<String>,
    pub duration: Option<String>,
    pub duration_breakdown: Option<String>,
    pub objectives: Vec<Lead>,
    pub prerequisites: Vec<String>,
    pub core_question: Option<String>,
    pub reading: Option<String>,
}

/// A bold lead with optional text (objectives, takeaways).
#[derive(Debug, Serialize)]
pub struct Lead {
    pub title: String,
    pub text: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct PartView {
    pub id: String,
    /// `A` for id `a`, else the id ([`crate::ledger::part_letter`], as the page and terminal).
    pub letter: String,
    pub number: usize,
    pub title: String,
    pub duration: Option<String>,
    pub stakeholder: Option<StakeholderView>,
    pub concept: Option<String>,
    pub prediction: Option<PredictionView>,
    pub explore_title: Option<String>,
    pub controls: Vec<ControlView>,
    pub instruments: Vec<InstrumentView>,
    /// Banners active at the default settings.
    pub callouts: Vec<CalloutView>,
    pub math_peek: Option<MathPeekView>,
    pub reflection: Option<QuestionView>,
    /// True for every part but the last.
    pub more: bool,
}

#[derive(Debug, Serialize)]
pub struct StakeholderView {
    pub role: String,
    pub message: String,
}

#[derive(Debug, Serialize)]
pub struct MathPeekView {
    pub title: String,
    pub body: String,
}

/// A control setting, shown as `label = value`.
#[derive(Debug, Serialize)]
pub struct Setting {
    pub name: String,
    pub label: String,
    pub value: String,
}

#[derive(Debug, Serialize)]
pub struct PredictionView {
    pub question: String,
    /// The control values the question is about.
    pub scenario: Vec<Setting>,
    pub options: Vec<OptionView>,
    pub numeric: Option<NumericView>,
    /// Answer key: feedback for options without their own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct OptionView {
    pub id: String,
    pub text: String,
    /// Answer key only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// Answer key only: the option's feedback (or the question's `other_feedback`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct NumericView {
    pub unit: Option<String>,
    /// Answer key only: the expected value at the scenario, formatted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Answer key only: tolerance in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_pct: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct_feedback: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct QuestionView {
    pub question: String,
    pub options: Vec<OptionView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ControlView {
    pub id: String,
    pub kind: &'static str,
    pub label: String,
    /// What the control can take, in words: `0.10 to 0.99 in steps of 0.01`.
    pub range: String,
    /// The default, formatted with its unit.
    pub default: String,
    pub unit: Option<String>,
    /// Option labels (selects, checkboxes).
    pub options: Vec<String>,
}

/// An instrument at the default settings.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum InstrumentView {
    Table(TableView),
    Panel(PanelView),
    Chart(ChartView),
}

#[derive(Debug, Serialize)]
pub struct TableView {
    pub title: Option<String>,
    pub rows: Vec<Row>,
    /// Some row has a colour level (show a status column).
    pub has_level: bool,
    /// Some row has a caption (show a note column).
    pub has_note: bool,
}

/// One output: label, number as shown (with prefix), unit, level, note.
#[derive(Debug, Serialize)]
pub struct Row {
    pub name: String,
    pub label: String,
    pub value: String,
    pub unit: String,
    /// `good`, `warn` or `bad`.
    pub level: Option<String>,
    pub note: Option<String>,
    /// Test tables: the value the lab's test expects, when it names this output.
    pub expected: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct PanelView {
    pub title: String,
    pub lines: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct ChartView {
    pub id: String,
    pub title: Option<String>,
    /// Alt text.
    pub alt: String,
    /// Relative path of the SVG file next to the Markdown, percent-encoded.
    pub path: String,
    /// The SVG itself (inlined by the HTML handout).
    pub svg: String,
    #[serde(skip)]
    pub file: String,
}

#[derive(Debug, Serialize)]
pub struct CalloutView {
    /// `success`, `info`, `warn`, `danger`.
    pub kind: &'static str,
    /// `Success`, `Note`, `Warning`, `Danger`.
    pub kind_label: &'static str,
    pub title: Option<String>,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct SynthesisView {
    pub takeaways: Vec<Lead>,
    pub cards: Vec<CardView>,
    pub self_assessment: Vec<String>,
    pub self_assessment_note: Option<String>,
    pub decision_log: Option<DecisionLogView>,
}

#[derive(Debug, Serialize)]
pub struct CardView {
    pub title: String,
    pub body: String,
}

#[derive(Debug, Serialize)]
pub struct DecisionLogView {
    pub prompt: String,
    pub placeholder: Option<String>,
}

/// A lab test point worked out.
#[derive(Debug, Serialize)]
pub struct TestView {
    pub name: String,
    pub part: String,
    pub part_letter: String,
    pub part_title: String,
    pub set: Vec<Setting>,
    pub rows: Vec<Row>,
    pub has_expected: bool,
}
