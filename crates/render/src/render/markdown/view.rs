//! The handout's context: the lab's [view](crate::view) as the handout templates read it.
//!
//! A thin adaptor: prose becomes text (a levelled `{{ @name }}` written `22.7% (⚠ warning)`,
//! print has no colour to rely on), metric cards become tables, an explore section without
//! any table lists every output, and each chart gets its SVG and the file it is saved in. The
//! student handout is built from the student view, which holds no answers, so no template —
//! embedded or an instructor's override — can leak them.
//!
//! The context is a [`Context`] struct; what it takes from the view (header, parts, synthesis)
//! is the view serialised and rewritten as JSON values, since the prose-to-text pass
//! ([`texts`]) walks whatever the view holds.

use super::earlier::{Carried, Earlier};
use crate::diag::Diagnostic;
use crate::eval::chart::ChartData;
use crate::eval::{level_words, CompiledLab};
use crate::view;
use serde::Serialize;
use serde_json::{Map, Value as J};

/// The handout's template context and the chart files it links.
pub struct Doc<'a> {
    pub context: Context<'a>,
    /// `(path relative to the output directory, SVG)`.
    pub charts: Vec<(String, String)>,
}

/// What `lab.md.j2` and `handout.html.j2` read. The header, the parts and the synthesis are
/// the view's values serialised and then rewritten for print ([`texts`]: every prose value
/// becomes its text), which is why they are JSON values.
#[derive(Serialize)]
pub struct Context<'a> {
    /// The answer key.
    pub key: bool,
    pub stem: &'a str,
    /// The view's header, its badges as text with their icon.
    pub header: J,
    pub parts: Vec<Part<'a>>,
    /// The view's synthesis (`null` without one), each self-assessment item with its answer.
    pub synthesis: J,
    /// Decisions carried forward shown under the header ([`super::earlier::add`]).
    pub earlier: Vec<Earlier<'a>>,
    /// The numbers read from earlier labs.
    pub carried: Vec<Carried>,
    /// The handout page's style sheet (`handout-html` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub css: Option<String>,
    /// The paper size's CSS name (`handout-html` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paper: Option<&'static str>,
}

/// One part: the view's part (its explore section's outputs, `tabled`, `label` and `requires`
/// dropped, its `instruments` as print shows them) and the decisions carried forward shown at
/// its top.
#[derive(Serialize)]
pub struct Part<'a> {
    #[serde(skip)]
    pub id: String,
    #[serde(flatten)]
    pub view: Map<String, J>,
    pub earlier: Vec<Earlier<'a>>,
}

/// An instrument as print shows it: metric cards and the explore section's outputs as tables.
#[derive(Serialize)]
#[serde(untagged)]
enum Instrument<'a> {
    Table(Table<'a>),
    Chart(Chart<'a>),
    Panel(&'a view::InstrumentView),
}

#[derive(Serialize)]
struct Table<'a> {
    kind: &'static str,
    /// `null` for metric cards and the outputs' table.
    title: Option<&'a view::Prose>,
    rows: &'a [view::Row],
    has_level: bool,
    has_note: bool,
}

#[derive(Serialize)]
struct Chart<'a> {
    kind: &'static str,
    id: &'a str,
    title: Option<&'a str>,
    alt: &'a str,
    /// The SVG file's path as a URL (Markdown links it).
    path: String,
    /// The SVG inline (the HTML handout draws it).
    svg: String,
    /// The chart's numbers as an HTML table.
    table: String,
}

/// A self-assessment item; `answer` in the key, when the lab gives one.
#[derive(Serialize)]
struct SelfItem<'a> {
    question: &'a view::Prose,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<&'a view::Prose>,
}

