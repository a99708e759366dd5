//! Building the view from a compiled lab.

use super::controls::control_view;
use super::format::*;
use super::*;
use crate::diag::Diagnostic;
use crate::eval::chart::color_name;
use crate::eval::{format_output, CompiledLab, CompiledPart, Evaluation};
use crate::formula::as_number;
use crate::library::format;
use crate::load::check::option_id;
use crate::model::part_letter;
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;

type R<T> = Result<T, Diagnostic>;

/// Template text as [`Prose`], evaluated in `part` at `ev`.
pub(super) fn prose(
    lab: &CompiledLab,
    part: Option<&CompiledPart>,
    ev: Option<&Evaluation>,
    t: &Text,
) -> R<Prose> {
    lab.render_spans(part, ev, &t.value, &[])
        .map(Prose)
        .map_err(|e| e.0)
}

/// Lab-level prose as [`Lead`]s (objectives, takeaways).
fn leads(lab: &CompiledLab, items: &[Objective]) -> R<Vec<Lead>> {
    items
        .iter()
        .map(|o| {
            Ok(Lead {
                title: prose(lab, None, None, &o.title)?,
                text: o
                    .text
                    .as_ref()
                    .map(|t| prose(lab, None, None, t))
                    .transpose()?,
            })
        })
        .collect()
}

pub fn track_view(t: &crate::model::track::Track) -> super::TrackView {
    super::TrackView {
        id: t.id.clone(),
        label: t.label.clone(),
        icon: t.icon.clone(),
        summary: t.summary.clone(),
    }
}

/// The lab's header: title, badges, objectives, prerequisites, duration, core question.
pub fn header(lab: &CompiledLab) -> R<Header> {
    let l = &lab.lab;
    let lt = |t: &Text| prose(lab, None, None, t);
    let opt = |t: &Option<Text>| t.as_ref().map(lt).transpose();
    let label = match (l.volume, l.number) {
        (Some(v), Some(n)) => Some(format!("Volume {v} · Lab {n}")),
        (None, Some(n)) => Some(format!("Lab {n}")),
        (Some(v), None) => Some(format!("Volume {v}")),
        (None, None) => None,
    };
    Ok(Header {
        id: l.id.value.clone(),
        version: l.version,
        title: lt(&l.title)?,
        topic: l.topic.clone(),
        volume: l.volume,
        number: l.number,
        label,
        subtitle: opt(&l.subtitle)?,
        badges: l
            .badges
            .iter()
            .map(|b| {
                Ok(super::Badge {
                    text: lt(&b.text)?,
                    kind: badge_kind(b.kind),
                })
            })
            .collect::<R<_>>()?,
        duration: l.duration.as_ref().map(|d| d.total.clone()),
        duration_breakdown: l.duration.as_ref().and_then(|d| d.breakdown.clone()),
        objectives: leads(lab, &l.objectives)?,
        prerequisites: l.prerequisites.iter().map(lt).collect::<R<_>>()?,
        core_question: opt(&l.core_question)?,
        reading: opt(&l.reading)?,
        track: lab
            .track
            .as_deref()
            .and_then(|id| lab.tracks.get(id))
            .map(track_view),
        tracks: lab.tracks.tracks.iter().map(track_view).collect(),
    })
}

/// The whole lab: prose at each part's scenario, instruments at the defaults.
pub fn lab(lab: &CompiledLab, answers: bool) -> R<LabView> {
    lab_with(lab, answers, &IndexMap::new())
}

/// [`lab`] with the predictions locked in (part id → option id or typed number) that banners
/// and prose read as `answer` and `prediction.a` (the terminal's ledger; the key's answers).
pub fn lab_with(lab: &CompiledLab, answers: bool, locked: &IndexMap<String, String>) -> R<LabView> {
    let l = &lab.lab;
    let lt = |t: &Text| prose(lab, None, None, t);
    let opt = |t: &Option<Text>| t.as_ref().map(lt).transpose();
    let header = header(lab)?;
    let n = lab.parts.len();
    let mut parts = Vec::new();
    for (i, cp) in lab.parts.iter().enumerate() {
        let defaults = lab.with_answers(cp, lab.inputs(cp, &IndexMap::new())?, locked);
        let mut pv = part(lab, cp, &defaults, answers).map_err(|e| super::in_part(lab, cp, e))?;
        pv.more = i + 1 < n;
        parts.push(pv);
    }
    let synthesis = match &l.synthesis {
        None => None,
        Some(s) => Some(SynthesisView {
            takeaways: leads(lab, &s.takeaways)?,
            cards: s
                .cards
                .iter()
                .map(|c| {
                    Ok(CardView {
                        title: lt(&c.title)?,
                        body: lt(&c.body)?,
                        color: c.color.map(|c| color_name(Some(c), "text")),
                    })
                })
                .collect::<R<_>>()?,
            self_assessment: s
                .self_assessment
                .iter()
                .map(|q| lt(&q.question))
                .collect::<R<_>>()?,
            self_assessment_answers: if answers {
                s.self_assessment
                    .iter()
                    .map(|q| q.answer.as_ref().map(lt).transpose())
                    .collect::<R<_>>()?
            } else {
                Vec::new()
            },
            self_assessment_note: opt(&s.self_assessment_note)?,
            decision_log: s
                .decision_log
                .as_ref()
                .map(|d| {
                    Ok::<_, Diagnostic>(DecisionLogView {
                        prompt: lt(&d.prompt)?,
                        placeholder: d.placeholder.clone(),
                    })
                })
                .transpose()?,
        }),
    };
    Ok(LabView {
        answers,
        header,
        parts,
        synthesis,
    })
}

