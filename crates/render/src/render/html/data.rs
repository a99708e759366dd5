//! The page data: the one JSON value a lab page hands its scripts, `D` (the text of
//! `<script type="application/json" id="lf-data">`, parsed by `runtime.js` and passed to
//! `rhai.js`, `format.js`, `ledger.js`, `report.js`, `questions.js`, `tracks.js` and
//! `chart-model.js`). These types are the Rust → page contract: every field is written here,
//! with the script that reads it.
//!
//! The structs are built by the HTML renderer (`html.rs`, `part.rs`, `chart.rs`, `live.rs`,
//! `carried.rs`, `course.rs`, `tracks.rs`, `libjs.rs`, `report.rs`) from the view and the
//! compiled lab, not by the view:
//! most of what they hold is the page's own translation of the lab — numbers of expressions in
//! the page's translated script, live templates as HTML pieces, a chart's drawing options —
//! which no other renderer has.
//!
//! Every map the page reads is a struct here, or [`InOrder`] (keys in the lab's or the table's
//! order). JSON values of no fixed shape are the lab's own: a constant (a number, text, list or
//! record, written by [`crate::formula::AsJson`] from the compiled value), a select's values
//! (the view's), a course lab's shape (`course.rs`'s).
//!
//! The bytes are the page's size budget: a field whose value the scripts read back as absent
//! (`null`, `false`, empty) is left out where the page has always left it out. Fields are
//! written in declaration order (`serde_json`'s `preserve_order` is on in the workspace).

use crate::model::{ChartKind, LegendPos, LineStyle, PointShape, Symbol};
use crate::view::report::{PlanAsk, PlanControl};
use indexmap::IndexMap;
use rhai::Dynamic;
use serde::{Serialize, Serializer};
use serde_json::Value as J;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

/// A JSON object keyed by strings, in the order given (lab order: a lab's constants, its
/// parts' ids; table order: the library's devices).
pub(super) struct InOrder<V, K = String>(pub Vec<(K, V)>);

impl<V: Serialize, K: Serialize> Serialize for InOrder<V, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// `D`, the data of one lab page.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageData<'a> {
    /// One update's operation budget (rhai.js `_tick`, runtime.js).
    pub max_ops: u64,
    /// The lab-level formulas' budget (rhai.js, runtime.js).
    pub lab_ops: u64,
    /// The longest string, array and map a formula may build (rhai.js).
    pub max_size: [usize; 3],
    /// The progress record's format tag (ledger.js).
    pub ledger_format: &'static str,
    pub lab: LabData,
    /// The lab's constants, the track and variant trimmed to the fields the script reads
    /// (runtime.js `scopeFor`).
    pub constants: Constants<'a>,
    /// What `hw(id)` can return (runtime.js hands it to `labforgeLibrary`): `{}` unless a
    /// formula looks a device up (`libjs.rs`).
    pub hardware: LibTable<'a>,
    pub parts: Vec<PartData<'a>>,
    /// The HUD's tiers (ledger.js standing); `null` without a `hud:`.
    pub hud: Option<HudData>,
    /// The lab has a decision log (ledger.js, report.js).
    pub has_decision_log: bool,
    /// The lab report's plan (report.js), see `report.rs`.
    pub report: ReportData,
    /// What `model(id)` can return (runtime.js), only when a formula calls `model`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub models: Option<LibTable<'a>>,
    /// In a course: the course record's labs (course.js, runtime.js).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub course: Option<CourseData<'a>>,
    /// A lab with tracks: this page's track and its siblings (tracks.js).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub track: Option<TrackData>,
    /// Numbers carried from earlier labs of the course (runtime.js `carriedRaw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<Vec<ReadData>>,
    /// Each predicting part's kind, `number` or `text`, when a formula reads `prediction.X`
    /// (runtime.js binds `prediction`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preds: Option<InOrder<&'static str>>,
    /// Placeholders reading locked predictions: expression number → the parts read (`""`:
    /// `answer`), for format.js's "(Part A not answered yet)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pread: Option<&'a BTreeMap<usize, Vec<String>>>,
    /// The words of the errors the page can raise (rhai.js): message key → template
    /// (`formula::messages`).
    pub msg: InOrder<&'static str, &'static str>,
}

