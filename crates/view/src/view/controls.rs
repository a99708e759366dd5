//! Controls in the view: what each can take, its value as shown, and what an input needs.

use super::format::*;
use super::{ChoiceView, ControlView, InputView, Prose};
use crate::diag::Diagnostic;
use crate::eval::value_to_dynamic;
use crate::formula::{as_number, to_json};
use crate::library::format;
use crate::model::*;
use rhai::Dynamic;

type R<T> = Result<T, Diagnostic>;

/// A control's value as a lab value (for [`setting_text`]).
fn as_value(v: &Dynamic) -> Option<Value> {
    serde_json::from_value::<Value>(to_json(v)).ok()
}

/// A control's value as it reads (`0.85`, `on`, an option's label), with its unit.
pub fn control_value_text(ctl: &Control, v: &Dynamic) -> String {
    match as_value(v) {
        Some(val) => setting_text(ctl, &val),
        None => crate::eval::display(v),
    }
}

pub(super) fn control_view(ctl: &Control, label: Prose, cur: &Dynamic) -> R<ControlView> {
    let (range, default, unit, options, input) = match ctl {
        Control::Slider(s) => {
            let u = s.unit.as_deref();
            let v = as_number(cur).unwrap_or(0.0);
            let digits = slider_digits(s);
            let min = s.min.as_ref().map(|m| m.value);
            let max = s.max.as_ref().map(|m| m.value);
            let step = s.step.as_ref().map(|m| m.value).unwrap_or(1.0);
            let range = if let Some(vals) = &s.values {
                let v: Vec<String> = vals.value.iter().map(|x| slider_num(s, *x)).collect();
                format!("one of {}", with_unit(v.join(", "), u))
            } else {
                let lo = min.unwrap_or(0.0);
                let hi = max.unwrap_or(lo);
                match s.exponent_base {
                    Some(b) => format!(
                        "{} to {} in powers of {} ({}^{} to {}^{})",
                        slider_num(s, b.powf(lo)),
                        with_unit(slider_num(s, b.powf(hi)), u),
                        format::auto(b),
                        format::auto(b),
                        format::auto(lo),
                        format::auto(b),
                        format::auto(hi)
                    ),
                    None => format!(
                        "{} to {} in steps of {}",
                        slider_num(s, lo),
                        with_unit(slider_num(s, hi), u),
                        format::fixed(step, step_digits(step), true)
                    ),
                }
            };
            let input = if let Some(vals) = &s.values {
                let i = vals
                    .value
                    .iter()
                    .position(|x| (x - v).abs() <= 1e-12 * x.abs().max(1.0))
                    .unwrap_or(0);
                InputView::Range {
                    min: 0.0,
                    max: (vals.value.len().max(1) - 1) as f64,
                    step: 1.0,
                    pos: i as f64,
                    values: Some(vals.value.clone()),
                    base: None,
                    digits,
                    text: control_text(digits, &s.unit, v),
                }
            } else {
                InputView::Range {
                    min: min.unwrap_or(0.0),
                    max: max.unwrap_or(100.0),
                    step,
                    pos: match s.exponent_base {
                        Some(b) => v.log(b),
                        None => v,
                    },
                    values: None,
                    base: s.exponent_base,
                    digits,
                    text: control_text(digits, &s.unit, v),
                }
            };
            (
                range,
                with_unit(slider_num(s, s.default.value), u),
                s.unit.clone(),
                vec![],
                input,
            )
        }
        Control::Number(nb) => {
            let u = nb.unit.as_deref();
            let range = match (nb.min, nb.max) {
                (Some(a), Some(b)) => format!(
                    "any number from {} to {}",
                    format::auto(a),
                    with_unit(format::auto(b), u)
                ),
                (Some(a), None) => format!("any number from {}", with_unit(format::auto(a), u)),
                (None, Some(b)) => format!("any number up to {}", with_unit(format::auto(b), u)),
                (None, None) => "any number".to_string(),
            };
            (
                range,
                with_unit(format::auto(nb.default.value), u),
                nb.unit.clone(),
                vec![],
                InputView::Number {
                    min: nb.min,
                    max: nb.max,
                    step: nb.step,
                    value: as_number(cur).unwrap_or(0.0),
                },
            )
        }
        Control::Select(s) | Control::Radio(s) => {
            let opts: Vec<String> = s.options.value.keys().cloned().collect();
            let now = as_value(cur);
            let default_value = s.options.value.get(&s.default.value);
            let current = match (&now, default_value) {
                (Some(n), Some(d)) if n == d => s.default.value.clone(),
                (Some(n), _) => setting_text(ctl, n),
                _ => s.default.value.clone(),
            };
            let choices = s
                .options
                .value
                .iter()
                .map(|(lbl, v)| ChoiceView {
                    key: match v {
                        Value::List(_) | Value::Record(_) => lbl.clone(),
                        other => value_text(other),
                    },
                    label: lbl.clone(),
                    value: to_json(&value_to_dynamic(v)),
                    on: lbl == &current,
                })
                .collect();
            (
                format!("one of: {}", opts.join("; ")),
                s.default.value.clone(),
                None,
                opts,
                if matches!(ctl, Control::Radio(_)) {
                    InputView::Radio { choices }
                } else {
                    InputView::Select { choices }
                },
            )
        }
        Control::Switch(s) => (
            "on or off".to_string(),
            if s.default { "on" } else { "off" }.to_string(),
            None,
            vec![],
            InputView::Switch {
                on: cur.as_bool().unwrap_or(s.default),
            },
        ),
        Control::Checkboxes(cb) => {
            let opts: Vec<String> = cb.options.values().cloned().collect();
            let on: Vec<&str> = cb
                .options
                .iter()
                .filter(|(k, _)| cb.default.iter().any(|d| &d.value == *k))
                .map(|(_, l)| l.as_str())
                .collect();
            let map = cur.read_lock::<rhai::Map>().map(|m| m.clone());
            let choices = cb
                .options
                .iter()
                .map(|(k, l)| ChoiceView {
                    key: k.clone(),
                    label: l.clone(),
                    value: serde_json::Value::from(k.clone()),
                    on: match &map {
                        Some(m) => m
                            .get(k.as_str())
                            .and_then(|x| x.as_bool().ok())
                            .unwrap_or(false),
                        None => cb.default.iter().any(|d| &d.value == k),
                    },
                })
                .collect();
            (
                format!("any of: {}", opts.join("; ")),
                if on.is_empty() {
                    "none checked".to_string()
                } else {
                    on.join(", ")
                },
                None,
                opts,
                InputView::Checkboxes { choices },
            )
        }
    };
    Ok(ControlView {
        id: ctl.id().value.clone(),
        kind: ctl.kind(),
        label,
        range,
        default,
        value: control_value_text(ctl, cur),
        unit,
        options,
        input,
    })
}