/// One part: its prose at the prediction's scenario, its instruments at `inputs` (every
/// control's value, e.g. from [`CompiledLab::inputs`]).
pub fn part(
    lab: &CompiledLab,
    cp: &CompiledPart,
    inputs: &IndexMap<String, Dynamic>,
    answers: bool,
) -> R<PartView> {
    let p = &lab.lab.parts[cp.index];
    let scen = lab
        .evaluate(cp, &locked_too(lab.scenario(cp), inputs))
        .map_err(|e| e.0)?;
    let ev = lab.evaluate(cp, inputs).map_err(|e| e.0)?;
    let st = |t: &Text| prose(lab, Some(cp), Some(&scen), t);
    let ost = |t: Option<&Text>| {
        if answers {
            t.map(st).transpose()
        } else {
            Ok(None)
        }
    };
    let prediction = match &p.prediction {
        None => None,
        Some(pr) => Some(PredictionView {
            question: st(&pr.question)?,
            live: pr.live,
            lock_text: pr.lock_text.as_ref().map(st).transpose()?,
            scenario: settings(p, &pr.scenario, &st)?,
            options: choices(
                &|t: &Text, id: &str| {
                    // Frozen at the scenario; `answer` is the option the feedback belongs to.
                    let ev = super::feedback::answered(&scen, cp, id);
                    prose(lab, Some(cp), Some(&ev), t)
                },
                &pr.options,
                pr.other_feedback.as_ref(),
                answers,
            )?,
            numeric: match &pr.numeric {
                None => None,
                Some(nu) => Some(super::feedback::numeric_view(lab, cp, &scen, nu, answers)?),
            },
            other_feedback: ost(pr.other_feedback.as_ref())?,
            worked: match (answers, &pr.claim, &pr.numeric) {
                (true, Some(c), _) => worked(lab, &scen, &c.value)?,
                (true, None, Some(nu)) => worked(lab, &scen, &nu.output.value)?,
                _ => None,
            },
        }),
    };
    let reflection = match &p.reflection {
        None => None,
        Some(r) => Some(QuestionView {
            question: st(&r.question)?,
            options: choices(
                &|t: &Text, _: &str| st(t),
                &r.options,
                r.other_feedback.as_ref(),
                answers,
            )?,
            other_feedback: ost(r.other_feedback.as_ref())?,
        }),
    };
    let requires = p
        .requires
        .iter()
        .map(|r| {
            let (part, what) = r.value.split_once('.').unwrap_or((&r.value, "prediction"));
            Requirement {
                part: part.to_string(),
                what: what.to_string(),
                text: format!("{}'s {what}", part_label(part)),
            }
        })
        .collect();
    Ok(PartView {
        id: p.id.value.clone(),
        letter: part_letter(&cp.id),
        label: part_label(&cp.id),
        number: cp.index + 1,
        title: st(&p.title)?,
        duration: p.duration.clone(),
        requires,
        stakeholder: p
            .stakeholder
            .as_ref()
            .map(|s| {
                Ok::<_, Diagnostic>(StakeholderView {
                    role: st(&s.role)?,
                    message: st(&s.message)?,
                    color: s.color.map(|c| color_name(Some(c), "text")),
                })
            })
            .transpose()?,
        concept: p.concept.as_ref().map(st).transpose()?,
        prediction,
        explore_title: p.explore_title.as_ref().map(st).transpose()?,
        explore: explore_with(lab, cp, &ev, &st)?,
        math_peek: p
            .math_peek
            .as_ref()
            .map(|m| {
                Ok::<_, Diagnostic>(MathPeekView {
                    title: st(&m.title)?,
                    body: st(&m.body)?,
                })
            })
            .transpose()?,
        reflection,
        questions: super::questions::views(lab, cp, &scen, answers)?,
        more: false,
    })
}

