//! Controls in the terminal: how a value reads (as on the page) and asking for a new one.

use super::md;
use super::term::Screen;
use super::ui::{Item, Prompter, Res, Stop};
use crate::eval;
use crate::formula::as_number;
use crate::ledger::numeric_answer;
use crate::library::format;
use crate::model::*;
use crate::view::format::{control_text, slider_digits};
use rhai::Dynamic;

fn parse_number(s: &str) -> Option<f64> {
    numeric_answer(s).and_then(|t| t.parse().ok())
}

/// A typed control value. A percentage (`60%`) is accepted where the value reads as one: as
/// is for a control whose unit is `%`, as a fraction (0.6) for one that moves within 0 to 1
/// (a utilization, a hit rate: outputs show those as percentages).
fn parse_control_number(ctl: &Control, typed: &str) -> Result<f64, String> {
    let t = typed.trim();
    let Some(pct) = t.strip_suffix('%') else {
        return parse_number(t).ok_or_else(|| format!("type a number, not `{t}`"));
    };
    let x = parse_number(pct).ok_or_else(|| format!("type a number, not `{t}`"))?;
    let (unit, lo, hi) = match ctl {
        Control::Slider(s) if s.exponent_base.is_none() => (
            s.unit.as_deref(),
            s.min.as_ref().map(|m| m.value),
            s.max.as_ref().map(|m| m.value),
        ),
        Control::Slider(s) => (s.unit.as_deref(), None, None),
        Control::Number(n) => (n.unit.as_deref(), n.min, n.max),
        _ => (None, None, None),
    };
    match (unit, lo, hi) {
        (Some("%"), _, _) => Ok(x),
        (_, Some(lo), Some(hi)) if lo >= 0.0 && hi <= 1.0 => Ok(x / 100.0),
        _ => Err(format!(
            "{} is not a percentage: type a number, not `{t}`",
            ctl.label().value
        )),
    }
}

/// A control's error in the student's words: its label, not its id.
fn labelled(ctl: &Control, e: String) -> String {
    e.replacen(&format!("`{}`", ctl.id().value), &ctl.label().value, 1)
}

/// A control's value as shown ([`crate::view::control_value_text`], as on paper).
pub fn control_display(ctl: &Control, v: &Dynamic) -> String {
    crate::view::control_value_text(ctl, v)
}

/// A number control's value as the page shows it.
fn number_with_unit(v: &Dynamic, digits: Option<u32>, unit: &Option<String>) -> String {
    match as_number(v) {
        Some(x) => control_text(digits, unit, x),
        None => v.to_string(),
    }
}