/// A library table in the page (`D.hardware`, `D.models`): id → entry, in the order `hw(id)`
/// and `model(id)` search them.
pub(super) type LibTable<'a> = InOrder<LibEntry<'a>, &'a str>;

/// An entry of a library table as `hw(id)` and `model(id)` return it (library.js): its name
/// and its numbers (sources and notes stay in the docs).
#[derive(Serialize)]
pub(super) struct LibEntry<'a> {
    pub name: &'a str,
    #[serde(flatten)]
    pub numbers: &'a IndexMap<String, f64>,
}

impl<'a> LibEntry<'a> {
    pub fn new(name: &'a str, numbers: &'a IndexMap<String, f64>) -> Self {
        LibEntry { name, numbers }
    }
}

/// `D.report` (report.js): the report's plan ([`crate::view::report::ReportPlan`], whose
/// fields these repeat) with the lab's paragraphs as sanitised HTML beside their Markdown
/// (`introh`, each ask's `h`) for the print view. Built by `report.rs`.
#[derive(Serialize)]
pub(super) struct ReportData {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intro: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    pub parts: Vec<ReportPart>,
    pub log: bool,
    /// The intro as HTML, with an intro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub introh: Option<String>,
}

/// A part of the report ([`crate::view::report::PlanPart`]).
#[derive(Serialize)]
pub(super) struct ReportPart {
    pub id: String,
    pub head: String,
    pub ctl: Vec<PlanControl>,
    pub out: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pred: Option<ReportAsk>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refl: Option<ReportAsk>,
    pub qs: Vec<ReportAsk>,
}

/// A prediction, reflection or question of the report, with what it asks as HTML (`h`).
#[derive(Serialize)]
pub(super) struct ReportAsk {
    #[serde(flatten)]
    pub ask: PlanAsk,
    pub h: String,
}

/// `D.lab`: who the page's records belong to (ledger.js, report.js, runtime.js).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LabData {
    pub id: String,
    pub version: u32,
    pub chapter: String,
    pub title: String,
    /// The record's key of the decision log.
    pub just_key: String,
}

/// `D.hud`: what the standing is made of (ledger.js).
#[derive(Serialize)]
pub(super) struct HudData {
    pub parts: Vec<String>,
    pub tiers: Vec<TierData>,
    pub label: Option<String>,
    pub chapter_label: Option<String>,
}

#[derive(Serialize)]
pub(super) struct TierData {
    pub name: String,
    /// Expression number of its condition; `null`: always.
    pub when: Option<usize>,
    pub color: String,
}

/// `D.parts[i]`: one part as runtime.js runs it (written by its `Serialize` below).
pub(super) struct PartData<'a> {
    pub id: String,
    /// A prediction not answered yet is said by its part's label (format.js).
    pub label: String,
    /// `[part, what]` the part waits for (runtime.js `unlocked`).
    pub requires: Vec<(String, String)>,
    /// runtime.js `predictionCorrect`, `lockIn`; `null` without a prediction.
    pub prediction: Option<PredictionData>,
    /// How `answer` reads before locking in (runtime.js binds it): `text`, `number`, or `null`
    /// (unbound). Left out when no expression of the page reads `answer`.
    pub answer: Option<Option<&'static str>>,
    /// The part reads earlier parts' locked predictions: runtime.js binds `prediction` and
    /// recomputes the part when another part locks in. Absent reads as false.
    pub preds: bool,
    /// runtime.js `reflectionCorrect`; `null` without a reflection.
    pub reflection: Option<ChoicesData>,
    /// The part's own constants (runtime.js `scopeFor`).
    pub constants: Constants<'a>,
    /// runtime.js `readControl`, `writeControl`, `readout`.
    pub controls: Vec<ControlData<'a>>,
    /// `[name, expression number]`, or `[name, number, scope names read]` for a formula the
    /// runtime may reuse (runtime.js `remembered`).
    pub formulas: Vec<FormulaData>,
    /// runtime.js `setOutput` and format.js.
    pub outputs: Vec<OutputData>,
    /// The part's live templates, by number (runtime.js `recompute`).
    pub tpls: Vec<Tpl>,
    /// Banners (runtime.js `recompute`).
    pub feedback: Vec<BannerData>,
    /// Chart specs (chart-model.js `chartData`, charts.js).
    pub charts: Vec<ChartData>,
    /// How the page grades and records the part's questions (questions.js).
    pub questions: Option<Vec<QuestionData>>,
    /// `[[name, formula], ...]` the part keeps for later labs (runtime.js, ledger.js).
    pub records: Option<Vec<(String, String)>>,
    /// The earlier parts it reads (`parts.a.x`), computed at their settings first (runtime.js).
    pub earlier: Option<Vec<String>>,
}

