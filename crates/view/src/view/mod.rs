//! The view: a compiled lab at some control values as presentation-neutral data, the one
//! picture of a lab that every front end draws (the page, the handouts, the terminal).
//!
//! Prose is kept as [`Prose`]: its pieces with the outputs they show and their levels, so each
//! renderer marks a level its own way (a coloured span, `(⚠ warning)` on paper, a coloured
//! word in a terminal). Everything else is formatted once here ([`format`]). The student view
//! holds no answers; the answer view (`answers: true`) adds correct flags, feedback, expected
//! values and each prediction's output worked out at its scenario.
//!
//! Layering: `view` depends on `eval` and `model` only; renderers depend on `view`, never on
//! each other (enforced by `tests/it/layering.rs`).

mod build;
mod controls;
mod feedback;
pub mod format;
mod questions;
pub mod report;

pub use build::{explore, header, lab, lab_with, part, track_view};
pub use controls::control_value_text;
pub use feedback::{answer_feedback, feedback_at};
pub use questions::PartQuestionView;

/// An error met while building part `cp`'s view or page, placed: at the part's `id:` line of
/// the lab, saying which part, unless it already has a place of its own (a line, or another
/// file such as an instructor's template).
pub fn in_part(
    lab: &crate::eval::CompiledLab,
    cp: &crate::eval::CompiledPart,
    e: crate::diag::Diagnostic,
) -> crate::diag::Diagnostic {
    let own = e.file.is_empty() || e.file == lab.source.name;
    if e.line > 0 || !own {
        return e;
    }
    let pos = lab
        .lab
        .parts
        .get(cp.index)
        .map_or_else(Default::default, |p| p.id.pos);
    crate::diag::Diagnostic {
        file: lab.source.name.clone(),
        line: pos.line,
        col: pos.col,
        message: format!("part `{}`: {}", cp.id, e.message),
        ..e
    }
}

use crate::eval::chart::ChartData;
use crate::eval::Span;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// Rendered template text: literal pieces and placeholder values, and each `{{ @name }}` with
/// its output's level. Serialises as `{text, spans}` (`text` the plain string).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prose(pub Vec<Span>);

impl Prose {
    /// Plain text (no level marks).
    pub fn from_text(s: impl Into<String>) -> Prose {
        Prose(vec![Span {
            text: s.into(),
            level: None,
            output: None,
        }])
    }

    /// The text without level marks.
    pub fn plain(&self) -> String {
        self.0.iter().map(|s| s.text.as_str()).collect()
    }

    /// The text with each levelled output written by `mark(text, level)`.
    pub fn marked(&self, mark: &dyn Fn(&str, &str) -> String) -> String {
        self.0
            .iter()
            .map(|s| match (&s.output, &s.level) {
                (Some(_), Some(l)) => mark(&s.text, l),
                _ => s.text.clone(),
            })
            .collect()
    }
}

impl Serialize for Prose {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let mut s = ser.serialize_struct("Prose", 2)?;
        s.serialize_field("text", &self.plain())?;
        s.serialize_field("spans", &self.0)?;
        s.end()
    }
}

/// A whole lab.
#[derive(Debug, Serialize)]
pub struct LabView {
    /// True when the view holds the answers.
    pub answers: bool,
    pub header: Header,
    pub parts: Vec<PartView>,
    pub synthesis: Option<SynthesisView>,
}

#[derive(Debug, Serialize)]
pub struct Header {
    pub id: String,
    pub version: u32,
    pub title: Prose,
    pub topic: Option<String>,
    pub volume: Option<u32>,
    pub number: Option<u32>,
    /// e.g. `Volume 2 · Lab 6`.
    pub label: Option<String>,
    pub subtitle: Option<Prose>,
    pub badges: Vec<Badge>,
    pub duration: Option<String>,
    pub duration_breakdown: Option<String>,
    pub objectives: Vec<Lead>,
    pub prerequisites: Vec<Prose>,
    pub core_question: Option<Prose>,
    pub reading: Option<Prose>,
    /// The track the lab is shown on (a lab with tracks), and all of its tracks in order.
    pub track: Option<TrackView>,
    pub tracks: Vec<TrackView>,
}

/// A track as the header and the track picker show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackView {
    pub id: String,
    pub label: String,
    pub icon: Option<String>,
    /// Markdown inline, as written in `tracks:`.
    pub summary: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct Badge {
    pub text: Prose,
    /// `info`, `success`, `warn` or `danger`.
    pub kind: &'static str,
}

