//! Chart declarations: what an instructor writes under `- chart:`. Evaluated to plain data by
//! `eval::chart`, drawn alike by the page, the SVG handout and the terminal.

use super::{Color, Expr, Spanned, Text};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

/// Chart kinds.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ChartKind {
    Line,
    Scatter,
    Bar,
    Radar,
    /// Counts in equal-width bins (`bins:`), drawn as adjacent bars over a numeric x axis.
    Histogram,
}

/// A chart declared in YAML and drawn by every renderer from the same model.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chart {
    /// Identifier, unique in the part (used for SVG file names): letters, digits, `_` and `-`,
    /// starting with a letter or `_`.
    #[schemars(regex(pattern = r"^[A-Za-z_][A-Za-z0-9_-]*$"), length(max = 64))]
    pub id: Spanned<String>,
    /// Kind of chart.
    pub kind: ChartKind,
    /// Title.
    #[serde(default)]
    pub title: Option<Text>,
    /// X axis.
    #[serde(default)]
    pub x: Axis,
    /// Y axis.
    #[serde(default)]
    pub y: Axis,
    /// A variable swept over a range; series expressions see it by name.
    #[serde(default)]
    pub sweep: Option<Sweep>,
    /// Series (line/scatter: x and y expressions over the sweep; bar with sweep: one bar per
    /// sweep point; radar: `values`).
    #[serde(default)]
    pub series: Vec<Series>,
    /// Fixed bars (bar charts).
    #[serde(default)]
    pub bars: Vec<Bar>,
    /// Radar axes (radar charts).
    #[serde(default)]
    pub axes: Vec<String>,
    /// Single points marked on the chart (current point, optimum).
    #[serde(default)]
    pub markers: Vec<Marker>,
    /// Horizontal reference lines.
    #[serde(default)]
    pub hlines: Vec<RefLine>,
    /// Vertical reference lines.
    #[serde(default)]
    pub vlines: Vec<RefLine>,
    /// Where the legend goes: `top`, `bottom`, `right` or `none` (`true` is `bottom`, `false`
    /// is `none`). Default: below the chart when more than one thing is named.
    #[serde(default)]
    #[schemars(with = "Option<LegendSchema>")]
    pub legend: Option<LegendPos>,
    /// What the chart shows, in a sentence, for screen readers (default: built from the title,
    /// axes, series, markers and reference lines).
    #[serde(default)]
    pub description: Option<Text>,
    /// Height of the drawing in pixels, without the legend (default 360; 200 to 1200).
    #[serde(default)]
    pub height: Option<Spanned<f64>>,
    /// Bar charts: stack the series' bars of each category on top of each other.
    #[serde(default)]
    pub stacked: bool,
    /// Filled areas between two series (line charts).
    #[serde(default)]
    pub bands: Vec<Band>,
    /// Histograms: the bins' counts and where they lie on the x axis.
    #[serde(default)]
    pub bins: Option<Bins>,
}

/// A histogram's bins: a list of counts (e.g. `stats::histogram(latency_ms, 0, 60, 12)`) in
/// equal-width bins from `from` to `to` on the x axis.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bins {
    /// The counts, one per bin, left to right (an expression giving a list of numbers, none
    /// negative).
    pub counts: Expr,
    /// Left edge of the first bin (expression, in the x axis' unit).
    pub from: Expr,
    /// Right edge of the last bin (expression; above `from`).
    pub to: Expr,
    /// Legend and data-table name of the counts (e.g. `Requests`).
    #[serde(default)]
    pub name: Option<Text>,
    /// Colour of the bars (default blue).
    #[serde(default)]
    pub color: Option<Color>,
}

/// Legend placement.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LegendPos {
    Top,
    Bottom,
    Right,
    None,
}

impl<'de> Deserialize<'de> for LegendPos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = LegendPos;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("top, bottom, right, none, true or false")
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<LegendPos, E> {
                Ok(if b {
                    LegendPos::Bottom
                } else {
                    LegendPos::None
                })
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<LegendPos, E> {
                Ok(match s {
                    "top" => LegendPos::Top,
                    "bottom" => LegendPos::Bottom,
                    "right" => LegendPos::Right,
                    "none" => LegendPos::None,
                    _ => return Err(E::unknown_variant(s, &["top", "bottom", "right", "none"])),
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// A legend placement, or `true`/`false` (below / none).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum LegendSchema {
    Place(LegendPos),
    Shown(bool),
}

/// A filled band between two series of the chart.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// The two series, by `id` (or name as written), e.g. `[low, high]`.
    pub between: Spanned<Vec<String>>,
    /// Legend name (none: not in the legend).
    #[serde(default)]
    pub name: Option<Text>,
    /// Colour (default: the first series' colour), drawn translucent.
    #[serde(default)]
    pub color: Option<Color>,
    /// Shown only while this condition is true.
    #[serde(default)]
    pub when: Option<Expr>,
}

/// Line style of a series.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LineStyle {
    Solid,
    Dashed,
    Dotted,
}

/// The shape drawn at each point of a series.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PointShape {
    Circle,
    Square,
    Triangle,
    Diamond,
    Star,
    None,
}

