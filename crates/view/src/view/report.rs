//! The lab report a student hands in: one Markdown document from a lab and a student's record.
//!
//! It is made in two steps, so the page (which cannot run Rust) makes the same bytes:
//! [`plan`] turns the lab into a [`ReportPlan`] (every text the lab gives, settled here once:
//! headings, labels, option texts, which outputs and sections print), and [`write`] fills it
//! from a record (answers, verdicts, settings, the decision log) and the key outputs'
//! values at the record's settings. The page carries the plan as data and fills it with
//! `renderers/html/report.js`, the same rules line by line; its outputs come from its own
//! formulas (translated from the same Rhai) and its number formatting twins
//! (`format.js`, checked against Rust elsewhere). `tests/chromium/report_browser.rs` compares
//! the two byte for byte.
//!
//! Everything from the record is the student's: it goes through [`md`], which leaves no
//! Markdown or HTML construct of its own (every inline marker backslash-escaped, every line
//! start that would open a block made literal).

use crate::diag::Diagnostic;
use crate::eval::{format_output, value_to_dynamic, CompiledLab};
use crate::ledger::questions::Answer;
use crate::ledger::Ledger;
use crate::library::format;
use crate::load::text::visible;
use crate::model::report::ReportSpec;
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;
use serde::Serialize;

/// A lab's report with every lab text settled (see the module docs). Short field names: the
/// page carries it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ReportPlan {
    /// The heading.
    pub title: String,
    /// The author's paragraph under it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intro: Option<String>,
    /// The lab's id and version (the page has them: not in its copy).
    #[serde(skip)]
    pub id: String,
    #[serde(skip)]
    pub version: u32,
    /// The track the lab is compiled on (its label), for a lab with tracks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    pub parts: Vec<PlanPart>,
    /// The lab keeps a decision log (its synthesis asks for one).
    pub log: bool,
}

/// One part of the report.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlanPart {
    pub id: String,
    /// `Part A: Title`.
    pub head: String,
    /// The settings to print (empty when the `settings` section is off).
    pub ctl: Vec<PlanControl>,
    /// The key outputs: (output id, label).
    pub out: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pred: Option<PlanAsk>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refl: Option<PlanAsk>,
    pub qs: Vec<PlanAsk>,
}

/// A control as its setting reads.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlanControl {
    pub id: String,
    pub label: String,
    /// `num` (slider, number box), `sel` (select, radio), `sw` (switch), `box` (checkboxes).
    pub kind: &'static str,
    /// `num`: fixed decimals (none: as `fmt` picks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digits: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// `sel`: (label, value as a form field holds it); `box`: (key, label).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opts: Vec<(String, String)>,
}

/// A prediction, reflection or question: what it asks and its options' texts.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlanAsk {
    pub id: String,
    /// `choice`, `select`, `number` or `text`.
    pub kind: &'static str,
    pub ask: String,
    /// (option id, text in one line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opts: Vec<(String, String)>,
}

/// One line: the lab's text with its line breaks as spaces.
fn line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn options(opts: &[super::OptionView]) -> Vec<(String, String)> {
    opts.iter()
        .map(|o| (o.id.clone(), line(&o.text.plain())))
        .collect()
}

