//! The lab format: what an instructor writes in one YAML file.
//!
//! Every struct here is deserialized with `deny_unknown_fields`, so a misspelt key is an error at
//! its position. Expressions (`Expr`) are Rhai; prose (`Text`) is Markdown with `{{ rhai }}`
//! placeholders. Doc comments become the JSON Schema descriptions editors show.

mod carry;
mod chart;
mod closing;
mod control;
mod function;
mod numeric;
pub mod question;
pub mod report;
mod self_assessment;
mod spanned;
pub mod track;

pub use carry::{CarryForward, Read, Records};
pub use chart::*;
pub use closing::{Card, DecisionLog, Hud, LedgerSpec, Synthesis, Tier};
pub use control::{Checkboxes, Control, NumberInput, Select, Slider, Switch};
pub use function::{DocumentedArg, FnArg, Function};
pub use numeric::{NumericAnswer, NumericBand};
pub use question::{PartQuestion, QuestionKind};
pub use report::ReportSpec;
pub use self_assessment::SelfAssessmentItem;
pub use spanned::{Pos, Spanned};
use track::schema_as_written;
pub use track::{BoolOrExpr, NumOrExpr, TrackSpec, Tracked, Variants};

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A Rhai expression, e.g. `queue::pk_wait(utilization, cs, service_min)`.
pub type Expr = Spanned<String>;
/// Markdown prose; `{{ expr }}` placeholders are Rhai expressions evaluated in the part's scope.
pub type Text = Spanned<String>;

/// A lab: metadata, constants, parts, synthesis, HUD, ledger and tests.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lab {
    /// Stable identifier (lowercase, dashes). Keys saved progress together with `version`.
    pub id: Spanned<String>,
    /// Bump when parts or options change so old saved progress is not mixed with the new lab.
    #[serde(default = "one")]
    pub version: u32,
    /// Course volume number, e.g. 2.
    #[serde(default)]
    pub volume: Option<u32>,
    /// Lab number within the volume, e.g. 6.
    #[serde(default)]
    pub number: Option<u32>,
    /// Chapter key the ledger record is saved under, e.g. `v2_06`.
    #[serde(default)]
    pub chapter: Option<String>,
    /// Short topic shown above the title, e.g. `Fault Tolerance`.
    #[serde(default)]
    pub topic: Option<String>,
    /// The lab's title.
    pub title: Text,
    /// One-paragraph teaser under the title (Markdown).
    #[serde(default)]
    pub subtitle: Option<Text>,
    /// Badges shown in the header.
    #[serde(default)]
    pub badges: Vec<Badge>,
    /// Expected duration.
    #[serde(default)]
    pub duration: Option<Duration>,
    /// Learning objectives, in order.
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Prerequisites (Markdown, one per item).
    #[serde(default)]
    pub prerequisites: Vec<Text>,
    /// The question the whole lab answers.
    #[serde(default)]
    pub core_question: Option<Text>,
    /// Recommended reading before the lab (Markdown).
    #[serde(default)]
    pub reading: Option<Text>,
    /// Lab-wide constants visible to every formula: numbers, booleans, strings, records or lookup tables.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"gpu_mttf_h": {"value": 50000, "unit": "h", "source": "Llama 3 paper"}, "gpus_per_node": 8}))]
    pub constants: IndexMap<String, Spanned<Constant>>,
    /// Functions callable from every formula, condition, chart expression and placeholder.
    #[serde(default)]
    pub functions: Vec<Function>,
    /// Lab-level formulas: computed once from the constants (and each other), visible to every
    /// part and to all the lab's prose.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"cluster_gpus": "nodes * gpus_per_node"}))]
    pub formulas: IndexMap<String, Expr>,
    /// Lab-level controls, shared by the parts: a part shows one by naming it in its
    /// `lab_controls:`, and every part that does shows the same value (moved in one part, it
    /// moves in all). Lab formulas may read them; such a formula is then computed in each part
    /// that shows the controls it reads.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"slider": {"id": "batch", "label": "Batch size", "min": 1, "max": 64, "step": 1, "default": 8}}]))]
    pub controls: Vec<Control>,
    /// The parts of the lab, in order.
    pub parts: Vec<Part>,
    /// Closing synthesis: takeaways, what's next, self-assessment, decision log.
    #[serde(default)]
    pub synthesis: Option<Synthesis>,
    /// The heads-up display summarising the student's results.
    #[serde(default)]
    pub hud: Option<Hud>,
    /// What the saved progress record is called and holds.
    #[serde(default)]
    pub ledger: Option<LedgerSpec>,
    /// The report a student hands in at the end: its heading, a paragraph, the key outputs
    /// and the sections each part prints (see `docs/report.md`). Without it every lab still
    /// has one, with every output and section.
    #[serde(default)]
    pub report: Option<ReportSpec>,
    /// The lab's own tests, run by `labforge test`: set controls, expect outputs.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"part": "a", "set": {"utilization": 0.8, "cs": 3}, "expect": {"wait_min": 600}}]))]
    pub tests: Vec<LabTest>,
    /// Earlier labs' decisions this lab shows (labs of one course; see `course.yaml`).
    #[serde(default)]
    pub carry_forward: Vec<CarryForward>,
    /// Numbers read from earlier labs of the course, each with a default and a range.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"from": "fault-tolerance", "record": "cluster_gpus", "as": "fleet_gpus", "default": 1024, "range": [8, 100000]}]))]
    pub reads: Vec<Read>,
    /// Values this lab keeps in the course record for later labs (`name: PART.NAME`).
    #[serde(default)]
    #[schemars(example = serde_json::json!({"cluster_gpus": "a.cluster_gpus"}))]
    pub records: Records,
    /// The tracks a student picks one of, for a lab on its own (a lab of a course uses the
    /// course's `tracks:`). Each has `id`, `label`, and optionally `icon`, `summary`,
    /// `device`, `model` and any further fields; expressions read them as `track.NAME`.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"id": "iphone", "label": "iPhone", "icon": "📱", "device": "A17Pro"}]))]
    pub tracks: Vec<TrackSpec>,
    /// The track shown before the student picks one (default: the first).
    #[serde(default)]
    pub default_track: Option<Spanned<String>>,
    /// Per-track values, read as `variant.NAME`: `default:` holds what every track shares,
    /// a track id what differs on it.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"default": {"budget_ms": 100}, "iphone": {"budget_ms": 33}}))]
    pub variants: Variants,
}

