//! Controls: what the student moves (sliders, dropdowns, switches, number inputs, checkbox
//! groups).

use super::track::{num, schema_as_written};
use super::*;

/// A control. Write it externally tagged: `- slider: { id: ..., ... }`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Control {
    /// A range slider; or over a list of `values`; or over exponents with `exponent_base`.
    Slider(Slider),
    /// A dropdown: label -> value (a number, boolean, string or a record of several variables).
    Select(Select),
    /// The same as a select, shown as radio buttons (every option in view): for a few options.
    Radio(Select),
    /// An on/off switch (boolean).
    Switch(Switch),
    /// A number input box.
    Number(NumberInput),
    /// A group of checkboxes; the variable is a record `{option_id: bool}`.
    Checkboxes(Checkboxes),
}

impl Control {
    pub fn id(&self) -> &Spanned<String> {
        match self {
            Control::Slider(c) => &c.id,
            Control::Select(c) | Control::Radio(c) => &c.id,
            Control::Switch(c) => &c.id,
            Control::Number(c) => &c.id,
            Control::Checkboxes(c) => &c.id,
        }
    }
    pub fn label(&self) -> &Text {
        match self {
            Control::Slider(c) => &c.label,
            Control::Select(c) | Control::Radio(c) => &c.label,
            Control::Switch(c) => &c.label,
            Control::Number(c) => &c.label,
            Control::Checkboxes(c) => &c.label,
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Control::Slider(_) => "slider",
            Control::Select(_) => "select",
            Control::Radio(_) => "radio",
            Control::Switch(_) => "switch",
            Control::Number(_) => "number",
            Control::Checkboxes(_) => "checkboxes",
        }
    }
}

/// A slider. `default`, `min`, `max` and `step` may be Rhai expressions computed per track
/// (see [`super::track`]); until then they hold NaN and wait in `tracked`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(from = "RawSlider")]
pub struct Slider {
    pub id: Spanned<String>,
    pub label: Text,
    pub min: Option<Spanned<f64>>,
    pub max: Option<Spanned<f64>>,
    pub step: Option<Spanned<f64>>,
    pub values: Option<Spanned<Vec<f64>>>,
    pub exponent_base: Option<f64>,
    pub default: Spanned<f64>,
    pub unit: Option<String>,
    pub digits: Option<Spanned<u32>>,
    #[serde(skip)]
    pub tracked: Tracked,
}

/// A slider as written.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSlider {
    /// Variable name in formulas.
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Lowest position (a number, or an expression such as `variant.min_batch`).
    #[serde(default)]
    pub min: Option<Spanned<NumOrExpr>>,
    /// Highest position (a number or an expression).
    #[serde(default)]
    pub max: Option<Spanned<NumOrExpr>>,
    /// Step between positions (default 1; a number or an expression).
    #[serde(default)]
    pub step: Option<Spanned<NumOrExpr>>,
    /// Slide over this list of values instead of min/max/step.
    #[serde(default)]
    pub values: Option<Spanned<Vec<f64>>>,
    /// When set, the slider moves the exponent and the variable is `exponent_base ^ position`.
    #[serde(default)]
    pub exponent_base: Option<f64>,
    /// Initial value (of the variable, not the exponent); a number or an expression such as
    /// `variant.start_batch`.
    pub default: Spanned<NumOrExpr>,
    /// Unit shown next to the value.
    #[serde(default)]
    pub unit: Option<String>,
    /// Decimals shown for the value (default: from the step), 0 to 20.
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub digits: Option<Spanned<u32>>,
}

impl From<RawSlider> for Slider {
    fn from(r: RawSlider) -> Slider {
        let mut tracked = Tracked::new();
        let default = num(r.default, "default", &mut tracked);
        let min = r.min.map(|v| num(v, "min", &mut tracked));
        let max = r.max.map(|v| num(v, "max", &mut tracked));
        let step = r.step.map(|v| num(v, "step", &mut tracked));
        Slider {
            id: r.id,
            label: r.label,
            min,
            max,
            step,
            values: r.values,
            exponent_base: r.exponent_base,
            default,
            unit: r.unit,
            digits: r.digits,
            tracked,
        }
    }
}

schema_as_written!(Slider, RawSlider);

/// A dropdown.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Select {
    /// Variable name in formulas.
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Option label -> value, in display order.
    pub options: Spanned<IndexMap<String, Value>>,
    /// The label of the initially selected option.
    pub default: Spanned<String>,
}

/// An on/off switch.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    /// Variable name in formulas (a boolean).
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Initial state.
    #[serde(default)]
    pub default: bool,
}

/// A number input. `default`, `min`, `max` and `step` may be expressions computed per track.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(from = "RawNumberInput")]
pub struct NumberInput {
    pub id: Spanned<String>,
    pub label: Text,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub step: Option<f64>,
    pub default: Spanned<f64>,
    pub unit: Option<String>,
    #[serde(skip)]
    pub tracked: Tracked,
}

/// A number input as written.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNumberInput {
    /// Variable name in formulas.
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Smallest accepted value (a number or an expression).
    #[serde(default)]
    pub min: Option<Spanned<NumOrExpr>>,
    /// Largest accepted value (a number or an expression).
    #[serde(default)]
    pub max: Option<Spanned<NumOrExpr>>,
    /// Granularity (optional; a number or an expression).
    #[serde(default)]
    pub step: Option<Spanned<NumOrExpr>>,
    /// Initial value (a number or an expression such as `variant.budget_ms`).
    pub default: Spanned<NumOrExpr>,
    /// Unit shown next to the box.
    #[serde(default)]
    pub unit: Option<String>,
}

impl From<RawNumberInput> for NumberInput {
    fn from(r: RawNumberInput) -> NumberInput {
        let mut tracked = Tracked::new();
        let default = num(r.default, "default", &mut tracked);
        let min = r.min.map(|v| num(v, "min", &mut tracked).value);
        let max = r.max.map(|v| num(v, "max", &mut tracked).value);
        let step = r.step.map(|v| num(v, "step", &mut tracked).value);
        NumberInput {
            id: r.id,
            label: r.label,
            min,
            max,
            step,
            default,
            unit: r.unit,
            tracked,
        }
    }
}

schema_as_written!(NumberInput, RawNumberInput);

/// A checkbox group.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkboxes {
    /// Variable name in formulas (a record of booleans).
    pub id: Spanned<String>,
    /// Visible label of the group.
    pub label: Text,
    /// Option id -> label, in the order they apply.
    pub options: IndexMap<String, String>,
    /// Option ids checked initially.
    #[serde(default)]
    pub default: Vec<Spanned<String>>,
}