/// An axis.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// Axis title.
    #[serde(default)]
    pub label: Option<Text>,
    /// Logarithmic scale.
    #[serde(default)]
    pub log: bool,
    /// Lower bound (expression; default: from the data).
    #[serde(default)]
    pub min: Option<Expr>,
    /// Upper bound (expression; default: from the data).
    #[serde(default)]
    pub max: Option<Expr>,
    /// Tick label prefix, e.g. `$`.
    #[serde(default)]
    pub prefix: Option<String>,
    /// Tick label suffix, e.g. `%`.
    #[serde(default)]
    pub suffix: Option<String>,
}

/// A swept variable.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Name the series expressions use.
    pub var: Spanned<String>,
    /// Start (expression).
    pub from: Expr,
    /// End, inclusive (expression).
    pub to: Expr,
    /// Number of evenly spaced points (default 50), or use `step`.
    #[serde(default)]
    pub points: Option<u32>,
    /// Distance between points (instead of `points`).
    #[serde(default)]
    pub step: Option<f64>,
    /// Space the points evenly on a logarithmic scale (numpy `geomspace`, the library's
    /// `logspace`): `from` and `to` must be positive; not with `step`.
    #[serde(default)]
    pub log: bool,
}

/// A series.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// Legend name.
    pub name: Text,
    /// Identifier a band refers to (default: the name as written).
    #[serde(default)]
    pub id: Option<Spanned<String>>,
    /// X expression (line/scatter; bar: category label expression). Default: the sweep variable.
    #[serde(default)]
    pub x: Option<Expr>,
    /// Y expression.
    #[serde(default)]
    pub y: Option<Expr>,
    /// Radar values, one expression per axis.
    #[serde(default)]
    pub values: Vec<Expr>,
    /// Colour (or per-point expression returning a colour name, for bars).
    #[serde(default)]
    pub color: Option<Color>,
    /// Per-point colour expression returning a colour name (bars).
    #[serde(default)]
    pub color_when: Option<Expr>,
    /// Colour each point by the levels of this output (its `bands:` or `level:`) applied to the
    /// point's `y`: the colour the output's card shows at that value (instead of `color_when`).
    #[serde(default)]
    pub color_by: Option<Spanned<String>>,
    /// Emphasise this series (thicker line) while the expression is true.
    #[serde(default)]
    pub emphasis: Option<Expr>,
    /// Dashed line.
    #[serde(default)]
    pub dashed: bool,
    /// Fill the area (radar).
    #[serde(default)]
    pub fill: bool,
    /// Per-point label template (bars), e.g. `{{ fmt(y, 0) }} ms`.
    #[serde(default)]
    pub text: Option<Text>,
    /// Line style; wins over `dashed` and the default patterns of the 2nd and 3rd series.
    #[serde(default)]
    pub style: Option<LineStyle>,
    /// Line width in pixels (default 2).
    #[serde(default)]
    pub width: Option<Spanned<f64>>,
    /// Shape drawn at every point (default: small dots, hidden on dense lines).
    #[serde(default)]
    pub marker: Option<PointShape>,
    /// Shown only while this condition is true; a hidden series is absent from the legend,
    /// the handout and the terminal.
    #[serde(default)]
    pub when: Option<Expr>,
}

/// A fixed bar.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bar {
    /// Category label (template).
    pub label: Text,
    /// Height (expression).
    pub value: Expr,
    /// Colour. A bar whose `value` is an output with `bands:` or `level:` takes, without
    /// `color`/`color_when`, the colour of the output's level: its card's.
    #[serde(default)]
    pub color: Option<Color>,
    /// Colour expression returning a colour name.
    #[serde(default)]
    pub color_when: Option<Expr>,
    /// Label on the bar (template; `y` is the bar's value).
    #[serde(default)]
    pub text: Option<Text>,
}

/// Marker shapes.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    #[default]
    Circle,
    Diamond,
    Star,
    Square,
    Triangle,
}

/// A marked point.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// Legend name.
    pub name: Text,
    /// X (expression).
    pub x: Expr,
    /// Y (expression).
    pub y: Expr,
    /// Shape.
    #[serde(default)]
    pub symbol: Symbol,
    /// Colour.
    #[serde(default)]
    pub color: Option<Color>,
    /// Text beside the marker (template; `\n` starts a new line).
    #[serde(default)]
    pub text: Option<Text>,
    /// Shown only while this condition is true.
    #[serde(default)]
    pub when: Option<Expr>,
}

/// A reference line with an annotation.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefLine {
    /// Position on its axis (expression).
    pub at: Expr,
    /// Annotation (template).
    #[serde(default)]
    pub label: Option<Text>,
    /// Colour.
    #[serde(default)]
    pub color: Option<Color>,
    /// Dashed (default true).
    #[serde(default = "yes")]
    pub dashed: bool,
    /// Shown only while this condition is true.
    #[serde(default)]
    pub when: Option<Expr>,
}

fn yes() -> bool {
    true
}
