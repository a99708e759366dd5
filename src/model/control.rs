//! Controls: what the student moves (sliders, dropdowns, switches, number inputs, checkbox
//! groups).

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

/// A slider.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Slider {
    /// Variable name in formulas.
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Lowest position.
    #[serde(default)]
    pub min: Option<Spanned<f64>>,
    /// Highest position.
    #[serde(default)]
    pub max: Option<Spanned<f64>>,
    /// Step between positions (default 1).
    #[serde(default)]
    pub step: Option<Spanned<f64>>,
    /// Slide over this list of values instead of min/max/step.
    #[serde(default)]
    pub values: Option<Spanned<Vec<f64>>>,
    /// When set, the slider moves the exponent and the variable is `exponent_base ^ position`.
    #[serde(default)]
    pub exponent_base: Option<f64>,
    /// Initial value (of the variable, not the exponent).
    pub default: Spanned<f64>,
    /// Unit shown next to the value.
    #[serde(default)]
    pub unit: Option<String>,
    /// Decimals shown for the value (default: from the step), 0 to 20.
    #[serde(default)]
    #[schemars(range(max = 20))]
    pub digits: Option<Spanned<u32>>,
}

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

/// A number input.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NumberInput {
    /// Variable name in formulas.
    pub id: Spanned<String>,
    /// Visible label.
    pub label: Text,
    /// Smallest accepted value.
    #[serde(default)]
    pub min: Option<f64>,
    /// Largest accepted value.
    #[serde(default)]
    pub max: Option<f64>,
    /// Granularity (optional).
    #[serde(default)]
    pub step: Option<f64>,
    /// Initial value.
    pub default: Spanned<f64>,
    /// Unit shown next to the box.
    #[serde(default)]
    pub unit: Option<String>,
}

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
