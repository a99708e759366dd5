//! The static HTML page: one self-contained `.html` file per lab, opened from disk (no network,
//! no server). Formulas are translated from Rhai to JavaScript at render time
//! ([`crate::formula::js::translate`]) and run by `renderers/html/runtime.js`, so the page shows
//! the same numbers as `labforge eval`.
//!
//! Safety: every piece of lab text is escaped; Markdown is rendered with raw HTML turned into
//! text and unsafe link schemes removed; a Content-Security-Policy allows only the page's own
//! scripts (by SHA-256 hash), no network and no eval.

mod hash;
mod md;
mod minify;

use super::{asset, OutFile, RenderOptions, Renderer};
use crate::eval::template::{segments, Segment};
use crate::eval::{
    chart::color_name, display, level_words, CompiledLab, CompiledPart, Evaluation, Span,
};
use crate::formula::js::translate;
use crate::formula::{as_number, limits, to_json};
use crate::load::check::option_id;
use crate::model::*;
use md::{md_block, md_inline};
use rhai::Dynamic;
use serde_json::{json, Value as J};
use std::collections::HashMap;
use std::path::PathBuf;

pub use hash::sha256_base64;
pub use md::escape as esc;
pub use minify::minify_js;

/// Embedded templates and assets (overridable with `--templates DIR`).
pub const ASSETS: &[(&str, &str)] = &[
    (
        "page.html.j2",
        include_str!("../../renderers/html/page.html.j2"),
    ),
    (
        "index.html.j2",
        include_str!("../../renderers/html/index.html.j2"),
    ),
    ("style.css", include_str!("../../renderers/html/style.css")),
    (
        "runtime.js",
        include_str!("../../renderers/html/runtime.js"),
    ),
    ("charts.js", include_str!("../../renderers/html/charts.js")),
    (
        "library.js",
        include_str!("../../renderers/html/library.js"),
    ),
];

/// The hardware table handed to `labforgeLibrary` in the page.
/// Only what `hw(id)` returns (the name and the numbers): sources and notes stay in the docs.
fn hardware_json() -> J {
    let mut h = crate::library::hardware_json();
    if let J::Object(devices) = &mut h {
        for d in devices.values_mut() {
            if let J::Object(fields) = d {
                fields.retain(|k, v| k == "name" || v.is_number());
            }
        }
    }
    h
}

pub struct HtmlRenderer;

impl Renderer for HtmlRenderer {
    fn name(&self) -> &'static str {
        "html"
    }

    fn render(
        &self,
        lab: &CompiledLab,
        stem: &str,
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, String> {
        let html = render_page(lab, opts)?;
        Ok(vec![OutFile {
            path: PathBuf::from(format!("{stem}.html")),
            bytes: html.into_bytes(),
        }])
    }

    fn render_index(
        &self,
        labs: &[(String, &CompiledLab)],
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, String> {
        let dir = opts.templates.as_deref();
        let style = asset(ASSETS, "style.css", dir)?;
        let mut items = Vec::new();
        for (stem, lab) in labs {
            let l = &lab.lab;
            let t = |x: &Text| -> Result<String, String> {
                lab.render_text(None, None, &x.value, &[])
                    .map_err(|e| e.to_string())
            };
            let mut badges = Vec::new();
            for b in &l.badges {
                badges.push(json!({"html": md_inline(&t(&b.text)?), "kind": badge_kind(b.kind)}));
            }
            let mut objectives = Vec::new();
            for o in &l.objectives {
                objectives.push(json!({
                    "title_html": md_inline(&t(&o.title)?),
                    "text_html": match &o.text { Some(x) => md_inline(&t(x)?), None => String::new() },
                }));
            }
            items.push(json!({
                "href": format!("{}.html", url_escape(stem)),
                "title_html": md_inline(&t(&l.title)?),
                "topic": l.topic.clone().unwrap_or_default(),
                "duration": l.duration.as_ref().map(|d| d.total.clone()).unwrap_or_default(),
                "badges": badges,
                "objectives": objectives,
                "parts": l.parts.len(),
            }));
        }
        let ctx = json!({
            "labs": items,
            "style": style.as_ref(),
            "csp": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; script-src 'none'; form-action 'none'; base-uri 'none'",
        });
        let html = render_template(dir, "index.html.j2", &ctx)?;
        Ok(vec![OutFile {
            path: PathBuf::from("index.html"),
            bytes: html.into_bytes(),
        }])
    }
}

fn url_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.~".contains(c) {
                c.to_string()
            } else {
                let mut b = [0u8; 4];
                c.encode_utf8(&mut b)
                    .bytes()
                    .map(|x| format!("%{x:02X}"))
                    .collect()
            }
        })
        .collect()
}

fn badge_kind(k: BadgeKind) -> &'static str {
    match k {
        BadgeKind::Info => "info",
        BadgeKind::Warn => "warn",
    }
}

fn render_template(dir: Option<&std::path::Path>, name: &str, ctx: &J) -> Result<String, String> {
    let src = asset(ASSETS, name, dir)?;
    let mut env = minijinja::Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template_owned(name.to_string(), src.into_owned())
        .map_err(|e| format!("{name}: {e}"))?;
    let t = env.get_template(name).map_err(|e| format!("{name}: {e}"))?;
    t.render(ctx).map_err(|e| format!("{name}: {e:#}"))
}

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

/// A value as the page's `data-value` holds it.
fn data_value(v: &Dynamic) -> String {
    if let Some(x) = as_number(v) {
        return js_number_string(x);
    }
    if let Ok(b) = v.as_bool() {
        return b.to_string();
    }
    v.to_string()
}