/// Builds the handout context (without the decisions carried forward, which
/// [`super::earlier::add`] fills in); `chart_svg(chart, uid)` draws a chart.
pub fn build<'a>(
    lab: &CompiledLab,
    stem: &'a str,
    key: bool,
    chart_svg: &dyn Fn(&ChartData, &str) -> String,
) -> Result<Doc<'a>, Diagnostic> {
    // A render is one command's worth of evaluations: its own total work budget.
    lab.start_update();
    // The key shows what reads a locked prediction at the key's answers; the student's
    // handout, as nothing is answered yet.
    let locked = if key {
        lab.key_answers()
    } else {
        Default::default()
    };
    let v = view::lab_with(lab, key, &locked)?;
    let mut charts = Vec::new();
    let mut parts = Vec::new();
    for p in &v.parts {
        let mut pj = to_json(p)?;
        let mut instruments = Vec::new();
        if !p.explore.tabled && !p.explore.outputs.is_empty() {
            instruments.push(table(None, &p.explore.outputs));
        }
        for i in &p.explore.instruments {
            instruments.push(match i {
                view::InstrumentView::Metrics(t) => table(None, &t.rows),
                view::InstrumentView::Table(t) => table(t.title.as_ref(), &t.rows),
                view::InstrumentView::Panel(_) => Instrument::Panel(i),
                view::InstrumentView::Chart(c) => {
                    // Names from ids, through the one function that keeps them in the folder.
                    let file = format!(
                        "{}/{}",
                        crate::render::file_name(&format!("{stem}-charts")),
                        crate::render::file_name(&format!("{}-{}.svg", p.id, c.id))
                    );
                    let svg = chart_svg(&c.data, &format!("{}-{}", p.id, c.id));
                    charts.push((file.clone(), svg.clone()));
                    Instrument::Chart(Chart {
                        kind: "chart",
                        id: &c.id,
                        title: c.title.as_deref(),
                        alt: &c.alt,
                        path: url_path(&file),
                        svg,
                        table: crate::render::svg::chart_table(&c.data, true),
                    })
                }
            });
        }
        pj["instruments"] = to_json(&instruments)?;
        texts(&mut pj, true);
        let J::Object(mut m) = pj else {
            unreachable!("a part serialises as an object")
        };
        for k in ["outputs", "tabled", "label", "requires"] {
            m.remove(k);
        }
        parts.push(Part {
            id: p.id.clone(),
            view: m,
            earlier: Vec::new(),
        });
    }
    let h = &v.header;
    let mut header = to_json(h)?;
    header["badges"] = J::Array(
        h.badges
            .iter()
            .map(|b| match b.kind {
                "info" => to_json(&b.text),
                k => to_json(&view::Prose::from_text(format!(
                    "{} {}",
                    crate::view::format::kind_icon(k),
                    b.text.plain()
                ))),
            })
            .collect::<Result<_, _>>()?,
    );
    texts(&mut header, true);
    let mut synthesis = to_json(&v.synthesis)?;
    if let Some(s) = &v.synthesis {
        // Each item with its answer (the key's only; the student view has none).
        let items: Vec<SelfItem> = s
            .self_assessment
            .iter()
            .enumerate()
            .map(|(i, question)| SelfItem {
                question,
                answer: s.self_assessment_answers.get(i).and_then(Option::as_ref),
            })
            .collect();
        synthesis["self_assessment"] = to_json(&items)?;
        if let J::Object(m) = &mut synthesis {
            m.remove("self_assessment_answers");
        }
    }
    texts(&mut synthesis, true);
    let context = Context {
        key,
        stem,
        header,
        parts,
        synthesis,
        earlier: Vec::new(),
        carried: Vec::new(),
        css: None,
        paper: None,
    };
    Ok(Doc { context, charts })
}

fn to_json(x: &impl serde::Serialize) -> Result<J, Diagnostic> {
    serde_json::to_value(x).map_err(|e| Diagnostic::from(e.to_string()))
}

fn table<'a>(title: Option<&'a view::Prose>, rows: &'a [view::Row]) -> Instrument<'a> {
    Instrument::Table(Table {
        kind: "table",
        title,
        rows,
        has_level: rows.iter().any(|r| r.level.is_some()),
        has_note: rows.iter().any(|r| r.note.is_some()),
    })
}

/// Replaces every serialised [`view::Prose`] (`{text, spans}`) by its text, trimmed: levelled
/// outputs marked when `marked`; banners, test settings and titles plain.
fn texts(j: &mut J, marked: bool) {
    match j {
        J::Object(m) => {
            if m.len() == 2 && m.contains_key("text") {
                if let Some(J::Array(spans)) = m.get("spans") {
                    let mut s = String::new();
                    for sp in spans {
                        let text = sp["text"].as_str().unwrap_or_default();
                        match (marked, sp["output"].as_str(), sp["level"].as_str()) {
                            (true, Some(_), Some(l)) => {
                                s.push_str(&format!("{text} ({})", level_words(l)))
                            }
                            _ => s.push_str(text),
                        }
                    }
                    *j = J::from(s.trim());
                    return;
                }
            }
            for (k, v) in m.iter_mut() {
                let plain = matches!(k.as_str(), "callouts" | "set" | "part_title");
                texts(v, marked && !plain);
            }
        }
        J::Array(a) => a.iter_mut().for_each(|x| texts(x, marked)),
        _ => {}
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