fn one() -> u32 {
    1
}

/// A header badge.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Badge {
    /// Badge text.
    pub text: Text,
    /// Colour: `info` (default), `success`, `warn` or `danger`.
    #[serde(default)]
    pub kind: BadgeKind,
}

/// Badge colour.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum BadgeKind {
    #[default]
    Info,
    Success,
    Warn,
    Danger,
}

/// Expected duration of the lab.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Duration {
    /// Total, e.g. `35-40 min`.
    pub total: String,
    /// Per-part breakdown, e.g. `Part A: ~15 min · Part B: ~25 min`.
    #[serde(default)]
    pub breakdown: Option<String>,
}

/// A learning objective: a bold lead and its explanation.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// The bold lead, e.g. `Calculate cluster MTBF`.
    pub title: Text,
    /// The explanation (Markdown).
    #[serde(default)]
    pub text: Option<Text>,
}

/// A lab-wide constant. Either a bare value or `{ value, unit, source }`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Constant {
    /// A constant with its unit and provenance.
    Documented(DocumentedConstant),
    /// A bare value: number, boolean, string, list or record (a lookup table is a record).
    Bare(Value),
}

impl Constant {
    pub fn value(&self) -> &Value {
        match self {
            Constant::Documented(d) => &d.value,
            Constant::Bare(v) => v,
        }
    }
}

/// A constant with its unit and where the figure comes from.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedConstant {
    /// The value.
    pub value: Value,
    /// Unit, e.g. `h`, `$/GPU-hour`.
    #[serde(default)]
    pub unit: Option<String>,
    /// Where the figure comes from.
    #[serde(default)]
    pub source: Option<String>,
}

/// A literal value: number, boolean, string, list or record.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Value>),
    Record(IndexMap<String, Value>),
}