/// JSON for embedding in a `<script>` element.
fn script_json(v: &J) -> String {
    serde_json::to_string(v)
        .expect("json")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Compiled expressions translated to JavaScript, numbered in first-use order.
#[derive(Default)]
struct Fns {
    bodies: Vec<String>,
    index: HashMap<(usize, String), usize>,
}

const LAB: usize = usize::MAX;

impl Fns {
    fn add_ast(&mut self, key: (usize, String), ast: &rhai::AST) -> usize {
        if let Some(i) = self.index.get(&key) {
            return *i;
        }
        self.bodies.push(translate(ast));
        let i = self.bodies.len() - 1;
        self.index.insert(key, i);
        i
    }

    fn expr(
        &mut self,
        lab: &CompiledLab,
        part: Option<&CompiledPart>,
        src: &str,
    ) -> Result<usize, String> {
        let src = src.trim();
        let (scope, ce) = match part.and_then(|p| p.exprs.get(src).map(|c| (p.index, c))) {
            Some(x) => x,
            None => (
                LAB,
                lab.exprs
                    .get(src)
                    .ok_or_else(|| format!("internal: expression `{src}` was not compiled"))?,
            ),
        };
        Ok(self.add_ast((scope, src.to_string()), &ce.ast))
    }

    fn script(&self) -> String {
        crate::formula::js::module(&self.bodies)
    }
}

/// A template whose placeholders are recomputed in the page: literal HTML pieces around
/// expression indices.
struct DynTpl {
    lits: Vec<String>,
    /// Expression indices, and `"@name"` for an output (the runtime keeps its text and level
    /// in the scope under that key).
    exprs: Vec<J>,
    srcs: Vec<Ph>,
}

/// A placeholder of a live template.
enum Ph {
    Expr(String),
    Output(String),
}

/// An output shown in prose: its text, and when it has a level, coloured with the level's words
/// beside it (the runtime's `tpl` writes the same).
fn output_html(text: &str, level: Option<&str>) -> String {
    match level {
        Some(l) => format!(
            "<span data-level=\"{}\">{} <span class=\"level-word\">{}</span></span>",
            esc(l),
            esc(text),
            esc(level_words(l))
        ),
        None => esc(text),
    }
}

/// Prose pieces as HTML (Markdown rendered), levelled outputs as [`output_html`].
fn spans_html(spans: &[Span], inline: bool) -> String {
    let md = |s: &str| if inline { md_inline(s) } else { md_block(s) };
    let plain: String = spans.iter().map(|s| s.text.as_str()).collect();
    let mut marked = String::new();
    let mut outs = Vec::new();
    for s in spans {
        match (&s.output, &s.level) {
            (Some(_), Some(l)) => {
                marked.push(TOKEN_OPEN);
                marked.push_str(&outs.len().to_string());
                marked.push(TOKEN_CLOSE);
                outs.push(output_html(&s.text, Some(l)));
            }
            _ => marked.push_str(&s.text.replace([TOKEN_OPEN, TOKEN_CLOSE], "")),
        }
    }
    if outs.is_empty() {
        return md(&plain);
    }
    let mut html = md(&marked);
    for (i, o) in outs.iter().enumerate() {
        let tok = format!("{TOKEN_OPEN}{i}{TOKEN_CLOSE}");
        if !html.contains(&tok) {
            // In a place Markdown rewrites (a link target): the plain text.
            return md(&plain);
        }
        html = html.replacen(&tok, o, 1);
    }
    html
}

impl DynTpl {
    fn json(&self) -> J {
        json!({"l": self.lits, "e": self.exprs})
    }
}

struct PartCx<'a> {
    lab: &'a CompiledLab,
    part: &'a CompiledPart,
    model: &'a Part,
    /// Evaluation at the defaults (live instruments).
    ev: Evaluation,
    /// Evaluation at the prediction's scenario (prose).
    scen: Evaluation,
    tpls: Vec<J>,
}

impl PartCx<'_> {
    /// Prose evaluated at the scenario, as Markdown.
    fn prose(&self, t: &Text, inline: bool) -> Result<String, String> {
        let spans = self
            .lab
            .render_spans(Some(self.part), Some(&self.scen), &t.value, &[])
            .map_err(|e| e.to_string())?;
        Ok(spans_html(&spans, inline))
    }

    /// A live template: registers it and returns `(index, initial HTML)`.
    fn live(&mut self, fns: &mut Fns, t: &Text, inline: bool) -> Result<(usize, String), String> {
        let d = dyn_tpl(self.lab, Some(self.part), fns, &t.value, inline)?;
        let mut html = d.lits[0].clone();
        for (i, src) in d.srcs.iter().enumerate() {
            match src {
                Ph::Expr(src) => {
                    let v = self
                        .lab
                        .eval_expr(Some(self.part), Some(&self.ev), src, &[])
                        .map_err(|e| e.to_string())?;
                    html.push_str(&esc(&display(&v)));
                }
                Ph::Output(name) => {
                    let o = self
                        .lab
                        .output_view(&self.ev, name)
                        .map_err(|e| e.to_string())?;
                    html.push_str(&output_html(&o.display, o.level.as_deref()));
                }
            }
            html.push_str(&d.lits[i + 1]);
        }
        self.tpls.push(d.json());
        Ok((self.tpls.len() - 1, html))
    }

    /// A live template's JSON only (charts: their text is redrawn by charts.js).
    fn tpl_json(&mut self, fns: &mut Fns, t: &Option<Text>, inline: bool) -> Result<J, String> {
        match t {
            None => Ok(J::Null),
            Some(t) => Ok(dyn_tpl(self.lab, Some(self.part), fns, &t.value, inline)?.json()),
        }
    }
}

const TOKEN_OPEN: char = '\u{E000}';
const TOKEN_CLOSE: char = '\u{E001}';