/// The report's plan for a lab (on the track it is compiled on); `spec` is the lab's
/// `report:` (or the course's default).
pub fn plan(lab: &CompiledLab, spec: Option<&ReportSpec>) -> Result<ReportPlan, Diagnostic> {
    let view = super::lab(lab, false)?;
    let default = ReportSpec::default();
    let spec = spec.or(lab.lab.report.as_ref()).unwrap_or(&default);
    let title = match &spec.title {
        Some(t) => line(&t.value),
        None => format!("{} — report", line(&view.header.title.plain())),
    };
    let key = |pid: &str, o: &str| match &spec.outputs {
        None => true,
        Some(list) => list.iter().any(|x| x.value == format!("{pid}.{o}")),
    };
    let mut parts = Vec::new();
    for (pv, p) in view.parts.iter().zip(&lab.lab.parts) {
        let ctl = if spec.shows("settings") {
            p.controls
                .iter()
                .zip(&pv.explore.controls)
                .map(|(c, cv)| plan_control(c, cv))
                .collect()
        } else {
            Vec::new()
        };
        let out = if spec.shows("outputs") {
            p.outputs
                .iter()
                .filter(|(k, _)| key(&p.id.value, k))
                .map(|(k, o)| (k.clone(), line(o.label.as_deref().unwrap_or(k))))
                .collect()
        } else {
            Vec::new()
        };
        let pred = pv
            .prediction
            .as_ref()
            .filter(|_| spec.shows("prediction"))
            .map(|pr| PlanAsk {
                id: "prediction".into(),
                kind: if pr.numeric.is_some() {
                    "number"
                } else {
                    "choice"
                },
                ask: pr.question.plain().trim().to_string(),
                opts: options(&pr.options),
            });
        let refl = pv
            .reflection
            .as_ref()
            .filter(|_| spec.shows("reflection"))
            .map(|r| PlanAsk {
                id: "reflection".into(),
                kind: "choice",
                ask: r.question.plain().trim().to_string(),
                opts: options(&r.options),
            });
        let qs = if spec.shows("questions") {
            pv.questions
                .iter()
                .map(|q| PlanAsk {
                    id: q.id.clone(),
                    kind: match q.kind {
                        "select_all" => "select",
                        "numeric" => "number",
                        "text" => "text",
                        _ => "choice",
                    },
                    ask: q.prompt.plain().trim().to_string(),
                    opts: options(&q.options),
                })
                .collect()
        } else {
            Vec::new()
        };
        parts.push(PlanPart {
            id: p.id.value.clone(),
            head: format!("{}: {}", pv.label, line(&pv.title.plain())),
            ctl,
            out,
            pred,
            refl,
            qs,
        });
    }
    Ok(ReportPlan {
        title,
        intro: spec.intro.as_ref().map(|t| t.value.trim().to_string()),
        id: lab.lab.id.value.clone(),
        version: lab.lab.version,
        track: view.header.track.as_ref().map(|t| t.label.clone()),
        parts,
        log: lab
            .lab
            .synthesis
            .as_ref()
            .is_some_and(|s| s.decision_log.is_some()),
    })
}

fn plan_control(c: &Control, cv: &super::ControlView) -> PlanControl {
    let label = line(&cv.label.plain());
    let mut pc = PlanControl {
        id: c.id().value.clone(),
        label,
        kind: "num",
        digits: None,
        unit: None,
        opts: Vec::new(),
    };
    match c {
        Control::Slider(s) => {
            pc.digits = super::format::slider_digits(s);
            pc.unit = s.unit.clone().filter(|u| !u.is_empty());
        }
        Control::Number(n) => pc.unit = n.unit.clone().filter(|u| !u.is_empty()),
        Control::Select(s) | Control::Radio(s) => {
            pc.kind = "sel";
            pc.opts = s
                .options
                .value
                .iter()
                .map(|(k, v)| (k.clone(), super::format::value_text(v)))
                .collect();
        }
        Control::Switch(_) => pc.kind = "sw",
        Control::Checkboxes(cb) => {
            pc.kind = "box";
            pc.opts = cb
                .options
                .iter()
                .map(|(k, l)| (k.clone(), l.clone()))
                .collect();
        }
    }
    pc
}