/// One part of a lab (the seeds' Part A-D).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Short identifier, unique in the lab (e.g. `a`). Controls and outputs are scoped to their part.
    pub id: Spanned<String>,
    /// Part title, e.g. `The Young-Daly Sweet Spot`.
    pub title: Text,
    /// Expected time for this part, e.g. `~15 min`.
    #[serde(default)]
    pub duration: Option<String>,
    /// Gates that must be passed before this part opens: `a.prediction`, `b.reflection`.
    #[serde(default)]
    #[schemars(example = serde_json::json!(["a.reflection"]))]
    pub requires: Vec<Spanned<String>>,
    /// The message that opens the part.
    #[serde(default)]
    pub stakeholder: Option<Stakeholder>,
    /// Concept framing (Markdown). Placeholders are evaluated at the prediction's scenario.
    #[serde(default)]
    pub concept: Option<Text>,
    /// The prediction that locks this part's instruments until answered.
    #[serde(default)]
    pub prediction: Option<Prediction>,
    /// Heading above the controls and instruments, e.g. `Young-Daly Checkpoint Optimizer`.
    #[serde(default)]
    pub explore_title: Option<Text>,
    /// Controls the student moves.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"slider": {"id": "utilization", "label": "Cluster utilization", "min": 0.1, "max": 0.99, "step": 0.01, "default": 0.8}}, {"select": {"id": "cs", "label": "Workload", "options": {"Uniform (C_s=1)": 1, "ML (C_s=3)": 3}, "default": "ML (C_s=3)"}}]))]
    pub controls: Vec<Control>,
    /// Lab-level controls (the lab's `controls:`) this part shows, by id, before its own; their
    /// value is the same in every part that shows them.
    #[serde(default)]
    #[schemars(example = serde_json::json!(["batch"]))]
    pub lab_controls: Vec<Spanned<String>>,
    /// Part-level constants (visible only in this part), same forms as lab constants.
    #[serde(default)]
    pub constants: IndexMap<String, Spanned<Constant>>,
    /// Named formulas (Rhai), evaluated in dependency order.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"amplification": "queue::pk_amplification(cs)", "wait_min": "queue::pk_wait(utilization, cs, service_min)"}))]
    pub formulas: IndexMap<String, Expr>,
    /// How named values are presented: label, unit, digits, colour bands.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"wait_min": {"label": "Wait", "unit": "min", "digits": 0, "bands": {"good_below": 10, "warn_below": 30}}}))]
    pub outputs: IndexMap<String, Output>,
    /// Instruments: formula panels, metric cards, charts, tables, in display order.
    #[serde(default)]
    pub instruments: Vec<Instrument>,
    /// Banners shown while a condition holds.
    #[serde(default)]
    #[schemars(example = serde_json::json!([{"when": "wait_min > 30", "title": "SLO VIOLATED", "danger": "At {{ fmt(utilization * 100, 0) }}% the wait is {{ fmt(wait_min, 0) }} min."}]))]
    pub feedback: Vec<FeedbackRule>,
    /// Collapsible governing equations (Markdown).
    #[serde(default)]
    pub math_peek: Option<MathPeek>,
    /// The reflection question closing the part.
    #[serde(default)]
    pub reflection: Option<Question>,
    /// Questions after the prediction: choice, select-all, numeric or written (see
    /// [`question`]); a bare string is a written one.
    #[serde(default)]
    #[schemars(example = serde_json::json!(["Name the binding term.", {"id": "levers", "select_all": "Which levers lower the wait?", "options": [{"text": "Lower utilization", "correct": true}, {"text": "Faster GPUs"}]}]))]
    pub questions: Vec<PartQuestion>,
}

/// Who speaks at the start of a part and what they say.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stakeholder {
    /// The speaker's role, e.g. `Training Reliability Engineer`.
    pub role: Text,
    /// What they say (Markdown).
    pub message: Text,
    /// Accent colour of the message card.
    #[serde(default)]
    pub color: Option<Color>,
}

/// A palette colour. Levels `good`/`warn`/`bad` map to green/orange/red.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Blue,
    Green,
    Orange,
    Red,
    Purple,
    Gray,
    Text,
    Good,
    Warn,
    Bad,
}

/// A prediction: multiple choice, or a typed number graded with a tolerance.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    /// The question (Markdown).
    pub question: Text,
    /// The control values the question is about; defaults fill the rest. Prose of the part
    /// (concept, prediction, reflection, math peek) is evaluated at this scenario.
    #[serde(default)]
    pub scenario: IndexMap<String, Spanned<Value>>,
    /// The output the options' claims are about (checked by `labforge check`).
    #[serde(default)]
    pub claim: Option<Spanned<String>>,
    /// Multiple-choice options. Ids default to A, B, C, ...
    #[serde(default)]
    pub options: Vec<Choice>,
    /// A numeric prediction: the student types a number, graded against an output.
    #[serde(default)]
    pub numeric: Option<NumericAnswer>,
    /// Feedback for any option without its own.
    #[serde(default)]
    pub other_feedback: Option<Text>,
    /// Feedback that follows the student: every feedback text of this prediction is evaluated
    /// at the controls' current values (not the scenario) and re-evaluated as they move, with
    /// `answer` the locked-in answer. Handouts and the answer key keep the scenario's values.
    #[serde(default)]
    pub live: bool,
    /// What the locked instruments say until the prediction is locked in (Markdown inline),
    /// e.g. `Commit to a wait time first: the queue simulator opens once you have.` Default:
    /// `Lock in a prediction to unlock the instruments, the math and the reflection.`
    #[serde(default)]
    pub lock_text: Option<Text>,
}