/// Splits a template into literal HTML pieces (Markdown rendered) and placeholder expressions.
fn dyn_tpl(
    lab: &CompiledLab,
    part: Option<&CompiledPart>,
    fns: &mut Fns,
    text: &str,
    inline: bool,
) -> Result<DynTpl, String> {
    let segs = segments(text).map_err(|_| "unclosed placeholder".to_string())?;
    let mut marked = String::new();
    let mut srcs = Vec::new();
    for s in &segs {
        match s {
            Segment::Lit(l) => marked.push_str(&l.replace([TOKEN_OPEN, TOKEN_CLOSE], "")),
            Segment::Expr(..) | Segment::Output(..) => {
                marked.push(TOKEN_OPEN);
                marked.push_str(&srcs.len().to_string());
                marked.push(TOKEN_CLOSE);
                srcs.push(placeholder(s));
            }
        }
    }
    let html = if inline {
        md_inline(&marked)
    } else {
        md_block(&marked)
    };
    // Split the HTML at the tokens; they must all survive, in order.
    let mut lits = Vec::new();
    let mut order = Vec::new();
    let mut rest = html.as_str();
    while let Some(i) = rest.find(TOKEN_OPEN) {
        let after = &rest[i + TOKEN_OPEN.len_utf8()..];
        let Some(j) = after.find(TOKEN_CLOSE) else {
            break;
        };
        let Ok(n) = after[..j].parse::<usize>() else {
            break;
        };
        lits.push(rest[..i].to_string());
        order.push(n);
        rest = &after[j + TOKEN_CLOSE.len_utf8()..];
    }
    lits.push(rest.to_string());
    let ok = order.len() == srcs.len() && order.iter().enumerate().all(|(i, n)| i == *n);
    let (lits, srcs) = if ok {
        (lits, srcs)
    } else {
        // Placeholders in places Markdown rewrites (link targets): plain escaped text instead.
        let mut lits = vec![String::new()];
        let mut srcs = Vec::new();
        for s in &segs {
            match s {
                Segment::Lit(l) => lits.last_mut().expect("one").push_str(&esc(l)),
                Segment::Expr(..) | Segment::Output(..) => {
                    srcs.push(placeholder(s));
                    lits.push(String::new());
                }
            }
        }
        (lits, srcs)
    };
    let mut exprs = Vec::new();
    for s in &srcs {
        exprs.push(match s {
            Ph::Expr(e) => J::from(fns.expr(lab, part, e)?),
            Ph::Output(name) => J::from(format!("@{name}")),
        });
    }
    Ok(DynTpl { lits, exprs, srcs })
}

fn placeholder(s: &Segment) -> Ph {
    match s {
        Segment::Output(name, _) => Ph::Output(name.to_string()),
        Segment::Expr(e, _) | Segment::Lit(e) => Ph::Expr(e.to_string()),
    }
}

fn color_class(c: Option<Color>) -> String {
    match c {
        None => String::new(),
        Some(c) => format!(" color-{}", color_name(Some(c), "text")),
    }
}

/// Decimals a slider shows: its `digits`, else those of its step (none for lists and powers).
pub(crate) fn slider_digits(s: &Slider) -> Option<u32> {
    if s.digits.is_some() || s.exponent_base.is_some() || s.values.is_some() {
        return s.digits;
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
pub(crate) fn control_text(digits: Option<u32>, unit: &Option<String>, v: f64) -> String {
    let n = match digits {
        Some(d) => crate::library::format::fixed(v, d, true),
        None => crate::library::format::auto(v),
    };
    match unit {
        Some(u) if !u.is_empty() => format!("{n} {u}"),
        _ => n,
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => js_number_string(*n),
        Value::Bool(b) => b.to_string(),
        Value::Text(s) => s.clone(),
        _ => String::new(),
    }
}

fn render_page(lab: &CompiledLab, opts: &RenderOptions) -> Result<String, String> {
    let dir = opts.templates.as_deref();
    let l = &lab.lab;
    let mut fns = Fns::default();
    let lt = |x: &Text| -> Result<String, String> {
        lab.render_text(None, None, &x.value, &[])
            .map_err(|e| e.to_string())
    };

    // Header.
    let mut badges = Vec::new();
    for b in &l.badges {
        badges.push(json!({"html": md_inline(&lt(&b.text)?), "kind": badge_kind(b.kind)}));
    }
    let mut objectives = Vec::new();
    for o in &l.objectives {
        objectives.push(json!({
            "title_html": md_inline(&lt(&o.title)?),
            "text_html": match &o.text { Some(x) => md_inline(&lt(x)?), None => String::new() },
        }));
    }
    let mut prereq = Vec::new();
    for p in &l.prerequisites {
        prereq.push(md_inline(&lt(p)?));
    }
    let opt_block = |x: &Option<Text>| -> Result<String, String> {
        Ok(match x {
            Some(t) => md_block(&lt(t)?),
            None => String::new(),
        })
    };
    let title_text = lt(&l.title)?;

    // Parts.
    let mut parts_ctx = Vec::new();
    let mut parts_data = Vec::new();
    for (pi, model) in l.parts.iter().enumerate() {
        let part = &lab.parts[pi];
        let ev = lab
            .evaluate(part, &lab.inputs(part, &Default::default())?)
            .map_err(|e| e.to_string())?;
        let scen = lab
            .evaluate(part, &lab.scenario(part))
            .map_err(|e| e.to_string())?;
        let mut cx = PartCx {
            lab,
            part,
            model,
            ev,
            scen,
            tpls: Vec::new(),
        };
        let (html, data) = render_part(&mut cx, &mut fns)?;
        parts_ctx.push(json!({
            "id": model.id.value,
            "title_html": cx.prose(&model.title, true)?,
            "label": part_label(&model.id.value),
            "html": html,
            "locked": !model.requires.is_empty(),
        }));
        parts_data.push(data);
    }

    // HUD.
    let hud = match &l.hud {
        None => J::Null,
        Some(h) => {
            let mut tiers = Vec::new();
            for t in &h.tiers {
                tiers.push(json!({
                    "name": t.name,
                    "when": match &t.when { Some(w) => J::from(fns.expr(lab, None, &w.value)?), None => J::Null },
                    "color": color_name(t.color, "text"),
                }));
            }
            json!({"parts": h.parts.iter().map(|p| p.value.clone()).collect::<Vec<_>>(), "tiers": tiers,
                   "label": h.label, "chapter_label": h.chapter_label})
        }
    };
    let hud_parts: Vec<J> = match &l.hud {
        Some(h) => h
            .parts
            .iter()
            .map(|p| json!({"id": p.value, "label": part_label(&p.value)}))
            .collect(),
        None => l
            .parts
            .iter()
            .filter(|p| p.prediction.is_some())
            .map(|p| json!({"id": p.id.value, "label": part_label(&p.id.value)}))
            .collect(),
    };

    // Synthesis.
    let synthesis = match &l.synthesis {
        None => J::Null,
        Some(s) => {
            let mut take = Vec::new();
            for o in &s.takeaways {
                take.push(json!({
                    "title_html": md_inline(&lt(&o.title)?),
                    "text_html": match &o.text { Some(x) => md_inline(&lt(x)?), None => String::new() },
                }));
            }
            let mut cards = Vec::new();
            for c in &s.cards {
                cards.push(json!({
                    "title_html": md_inline(&lt(&c.title)?),
                    "body_html": md_block(&lt(&c.body)?),
                    "color": color_class(c.color),
                }));
            }
            let mut sa = Vec::new();
            for q in &s.self_assessment {
                sa.push(md_inline(&lt(q)?));
            }
            json!({
                "takeaways": take,
                "cards": cards,
                "self_assessment": sa,
                "self_assessment_note_html": opt_block(&s.self_assessment_note)?,
                "decision_log": match &s.decision_log {
                    Some(d) => json!({"prompt_html": md_block(&lt(&d.prompt)?), "placeholder": d.placeholder.clone().unwrap_or_default()}),
                    None => J::Null,
                },
            })
        }
    };
    let has_decision_log = l
        .synthesis
        .as_ref()
        .is_some_and(|s| s.decision_log.is_some());

    let chapter = crate::ledger::chapter(l);
    let just_key = crate::ledger::justification_key(l);
    let constants: serde_json::Map<String, J> = lab
        .constants
        .iter()
        .map(|(k, v)| (k.clone(), to_json(v)))
        .collect();
    let data = json!({
        "maxOps": limits::MAX_OPERATIONS,
        "maxSize": [limits::MAX_STRING, limits::MAX_ARRAY, limits::MAX_MAP],
        "ledgerFormat": crate::ledger::FORMAT,
        "lab": {"id": l.id.value, "version": l.version, "chapter": chapter, "title": title_text, "justKey": just_key},
        "constants": constants,
        // The device table only when a formula looks a device up (it is most of the data).
        "hardware": if fns.bodies.iter().any(|b| b.contains("_fn(L,\"hw\"")) { hardware_json() } else { json!({}) },
        "parts": parts_data,
        "hud": hud,
        "hasDecisionLog": has_decision_log,
    });

    let lib_js = minify_js(&asset(ASSETS, "library.js", dir)?);
    let charts_js = minify_js(&asset(ASSETS, "charts.js", dir)?);
    let runtime_js = minify_js(&asset(ASSETS, "runtime.js", dir)?);
    let fn_js = fns.script();
    let scripts = [lib_js, charts_js, fn_js, runtime_js];
    for s in &scripts {
        if s.to_ascii_lowercase().contains("</script") {
            return Err("a page script contains `</script`".into());
        }
    }
    let hashes: Vec<String> = scripts
        .iter()
        .map(|s| format!("'sha256-{}'", hash::sha256_base64(s.as_bytes())))
        .collect();
    let csp = format!(
        "default-src 'none'; script-src {}; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'",
        hashes.join(" ")
    );
    let ctx = json!({
        "lang": "en",
        "title": strip_tags(&md_inline(&title_text)),
        "csp": csp,
        "style": asset(ASSETS, "style.css", dir)?.as_ref(),
        "lab": {
            "id": l.id.value,
            "version": l.version,
            "topic": l.topic.clone().unwrap_or_default(),
            "volume": l.volume, "number": l.number,
            "title_html": md_inline(&title_text),
            "subtitle_html": opt_block(&l.subtitle)?,
            "badges": badges,
            "duration": l.duration.as_ref().map(|d| d.total.clone()).unwrap_or_default(),
            "breakdown": l.duration.as_ref().and_then(|d| d.breakdown.clone()).unwrap_or_default(),
            "objectives": objectives,
            "prerequisites": prereq,
            "core_question_html": opt_block(&l.core_question)?,
            "reading_html": opt_block(&l.reading)?,
        },
        "parts": parts_ctx,
        "synthesis": synthesis,
        "hud": {
            "label": l.hud.as_ref().and_then(|h| h.label.clone()).unwrap_or_default(),
            "chapter_label": l.hud.as_ref().and_then(|h| h.chapter_label.clone()).unwrap_or_default(),
            "parts": hud_parts,
            "has_tiers": l.hud.is_some(),
        },
        "data_json": script_json(&data),
        "scripts": scripts,
    });
    render_template(dir, "page.html.j2", &ctx)
}

fn strip_tags(s: &str) -> String {
    let mut o = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => o.push(c),
            _ => {}
        }
    }
    o
}