/// The student's text as text in Markdown (the page's `md` in report.js does the same):
/// every character the terminal filter names (a control character, an escape sequence's ESC,
/// a bidi override: [`visible`]) shown as `U+FFFD`, so a report `cat` in a terminal runs
/// nothing; line ends normalised, each line's leading blanks dropped (an indented line would be code),
/// every inline marker (``\ ` * _ [ ] < > & | ~ #``) backslash-escaped, and a line starting
/// as a list, quote or heading underline (`+ - = >`, `1.`, `1)`) made literal.
pub fn md(s: &str) -> String {
    let s = visible(s).replace("\r\n", "\n").replace('\r', "\n");
    s.split('\n')
        .map(|l| {
            let l = l.trim_start_matches([' ', '\t']);
            let mut o = String::with_capacity(l.len() + 4);
            for c in l.chars() {
                if INLINE.contains(c) {
                    o.push('\\');
                }
                o.push(c);
            }
            if o.starts_with(['+', '-', '=', '>']) {
                o.insert(0, '\\');
            }
            let digits = o.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && o[digits..].starts_with(['.', ')']) {
                o.insert(digits, '\\');
            }
            o
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The student's text inside a line (after `- Answer: `): filtered and the inline markers
/// escaped as by [`md`], line breaks as spaces (report.js `md1`).
pub fn md1(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 4);
    for c in visible(s).chars() {
        match c {
            '\r' | '\n' => o.push(' '),
            c if INLINE.contains(c) => {
                o.push('\\');
                o.push(c);
            }
            c => o.push(c),
        }
    }
    o
}

/// The characters [`md`] and [`md1`] escape wherever they are.
const INLINE: &str = "\\`*_[]<>&|~#";

/// A quoted block of the student's text (`> ` before every line).
fn quote(s: &str) -> String {
    md(s)
        .split('\n')
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A record's JSON value in words, as JavaScript's `String` writes it (a number as `String(x)`).
fn json_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => {
            super::format::js_number_string(n.as_f64().unwrap_or(f64::NAN))
        }
        serde_json::Value::Bool(b) => if *b { "on" } else { "off" }.into(),
        other => other.to_string(),
    }
}

/// A setting as it reads in the report (report.js `setting`).
fn setting(c: &PlanControl, v: Option<&serde_json::Value>) -> String {
    let Some(v) = v else {
        return "not set".into();
    };
    let txt = match (c.kind, v) {
        ("num", serde_json::Value::Number(n)) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            let n = match c.digits {
                Some(d) => format::fixed(x, d, true),
                None => format::auto(x),
            };
            match &c.unit {
                Some(u) => format!("{n}{}{u}", format::unit_sep(u, false)),
                None => n,
            }
        }
        ("sel", v) => {
            let t = json_text(v);
            let by_label = v
                .is_string()
                .then(|| c.opts.iter().find(|(l, _)| *l == t))
                .flatten();
            match by_label.or_else(|| c.opts.iter().find(|(_, x)| *x == t)) {
                Some((l, _)) => l.clone(),
                None => md1(&t),
            }
        }
        ("box", serde_json::Value::Object(m)) => {
            let on: Vec<&str> = c
                .opts
                .iter()
                .filter(|(k, _)| m.get(k) == Some(&serde_json::Value::Bool(true)))
                .map(|(_, l)| l.as_str())
                .collect();
            if on.is_empty() {
                "none".into()
            } else {
                on.join(", ")
            }
        }
        (_, v) => md1(&json_text(v)),
    };
    txt
}

/// An option's answer as it reads: `B — its text`, or the record's text when it is no option.
fn said(a: &PlanAsk, v: &str) -> String {
    match a.opts.iter().find(|(id, _)| id == v) {
        Some((id, t)) => format!("**{id}** — {t}"),
        None => md1(v),
    }
}

/// The values the report prints beside the record: each part's key outputs as shown, by part
/// then output id (a part its formulas could not compute holds none).
pub type Outputs = IndexMap<String, IndexMap<String, String>>;

/// What an output that could not be computed reads.
pub const NOT_COMPUTED: &str = "could not be computed";