/// The keys of a part's data in the order the page has always carried them: declared order,
/// then `preds` and `answer` (when left out) taken out as a swap-remove takes them, the last
/// key moving into the gap (the page was built as a `serde_json::Map` and had them removed
/// with `Map::remove`). The scripts do not read the order; the bytes stay the same.
impl Serialize for PartData<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut keys = vec![
            "id",
            "label",
            "requires",
            "prediction",
            "answer",
            "preds",
            "reflection",
            "constants",
            "controls",
            "formulas",
            "outputs",
            "tpls",
            "feedback",
            "charts",
        ];
        for (k, on) in [
            ("questions", self.questions.is_some()),
            ("records", self.records.is_some()),
            ("earlier", self.earlier.is_some()),
        ] {
            if on {
                keys.push(k);
            }
        }
        for (k, out) in [("preds", !self.preds), ("answer", self.answer.is_none())] {
            if out {
                let i = keys.iter().position(|x| *x == k).expect("a key");
                keys.swap_remove(i);
            }
        }
        let mut m = s.serialize_map(Some(keys.len()))?;
        for k in keys {
            match k {
                "id" => m.serialize_entry(k, &self.id)?,
                "label" => m.serialize_entry(k, &self.label)?,
                "requires" => m.serialize_entry(k, &self.requires)?,
                "prediction" => m.serialize_entry(k, &self.prediction)?,
                "answer" => m.serialize_entry(k, &self.answer)?,
                "preds" => m.serialize_entry(k, &self.preds)?,
                "reflection" => m.serialize_entry(k, &self.reflection)?,
                "constants" => m.serialize_entry(k, &self.constants)?,
                "controls" => m.serialize_entry(k, &self.controls)?,
                "formulas" => m.serialize_entry(k, &self.formulas)?,
                "outputs" => m.serialize_entry(k, &self.outputs)?,
                "tpls" => m.serialize_entry(k, &self.tpls)?,
                "feedback" => m.serialize_entry(k, &self.feedback)?,
                "charts" => m.serialize_entry(k, &self.charts)?,
                "questions" => m.serialize_entry(k, &self.questions)?,
                "records" => m.serialize_entry(k, &self.records)?,
                _ => m.serialize_entry(k, &self.earlier)?,
            }
        }
        m.end()
    }
}

/// Constants by name, in the lab's order.
pub(super) type Constants<'a> = InOrder<ConstData<'a>, &'a str>;

/// A constant's value as the page's script reads it: the value as JSON
/// ([`crate::formula::AsJson`]: a number, text, list or record, whatever the lab wrote), a
/// record with only the fields in `keep` when it is set (`track` and `variant`, whose other
/// fields only the prose reads, and the page has its prose rendered).
pub(super) struct ConstData<'a> {
    pub value: &'a Dynamic,
    pub keep: Option<BTreeSet<String>>,
}

impl<'a> ConstData<'a> {
    /// The whole value.
    pub fn whole(value: &'a Dynamic) -> Self {
        ConstData { value, keep: None }
    }
}

impl Serialize for ConstData<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::formula::AsJson;
        if let (Some(keep), Some(m)) = (&self.keep, self.value.read_lock::<rhai::Map>()) {
            let kept = m.iter().filter(|(k, _)| keep.contains(k.as_str()));
            return s.collect_map(kept.map(|(k, x)| (k.as_str(), AsJson(x))));
        }
        AsJson(self.value).serialize(s)
    }
}

/// A live template: literal HTML pieces `l` around placeholders `e` (format.js `tpl`, called
/// by runtime.js `recompute`; chart-model.js reads a chart's through format.js `tplText`).
#[derive(Serialize, Clone)]
pub(super) struct Tpl {
    pub l: Vec<String>,
    pub e: Vec<Slot>,
}