fn part_label(id: &str) -> String {
    format!("Part {}", crate::ledger::part_letter(id))
}

/// The HTML of one part (inside its `<section data-part>`) and its runtime data.
fn render_part(cx: &mut PartCx, fns: &mut Fns) -> Result<(String, J), String> {
    let model = cx.model;
    let pid = model.id.value.clone();
    let eid = id_safe(&pid);
    let mut h = String::new();
    let lock_text = model
        .requires
        .iter()
        .map(|r| {
            let (p, w) = r.value.split_once('.').unwrap_or((&r.value, "prediction"));
            format!("{}'s {w}", part_label(p))
        })
        .collect::<Vec<_>>()
        .join(" and ");
    h.push_str(&format!(
        "<div class=\"locked-note\" data-locked{}><span aria-hidden=\"true\">🔒</span> Locked — answer {} first.</div>",
        if model.requires.is_empty() { " hidden" } else { "" },
        esc(&lock_text)
    ));
    h.push_str(&format!(
        "<div class=\"part-body\" data-part-body{}>",
        if model.requires.is_empty() {
            ""
        } else {
            " hidden"
        }
    ));
    if let Some(d) = &model.duration {
        h.push_str(&format!("<p class=\"part-duration\">⏱ {}</p>", esc(d)));
    }
    if let Some(s) = &model.stakeholder {
        h.push_str(&format!(
            "<blockquote class=\"stakeholder{}\"><p class=\"role\">{}</p>{}</blockquote>",
            color_class(s.color),
            cx.prose(&s.role, true)?,
            cx.prose(&s.message, false)?
        ));
    }
    if let Some(c) = &model.concept {
        h.push_str(&format!(
            "<div class=\"concept\">{}</div>",
            cx.prose(c, false)?
        ));
    }
    // Prediction.
    let mut pred_data = J::Null;
    if let Some(p) = &model.prediction {
        h.push_str("<div class=\"prediction\">");
        if let Some(n) = &p.numeric {
            let target = cx
                .scen
                .values
                .get(&n.output.value)
                .and_then(as_number)
                .unwrap_or(f64::NAN);
            h.push_str(&format!(
                "<form class=\"numeric\" data-numeric-form><div class=\"question\" id=\"pq-{eid}\">{}</div><label for=\"pred-{eid}\">Your answer{}</label> <input type=\"number\" step=\"any\" id=\"pred-{eid}\" name=\"prediction-{}\" aria-describedby=\"pq-{eid}\"> <button type=\"submit\">Check</button></form>",
                cx.prose(&p.question, false)?,
                n.unit.as_ref().map(|u| format!(" ({})", esc(u))).unwrap_or_default(),
                esc(&pid)
            ));
            h.push_str("<div class=\"callout\" data-prediction-result role=\"status\" aria-live=\"polite\" hidden><strong data-result-word></strong> ");
            if let Some(t) = &n.correct_feedback {
                h.push_str(&format!(
                    "<div data-numeric-feedback=\"correct\" hidden>{}</div>",
                    cx.prose(t, false)?
                ));
            }
            if let Some(t) = &n.other_feedback {
                h.push_str(&format!(
                    "<div data-numeric-feedback=\"other\" hidden>{}</div>",
                    cx.prose(t, false)?
                ));
            }
            h.push_str("</div>");
            pred_data =
                json!({"numeric": true, "target": target, "tolerance": n.tolerance, "options": []});
        } else {
            h.push_str(&format!(
                "<fieldset><legend>{}</legend>",
                cx.prose(&p.question, true)?
            ));
            let mut opts = Vec::new();
            for (i, o) in p.options.iter().enumerate() {
                let oid = option_id(i, o);
                h.push_str(&format!(
                    "<div class=\"option\"><input type=\"radio\" id=\"pred-{eid}-{}\" name=\"prediction-{}\" value=\"{}\"><label for=\"pred-{eid}-{}\"><span class=\"opt-id\">{}.</span> {}</label></div>",
                    id_safe(&oid), esc(&pid), esc(&oid), id_safe(&oid), esc(&oid), cx.prose(&o.text, true)?
                ));
                opts.push(json!({"id": oid, "correct": o.correct}));
            }
            h.push_str("</fieldset><div class=\"callout\" data-prediction-result role=\"status\" aria-live=\"polite\" hidden><strong data-result-word></strong> ");
            for (i, o) in p.options.iter().enumerate() {
                let fb = o.feedback.as_ref().or(p.other_feedback.as_ref());
                if let Some(fb) = fb {
                    h.push_str(&format!(
                        "<div data-prediction-feedback=\"{}\" hidden>{}</div>",
                        esc(&option_id(i, o)),
                        cx.prose(fb, false)?
                    ));
                }
            }
            h.push_str("</div>");
            pred_data = json!({"numeric": false, "options": opts});
        }
        h.push_str("</div>");
        h.push_str("<p class=\"gate-note\" data-gate-note><span aria-hidden=\"true\">🔒</span> Commit to a prediction to unlock the instruments, the math and the reflection.</p>");
    }
    // Instruments (controls included), gated by the prediction.
    h.push_str(&format!(
        "<div class=\"explore\" data-gated{}>",
        if model.prediction.is_some() {
            " hidden"
        } else {
            ""
        }
    ));
    if let Some(t) = &model.explore_title {
        h.push_str(&format!("<h3>{}</h3>", cx.prose(t, true)?));
    }
    let mut controls = Vec::new();
    if !model.controls.is_empty() {
        h.push_str("<div class=\"controls\">");
        for c in &model.controls {
            let (html, data) = render_control(cx, &eid, c)?;
            h.push_str(&html);
            controls.push(data);
        }
        h.push_str("</div>");
    }
    h.push_str("<p class=\"error\" data-error role=\"alert\" hidden></p>");
    let mut charts = Vec::new();
    for inst in &model.instruments {
        render_instrument(cx, fns, inst, &mut h, &mut charts)?;
    }
    // Banners.
    let mut feedback = Vec::new();
    let mut fb_html = String::new();
    for r in &model.feedback {
        let Some((kind, text)) = r.callout() else {
            continue;
        };
        let when = fns.expr(cx.lab, Some(cx.part), &r.when.value)?;
        let t = dyn_tpl(cx.lab, Some(cx.part), fns, &text.value, true)?;
        let title = match &r.title {
            Some(x) => dyn_tpl(cx.lab, Some(cx.part), fns, &x.value, true)?.json(),
            None => J::Null,
        };
        feedback
            .push(json!({"when": when, "kind": kind.as_str(), "text": t.json(), "title": title}));
    }
    // Initial banners (same markup as the runtime produces) for the first paint.
    let spans = |t: &Text| -> Result<String, String> {
        cx.lab
            .render_spans(Some(cx.part), Some(&cx.ev), &t.value, &[])
            .map(|s| spans_html(&s, true))
            .map_err(|e| e.to_string())
    };
    for r in &model.feedback {
        let Some((kind, text)) = r.callout() else {
            continue;
        };
        let on = cx
            .lab
            .eval_expr(Some(cx.part), Some(&cx.ev), &r.when.value, &[])
            .map_err(|e| e.to_string())?;
        if !on.as_bool().unwrap_or(false) {
            continue;
        }
        let kind = kind.as_str();
        let icon = match kind {
            "success" => "✓",
            "info" => "ℹ",
            "warn" => "⚠",
            _ => "✗",
        };
        let word = match kind {
            "success" => "Success",
            "info" => "Note",
            "warn" => "Warning",
            _ => "Danger",
        };
        fb_html.push_str(&format!(
            "<div class=\"callout {}\" role=\"status\"><span class=\"icon\" aria-hidden=\"true\">{icon}</span><span class=\"sr-kind\">{word}: </span>{}{}</div>",
            kind,
            match &r.title {
                Some(t) => format!("<strong>{}</strong> ", spans(t)?),
                None => String::new(),
            },
            spans(text)?
        ));
    }
    h.push_str(&format!(
        "<div class=\"feedback\" data-feedback-area aria-live=\"polite\">{fb_html}</div>"
    ));
    // Every output, compactly.
    let views = cx.lab.outputs(&cx.ev).map_err(|e| e.to_string())?;
    let mut outputs = Vec::new();
    if !model.outputs.is_empty() {
        h.push_str("<details class=\"all-values\"><summary>All values</summary><table class=\"values\"><tbody>");
        for ((name, o), view) in model.outputs.iter().zip(views.iter()) {
            let v = cx.ev.values.get(name).cloned().unwrap_or(Dynamic::UNIT);
            h.push_str(&format!(
                "<tr><th scope=\"row\">{}</th><td data-output=\"{}\" data-value=\"{}\"{}><span data-text>{}</span>{}</td></tr>",
                esc(&view.label),
                esc(name),
                esc(&data_value(&v)),
                view.level.as_ref().map(|l| format!(" data-level=\"{}\"", esc(l))).unwrap_or_default(),
                esc(&view.display),
                level_span(o.bands.is_some() || o.level.is_some(), view.level.as_deref())
            ));
            let level = match &o.level {
                Some(x) => J::from(fns.expr(cx.lab, Some(cx.part), &x.value)?),
                None => J::Null,
            };
            outputs.push(json!({
                "name": name, "unit": o.unit, "prefix": o.prefix, "digits": o.digits,
                "words": o.words.as_ref().map(|(a, b)| vec![a.clone(), b.clone()]),
                "bands": o.bands.as_ref().map(|b| json!({"good_below": b.good_below, "warn_below": b.warn_below, "good_above": b.good_above, "warn_above": b.warn_above})),
                "level": level,
            }));
        }
        h.push_str("</tbody></table></details>");
    }
    // The math peek and the reflection follow the instruments, behind the same gate (as in the
    // seeds, where everything after the prediction waits for it).
    if let Some(m) = &model.math_peek {
        h.push_str(&format!(
            "<details class=\"math-peek\"><summary>{}</summary>{}</details>",
            cx.prose(&m.title, true)?,
            cx.prose(&m.body, false)?
        ));
    }
    let mut refl_data = J::Null;
    if let Some(r) = &model.reflection {
        h.push_str(&format!(
            "<div class=\"reflection\"><fieldset><legend>Reflection: {}</legend>",
            cx.prose(&r.question, true)?
        ));
        let mut opts = Vec::new();
        for (i, o) in r.options.iter().enumerate() {
            let oid = option_id(i, o);
            h.push_str(&format!(
                "<div class=\"option\"><input type=\"radio\" id=\"refl-{eid}-{}\" name=\"reflection-{}\" value=\"{}\"><label for=\"refl-{eid}-{}\"><span class=\"opt-id\">{}.</span> {}</label></div>",
                id_safe(&oid), esc(&pid), esc(&oid), id_safe(&oid), esc(&oid), cx.prose(&o.text, true)?
            ));
            opts.push(json!({"id": oid, "correct": o.correct}));
        }
        h.push_str("</fieldset><div class=\"callout\" data-reflection-result role=\"status\" aria-live=\"polite\" hidden><strong data-result-word></strong> ");
        for (i, o) in r.options.iter().enumerate() {
            if let Some(fb) = o.feedback.as_ref().or(r.other_feedback.as_ref()) {
                h.push_str(&format!(
                    "<div data-reflection-feedback=\"{}\" hidden>{}</div>",
                    esc(&option_id(i, o)),
                    cx.prose(fb, false)?
                ));
            }
        }
        h.push_str("</div></div>");
        refl_data = json!({"options": opts});
    }
    h.push_str("</div>"); // explore
    h.push_str("</div>"); // part-body

    let formulas: Vec<J> = cx
        .part
        .formulas
        .iter()
        .map(|f| {
            json!([
                f.name,
                fns.add_ast((cx.part.index, format!("formula:{}", f.name)), &f.expr.ast)
            ])
        })
        .collect();
    let constants: serde_json::Map<String, J> = cx
        .part
        .constants
        .iter()
        .map(|(k, v)| (k.clone(), to_json(v)))
        .collect();
    let requires: Vec<J> = model
        .requires
        .iter()
        .map(|r| {
            let (p, w) = r.value.split_once('.').unwrap_or((&r.value, "prediction"));
            json!([p, w])
        })
        .collect();
    let data = json!({
        "id": pid,
        "title": strip_tags(&cx.prose(&model.title, true)?),
        "requires": requires,
        "prediction": pred_data,
        "reflection": refl_data,
        "constants": constants,
        "controls": controls,
        "formulas": formulas,
        "outputs": outputs,
        "tpls": cx.tpls,
        "feedback": feedback,
        "charts": charts,
    });
    Ok((h, data))
}