/// The report from its plan, a record and the key outputs at the record's settings.
pub fn write(plan: &ReportPlan, l: &Ledger, outputs: &Outputs) -> String {
    let mut o: Vec<String> = vec![format!("# {}", plan.title), String::new()];
    if let Some(s) = l.student.as_ref().filter(|s| !s.trim().is_empty()) {
        o.push(format!("- Student: {}", md1(s)));
    }
    o.push(format!("- Lab: `{}` v{}", plan.id, plan.version));
    if let Some(t) = &plan.track {
        o.push(format!("- Track: {t}"));
    }
    o.push(format!(
        "- Complete: {}",
        if l.complete { "yes" } else { "no" }
    ));
    o.push(String::new());
    if let Some(i) = &plan.intro {
        o.push(i.clone());
        o.push(String::new());
    }
    let empty = crate::ledger::PartAnswers::default();
    for p in &plan.parts {
        let a = l.parts.get(&p.id).unwrap_or(&empty);
        o.push(format!("## {}", p.head));
        o.push(String::new());
        if !p.ctl.is_empty() {
            o.push("### Settings".into());
            o.push(String::new());
            for c in &p.ctl {
                o.push(format!(
                    "- {}: {}",
                    c.label,
                    setting(c, a.controls.get(&c.id))
                ));
            }
            o.push(String::new());
        }
        if !p.out.is_empty() {
            o.push("### At these settings".into());
            o.push(String::new());
            let vals = outputs.get(&p.id);
            for (id, label) in &p.out {
                let v = vals.and_then(|m| m.get(id)).map(String::as_str);
                o.push(format!("- {label}: {}", v.unwrap_or(NOT_COMPUTED)));
            }
            o.push(String::new());
        }
        if let Some(q) = &p.pred {
            o.push("### Prediction".into());
            o.push(String::new());
            o.push(q.ask.clone());
            o.push(String::new());
            match &a.prediction {
                None => o.push("- Answer: _not answered_".into()),
                Some(v) => {
                    o.push(format!("- Answer: {}", said(q, v)));
                    if let Some(c) = a.prediction_correct {
                        o.push(format!("- Held: {}", if c { "yes" } else { "no" }));
                    }
                    if let Some(t) = &a.prediction_locked_at {
                        o.push(format!("- Locked in: {}", md1(t)));
                    }
                    if !a.prediction_attempts.is_empty() {
                        let seen: Vec<String> =
                            a.prediction_attempts.iter().map(|x| md1(x)).collect();
                        o.push(format!("- Looked at after locking in: {}", seen.join(", ")));
                    }
                }
            }
            o.push(String::new());
        }
        if let Some(q) = &p.refl {
            o.push("### Reflection".into());
            o.push(String::new());
            o.push(q.ask.clone());
            o.push(String::new());
            match &a.reflection {
                None => o.push("- Answer: _not answered_".into()),
                Some(v) => {
                    o.push(format!("- Answer: {}", said(q, v)));
                    if let Some(c) = a.reflection_correct {
                        o.push(format!("- Correct: {}", if c { "yes" } else { "no" }));
                    }
                }
            }
            o.push(String::new());
        }
        for q in &p.qs {
            o.push(format!("### Question `{}`", q.id));
            o.push(String::new());
            o.push(q.ask.clone());
            o.push(String::new());
            let Some(x) = a.questions.get(&q.id) else {
                o.push("- Answer: _not answered_".into());
                o.push(String::new());
                continue;
            };
            match (&x.answer, q.kind) {
                (Answer::One(t), "text") if t.trim().is_empty() => o.push("_(empty)_".into()),
                (Answer::One(t), "text") => o.push(quote(t)),
                (Answer::One(v), _) => o.push(format!("- Answer: {}", said(q, v))),
                (Answer::Set(v), _) if v.is_empty() => o.push("- Answer: none".into()),
                (Answer::Set(v), _) => {
                    let all: Vec<String> = v.iter().map(|x| said(q, x)).collect();
                    o.push(format!("- Answer: {}", all.join("; ")));
                }
                (Answer::Other(v), _) => o.push(format!("- Answer: {}", md1(&v.to_string()))),
            }
            match (x.correct, x.score) {
                (Some(true), _) => o.push("- Correct: yes".into()),
                (Some(false), Some(s)) => o.push(format!("- Credit: {}%", (s * 100.0).round())),
                (Some(false), None) => o.push("- Correct: no".into()),
                (None, _) => {}
            }
            o.push(String::new());
        }
    }
    if plan.log {
        o.push("## Decision log".into());
        o.push(String::new());
        o.push(if l.decision_log.trim().is_empty() {
            "_(empty)_".into()
        } else {
            quote(&l.decision_log)
        });
        o.push(String::new());
    }
    o.join("\n")
}

/// Each part's key outputs at the record's settings, computed by the lab's formulas.
pub fn outputs(lab: &CompiledLab, plan: &ReportPlan, l: &Ledger) -> Outputs {
    let mut all = Outputs::new();
    for p in &plan.parts {
        if p.out.is_empty() {
            continue;
        }
        let (Some(cp), Some(model)) = (
            lab.part(&p.id),
            lab.lab.parts.iter().find(|x| x.id.value == p.id),
        ) else {
            continue;
        };
        let set: IndexMap<String, Dynamic> = l
            .parts
            .get(&p.id)
            .map(|a| {
                // `@NAME` beside the settings is a value kept for later labs (`records:`),
                // not a setting.
                a.controls
                    .iter()
                    .filter(|(k, _)| !k.starts_with('@'))
                    .filter_map(|(k, v)| {
                        let v: Value = serde_json::from_value(v.clone()).ok()?;
                        Some((k.clone(), value_to_dynamic(&v)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        lab.start_update();
        let Ok(ev) = lab
            .inputs(cp, &set)
            .map_err(|_| ())
            .and_then(|i| lab.evaluate(cp, &i).map_err(|_| ()))
        else {
            continue;
        };
        let m = p
            .out
            .iter()
            .filter_map(|(id, _)| {
                let o = model.outputs.get(id)?;
                let v = ev.values.get(id)?;
                Some((id.clone(), format_output(o, v)))
            })
            .collect();
        all.insert(p.id.clone(), m);
    }
    all
}

/// The report of a record: [`plan`], [`outputs`], [`write`].
pub fn report(
    lab: &CompiledLab,
    spec: Option<&ReportSpec>,
    l: &Ledger,
) -> Result<String, Diagnostic> {
    let plan = plan(lab, spec)?;
    let outs = outputs(lab, &plan, l);
    Ok(write(&plan, l, &outs))
}
