//! The handout's context: the lab's [view](crate::view) as the handout templates read it.
//!
//! A thin adaptor: prose becomes text (a levelled `{{ @name }}` written `22.7% (⚠ warning)`,
//! print has no colour to rely on), metric cards become tables, an explore section without
//! any table lists every output, and each chart gets its SVG and the file it is saved in. The
//! student handout is built from the student view, which holds no answers, so no template —
//! embedded or an instructor's override — can leak them.

use crate::diag::Diagnostic;
use crate::eval::chart::ChartData;
use crate::eval::{level_words, CompiledLab};
use crate::view;
use serde_json::{json, Map, Value as J};

/// The handout's template context and the chart files it links.
pub struct Doc {
    pub context: J,
    /// `(path relative to the output directory, SVG)`.
    pub charts: Vec<(String, String)>,
}

/// Builds the handout context; `chart_svg(chart, uid)` draws a chart.
pub fn build(
    lab: &CompiledLab,
    stem: &str,
    key: bool,
    chart_svg: &dyn Fn(&ChartData, &str) -> String,
) -> Result<Doc, Diagnostic> {
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
        let mut pj = serde_json::to_value(p).map_err(|e| Diagnostic::from(e.to_string()))?;
        let mut instruments = Vec::new();
        if !p.explore.tabled && !p.explore.outputs.is_empty() {
            instruments.push(table(J::Null, &p.explore.outputs)?);
        }
        for i in &p.explore.instruments {
            instruments.push(match i {
                view::InstrumentView::Metrics(t) => table(J::Null, &t.rows)?,
                view::InstrumentView::Table(t) => table(to_json(&t.title)?, &t.rows)?,
                view::InstrumentView::Panel(_) => to_json(i)?,
                view::InstrumentView::Chart(c) => {
                    // Names from ids, through the one function that keeps them in the folder.
                    let file = format!(
                        "{}/{}",
                        crate::render::file_name(&format!("{stem}-charts")),
                        crate::render::file_name(&format!("{}-{}.svg", p.id, c.id))
                    );
                    let svg = chart_svg(&c.data, &format!("{}-{}", p.id, c.id));
                    charts.push((file.clone(), svg.clone()));
                    json!({"kind": "chart", "id": c.id, "title": c.title, "alt": c.alt,
                           "path": url_path(&file), "svg": svg,
                           "table": crate::render::svg::chart_table(&c.data, true)})
                }
            });
        }
        pj["instruments"] = J::Array(instruments);
        if let J::Object(m) = &mut pj {
            for k in ["outputs", "tabled", "label", "requires"] {
                m.remove(k);
            }
        }
        parts.push(pj);
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
    let mut ctx = Map::new();
    ctx.insert("key".into(), J::Bool(key));
    ctx.insert("stem".into(), J::from(stem));
    ctx.insert("header".into(), header);
    ctx.insert("parts".into(), J::Array(parts));
    let mut synthesis = to_json(&v.synthesis)?;
    if let Some(s) = &v.synthesis {
        // Each item with its answer (the key's only; the student view has none).
        synthesis["self_assessment"] = J::Array(
            s.self_assessment
                .iter()
                .enumerate()
                .map(|(i, q)| {
                    let mut item = json!({ "question": to_json(q)? });
                    if let Some(Some(a)) = s.self_assessment_answers.get(i) {
                        item["answer"] = to_json(a)?;
                    }
                    Ok(item)
                })
                .collect::<Result<_, Diagnostic>>()?,
        );
        if let J::Object(m) = &mut synthesis {
            m.remove("self_assessment_answers");
        }
    }
    ctx.insert("synthesis".into(), synthesis);
    let mut context = J::Object(ctx);
    texts(&mut context, true);
    Ok(Doc { context, charts })
}

fn to_json(x: &impl serde::Serialize) -> Result<J, Diagnostic> {
    serde_json::to_value(x).map_err(|e| Diagnostic::from(e.to_string()))
}

fn table(title: J, rows: &[view::Row]) -> Result<J, Diagnostic> {
    Ok(json!({
        "kind": "table",
        "title": title,
        "rows": to_json(&rows)?,
        "has_level": rows.iter().any(|r| r.level.is_some()),
        "has_note": rows.iter().any(|r| r.note.is_some()),
    }))
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