fn level_word(l: Option<&str>) -> &'static str {
    match l {
        Some("good") => "✓ good",
        Some("warn") => "⚠ warning",
        Some("bad") => "✗ bad",
        _ => "",
    }
}

fn has_level(model: &Part, name: &str) -> bool {
    model
        .outputs
        .get(name)
        .is_some_and(|o| o.bands.is_some() || o.level.is_some())
}

/// The word beside a coloured value (colour is never the only signal); only for outputs that
/// have levels.
fn level_span(has: bool, level: Option<&str>) -> String {
    if has {
        format!(
            " <span class=\"level-word\" data-level-word>{}</span>",
            level_word(level)
        )
    } else {
        String::new()
    }
}

fn id_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn render_control(cx: &mut PartCx, eid: &str, c: &Control) -> Result<(String, J), String> {
    let id = c.id().value.clone();
    let hid = format!("c-{eid}-{}", id_safe(&id));
    let label = cx.prose(c.label(), true)?;
    let default = cx.ev.values.get(&id).cloned().unwrap_or(Dynamic::UNIT);
    let name = esc(&id);
    Ok(match c {
        Control::Slider(s) => {
            let v = as_number(&default).unwrap_or(0.0);
            let digits = slider_digits(s);
            let (min, max, step, pos, values, base) = if let Some(vals) = &s.values {
                let i = vals
                    .value
                    .iter()
                    .position(|x| (x - v).abs() <= 1e-12 * x.abs().max(1.0))
                    .unwrap_or(0);
                (
                    0.0,
                    (vals.value.len().max(1) - 1) as f64,
                    1.0,
                    i as f64,
                    Some(vals.value.clone()),
                    None,
                )
            } else {
                let min = s.min.as_ref().map(|m| m.value).unwrap_or(0.0);
                let max = s.max.as_ref().map(|m| m.value).unwrap_or(100.0);
                let step = s.step.as_ref().map(|m| m.value).unwrap_or(1.0);
                let pos = match s.exponent_base {
                    Some(b) => v.log(b),
                    None => v,
                };
                (min, max, step, pos, None, s.exponent_base)
            };
            let text = control_text(digits, &s.unit, v);
            let html = format!(
                "<div class=\"control slider\"><label for=\"{hid}\">{label}</label><input type=\"range\" id=\"{hid}\" name=\"{name}\" data-control=\"{name}\" min=\"{}\" max=\"{}\" step=\"{}\" value=\"{}\" aria-valuetext=\"{}\"><output for=\"{hid}\" data-control-display=\"{name}\">{}</output></div>",
                js_number_string(min), js_number_string(max), js_number_string(step), js_number_string(pos), esc(&text), esc(&text)
            );
            (
                html,
                json!({"id": id, "kind": "slider", "values": values, "base": base, "digits": digits, "unit": s.unit}),
            )
        }
        Control::Number(n) => {
            let v = as_number(&default).unwrap_or(0.0);
            let html = format!(
                "<div class=\"control number\"><label for=\"{hid}\">{label}</label><input type=\"number\" id=\"{hid}\" name=\"{name}\" data-control=\"{name}\"{}{} step=\"{}\" value=\"{}\">{}</div>",
                n.min.map(|m| format!(" min=\"{}\"", js_number_string(m))).unwrap_or_default(),
                n.max.map(|m| format!(" max=\"{}\"", js_number_string(m))).unwrap_or_default(),
                n.step.map(js_number_string).unwrap_or_else(|| "any".into()),
                js_number_string(v),
                n.unit.as_ref().map(|u| format!(" <span class=\"unit\">{}</span>", esc(u))).unwrap_or_default()
            );
            (
                html,
                json!({"id": id, "kind": "number", "digits": null, "unit": n.unit}),
            )
        }
        Control::Switch(s) => {
            let html = format!(
                "<div class=\"control switch\"><input type=\"checkbox\" role=\"switch\" id=\"{hid}\" name=\"{name}\" data-control=\"{name}\"{}> <label for=\"{hid}\">{label}</label></div>",
                if s.default { " checked" } else { "" }
            );
            (html, json!({"id": id, "kind": "switch"}))
        }
        Control::Select(s) => {
            let mut o = format!(
                "<div class=\"control select\"><label for=\"{hid}\">{label}</label><select id=\"{hid}\" name=\"{name}\" data-control=\"{name}\">"
            );
            let mut values = Vec::new();
            for (lbl, v) in &s.options.value {
                let text = match v {
                    Value::List(_) | Value::Record(_) => lbl.clone(),
                    other => value_text(other),
                };
                o.push_str(&format!(
                    "<option value=\"{}\"{}>{}</option>",
                    esc(&text),
                    if lbl == &s.default.value {
                        " selected"
                    } else {
                        ""
                    },
                    esc(lbl)
                ));
                values.push(to_json(&crate::eval::value_to_dynamic(v)));
            }
            o.push_str("</select></div>");
            (o, json!({"id": id, "kind": "select", "values": values}))
        }
        Control::Checkboxes(cb) => {
            let mut o = format!("<fieldset class=\"control checkboxes\"><legend>{label}</legend>");
            for (k, lbl) in &cb.options {
                let on = cb.default.iter().any(|d| &d.value == k);
                let cid = format!("{hid}-{}", id_safe(k));
                o.push_str(&format!(
                    "<div><input type=\"checkbox\" id=\"{cid}\" name=\"{name}\" data-control=\"{name}\" value=\"{}\"{}> <label for=\"{cid}\">{}</label></div>",
                    esc(k),
                    if on { " checked" } else { "" },
                    esc(lbl)
                ));
            }
            o.push_str("</fieldset>");
            (o, json!({"id": id, "kind": "checkboxes"}))
        }
    })
}