impl Prediction {
    /// Does the prediction leave its key to its claims (issue 25): choices about a `claim:`
    /// output, each option with a claim, none marked correct (by `true` or a track
    /// expression)? Then the option whose claim holds at the scenario is the key, on each track
    /// (the engine marks it; `labforge check` reports claims that pick none or several).
    pub fn keyed_by_claims(&self) -> bool {
        !self.live
            && self.numeric.is_none()
            && self.claim.is_some()
            && !self.options.is_empty()
            && self
                .options
                .iter()
                .all(|o| o.claim.is_some() && !o.correct && o.tracked.is_empty())
    }
}

/// One option of a prediction or reflection. `correct` may be an expression computed per
/// track (see [`track`]); until then it is `false` and waits in `tracked`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(from = "RawChoice")]
pub struct Choice {
    pub id: Option<Spanned<String>>,
    pub text: Text,
    pub correct: bool,
    pub feedback: Option<Text>,
    pub claim: Option<Spanned<Claim>>,
    #[serde(skip)]
    pub tracked: Tracked,
}

/// An option as written.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChoice {
    /// Option id saved in the ledger; defaults to its letter (A, B, ...). Letters, digits, `_`
    /// and `-` (a digit may come first: `2x`).
    #[serde(default)]
    #[schemars(regex(pattern = r"^[A-Za-z0-9_][A-Za-z0-9_-]*$"), length(max = 64))]
    pub id: Option<Spanned<String>>,
    /// The option's text (Markdown inline).
    pub text: Text,
    /// True for the correct option (exactly one per question). On a lab with tracks, an
    /// expression such as `"track.id == 'robotaxi'"` makes it correct on some tracks only. A
    /// prediction or a choice question whose options all have a `claim:` may leave it out on
    /// every option: the option whose claim holds at the scenario is then the key, on each track.
    #[serde(default)]
    pub correct: Option<Spanned<BoolOrExpr>>,
    /// Feedback shown after choosing it (Markdown).
    #[serde(default)]
    pub feedback: Option<Text>,
    /// What this option states about the prediction's `claim` output at its scenario.
    #[serde(default)]
    #[schemars(example = serde_json::json!({"approx": 600, "tolerance": 0.1}))]
    pub claim: Option<Spanned<Claim>>,
}

impl From<RawChoice> for Choice {
    fn from(r: RawChoice) -> Choice {
        let mut tracked = Tracked::new();
        let correct = match r.correct {
            None => false,
            Some(Spanned {
                value: BoolOrExpr::Bool(b),
                ..
            }) => b,
            Some(Spanned {
                value: BoolOrExpr::Expr(e),
                pos,
            }) => {
                tracked.push(("correct", Spanned::new(e, pos)));
                false
            }
        };
        Choice {
            id: r.id,
            text: r.text,
            correct,
            feedback: r.feedback,
            claim: r.claim,
            tracked,
        }
    }
}

schema_as_written!(Choice, RawChoice);

/// A statement about a value: the check holds when the value satisfies it.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// About this value (`~25` with `tolerance`).
    #[serde(default)]
    pub approx: Option<f64>,
    /// Relative tolerance for `approx` (default 0.25: within ±25%).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// At least this value.
    #[serde(default)]
    pub min: Option<f64>,
    /// At most this value.
    #[serde(default)]
    pub max: Option<f64>,
    /// Exactly this: `true`/`false` for a yes/no output, or the words a text output reads
    /// (`is: Communication` for `bottleneck: if comm_s > compute_s { "Communication" } else
    /// { "Compute" }`).
    #[serde(default)]
    pub is: Option<ClaimIs>,
}

/// What a claim's `is:` says the claimed output is.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum ClaimIs {
    /// A yes/no output's value.
    Bool(bool),
    /// A text output's words, exactly as it reads.
    Text(String),
}