/// A placeholder of a live template: an expression number, or `"@name"` for an output (the
/// runtime keeps its text and level in the scope under that key).
#[derive(Serialize, Clone)]
#[serde(untagged)]
pub(super) enum Slot {
    Expr(usize),
    Output(String),
}

/// A part's prediction.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PredictionData {
    Numeric {
        /// Always `true`.
        numeric: bool,
        /// `null` without a key (NaN).
        target: f64,
        tolerance: Option<f64>,
        abs: Option<f64>,
        /// `[from, to]` of each graded band (runtime.js `bandOf`).
        bands: Vec<(Option<f64>, Option<f64>)>,
        /// Always empty.
        options: Vec<OptionData>,
    },
    Choice {
        /// Always `false`.
        numeric: bool,
        options: Vec<OptionData>,
    },
}

/// A reflection's options.
#[derive(Serialize)]
pub(super) struct ChoicesData {
    pub options: Vec<OptionData>,
}

/// An option's id, and `correct: true` on a right one (the report reads its text from its
/// label).
#[derive(Serialize)]
pub(super) struct OptionData {
    pub id: String,
    #[serde(skip_serializing_if = "is_false")]
    pub correct: bool,
}

/// A control (runtime.js `readControl`, `writeControl`); keys it has no value for left out
/// (the runtime reads a missing `values`, `base`, `digits` or `unit` as none).
#[derive(Serialize)]
pub(super) struct ControlData<'a> {
    pub id: String,
    /// `slider`, `number`, `switch`, `select`, `radio`, `checkboxes`.
    pub kind: &'static str,
    /// A slider's values by position, a select's or radio's values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<ControlValues<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digits: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// A lab-level control: moved here, it moves in the other parts (runtime.js `share`).
    #[serde(skip_serializing_if = "is_false")]
    pub shared: bool,
}

/// A control's values: a slider's numbers by position (a number that is not finite is
/// `null`), or a select's or radio's values as the view has them (its `ChoiceView::value`).
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum ControlValues<'a> {
    Numbers(&'a [f64]),
    Choices(Vec<&'a J>),
}

/// A formula: `[name, number]` or `[name, number, scope names read]`.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum FormulaData {
    Plain(String, usize),
    Cached(String, usize, Vec<String>),
}

/// An output: fields it does not use left out (format.js reads them as absent).
#[derive(Serialize)]
pub(super) struct OutputData {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digits: Option<u32>,
    /// The two words of a yes/no output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<[String; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<BandsData>,
    /// Expression number of its `level:`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<f64>,
}

/// An output's level bands (format.js, chart-model.js `levelColor`); bounds not given left out.
#[derive(Serialize)]
pub(super) struct BandsData {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub good_below: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warn_below: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub good_above: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warn_above: Option<f64>,
}

impl From<&crate::model::Bands> for BandsData {
    fn from(b: &crate::model::Bands) -> Self {
        let finite = |x: Option<f64>| x.filter(|x| x.is_finite());
        BandsData {
            good_below: finite(b.good_below),
            warn_below: finite(b.warn_below),
            good_above: finite(b.good_above),
            warn_above: finite(b.warn_above),
        }
    }
}

/// A banner: shown while expression `when` holds (runtime.js `recompute`).
#[derive(Serialize)]
pub(super) struct BannerData {
    pub when: usize,
    pub kind: &'static str,
    pub text: Tpl,
    pub title: Option<Tpl>,
}

/// A question (questions.js): fields a kind does not use left out.
#[derive(Serialize)]
pub(super) struct QuestionData {
    pub id: String,
    pub kind: &'static str,
    /// `[id, correct]` of each option.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<(String, bool)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opinion: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_words: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tol: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abs: Option<f64>,
}

/// `D.track` (tracks.js): this page's track, whether it is `STEM.html` (`home`), whether it
/// was rendered alone (`one`), and `[id, label, file]` of every track.
#[derive(Serialize, Clone)]
pub(super) struct TrackData {
    pub now: String,
    pub home: bool,
    pub one: bool,
    pub list: Vec<(String, String, String)>,
}

/// `D.course` (course.js): the course's id, its labs, and this page's place (`me`, -1 on the
/// index).
#[derive(Serialize, Clone)]
pub(super) struct CourseData<'a> {
    pub id: &'a str,
    pub labs: Vec<CourseLab<'a>>,
    pub me: i64,
    /// The course's track ids, with tracks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tracks: Option<Vec<&'a str>>,
}