fn render_instrument(
    cx: &mut PartCx,
    fns: &mut Fns,
    inst: &Instrument,
    h: &mut String,
    charts: &mut Vec<J>,
) -> Result<(), String> {
    let views = cx.lab.outputs(&cx.ev).map_err(|e| e.to_string())?;
    let view = |name: &str| views.iter().find(|v| v.name == name);
    match inst {
        Instrument::Panel(p) => {
            let (ti, th) = cx.live(fns, &p.title, true)?;
            h.push_str(&format!(
                "<div class=\"panel\"><div class=\"panel-title\" data-tpl=\"{ti}\">{th}</div>"
            ));
            for line in &p.lines {
                let (li, lh) = cx.live(fns, line, true)?;
                h.push_str(&format!(
                    "<div class=\"panel-line\" data-tpl=\"{li}\">{lh}</div>"
                ));
            }
            h.push_str("</div>");
        }
        Instrument::Metrics(cards) => {
            h.push_str("<div class=\"metrics\">");
            for card in cards {
                let name = &card.output.value;
                let Some(v) = view(name) else { continue };
                let value = cx.ev.values.get(name).cloned().unwrap_or(Dynamic::UNIT);
                let label = match &card.label {
                    Some(t) => {
                        let (i, html) = cx.live(fns, t, true)?;
                        format!("<div class=\"metric-label\" data-tpl=\"{i}\">{html}</div>")
                    }
                    None => format!("<div class=\"metric-label\">{}</div>", esc(&v.label)),
                };
                let caption = match &card.caption {
                    Some(t) => {
                        let (i, html) = cx.live(fns, t, true)?;
                        format!("<div class=\"metric-caption\" data-tpl=\"{i}\">{html}</div>")
                    }
                    None => String::new(),
                };
                h.push_str(&format!(
                    "<div class=\"metric{}\">{label}<div class=\"metric-value\" data-output=\"{}\" data-value=\"{}\"{}><span data-text>{}</span>{}</div>{caption}</div>",
                    color_class(card.color),
                    esc(name),
                    esc(&data_value(&value)),
                    v.level.as_ref().map(|l| format!(" data-level=\"{}\"", esc(l))).unwrap_or_default(),
                    esc(&v.display),
                    level_span(has_level(cx.model, name), v.level.as_deref())
                ));
            }
            h.push_str("</div>");
        }
        Instrument::Table(t) => {
            h.push_str("<table class=\"output-table\">");
            if let Some(title) = &t.title {
                let (i, html) = cx.live(fns, title, true)?;
                h.push_str(&format!("<caption data-tpl=\"{i}\">{html}</caption>"));
            }
            h.push_str("<tbody>");
            for o in &t.outputs {
                let Some(v) = view(&o.value) else { continue };
                let value = cx.ev.values.get(&o.value).cloned().unwrap_or(Dynamic::UNIT);
                h.push_str(&format!(
                    "<tr><th scope=\"row\">{}</th><td data-output=\"{}\" data-value=\"{}\"{}><span data-text>{}</span>{}</td></tr>",
                    esc(&v.label),
                    esc(&o.value),
                    esc(&data_value(&value)),
                    v.level.as_ref().map(|l| format!(" data-level=\"{}\"", esc(l))).unwrap_or_default(),
                    esc(&v.display),
                    level_span(has_level(cx.model, &o.value), v.level.as_deref())
                ));
            }
            h.push_str("</tbody></table>");
        }
        Instrument::Chart(ch) => {
            // Drawn by charts.js on load (the same drawing as `svg::chart_svg`); the page carries
            // no static copy, which would double its size.
            let data = cx.lab.chart(&cx.ev, ch).map_err(|e| e.to_string())?;
            let title = data.title.clone().unwrap_or_else(|| data.id.clone());
            let i = charts.len();
            h.push_str(&format!(
                "<figure class=\"chart\" data-chart=\"{i}\"><p class=\"chart-placeholder\">Chart: {}</p></figure>",
                esc(&title)
            ));
            charts.push(chart_spec(cx, fns, ch)?);
        }
    }
    Ok(())
}