/// A bold lead with optional text (objectives, takeaways).
#[derive(Debug, Serialize)]
pub struct Lead {
    pub title: Prose,
    pub text: Option<Prose>,
}

/// One part: prose at its prediction's scenario, instruments at the view's control values.
#[derive(Debug, Serialize)]
pub struct PartView {
    pub id: String,
    /// `A` for id `a`, else the id ([`crate::model::part_letter`]).
    pub letter: String,
    /// `Part A`.
    pub label: String,
    pub number: usize,
    pub title: Prose,
    pub duration: Option<String>,
    /// What must be answered first (`requires:`).
    pub requires: Vec<Requirement>,
    pub stakeholder: Option<StakeholderView>,
    pub concept: Option<Prose>,
    pub prediction: Option<PredictionView>,
    pub explore_title: Option<Prose>,
    #[serde(flatten)]
    pub explore: ExploreView,
    pub math_peek: Option<MathPeekView>,
    pub reflection: Option<QuestionView>,
    /// The questions after the prediction, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<PartQuestionView>,
    /// True for every part but the last.
    pub more: bool,
}

/// A requirement: a part and what of it (`prediction`, `reflection`), and in words
/// (`Part A's prediction`).
#[derive(Debug, Serialize)]
pub struct Requirement {
    pub part: String,
    pub what: String,
    pub text: String,
}

/// Controls, instruments, every output and the banners that hold, at some control values.
#[derive(Debug, Serialize)]
pub struct ExploreView {
    pub controls: Vec<ControlView>,
    pub instruments: Vec<InstrumentView>,
    /// Every output, in declaration order.
    pub outputs: Vec<Row>,
    /// True when some instrument lists outputs (metric cards or a table).
    pub tabled: bool,
    /// Banners whose conditions hold.
    pub callouts: Vec<CalloutView>,
}

#[derive(Debug, Serialize)]
pub struct StakeholderView {
    pub role: Prose,
    pub message: Prose,
    /// A colour name, when the lab gives one.
    pub color: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct MathPeekView {
    pub title: Prose,
    pub body: Prose,
}

/// A control setting, shown as `label = value`.
#[derive(Debug, Serialize)]
pub struct Setting {
    pub name: String,
    pub label: Prose,
    pub value: String,
}

#[derive(Debug, Serialize)]
pub struct PredictionView {
    pub question: Prose,
    /// Its feedback follows the student's controls and answer (`live: true`).
    pub live: bool,
    /// What the locked instruments say until it is locked in (the lab's `lock_text`).
    pub lock_text: Option<Prose>,
    /// The control values the question is about.
    pub scenario: Vec<Setting>,
    pub options: Vec<OptionView>,
    pub numeric: Option<NumericView>,
    /// Answers: feedback for options without their own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<Prose>,
    /// Answers only: the output the question is about (its `claim:`, or a numeric question's
    /// output) worked out at the scenario, the value a grader checks an answer against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worked: Option<Row>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptionView {
    pub id: String,
    pub text: Prose,
    /// Answers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// Answers only: the option's feedback (or the question's `other_feedback`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<Prose>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NumericView {
    pub unit: Option<String>,
    /// The answer box's range, arrow step and starting number.
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
    pub default: Option<f64>,
    /// The box's range in words (`0 to 500`), when it has one.
    pub range: Option<String>,
    /// Answers only: what is accepted, in words: `±10%` or `±2 min`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<String>,
    /// Answers only: the absolute tolerance, when the lab gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abs_tol: Option<f64>,
    /// Answers only (empty otherwise): the graded bands, low to high.
    pub bands: Vec<BandView>,
    /// Answers only: the expected value at the scenario, formatted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Answers only: the expected value at the scenario.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<f64>,
    /// Answers only: the relative tolerance, and in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_pct: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct_feedback: Option<Prose>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<Prose>,
}

/// A band of a numeric prediction: its bounds, the range in words and its feedback.
#[derive(Debug, Clone, Serialize)]
pub struct BandView {
    pub from: Option<f64>,
    pub to: Option<f64>,
    /// `below 400`, `400 to 800`, `800 and above`.
    pub range: String,
    pub feedback: Prose,
}

#[derive(Debug, Serialize)]
pub struct QuestionView {
    pub question: Prose,
    pub options: Vec<OptionView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_feedback: Option<Prose>,
}

#[derive(Debug, Serialize)]
pub struct ControlView {
    pub id: String,
    pub kind: &'static str,
    pub label: Prose,
    /// What the control can take, in words: `0.10 to 0.99 in steps of 0.01`.
    pub range: String,
    /// The lab's default, formatted with its unit.
    pub default: String,
    /// The value at the view's settings, formatted with its unit.
    pub value: String,
    pub unit: Option<String>,
    /// Option labels (selects, checkboxes).
    pub options: Vec<String>,
    /// What an input for it needs.
    pub input: InputView,
}

/// A control's input at the view's value.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum InputView {
    /// A slider: positions `min..=max` by `step`; `pos` is the value's position (its index in
    /// `values`, its logarithm for powers of `base`).
    Range {
        min: f64,
        max: f64,
        step: f64,
        pos: f64,
        values: Option<Vec<f64>>,
        base: Option<f64>,
        digits: Option<u32>,
        /// The value as shown beside the slider.
        text: String,
    },
    Number {
        min: Option<f64>,
        max: Option<f64>,
        step: Option<f64>,
        value: f64,
    },
    Switch {
        on: bool,
    },
    Select {
        choices: Vec<ChoiceView>,
    },
    /// A select shown as radio buttons.
    Radio {
        choices: Vec<ChoiceView>,
    },
    Checkboxes {
        choices: Vec<ChoiceView>,
    },
}