impl std::fmt::Display for ClaimIs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimIs::Bool(b) => write!(f, "{b}"),
            ClaimIs::Text(t) => write!(f, "\"{t}\""),
        }
    }
}

/// How a named value is shown.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// Label, e.g. `System MTBF`.
    #[serde(default)]
    pub label: Option<String>,
    /// Unit suffix, e.g. `h`, `%`, `min`.
    #[serde(default)]
    pub unit: Option<String>,
    /// Prefix, e.g. `$`.
    #[serde(default)]
    pub prefix: Option<String>,
    /// Decimals shown (default: automatic), 0 to 20.
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub digits: Option<Spanned<u32>>,
    /// Words shown for booleans: `[when true, when false]`.
    #[serde(default)]
    pub words: Option<(String, String)>,
    /// Colour by thresholds.
    #[serde(default)]
    pub bands: Option<Bands>,
    /// Colour by a Rhai expression returning "good", "warn" or "bad" (`value` is the output).
    #[serde(default)]
    pub level: Option<Expr>,
    /// The largest value shown: at or above it the output reads `≥ cap` (e.g. `≥ 999 min`)
    /// everywhere, and the view marks it capped. The value itself is not changed.
    #[serde(default)]
    pub cap: Option<f64>,
}

/// Thresholds colouring a value good/warn/bad. Use the `_below` pair when lower is better and the
/// `_above` pair when higher is better; `warn_*` is optional (two bands).
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bands {
    /// Good while value < this.
    #[serde(default)]
    pub good_below: Option<f64>,
    /// Warn while value < this (else bad).
    #[serde(default)]
    pub warn_below: Option<f64>,
    /// Good while value > this.
    #[serde(default)]
    pub good_above: Option<f64>,
    /// Warn while value > this (else bad).
    #[serde(default)]
    pub warn_above: Option<f64>,
}

/// An instrument. Externally tagged: `- metrics: [...]`, `- panel: {...}`, `- chart: {...}`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Instrument {
    /// A monospace panel of formula lines with live values.
    Panel(Panel),
    /// A row of metric cards.
    Metrics(Vec<MetricCard>),
    /// A chart.
    Chart(Box<Chart>),
    /// A table of outputs (label, value, unit).
    Table(OutputTable),
}

/// A formula panel.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Panel {
    /// Panel heading, e.g. `Physics — Young-Daly Checkpoint Optimization`.
    pub title: Text,
    /// Lines (inline Markdown with placeholders). `{{ @name }}` shows output `name` of the part as
    /// its instrument shows it (prefix, digits, unit, words), coloured by its level (bands or
    /// `level:`) with the level's words beside it, e.g. `= **{{ @waste_pct }} waste**`.
    pub lines: Vec<Text>,
}

/// A metric card showing one output.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetricCard {
    /// The output shown.
    pub output: Spanned<String>,
    /// Card title (default: the output's label).
    #[serde(default)]
    pub label: Option<Text>,
    /// Small text under the value.
    #[serde(default)]
    pub caption: Option<Text>,
    /// Value colour when the output has no bands.
    #[serde(default)]
    pub color: Option<Color>,
}

/// A table listing outputs.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputTable {
    /// Heading.
    #[serde(default)]
    pub title: Option<Text>,
    /// Outputs listed, in order.
    pub outputs: Vec<Spanned<String>>,
}

// Chart declarations live in `chart.rs`.

/// Callout kinds.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CalloutKind {
    Success,
    Info,
    Warn,
    Danger,
}

impl CalloutKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            CalloutKind::Success => "success",
            CalloutKind::Info => "info",
            CalloutKind::Warn => "warn",
            CalloutKind::Danger => "danger",
        }
    }
}

/// A banner shown while `when` holds. Give exactly one of `success`, `info`, `warn`, `danger`
/// with the banner's text.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedbackRule {
    /// Condition (Rhai, boolean).
    pub when: Expr,
    /// Bold heading, e.g. `CHECKPOINT STORM — System Pathological`.
    #[serde(default)]
    pub title: Option<Text>,
    /// Text of a success banner.
    #[serde(default)]
    pub success: Option<Text>,
    /// Text of an info banner.
    #[serde(default)]
    pub info: Option<Text>,
    /// Text of a warning banner.
    #[serde(default)]
    pub warn: Option<Text>,
    /// Text of a danger banner.
    #[serde(default)]
    pub danger: Option<Text>,
    /// Accept that this banner may never show over the controls' ranges (e.g. it marks an
    /// outcome the lab demonstrates to be impossible); silences the never-fires warning. On a
    /// lab with tracks, a list of track ids accepts it on those tracks only
    /// (`may_never_fire: [iphone, oura-ring]`): on the others `check` still says so.
    #[serde(default)]
    pub may_never_fire: Spanned<MayNeverFire>,
}