fn chart_spec(cx: &mut PartCx, fns: &mut Fns, ch: &Chart) -> Result<J, String> {
    let (lab, part) = (cx.lab, Some(cx.part));
    let mut e = |fns: &mut Fns, x: &Expr| -> Result<J, String> {
        Ok(J::from(fns.expr(lab, part, &x.value)?))
    };
    let opt = |fns: &mut Fns,
               x: &Option<Expr>,
               e: &mut dyn FnMut(&mut Fns, &Expr) -> Result<J, String>|
     -> Result<J, String> {
        match x {
            Some(x) => e(fns, x),
            None => Ok(J::Null),
        }
    };
    const SERIES_COLORS: [&str; 6] = ["blue", "red", "text", "green", "orange", "purple"];
    let sweep = match &ch.sweep {
        Some(s) => {
            json!({"var": s.var.value, "from": e(fns, &s.from)?, "to": e(fns, &s.to)?, "points": s.points, "step": s.step})
        }
        None => J::Null,
    };
    let mut series = Vec::new();
    for (i, s) in ch.series.iter().enumerate() {
        let mut values = Vec::new();
        for v in &s.values {
            values.push(e(fns, v)?);
        }
        series.push(json!({
            "name": cx.tpl_json(fns, &Some(s.name.clone()), true)?,
            "x": opt(fns, &s.x, &mut e)?,
            "y": opt(fns, &s.y, &mut e)?,
            "values": values,
            "color": color_name(s.color, SERIES_COLORS[i % SERIES_COLORS.len()]),
            "color_when": opt(fns, &s.color_when, &mut e)?,
            "emphasis": opt(fns, &s.emphasis, &mut e)?,
            "dashed": s.dashed,
            "fill": s.fill,
            "text": cx.tpl_json(fns, &s.text, true)?,
        }));
    }
    let mut bars = Vec::new();
    for b in &ch.bars {
        bars.push(json!({
            "label": cx.tpl_json(fns, &Some(b.label.clone()), true)?,
            "value": e(fns, &b.value)?,
            "color": b.color.map(|c| color_name(Some(c), "blue")),
            "color_when": opt(fns, &b.color_when, &mut e)?,
            "text": cx.tpl_json(fns, &b.text, true)?,
        }));
    }
    let mut markers = Vec::new();
    for m in &ch.markers {
        markers.push(json!({
            "name": cx.tpl_json(fns, &Some(m.name.clone()), true)?,
            "x": e(fns, &m.x)?, "y": e(fns, &m.y)?,
            "symbol": m.symbol, "color": color_name(m.color, "orange"),
        }));
    }
    let mut lines = |ls: &[RefLine], fns: &mut Fns| -> Result<Vec<J>, String> {
        let mut v = Vec::new();
        for l in ls {
            v.push(json!({
                "at": e(fns, &l.at)?,
                "label": cx.tpl_json(fns, &l.label, true)?,
                "color": color_name(l.color, "gray"),
                "dashed": l.dashed,
            }));
        }
        Ok(v)
    };
    let hlines = lines(&ch.hlines, fns)?;
    let vlines = lines(&ch.vlines, fns)?;
    let named = ch
        .series
        .iter()
        .filter(|s| !s.name.value.is_empty())
        .count()
        + ch.markers.len();
    let mut e2 = |fns: &mut Fns, x: &Expr| -> Result<J, String> {
        Ok(J::from(fns.expr(lab, part, &x.value)?))
    };
    Ok(json!({
        "id": ch.id.value,
        "kind": ch.kind,
        "title": cx.tpl_json(fns, &ch.title, true)?,
        "x_label": cx.tpl_json(fns, &ch.x.label, true)?,
        "y_label": cx.tpl_json(fns, &ch.y.label, true)?,
        "x_log": ch.x.log, "y_log": ch.y.log,
        "x_min": opt(fns, &ch.x.min, &mut e2)?, "x_max": opt(fns, &ch.x.max, &mut e2)?,
        "y_min": opt(fns, &ch.y.min, &mut e2)?, "y_max": opt(fns, &ch.y.max, &mut e2)?,
        "x_prefix": ch.x.prefix.clone().unwrap_or_default(), "x_suffix": ch.x.suffix.clone().unwrap_or_default(),
        "y_prefix": ch.y.prefix.clone().unwrap_or_default(), "y_suffix": ch.y.suffix.clone().unwrap_or_default(),
        "legend": ch.legend.unwrap_or(named > 1),
        "axes": ch.axes,
        "sweep": sweep,
        "series": series,
        "bars": bars,
        "markers": markers,
        "hlines": hlines,
        "vlines": vlines,
    }))
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
}