/// An option of a select or checkbox group.
#[derive(Debug, Serialize)]
pub struct ChoiceView {
    /// The option's key (checkboxes) or its value as text (selects).
    pub key: String,
    pub label: String,
    /// The option's value as data.
    pub value: serde_json::Value,
    pub on: bool,
}

/// An instrument.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum InstrumentView {
    Metrics(TableView),
    Table(TableView),
    Panel(PanelView),
    Chart(ChartView),
}

#[derive(Debug, Serialize)]
pub struct TableView {
    pub title: Option<Prose>,
    pub rows: Vec<Row>,
    /// Some row has a colour level.
    pub has_level: bool,
    /// Some row has a caption.
    pub has_note: bool,
}

/// One output: label, number as shown (with prefix), unit, level, note.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub label: Prose,
    /// The number as shown, without its unit.
    pub value: String,
    pub unit: String,
    /// At or above its output's `cap:`: shown as `≥ cap` (a chart may mark it off-scale).
    pub capped: bool,
    /// The value as shown, with its unit.
    pub display: String,
    /// The raw value as JavaScript prints it.
    pub data: String,
    /// `good`, `warn` or `bad`.
    pub level: Option<String>,
    /// The output has levels at all (bands or `level:`).
    pub has_level: bool,
    /// A metric card's colour name.
    pub color: Option<String>,
    pub note: Option<Prose>,
}

#[derive(Debug, Serialize)]
pub struct PanelView {
    pub title: Prose,
    pub lines: Vec<Prose>,
}

#[derive(Debug, Serialize)]
pub struct ChartView {
    pub id: String,
    pub title: Option<String>,
    /// Alt text: the title, else what it plots.
    pub alt: String,
    pub data: Box<ChartData>,
}

#[derive(Debug, Serialize)]
pub struct CalloutView {
    /// `success`, `info`, `warn`, `danger`.
    pub kind: &'static str,
    /// `Success`, `Note`, `Warning`, `Danger`.
    pub kind_label: &'static str,
    pub icon: &'static str,
    pub title: Option<Prose>,
    pub text: Prose,
}

#[derive(Debug, Serialize)]
pub struct SynthesisView {
    pub takeaways: Vec<Lead>,
    pub cards: Vec<CardView>,
    pub self_assessment: Vec<Prose>,
    /// Answers only: each self-assessment item's answer, when the lab gives one (same order).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub self_assessment_answers: Vec<Option<Prose>>,
    pub self_assessment_note: Option<Prose>,
    pub decision_log: Option<DecisionLogView>,
}

#[derive(Debug, Serialize)]
pub struct CardView {
    pub title: Prose,
    pub body: Prose,
    pub color: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct DecisionLogView {
    pub prompt: Prose,
    pub placeholder: Option<String>,
}
