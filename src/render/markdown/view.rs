//! The handout's view model: everything a handout template shows, evaluated and formatted.
//!
//! The student handout's model carries no answers at all (no correct flags, no feedback, no
//! test points), so no template — embedded or an instructor's override — can leak them.

use crate::eval::chart::ChartData;
use crate::eval::{
    format_output, level_words, value_to_dynamic, CompiledLab, CompiledPart, Evaluation,
};
use crate::formula::as_number;
use crate::ledger::part_letter;
use crate::library::format;
use crate::load::check::option_id;
use crate::model::*;
use crate::render::html::{control_text, slider_digits};
use indexmap::IndexMap;
use rhai::Dynamic;

mod types;
pub use types::*;

/// Builds the document; `chart_svg(chart, uid)` draws a chart.
pub fn build(
    lab: &CompiledLab,
    stem: &str,
    key: bool,
    chart_svg: &dyn Fn(&ChartData, &str) -> String,
) -> Result<Doc, String> {
    let l = &lab.lab;
    let lt = |t: &Text| {
        lab.render_text(None, None, &t.value, &[])
            .map(|s| s.trim().to_string())
            .map_err(|e| e.to_string())
    };
    let opt = |t: &Option<Text>| t.as_ref().map(lt).transpose();
    let label = match (l.volume, l.number) {
        (Some(v), Some(n)) => Some(format!("Volume {v} · Lab {n}")),
        (None, Some(n)) => Some(format!("Lab {n}")),
        (Some(v), None) => Some(format!("Volume {v}")),
        (None, None) => None,
    };
    let header = Header {
        id: l.id.value.clone(),
        version: l.version,
        title: lt(&l.title)?,
        topic: l.topic.clone(),
        label,
        subtitle: opt(&l.subtitle)?,
        badges: l
            .badges
            .iter()
            .map(|b| lt(&b.text))
            .collect::<Result<_, _>>()?,
        duration: l.duration.as_ref().map(|d| d.total.clone()),
        duration_breakdown: l.duration.as_ref().and_then(|d| d.breakdown.clone()),
        objectives: l
            .objectives
            .iter()
            .map(|o| {
                Ok(Lead {
                    title: lt(&o.title)?,
                    text: opt(&o.text)?,
                })
            })
            .collect::<Result<_, String>>()?,
        prerequisites: l.prerequisites.iter().map(lt).collect::<Result<_, _>>()?,
        core_question: opt(&l.core_question)?,
        reading: opt(&l.reading)?,
    };
    let n = lab.parts.len();
    let mut parts = Vec::new();
    for (i, cp) in lab.parts.iter().enumerate() {
        let mut pv = part_view(lab, cp, stem, key, chart_svg)
            .map_err(|e| format!("part `{}`: {e}", cp.id))?;
        pv.more = i + 1 < n;
        parts.push(pv);
    }
    let synthesis = match &l.synthesis {
        None => None,
        Some(s) => Some(SynthesisView {
            takeaways: s
                .takeaways
                .iter()
                .map(|o| {
                    Ok(Lead {
                        title: lt(&o.title)?,
                        text: opt(&o.text)?,
                    })
                })
                .collect::<Result<_, String>>()?,
            cards: s
                .cards
                .iter()
                .map(|c| {
                    Ok(CardView {
                        title: lt(&c.title)?,
                        body: lt(&c.body)?,
                    })
                })
                .collect::<Result<_, String>>()?,
            self_assessment: s.self_assessment.iter().map(lt).collect::<Result<_, _>>()?,
            self_assessment_note: opt(&s.self_assessment_note)?,
            decision_log: s
                .decision_log
                .as_ref()
                .map(|d| {
                    Ok::<_, String>(DecisionLogView {
                        prompt: lt(&d.prompt)?,
                        placeholder: d.placeholder.clone(),
                    })
                })
                .transpose()?,
        }),
    };
    let tests = if key { test_views(lab)? } else { Vec::new() };
    Ok(Doc {
        key,
        stem: stem.to_string(),
        header,
        parts,
        synthesis,
        tests,
    })
}

/// Decimals implied by a step, e.g. 0.01 -> 2.
fn step_digits(step: f64) -> u32 {
    let s = format!("{step}");
    s.split_once('.')
        .map(|(_, f)| f.len().min(6) as u32)
        .unwrap_or(0)
}