/// Asks for a new value of a control (validated with `eval::validate_control`).
pub(super) fn ask_control(
    p: &mut dyn Prompter,
    scr: &Screen,
    ctl: &Control,
    cur: &Dynamic,
) -> Res<Dynamic> {
    let label = md::inline(&ctl.label().value, scr);
    match ctl {
        Control::Select(s) | Control::Radio(s) => {
            let labels: Vec<&String> = s.options.value.keys().collect();
            let now = control_display(ctl, cur);
            // Options that are values (`7B`, `70B`): typed digits name one, not a position.
            let values = labels
                .iter()
                .all(|l| l.starts_with(|c: char| c.is_ascii_digit()));
            let items: Vec<Item> = labels
                .iter()
                .enumerate()
                .map(|(k, l)| Item {
                    key: if values {
                        String::new()
                    } else {
                        (k + 1).to_string()
                    },
                    text: (*l).clone(),
                })
                .collect();
            let def = labels.iter().position(|l| **l == now).unwrap_or(0);
            let k = if values {
                p.value(scr, &label, &items, def)?
            } else {
                p.select(scr, &label, &items, def)?
            };
            let v = &s.options.value[labels[k].as_str()];
            Ok(eval::value_to_dynamic(v))
        }
        Control::Switch(_) => {
            let items = vec![
                Item {
                    key: "1".into(),
                    text: "on".into(),
                },
                Item {
                    key: "2".into(),
                    text: "off".into(),
                },
            ];
            let def = if cur.as_bool().unwrap_or(false) { 0 } else { 1 };
            Ok(Dynamic::from_bool(p.select(scr, &label, &items, def)? == 0))
        }
        Control::Checkboxes(c) => {
            let items: Vec<Item> = c
                .options
                .values()
                .enumerate()
                .map(|(k, l)| Item {
                    key: (k + 1).to_string(),
                    text: l.clone(),
                })
                .collect();
            let on: Vec<bool> = match cur.read_lock::<rhai::Map>() {
                Some(m) => c
                    .options
                    .keys()
                    .map(|k| {
                        m.get(k.as_str())
                            .and_then(|x| x.as_bool().ok())
                            .unwrap_or(false)
                    })
                    .collect(),
                None => vec![false; items.len()],
            };
            let picked = p.multi(scr, &label, &items, &on)?;
            let m: rhai::Map = c
                .options
                .keys()
                .zip(picked)
                .map(|(k, b)| (k.as_str().into(), Dynamic::from_bool(b)))
                .collect();
            eval::validate_control(ctl, &Dynamic::from_map(m)).map_err(Stop::bad)
        }
        Control::Slider(s) if s.values.is_some() => {
            let vals = &s.values.as_ref().expect("values").value;
            let items: Vec<Item> = vals
                .iter()
                .map(|v| Item {
                    key: String::new(),
                    text: number_with_unit(&Dynamic::from_float(*v), slider_digits(s), &s.unit),
                })
                .collect();
            let now = as_number(cur).unwrap_or(f64::NAN);
            let def = vals.iter().position(|v| *v == now).unwrap_or(0);
            let k = p.value(scr, &label, &items, def)?;
            Ok(Dynamic::from_float(vals[k]))
        }
        Control::Slider(_) | Control::Number(_) => {
            let hint = range_hint(ctl);
            let prompt = format!(
                "{label}{hint} — now {}, Enter keeps it:",
                control_display(ctl, cur)
            );
            let mut got: Option<Dynamic> = None;
            p.input(scr, &prompt, &mut |s: &str| {
                if s.trim().is_empty() {
                    got = Some(cur.clone());
                    return Ok(());
                }
                let x = parse_control_number(ctl, s)?;
                let v = eval::validate_control(ctl, &Dynamic::from_float(x))
                    .map_err(|e| labelled(ctl, e))?;
                got = Some(v);
                Ok(())
            })?;
            Ok(got.unwrap_or_else(|| cur.clone()))
        }
    }
}

fn range_hint(ctl: &Control) -> String {
    match ctl {
        Control::Slider(s) => {
            let (Some(lo), Some(hi)) = (&s.min, &s.max) else {
                return String::new();
            };
            let (lo, hi) = match s.exponent_base {
                Some(b) => (b.powf(lo.value), b.powf(hi.value)),
                None => (lo.value, hi.value),
            };
            let num = |x: f64| control_text(slider_digits(s), &None, x);
            let step = match (&s.step, s.exponent_base) {
                (Some(st), None) => format!(", step {}", num(st.value)),
                (Some(st), Some(b)) => format!(", ×{} per step", format::auto(b.powf(st.value))),
                // The page moves by 1 (in the exponent) when no step is given.
                (None, Some(b)) => format!(", ×{} per step", format::auto(b)),
                (None, None) => format!(", step {}", num(1.0)),
            };
            let (lo, hi) = match s.exponent_base {
                Some(_) => (format::auto(lo), format::auto(hi)),
                None => (num(lo), num(hi)),
            };
            format!(" [{lo} to {hi}{step}]")
        }
        Control::Number(n) => match (n.min, n.max) {
            (Some(a), Some(b)) => format!(" [{} to {}]", format::auto(a), format::auto(b)),
            (Some(a), None) => format!(" [at least {}]", format::auto(a)),
            (None, Some(b)) => format!(" [at most {}]", format::auto(b)),
            _ => String::new(),
        },
        _ => String::new(),
    }
}