/// `may_never_fire:`: `true`/`false`, or the tracks on which the banner may never show.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum MayNeverFire {
    /// On every track (`true`), or on none (`false`, the default).
    All(bool),
    /// On these tracks only.
    Tracks(Vec<String>),
}

impl Default for MayNeverFire {
    fn default() -> Self {
        MayNeverFire::All(false)
    }
}

impl MayNeverFire {
    /// Whether the banner may never show on `track` (`None`: a lab without tracks).
    pub fn allows(&self, track: Option<&str>) -> bool {
        match self {
            MayNeverFire::All(b) => *b,
            MayNeverFire::Tracks(ts) => track.is_some_and(|t| ts.iter().any(|x| x == t)),
        }
    }
}

impl FeedbackRule {
    /// The banner's kind and text (the first of success/info/warn/danger given).
    pub fn callout(&self) -> Option<(CalloutKind, &Text)> {
        [
            (CalloutKind::Success, &self.success),
            (CalloutKind::Info, &self.info),
            (CalloutKind::Warn, &self.warn),
            (CalloutKind::Danger, &self.danger),
        ]
        .into_iter()
        .find_map(|(k, t)| t.as_ref().map(|t| (k, t)))
    }
}

/// Collapsible governing equations.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MathPeek {
    /// Summary line, e.g. `Governing equations -- Young-Daly checkpoint optimization`.
    pub title: Text,
    /// Markdown body.
    pub body: Text,
}

/// A multiple-choice question with feedback (used for reflections).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question.
    pub question: Text,
    /// Options; exactly one is `correct`.
    pub options: Vec<Choice>,
    /// Feedback for options without their own.
    #[serde(default)]
    pub other_feedback: Option<Text>,
}

/// A test: at these control values, these outputs.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LabTest {
    /// Name shown in the report.
    #[serde(default)]
    pub name: Option<String>,
    /// Part id.
    pub part: Spanned<String>,
    /// Control values (others at their defaults). Selects take the option's value or label.
    #[serde(default)]
    pub set: IndexMap<String, Spanned<Value>>,
    /// Expected values of outputs or formulas.
    pub expect: IndexMap<String, Spanned<Value>>,
    /// Relative tolerance for numbers (default 1e-9).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// The track the test runs under (default: every track of the lab).
    #[serde(default)]
    pub track: Option<Spanned<String>>,
    /// Answers to the part's questions (question id -> an option id, a list of them, a number
    /// or a written answer); `expect` names each with its verdict: `true`/`false` (right or
    /// not), a select-all's credit or a written answer's words, `recorded` for an opinion.
    #[serde(default)]
    pub answers: IndexMap<String, Spanned<Value>>,
}

impl Lab {
    /// The lab's short label, `Vol 2 · Lab 6`, from `volume` and `number` (what the page's
    /// header and a HUD without its own `label` show).
    pub fn short_label(&self) -> Option<String> {
        match (self.volume, self.number) {
            (Some(v), Some(n)) => Some(format!("Vol {v} · Lab {n}")),
            (None, Some(n)) => Some(format!("Lab {n}")),
            (Some(v), None) => Some(format!("Vol {v}")),
            (None, None) => None,
        }
    }

    /// The HUD's label: its own `label`, else [`Lab::short_label`].
    pub fn hud_label(&self) -> Option<String> {
        self.hud
            .as_ref()
            .and_then(|h| h.label.as_ref().map(|l| l.value.clone()))
            .or_else(|| self.short_label())
    }
}

/// How every view names a part after `Part `: `A` for id `a`, the id itself when longer
/// (`queue`). The page, the terminal and the handouts all use this.
pub fn part_letter(id: &str) -> String {
    if id.chars().count() == 1 {
        id.to_uppercase()
    } else {
        id.to_string()
    }
}

/// `Part A` for part id `a`.
pub fn part_label(id: &str) -> String {
    format!("Part {}", part_letter(id))
}