/// A number and its unit, as the page writes control values (`2.0 %`).
fn with_unit(num: String, unit: Option<&str>) -> String {
    match unit {
        None | Some("") => num,
        Some(u) => format!("{num} {u}"),
    }
}

/// A slider position as the page shows it (without the unit).
fn slider_num(s: &Slider, x: f64) -> String {
    control_text(slider_digits(s), &None, x)
}

fn value_words(v: &Value) -> String {
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

/// A relative path as a URL: every byte but unreserved characters and `/` percent-encoded, so
/// a Markdown link or `src` works whatever the lab file is called.
fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// How a control's value reads, on paper and in the terminal alike: a select by its option
/// label, a switch as on/off, checked options by label, a number as the page shows it.
pub fn setting_text(ctl: &Control, v: &Value) -> String {
    match (ctl, v) {
        (Control::Slider(s), Value::Number(x)) => with_unit(slider_num(s, *x), s.unit.as_deref()),
        (Control::Number(nb), Value::Number(x)) => with_unit(format::auto(*x), nb.unit.as_deref()),
        (Control::Select(s), v) => {
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

/// Control settings as `label = value`; `label` renders a control's label.
fn settings(
    part: &Part,
    set: &IndexMap<String, Spanned<Value>>,
    label: &dyn Fn(&Text) -> Result<String, String>,
) -> Result<Vec<Setting>, String> {
    set.iter()
        .map(|(k, v)| {
            let ctl = part.controls.iter().find(|c| &c.id().value == k);
            Ok(Setting {
                name: k.clone(),
                label: match ctl {
                    Some(c) => label(c.label())?,
                    None => k.clone(),
                },
                value: match ctl {
                    Some(c) => setting_text(c, &v.value),
                    None => value_words(&v.value),
                },
            })
        })
        .collect()
}

fn control_view(ctl: &Control, label: String) -> ControlView {
    let (range, default, unit, options) = match ctl {
        Control::Slider(s) => {
            let u = s.unit.as_deref();
            let range = if let Some(vals) = &s.values {
                let v: Vec<String> = vals.value.iter().map(|x| slider_num(s, *x)).collect();
                format!("one of {}", with_unit(v.join(", "), u))
            } else {
                let min = s.min.as_ref().map(|m| m.value).unwrap_or(0.0);
                let max = s.max.as_ref().map(|m| m.value).unwrap_or(min);
                let step = s.step.as_ref().map(|m| m.value).unwrap_or(1.0);
                match s.exponent_base {
                    Some(b) => format!(
                        "{} to {} in powers of {} ({}^{} to {}^{})",
                        slider_num(s, b.powf(min)),
                        with_unit(slider_num(s, b.powf(max)), u),
                        format::auto(b),
                        format::auto(b),
                        format::auto(min),
                        format::auto(b),
                        format::auto(max)
                    ),
                    None => format!(
                        "{} to {} in steps of {}",
                        slider_num(s, min),
                        with_unit(slider_num(s, max), u),
                        format::fixed(step, step_digits(step), true)
                    ),
                }
            };
            (
                range,
                with_unit(slider_num(s, s.default.value), u),
                s.unit.clone(),
                vec![],
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
            )
        }
        Control::Select(s) => {
            let opts: Vec<String> = s.options.value.keys().cloned().collect();
            (
                format!("one of: {}", opts.join("; ")),
                s.default.value.clone(),
                None,
                opts,
            )
        }
        Control::Switch(s) => (
            "on or off".to_string(),
            if s.default { "on" } else { "off" }.to_string(),
            None,
            vec![],
        ),
        Control::Checkboxes(cb) => {
            let opts: Vec<String> = cb.options.values().cloned().collect();
            let on: Vec<&str> = cb
                .options
                .iter()
                .filter(|(k, _)| cb.default.iter().any(|d| &d.value == *k))
                .map(|(_, l)| l.as_str())
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
            )
        }
    };
    ControlView {
        id: ctl.id().value.clone(),
        kind: ctl.kind(),
        label,
        range,
        default,
        unit,
        options,
    }
}

/// Alt text of a chart: its title, else what it plots (`Y vs X`), else its id.
fn chart_alt(c: &ChartData) -> String {
    if let Some(t) = &c.title {
        return t.clone();
    }
    let what = match c.kind {
        ChartKind::Radar => Some(c.axes.join(", ")).filter(|s| !s.is_empty()),
        _ => match (&c.y_label, &c.x_label) {
            (Some(y), Some(x)) => Some(format!("{y} vs {x}")),
            (Some(y), None) => Some(y.clone()),
            (None, Some(x)) => Some(x.clone()),
            (None, None) => None,
        },
    };
    let kind = match c.kind {
        ChartKind::Line => "Line chart",
        ChartKind::Scatter => "Scatter chart",
        ChartKind::Bar => "Bar chart",
        ChartKind::Radar => "Radar chart",
    };
    match what {
        Some(w) => format!("{kind}: {w}"),
        None => format!("{kind} {}", c.id),
    }
}

fn kind_label(kind: &str) -> &'static str {
    match kind {
        "success" => "Success",
        "info" => "Note",
        "warn" => "Warning",
        _ => "Danger",
    }
}

/// An output to list: its name, a label overriding the output's, a note.
type Pick = (String, Option<String>, Option<String>);

/// The outputs of `ev` named in `names` (all when `None`), as table rows.
fn rows(lab: &CompiledLab, ev: &Evaluation, names: Option<&[Pick]>) -> Result<Vec<Row>, String> {
    let model = &lab.lab.parts[ev.part];
    let views = lab.outputs(ev).map_err(|e| e.to_string())?;
    let all: Vec<Pick>;
    let names = match names {
        Some(n) => n,
        None => {
            all = views.iter().map(|v| (v.name.clone(), None, None)).collect();
            &all
        }
    };
    let mut out = Vec::new();
    for (name, label, note) in names {
        let Some(v) = views.iter().find(|v| &v.name == name) else {
            continue;
        };
        let o = model.outputs.get(name).cloned().unwrap_or_default();
        let raw = ev.values.get(name).cloned().unwrap_or(Dynamic::UNIT);
        let bare = Output {
            unit: None,
            ..o.clone()
        };
        out.push(Row {
            name: name.clone(),
            label: label.clone().unwrap_or_else(|| v.label.clone()),
            value: format_output(&bare, &raw),
            unit: if raw.is_bool() {
                String::new()
            } else {
                v.unit.clone()
            },
            level: v.level.clone(),
            note: note.clone(),
            expected: None,
        });
    }
    Ok(out)
}

/// A levelled output in prose (`{{ @name }}`): its text, then its level's words in brackets,
/// e.g. `22.7% (⚠ warning)` (print has no colour to rely on).
fn level_mark(text: &str, level: &str) -> String {
    format!("{text} ({})", level_words(level))
}

fn table(title: Option<String>, rows: Vec<Row>) -> InstrumentView {
    InstrumentView::Table(TableView {
        title,
        has_level: rows.iter().any(|r| r.level.is_some()),
        has_note: rows.iter().any(|r| r.note.is_some()),
        rows,
    })
}

fn choice_views(
    lab: &CompiledLab,
    part: &CompiledPart,
    ev: &Evaluation,
    options: &[Choice],
    other: Option<&Text>,
    key: bool,
) -> Result<Vec<OptionView>, String> {
    let t = |s: &str| {
        lab.render_marked(Some(part), Some(ev), s, &level_mark)
            .map(|s| s.trim().to_string())
            .map_err(|e| e.to_string())
    };
    options
        .iter()
        .enumerate()
        .map(|(i, c)| {
            Ok(OptionView {
                id: option_id(i, c),
                text: t(&c.text.value)?,
                correct: key.then_some(c.correct),
                feedback: if key {
                    c.feedback
                        .as_ref()
                        .or(other)
                        .map(|f| t(&f.value))
                        .transpose()?
                } else {
                    None
                },
            })
        })
        .collect()
}

fn part_view(
    lab: &CompiledLab,
    cp: &CompiledPart,
    stem: &str,
    key: bool,
    chart_svg: &dyn Fn(&ChartData, &str) -> String,
) -> Result<PartView, String> {
    let p = &lab.lab.parts[cp.index];
    let scen = lab
        .evaluate(cp, &lab.scenario(cp))
        .map_err(|e| e.to_string())?;
    let defaults = lab
        .inputs(cp, &IndexMap::new())
        .map_err(|e| e.to_string())?;
    let ev = lab.evaluate(cp, &defaults).map_err(|e| e.to_string())?;
    // Prose at the scenario, instruments at the defaults.
    let st = |s: &Text| {
        lab.render_marked(Some(cp), Some(&scen), &s.value, &level_mark)
            .map(|s| s.trim().to_string())
            .map_err(|e| e.to_string())
    };
    let dt = |s: &Text| {
        lab.render_marked(Some(cp), Some(&ev), &s.value, &level_mark)
            .map(|s| s.trim().to_string())
            .map_err(|e| e.to_string())
    };
    let prediction = match &p.prediction {
        None => None,
        Some(pr) => Some(PredictionView {
            question: st(&pr.question)?,
            scenario: settings(p, &pr.scenario, &st)?,
            options: choice_views(lab, cp, &scen, &pr.options, pr.other_feedback.as_ref(), key)?,
            numeric: match &pr.numeric {
                None => None,
                Some(nu) => Some(NumericView {
                    unit: nu.unit.clone(),
                    answer: if key {
                        let v = scen
                            .values
                            .get(&nu.output.value)
                            .cloned()
                            .unwrap_or(Dynamic::UNIT);
                        let o = p.outputs.get(&nu.output.value).cloned().unwrap_or_default();
                        Some(format_output(&o, &v))
                    } else {
                        None
                    },
                    tolerance_pct: key.then(|| format::auto(nu.tolerance * 100.0)),
                    correct_feedback: if key {
                        nu.correct_feedback.as_ref().map(st).transpose()?
                    } else {
                        None
                    },
                    other_feedback: if key {
                        nu.other_feedback.as_ref().map(st).transpose()?
                    } else {
                        None
                    },
                }),
            },
            other_feedback: if key {
                pr.other_feedback.as_ref().map(st).transpose()?
            } else {
                None
            },
        }),
    };
    let controls = p
        .controls
        .iter()
        .map(|c| Ok(control_view(c, st(c.label())?)))
        .collect::<Result<Vec<_>, String>>()?;
    let charts = lab.charts(&ev).map_err(|e| e.to_string())?;
    let mut charts = charts.into_iter();
    let mut instruments = Vec::new();
    let mut tabled = false;
    for inst in &p.instruments {
        match inst {
            Instrument::Metrics(cards) => {
                tabled = true;
                let names = cards
                    .iter()
                    .map(|c| {
                        Ok((
                            c.output.value.clone(),
                            c.label.as_ref().map(dt).transpose()?,
                            c.caption.as_ref().map(dt).transpose()?,
                        ))
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                instruments.push(table(None, rows(lab, &ev, Some(&names))?));
            }
            Instrument::Table(t) => {
                tabled = true;
                let names: Vec<_> = t
                    .outputs
                    .iter()
                    .map(|o| (o.value.clone(), None, None))
                    .collect();
                instruments.push(table(
                    t.title.as_ref().map(dt).transpose()?,
                    rows(lab, &ev, Some(&names))?,
                ));
            }
            Instrument::Panel(pa) => instruments.push(InstrumentView::Panel(PanelView {
                title: dt(&pa.title)?,
                lines: pa.lines.iter().map(dt).collect::<Result<_, _>>()?,
            })),
            Instrument::Chart(_) => {
                let Some(c) = charts.next() else { continue };
                let file = crate::render::file_name(&format!("{}-{}.svg", p.id.value, c.id));
                let path = format!(
                    "{}/{file}",
                    crate::render::file_name(&format!("{stem}-charts"))
                );
                instruments.push(InstrumentView::Chart(ChartView {
                    id: c.id.clone(),
                    alt: chart_alt(&c),
                    title: c.title.clone(),
                    path: url_path(&path),
                    svg: chart_svg(&c, &format!("{}-{}", p.id.value, c.id)),
                    file: path,
                }));
            }
        }
    }
    if !tabled && !p.outputs.is_empty() {
        instruments.insert(0, table(None, rows(lab, &ev, None)?));
    }
    let callouts = lab
        .callouts(&ev)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|c| CalloutView {
            kind: c.kind,
            kind_label: kind_label(c.kind),
            title: c.title.map(|t| t.trim().to_string()),
            text: c.text.trim().to_string(),
        })
        .collect();
    let reflection = match &p.reflection {
        None => None,
        Some(r) => Some(QuestionView {
            question: st(&r.question)?,
            options: choice_views(lab, cp, &scen, &r.options, r.other_feedback.as_ref(), key)?,
            other_feedback: if key {
                r.other_feedback.as_ref().map(st).transpose()?
            } else {
                None
            },
        }),
    };
    Ok(PartView {
        id: p.id.value.clone(),
        letter: part_letter(&cp.id),
        number: cp.index + 1,
        title: st(&p.title)?,
        duration: p.duration.clone(),
        stakeholder: p
            .stakeholder
            .as_ref()
            .map(|s| {
                Ok::<_, String>(StakeholderView {
                    role: st(&s.role)?,
                    message: st(&s.message)?,
                })
            })
            .transpose()?,
        concept: p.concept.as_ref().map(st).transpose()?,
        prediction,
        explore_title: p.explore_title.as_ref().map(st).transpose()?,
        controls,
        instruments,
        callouts,
        math_peek: p
            .math_peek
            .as_ref()
            .map(|m| {
                Ok::<_, String>(MathPeekView {
                    title: st(&m.title)?,
                    body: st(&m.body)?,
                })
            })
            .transpose()?,
        reflection,
        more: false,
    })
}

fn test_views(lab: &CompiledLab) -> Result<Vec<TestView>, String> {
    let mut out = Vec::new();
    for (i, t) in lab.lab.tests.iter().enumerate() {
        let name = t
            .name
            .clone()
            .unwrap_or_else(|| format!("Test {} (part {})", i + 1, t.part.value));
        let cp = lab
            .part(&t.part.value)
            .ok_or_else(|| format!("test `{name}`: no part `{}`", t.part.value))?;
        let p = &lab.lab.parts[cp.index];
        let set: IndexMap<String, Dynamic> = t
            .set
            .iter()
            .map(|(k, v)| (k.clone(), value_to_dynamic(&v.value)))
            .collect();
        let inputs = lab
            .inputs(cp, &set)
            .map_err(|e| format!("test `{name}`: {e}"))?;
        let ev = lab
            .evaluate(cp, &inputs)
            .map_err(|e| format!("test `{name}`: {e}"))?;
        let mut rows = rows(lab, &ev, None)?;
        let expected = |v: &Value, o: Option<&Output>| match (v, o) {
            (Value::Number(_) | Value::Bool(_), Some(o)) => {
                let bare = Output {
                    unit: None,
                    ..o.clone()
                };
                format_output(&bare, &value_to_dynamic(v))
            }
            (Value::Bool(b), None) => b.to_string(),
            (v, _) => value_words(v),
        };
        for r in rows.iter_mut() {
            if let Some(w) = t.expect.get(&r.name) {
                r.expected = Some(expected(&w.value, p.outputs.get(&r.name)));
            }
        }
        // Expected values of formulas that are not outputs.
        for (k, w) in &t.expect {
            if rows.iter().any(|r| &r.name == k) {
                continue;
            }
            let got = ev.values.get(k).cloned().unwrap_or(Dynamic::UNIT);
            rows.push(Row {
                name: k.clone(),
                label: format!("`{k}`"),
                value: match as_number(&got) {
                    Some(x) => format::auto(x),
                    None => got.to_string(),
                },
                unit: String::new(),
                level: None,
                note: None,
                expected: Some(expected(&w.value, None)),
            });
        }
        out.push(TestView {
            name,
            part: cp.id.clone(),
            part_letter: part_letter(&cp.id),
            part_title: lab
                .render_text(None, None, &p.title.value, &[])
                .unwrap_or_else(|_| p.title.value.clone()),
            set: settings(p, &t.set, &|l: &Text| {
                lab.render_text(Some(cp), Some(&ev), &l.value, &[])
                    .map(|s| s.trim().to_string())
                    .map_err(|e| e.to_string())
            })?,
            has_expected: rows.iter().any(|r| r.expected.is_some()),
            rows,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_digits_and_units() {
        assert_eq!(step_digits(0.01), 2);
        assert_eq!(step_digits(1.0), 0);
        assert_eq!(step_digits(0.5), 1);
        assert_eq!(with_unit("3".into(), Some("%")), "3 %");
        assert_eq!(with_unit("3".into(), Some("GB/s")), "3 GB/s");
    }
}
