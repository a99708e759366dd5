//! How values read, shared by every front end: control values, slider decimals, settings,
//! level words, part labels and numbers as JavaScript prints them.

use crate::eval::value_to_dynamic;
use crate::library::format;
use crate::model::*;

/// `String(x)` in JavaScript for a finite or non-finite f64.
pub fn js_number_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-7..1e21).contains(&a) {
        return format!("{x}");
    }
    let s = format!("{x:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

/// Decimals a slider shows: its `digits`, else those of its step (none for lists and powers).
pub fn slider_digits(s: &Slider) -> Option<u32> {
    if s.digits.is_some() || s.exponent_base.is_some() || s.values.is_some() {
        return s.digits.as_ref().map(|d| d.value);
    }
    let step = s.step.as_ref().map(|x| x.value).unwrap_or(1.0);
    let txt = js_number_string(step);
    Some(
        txt.split_once('.')
            .map(|(_, f)| f.len() as u32)
            .unwrap_or(0),
    )
}

/// A slider or number control's value as the page shows it (the JS `controlText`): fixed
/// `digits` (else `format::auto`), then the unit after a space.
pub fn control_text(digits: Option<u32>, unit: &Option<String>, v: f64) -> String {
    let n = match digits {
        Some(d) => format::fixed(v, d, true),
        None => format::auto(v),
    };
    match unit {
        Some(u) => format!("{n}{}{u}", format::unit_sep(u, false)),
        _ => n,
    }
}

/// Decimals implied by a step, e.g. 0.01 -> 2.
pub fn step_digits(step: f64) -> u32 {
    let s = format!("{step}");
    s.split_once('.')
        .map(|(_, f)| f.len().min(6) as u32)
        .unwrap_or(0)
}

/// A number and its unit, as the page writes control values (`2.0 %`).
pub fn with_unit(num: String, unit: Option<&str>) -> String {
    match unit {
        None | Some("") => num,
        Some(u) => format!("{num}{}{u}", format::unit_sep(u, false)),
    }
}

/// A slider position as the page shows it (without the unit).
pub fn slider_num(s: &Slider, x: f64) -> String {
    control_text(slider_digits(s), &None, x)
}

/// A value in words: numbers as `format::auto`, booleans as on/off.
pub fn value_words(v: &Value) -> String {
    match v {
        Value::Number(x) => format::auto(*x),
        Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
        Value::Text(s) => s.clone(),
        other => crate::formula::to_json(&value_to_dynamic(other)).to_string(),
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y,
        _ => a == b,
    }
}

/// How a control's value reads, on paper and in the terminal alike: a select by its option
/// label, a switch as on/off, checked options by label, a number as the page shows it.
pub fn setting_text(ctl: &Control, v: &Value) -> String {
    match (ctl, v) {
        (Control::Slider(s), Value::Number(x)) => with_unit(slider_num(s, *x), s.unit.as_deref()),
        (Control::Number(nb), Value::Number(x)) => with_unit(format::auto(*x), nb.unit.as_deref()),
        (Control::Select(s) | Control::Radio(s), v) => {
            if let Value::Text(t) = v {
                if s.options.value.contains_key(t) {
                    return t.clone();
                }
            }
            s.options
                .value
                .iter()
                .find(|(_, ov)| same_value(ov, v))
                .map(|(k, _)| k.clone())
                .unwrap_or_else(|| value_words(v))
        }
        (Control::Checkboxes(cb), Value::Record(m)) => {
            let on: Vec<&str> = cb
                .options
                .iter()
                .filter(|(k, _)| matches!(m.get(*k), Some(Value::Bool(true))))
                .map(|(_, l)| l.as_str())
                .collect();
            if on.is_empty() {
                "none".into()
            } else {
                on.join(", ")
            }
        }
        (_, v) => value_words(v),
    }
}

/// A select option's value as a form field holds it.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => js_number_string(*n),
        Value::Bool(b) => b.to_string(),
        Value::Text(s) => s.clone(),
        _ => String::new(),
    }
}

/// The words beside a coloured value in an instrument (`✓ good`, `⚠ warning`, `✗ bad`), empty
/// without a level.
pub fn level_word(l: Option<&str>) -> &'static str {
    match l {
        Some("good") => "✓ good",
        Some("warn") => "⚠ warning",
        Some("bad") => "✗ bad",
        _ => "",
    }
}

/// A banner kind in words: `Success`, `Note`, `Warning`, `Danger`.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "success" => "Success",
        "info" => "Note",
        "warn" => "Warning",
        _ => "Danger",
    }
}

/// A banner kind's icon.
pub fn kind_icon(kind: &str) -> &'static str {
    match kind {
        "success" => "✓",
        "info" => "ℹ",
        "warn" => "⚠",
        _ => "✗",
    }
}

/// A badge kind's name.
pub fn badge_kind(k: BadgeKind) -> &'static str {
    match k {
        BadgeKind::Info => "info",
        BadgeKind::Success => "success",
        BadgeKind::Warn => "warn",
        BadgeKind::Danger => "danger",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_javascript() {
        assert_eq!(js_number_string(3.0), "3");
        assert_eq!(js_number_string(0.1), "0.1");
        assert_eq!(js_number_string(600.0000000000001), "600.0000000000001");
        assert_eq!(js_number_string(1.5e-8), "1.5e-8");
        assert_eq!(js_number_string(1e21), "1e+21");
        assert_eq!(js_number_string(-0.0), "0");
    }

    #[test]
    fn step_digits_and_units() {
        assert_eq!(step_digits(0.01), 2);
        assert_eq!(step_digits(1.0), 0);
        assert_eq!(step_digits(0.5), 1);
        assert_eq!(with_unit("3".into(), Some("%")), "3%");
        assert_eq!(with_unit("3".into(), Some("GB/s")), "3 GB/s");
    }
}