/// A lab of the course: `[id, version, title, shape]` (this page's lab, every lab on the
/// index: course.js cleans its ledgers with the shape), or `[id, version, title, null,
/// [part ids]]` (another lab: its ledgers pass through uncleaned, merged part by part).
#[derive(Serialize, Clone)]
#[serde(untagged)]
pub(super) enum CourseLab<'a> {
    Shaped(&'a str, u32, &'a str, &'a J),
    Passed(&'a str, u32, &'a str, (), Vec<&'a J>),
}

/// A carried number (runtime.js `carriedRaw`): `[name, from lab, kind, key, default, low,
/// high, [texts]]`.
pub(super) type ReadData = (
    String,
    String,
    &'static str,
    String,
    f64,
    f64,
    f64,
    [String; 3],
);

/// The course index's data: `{course}` (course.js, course-index.js).
#[derive(Serialize)]
pub(super) struct IndexData<'a> {
    pub course: CourseData<'a>,
}

// Charts. The keys of a chart, series, bar, marker, line and histogram whose value is its
// default — none, false, no text, no items — are left out (chart-model.js `chartData` reads
// them back as such): a chart of the shipped labs carried ~250 bytes of them. A sweep and a
// band keep theirs. Numbers are expression numbers unless said otherwise.

/// A chart (chart-model.js `chartData`, charts.js `svg`).
#[derive(Serialize)]
pub(super) struct ChartData {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub kind: ChartKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Tpl>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x_label: Option<Tpl>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y_label: Option<Tpl>,
    #[serde(skip_serializing_if = "is_false")]
    pub x_log: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub y_log: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x_min: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x_max: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y_min: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y_max: Option<usize>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub x_prefix: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub x_suffix: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub y_prefix: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub y_suffix: String,
    pub legend: LegendPos,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub axes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepData>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<SeriesData>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bars: Vec<BarData>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerData>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hlines: Vec<LineData>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vlines: Vec<LineData>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Tpl>,
    /// Pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    #[serde(skip_serializing_if = "is_false")]
    pub stacked: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<BandData>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bins: Option<BinsData>,
}

/// A chart's sweep of variable `var` from `from` to `to` (chart-model.js `sweepValues`).
#[derive(Serialize)]
pub(super) struct SweepData {
    pub var: String,
    pub from: usize,
    pub to: usize,
    pub points: Option<u32>,
    pub step: Option<f64>,
    pub log: bool,
}

#[derive(Serialize)]
pub(super) struct SeriesData {
    pub name: Tpl,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<usize>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub color: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color_when: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emphasis: Option<usize>,
    #[serde(skip_serializing_if = "is_false")]
    pub dashed: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub fill: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Tpl>,
    /// Coloured by an output's level (`color_by:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<LevelData>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<LineStyle>,
    /// Pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marker: Option<PointShape>,
}

/// How the page finds an output's level at a value (chart-model.js `levelColor`): its `level:`
/// expression (`{expr}`), else its bands (`{bands}`).
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum LevelData {
    Expr(usize),
    Bands(BandsData),
}

#[derive(Serialize)]
pub(super) struct BarData {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<LevelData>,
    pub label: Tpl,
    pub value: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color_when: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Tpl>,
}

#[derive(Serialize)]
pub(super) struct MarkerData {
    pub name: Tpl,
    pub x: usize,
    pub y: usize,
    pub symbol: Symbol,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub color: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Tpl>,
}

/// A band between two series (`lower`, `upper`: series indices): its unset keys stay `null`.
#[derive(Serialize)]
pub(super) struct BandData {
    pub lower: Option<usize>,
    pub upper: Option<usize>,
    pub name: Option<Tpl>,
    pub color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<usize>,
}

/// A reference line at expression `at` (`hlines`, `vlines`).
#[derive(Serialize)]
pub(super) struct LineData {
    pub at: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Tpl>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub color: String,
    #[serde(skip_serializing_if = "is_false")]
    pub dashed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<usize>,
}

/// A histogram's bins: `counts` over `from`..`to`.
#[derive(Serialize)]
pub(super) struct BinsData {
    pub counts: usize,
    pub from: usize,
    pub to: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Tpl>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}