/// `scenario` with the locked-in answers `inputs` holds (`answer`, `prediction`): prose at the
/// scenario reads the same answers as the instruments.
fn locked_too(
    mut scenario: IndexMap<String, Dynamic>,
    inputs: &IndexMap<String, Dynamic>,
) -> IndexMap<String, Dynamic> {
    for k in ["answer", crate::eval::xpart::NAME] {
        if let Some(v) = inputs.get(k) {
            scenario.insert(k.to_string(), v.clone());
        }
    }
    scenario
}

/// The output `name` at the evaluation `scen`, as a row; a formula that is no output is
/// listed by its name (`None` when `scen` has no such value).
fn worked(lab: &CompiledLab, scen: &Evaluation, name: &str) -> R<Option<Row>> {
    let pick = Pick {
        name: name.to_string(),
        ..Pick::default()
    };
    if let Some(row) = rows(lab, scen, Some(&[pick]))?.into_iter().next() {
        return Ok(Some(row));
    }
    let Some(got) = scen.values.get(name) else {
        return Ok(None);
    };
    let value = match as_number(got) {
        Some(x) => format::auto(x),
        None => got.to_string(),
    };
    Ok(Some(Row {
        name: name.to_string(),
        label: Prose::from_text(format!("`{name}`")),
        display: value.clone(),
        value,
        unit: String::new(),
        capped: false,
        data: data_value(got),
        level: None,
        has_level: false,
        color: None,
        note: None,
    }))
}

fn choices(
    t: &dyn Fn(&Text, &str) -> R<Prose>,
    options: &[Choice],
    other: Option<&Text>,
    answers: bool,
) -> R<Vec<OptionView>> {
    options
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let id = option_id(i, c);
            Ok(OptionView {
                text: t(&c.text, &id)?,
                correct: answers.then_some(c.correct),
                feedback: if answers {
                    c.feedback
                        .as_ref()
                        .or(other)
                        .map(|f| t(f, &id))
                        .transpose()?
                } else {
                    None
                },
                id,
            })
        })
        .collect()
}

/// Controls, instruments, outputs and banners at the evaluation `ev` (control labels at the
/// part's scenario, as the part's other prose).
pub fn explore(lab: &CompiledLab, cp: &CompiledPart, ev: &Evaluation) -> R<ExploreView> {
    let locked: IndexMap<String, Dynamic> = ev
        .values
        .iter()
        .filter(|(k, _)| *k == "answer" || *k == crate::eval::xpart::NAME)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let scen = lab
        .evaluate(cp, &locked_too(lab.scenario(cp), &locked))
        .map_err(|e| e.0)?;
    explore_with(lab, cp, ev, &|t: &Text| {
        prose(lab, Some(cp), Some(&scen), t)
    })
}

fn explore_with(
    lab: &CompiledLab,
    cp: &CompiledPart,
    ev: &Evaluation,
    label: &dyn Fn(&Text) -> R<Prose>,
) -> R<ExploreView> {
    let p = &lab.lab.parts[cp.index];
    let dt = |t: &Text| prose(lab, Some(cp), Some(ev), t);
    let controls = p
        .controls
        .iter()
        .map(|c| {
            let v = ev
                .values
                .get(&c.id().value)
                .cloned()
                .unwrap_or(Dynamic::UNIT);
            control_view(c, label(c.label())?, &v)
        })
        .collect::<R<Vec<_>>>()?;
    let outputs = rows(lab, ev, None)?;
    let mut charts = lab.charts(ev).map_err(|e| e.0)?.into_iter();
    let mut instruments = Vec::new();
    let mut tabled = false;
    for inst in &p.instruments {
        match inst {
            Instrument::Metrics(cards) => {
                tabled = true;
                let names = cards
                    .iter()
                    .map(|c| {
                        Ok(Pick {
                            name: c.output.value.clone(),
                            label: c.label.as_ref().map(dt).transpose()?,
                            note: c.caption.as_ref().map(dt).transpose()?,
                            color: c.color.map(|c| color_name(Some(c), "text")),
                        })
                    })
                    .collect::<R<Vec<_>>>()?;
                instruments.push(InstrumentView::Metrics(table(
                    None,
                    rows(lab, ev, Some(&names))?,
                )));
            }
            Instrument::Table(t) => {
                tabled = true;
                let names: Vec<_> = t
                    .outputs
                    .iter()
                    .map(|o| Pick {
                        name: o.value.clone(),
                        ..Pick::default()
                    })
                    .collect();
                instruments.push(InstrumentView::Table(table(
                    t.title.as_ref().map(dt).transpose()?,
                    rows(lab, ev, Some(&names))?,
                )));
            }
            Instrument::Panel(pa) => instruments.push(InstrumentView::Panel(PanelView {
                title: dt(&pa.title)?,
                lines: pa.lines.iter().map(dt).collect::<R<_>>()?,
            })),
            Instrument::Chart(_) => {
                let Some(c) = charts.next() else { continue };
                instruments.push(InstrumentView::Chart(ChartView {
                    id: c.id.clone(),
                    alt: chart_alt(&c),
                    title: c.title.clone(),
                    data: Box::new(c),
                }));
            }
        }
    }
    let mut callouts = Vec::new();
    for r in &p.feedback {
        let Some((kind, text)) = r.callout() else {
            continue;
        };
        let on = lab
            .eval_expr(Some(cp), Some(ev), &r.when.value, &[])
            .map_err(|e| e.0)?;
        if !on.as_bool().unwrap_or(false) {
            continue;
        }
        let kind = kind.as_str();
        callouts.push(CalloutView {
            kind,
            kind_label: kind_label(kind),
            icon: kind_icon(kind),
            title: r.title.as_ref().map(dt).transpose()?,
            text: dt(text)?,
        });
    }
    Ok(ExploreView {
        controls,
        instruments,
        outputs,
        tabled,
        callouts,
    })
}

/// Control settings as `label = value`; `label` renders a control's label.
fn settings(
    part: &Part,
    set: &IndexMap<String, Spanned<Value>>,
    label: &dyn Fn(&Text) -> R<Prose>,
) -> R<Vec<Setting>> {
    set.iter()
        .map(|(k, v)| {
            let ctl = part.controls.iter().find(|c| &c.id().value == k);
            Ok(Setting {
                name: k.clone(),
                label: match ctl {
                    Some(c) => label(c.label())?,
                    None => Prose::from_text(k.clone()),
                },
                value: match ctl {
                    Some(c) => setting_text(c, &v.value),
                    None => value_words(&v.value),
                },
            })
        })
        .collect()
}

/// Alt text of a chart: its heading (the title, else what it plots in the lab's words).
fn chart_alt(c: &ChartData) -> String {
    c.heading()
}

/// An output to list: its name, a label overriding the output's, a note, a colour.
#[derive(Default)]
struct Pick {
    name: String,
    label: Option<Prose>,
    note: Option<Prose>,
    color: Option<String>,
}

/// The outputs of `ev` named in `names` (all when `None`), as rows.
fn rows(lab: &CompiledLab, ev: &Evaluation, names: Option<&[Pick]>) -> R<Vec<Row>> {
    let model = &lab.lab.parts[ev.part];
    let views = lab.outputs(ev).map_err(|e| e.0)?;
    let all: Vec<Pick>;
    let names = match names {
        Some(n) => n,
        None => {
            all = views
                .iter()
                .map(|v| Pick {
                    name: v.name.clone(),
                    ..Pick::default()
                })
                .collect();
            &all
        }
    };
    let mut out = Vec::new();
    for pick in names {
        let Some(v) = views.iter().find(|v| v.name == pick.name) else {
            continue;
        };
        let o = model.outputs.get(&pick.name).cloned().unwrap_or_default();
        let raw = ev.values.get(&pick.name).cloned().unwrap_or(Dynamic::UNIT);
        let has_level = o.bands.is_some() || o.level.is_some();
        let sh = as_number(&raw)
            .filter(|_| !raw.is_bool())
            .map(|x| crate::eval::shown(&o, x));
        out.push(Row {
            name: pick.name.clone(),
            label: pick
                .label
                .clone()
                .unwrap_or_else(|| Prose::from_text(v.label.clone())),
            value: match &sh {
                Some(s) => s.num.clone(),
                None => format_output(&o, &raw),
            },
            unit: match &sh {
                Some(s) => s.unit.clone(),
                None if raw.is_bool() => String::new(),
                None => v.unit.clone(),
            },
            capped: sh.as_ref().is_some_and(|s| s.capped),
            display: v.display.clone(),
            data: data_value(&raw),
            level: v.level.clone(),
            has_level,
            color: pick.color.clone(),
            note: pick.note.clone(),
        });
    }
    Ok(out)
}

/// A value as data: numbers as JavaScript prints them, booleans as `true`/`false`.
fn data_value(v: &Dynamic) -> String {
    if let Some(x) = as_number(v) {
        return js_number_string(x);
    }
    if let Ok(b) = v.as_bool() {
        return b.to_string();
    }
    v.to_string()
}

fn table(title: Option<Prose>, rows: Vec<Row>) -> TableView {
    TableView {
        title,
        has_level: rows.iter().any(|r| r.level.is_some()),
        has_note: rows.iter().any(|r| r.note.is_some()),
        rows,
    }
}
