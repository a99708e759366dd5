//! The static HTML page: one self-contained `.html` file per lab, opened from disk (no network,
//! no server). Formulas are translated from Rhai to JavaScript at render time
//! ([`crate::formula::js::translate`]) and run by `renderers/html/runtime.js`, so the page shows
//! the same numbers as `labforge eval`. What the scripts read is one typed value, the page data
//! ([`data::PageData`], built here and in `part`, `chart`, `live`, `carried`, `course` and
//! `tracks`); what the templates read are typed contexts too ([`ctx`]: the view's values,
//! borrowed, plus their HTML and the page's live pieces).
//!
//! Safety: every piece of lab text is escaped; Markdown is rendered with raw HTML turned into
//! text and unsafe link schemes removed; a Content-Security-Policy allows only the page's own
//! scripts (by SHA-256 hash), no network and no eval.

mod carried;
mod chart;
mod course;
mod ctx;
mod data;
mod features;
pub(crate) mod hash;
mod libjs;
mod live;
mod md;
mod minify;
mod pack;
mod part;
mod report;
mod tracks;

use super::{asset, OutFile, Overrides, RenderOptions, Renderer};
use crate::diag::Diagnostic;
use crate::eval::chart::color_name;
use crate::eval::{CompiledLab, Span};
use crate::formula::limits;
use crate::view::format::level_word;
use crate::view::{self, Prose};
use live::{spans_html, Fns, PartCx};
use md::md_inline;
use minijinja::{Environment, Error, ErrorKind, Value};
use serde_json::Value as J;
use std::path::PathBuf;

pub use crate::view::format::js_number_string;
pub use hash::sha256_base64;
pub use md::escape as esc;
pub use minify::{minify_js, strip_js};

/// Embedded templates and assets (overridable with `--templates DIR`).
pub const ASSETS: &[(&str, &str)] = &[
    (
        "page.html.j2",
        include_str!("../../../../renderers/html/page.html.j2"),
    ),
    (
        "index.html.j2",
        include_str!("../../../../renderers/html/index.html.j2"),
    ),
    (
        "part.html.j2",
        include_str!("../../../../renderers/html/part.html.j2"),
    ),
    (
        "control.html.j2",
        include_str!("../../../../renderers/html/control.html.j2"),
    ),
    (
        "instrument.html.j2",
        include_str!("../../../../renderers/html/instrument.html.j2"),
    ),
    (
        "lock.html.j2",
        include_str!("../../../../renderers/html/lock.html.j2"),
    ),
    (
        "questions.html.j2",
        include_str!("../../../../renderers/html/questions.html.j2"),
    ),
    (
        "value-row.html.j2",
        include_str!("../../../../renderers/html/value-row.html.j2"),
    ),
    (
        "style.css",
        include_str!("../../../../renderers/html/style.css"),
    ),
    (
        "runtime.js",
        include_str!("../../../../renderers/html/runtime.js"),
    ),
    (
        "rhai.js",
        include_str!("../../../../renderers/html/rhai.js"),
    ),
    (
        "format.js",
        include_str!("../../../../renderers/html/format.js"),
    ),
    (
        "charts.js",
        include_str!("../../../../renderers/html/charts.js"),
    ),
    (
        "tabs.js",
        include_str!("../../../../renderers/html/tabs.js"),
    ),
    (
        "questions.js",
        include_str!("../../../../renderers/html/questions.js"),
    ),
    (
        "chart-model.js",
        include_str!("../../../../renderers/html/chart-model.js"),
    ),
    (
        "ledger.js",
        include_str!("../../../../renderers/html/ledger.js"),
    ),
    (
        "report.js",
        include_str!("../../../../renderers/html/report.js"),
    ),
    (
        "tracks.js",
        include_str!("../../../../renderers/html/tracks.js"),
    ),
    (
        "boot.js",
        include_str!("../../../../renderers/html/boot.js"),
    ),
    (
        "first-paint.js",
        include_str!("../../../../renderers/html/first-paint.js"),
    ),
    (
        "course.js",
        include_str!("../../../../renderers/html/course.js"),
    ),
    (
        "course-index.js",
        include_str!("../../../../renderers/html/course-index.js"),
    ),
    (
        "earlier.html.j2",
        include_str!("../../../../renderers/html/earlier.html.j2"),
    ),
    (
        "carried.html.j2",
        include_str!("../../../../renderers/html/carried.html.j2"),
    ),
    (
        "course-index.html.j2",
        include_str!("../../../../renderers/html/course-index.html.j2"),
    ),
    (
        "library.js",
        include_str!("../../../../renderers/html/library.js"),
    ),
];

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
    ) -> Result<Vec<OutFile>, Diagnostic> {
        lab.start_update(); // one render, one total work budget
        let html = render_page(lab, stem, opts)?;
        Ok(vec![OutFile {
            path: PathBuf::from(super::file_name(&format!("{stem}.html"))),
            bytes: html.into_bytes(),
        }])
    }

    fn render_index(
        &self,
        labs: &[(String, &CompiledLab)],
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        if let Some(site) = &opts.course {
            return course::index(site, opts);
        }
        let dir = opts.templates.as_ref();
        let style = asset(ASSETS, "style.css", dir)?;
        let mut items = Vec::new();
        for (stem, lab) in labs {
            let h = view::header(lab)?;
            items.push(ctx::IndexLab {
                href: format!("{}.html", url_escape(stem)),
                title_html: spans_html(&h.title.0, true),
                topic: h.topic.clone().unwrap_or_default(),
                duration: h.duration.clone().unwrap_or_default(),
                badges: h.badges.iter().map(ctx::BadgeCtx::of).collect(),
                objectives: h.objectives.iter().map(ctx::LeadCtx::of).collect(),
                parts: lab.lab.parts.len(),
            });
        }
        let ctx = ctx::IndexCtx {
            labs: items,
            style: style.as_ref(),
            csp: "default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; script-src 'none'; form-action 'none'; base-uri 'none'",
        };
        let html = render_template(dir, "index.html.j2", &ctx)?;
        Ok(vec![OutFile {
            path: PathBuf::from("index.html"),
            bytes: html.into_bytes(),
        }])
    }
}

pub(crate) fn url_escape(s: &str) -> String {
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

/// The page's template environment: the embedded templates, or an instructor's of the same
/// name under `dir`. HTML templates autoescape (with [`esc`]); prose reaches them as
/// [`Prose`] and becomes HTML through the `inline` and `block` filters (Markdown with raw HTML
/// shown as text, so already safe).
fn environment(dir: Option<&Overrides>) -> Environment<'static> {
    let dir = dir.cloned();
    let mut env = Environment::new();
    env.set_auto_escape_callback(|name| {
        if name.ends_with(".html.j2") {
            minijinja::AutoEscape::Html
        } else {
            minijinja::AutoEscape::None
        }
    });
    env.set_formatter(|out, state, value| {
        if !value.is_safe() && state.auto_escape() == minijinja::AutoEscape::Html {
            if let Some(s) = value.as_str() {
                return out.write_str(&esc(s)).map_err(Error::from);
            }
        }
        minijinja::escape_formatter(out, state, value)
    });
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    env.set_loader(move |name| match asset(ASSETS, name, dir.as_ref()) {
        Ok(s) => Ok(Some(s.into_owned())),
        Err(e) if e.starts_with("no asset") => Ok(None),
        Err(e) => Err(Error::new(ErrorKind::InvalidOperation, e)),
    });
    env.add_filter("inline", |p: Value| prose_filter(&p, true));
    env.add_filter("block", |p: Value| prose_filter(&p, false));
    env.add_filter("id", |s: String| part::id_safe(&s));
    env.add_filter("num", |x: f64| js_number_string(x));
    env.add_filter("level_word", |l: Option<String>| level_word(l.as_deref()));
    env
}

/// A serialised [`Prose`] (`{text, spans}`) as HTML.
fn prose_filter(p: &Value, inline: bool) -> Result<Value, Error> {
    if p.is_none() || p.is_undefined() {
        return Ok(Value::from(""));
    }
    let j = serde_json::to_value(p)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    let Some(spans) = j.get("spans").and_then(|s| s.as_array()) else {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "`inline`/`block` expects prose (a value with `spans`)",
        ));
    };
    let spans: Vec<Span> = spans
        .iter()
        .map(|s| Span {
            text: s["text"].as_str().unwrap_or_default().to_string(),
            level: s["level"].as_str().map(String::from),
            output: s["output"].as_str().map(String::from),
        })
        .collect();
    Ok(Value::from_safe_string(spans_html(&spans, inline)))
}

/// Template `name` rendered with `ctx` (a context of [`ctx`], or `course.rs`'s).
fn render_template(
    dir: Option<&Overrides>,
    name: &str,
    ctx: &impl serde::Serialize,
) -> Result<String, Diagnostic> {
    let env = environment(dir);
    let t = env
        .get_template(name)
        .map_err(|e| super::template_error(dir, &e))?;
    render_with(&t, ctx).map_err(|e| super::template_error(dir, &e))
}

/// `t` rendered with `ctx` as its JSON: what the templates have always read (a number that is
/// not finite is `none`, map keys are strings).
fn render_with(
    t: &minijinja::Template<'_, '_>,
    ctx: &impl serde::Serialize,
) -> Result<String, Error> {
    let j = serde_json::to_value(ctx)
        .map_err(|e| Error::new(ErrorKind::InvalidOperation, e.to_string()))?;
    t.render(j)
}

/// JSON for embedding in a `<script>` element.
fn script_json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v)
        .expect("json")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn render_page(lab: &CompiledLab, stem: &str, opts: &RenderOptions) -> Result<String, Diagnostic> {
    let dir = opts.templates.as_ref();
    let l = &lab.lab;
    let mut fns = Fns::default();
    let v = view::lab(lab, true)?;
    let h = &v.header;
    let html = |p: &Prose, inline: bool| spans_html(&p.0, inline);
    let opt_block = |x: &Option<Prose>| x.as_ref().map(|t| html(t, false)).unwrap_or_default();

    // Header.
    let prereq: Vec<String> = h.prerequisites.iter().map(|p| html(p, true)).collect();
    let title_text = h.title.plain();
    // A lab with tracks: this page's track, its siblings, and the stem the course knows it by.
    let track = tracks::page(lab, stem, opts.one_track);
    let site_stem = track.as_ref().map_or(stem, |t| t.base.as_str());
    let page_track = track.as_ref().filter(|t| !t.home).map(|t| t.now.as_str());
    let course = opts
        .course
        .as_ref()
        .and_then(|site| course::page(site, site_stem, l, page_track));
    let earlier_in = |part: &str| -> Vec<&course::Earlier> {
        course
            .iter()
            .flat_map(|c| &c.earlier_parts)
            .filter(|(p, _)| p == part)
            .map(|(_, e)| e)
            .collect()
    };

    // Parts.
    let env = environment(dir);
    let part_tpl = env
        .get_template("part.html.j2")
        .map_err(|e| super::template_error(dir, &e))?;
    let mut parts_ctx = Vec::new();
    let mut parts_data = Vec::new();
    for ((model, part), pv) in l.parts.iter().zip(&lab.parts).zip(&v.parts) {
        let at = |e: Diagnostic| view::in_part(lab, part, e);
        let ev = lab
            .inputs(part, &Default::default())
            .map_err(|e| at(e.into()))
            .and_then(|i| {
                lab.evaluate(part, &i)
                    .map_err(|e| at(Diagnostic::from(e.to_string())))
            })?;
        let mut cx = PartCx {
            lab,
            part,
            ev,
            tpls: Vec::new(),
        };
        let (ctx, mut data) = part::part(&mut cx, &mut fns, model, pv).map_err(at)?;
        data.records = carried::records(lab, &pv.id);
        // The earlier parts it reads (`parts.a.x`): computed at their settings, first.
        if !part.reads_parts.is_empty() {
            data.earlier = Some(part.reads_parts.clone());
        }
        let body = render_with(&part_tpl, &ctx).map_err(|e| at(super::template_error(dir, &e)))?;
        parts_ctx.push(ctx::PartTab {
            id: &pv.id,
            title_html: html(&pv.title, true),
            label: &pv.label,
            html: body,
            locked: !pv.requires.is_empty(),
            earlier: earlier_in(&pv.id),
        });
        parts_data.push(data);
    }

    // HUD.
    let hud = match &l.hud {
        None => None,
        Some(h) => {
            let mut tiers = Vec::new();
            for t in &h.tiers {
                tiers.push(data::TierData {
                    name: t.name.clone(),
                    when: match &t.when {
                        Some(w) => Some(fns.expr(lab, None, &w.value)?),
                        None => None,
                    },
                    color: color_name(t.color, "text"),
                });
            }
            Some(data::HudData {
                parts: h.parts.iter().map(|p| p.value.clone()).collect(),
                tiers,
                label: l.hud_label(),
                chapter_label: h.chapter_label.clone(),
            })
        }
    };
    let hud_parts: Vec<ctx::HudPart> = match &l.hud {
        Some(h) => h.parts.iter().map(|p| ctx::HudPart::of(&p.value)).collect(),
        None => l
            .parts
            .iter()
            .filter(|p| p.prediction.is_some())
            .map(|p| ctx::HudPart::of(&p.id.value))
            .collect(),
    };

    // Synthesis.
    let synthesis = v.synthesis.as_ref().map(|s| ctx::SynthesisCtx {
        takeaways: s.takeaways.iter().map(ctx::LeadCtx::of).collect(),
        cards: s
            .cards
            .iter()
            .map(|c| ctx::CardCtx {
                title_html: html(&c.title, true),
                body_html: html(&c.body, false),
                color: c
                    .color
                    .as_ref()
                    .map(|c| format!(" color-{c}"))
                    .unwrap_or_default(),
            })
            .collect(),
        self_assessment: s.self_assessment.iter().map(|q| html(q, true)).collect(),
        self_assessment_note_html: opt_block(&s.self_assessment_note),
        decision_log: s.decision_log.as_ref().map(|d| ctx::DecisionLogCtx {
            prompt_html: html(&d.prompt, false),
            placeholder: d.placeholder.clone().unwrap_or_default(),
        }),
    });
    let has_decision_log = l
        .synthesis
        .as_ref()
        .is_some_and(|s| s.decision_log.is_some());

    let chapter = crate::ledger::chapter(l);
    let just_key = crate::ledger::justification_key(l);
    // The page's translated script: every formula, series and placeholder, and the lab and
    // module functions they call. What it calls decides which library pieces the page carries.
    let fn_js = fns.script(lab);
    let constants = lab
        .constants
        .iter()
        .map(|(name, v)| {
            let mut c = data::ConstData::whole(v);
            if [crate::load::tracks::TRACK, crate::load::tracks::VARIANT].contains(&name.as_str()) {
                c.keep = read_fields(name, v, &fn_js);
            }
            (name.as_str(), c)
        })
        .collect();
    // The models likewise, and only when a formula calls `model`: most pages carry none.
    let models = libjs::models_for(&fn_js, lab.modules.iter().flat_map(|m| &m.file.models));
    let carried = carried::reads(lab, opts.course.as_ref());

    // The optional features the page's formulas, placeholders and functions (`fn_js`) use.
    let mut extra = page_features(l);
    if track.is_some() {
        extra.push("tracks");
    }
    if carried.is_some() {
        extra.push("reads");
    }
    if !l.records.is_empty() {
        extra.push("records");
    }
    if lab.parts.iter().any(|p| !p.reads_parts.is_empty()) {
        extra.push("parts");
    }
    extra.extend(chart::features_used(l));
    // Locked predictions read across parts (`prediction.a`), or placeholders that say a
    // prediction is not answered yet.
    let reads_preds = fn_js.contains("_prop(S.prediction,");
    if reads_preds || !fns.pread.is_empty() {
        extra.push("xpart");
    }
    let on = features::used(std::slice::from_ref(&fn_js), &extra);
    let preds = reads_preds.then(|| {
        data::InOrder(
            l.parts
                .iter()
                .filter_map(|p| {
                    let pr = p.prediction.as_ref()?;
                    let kind = if pr.numeric.is_some() {
                        "number"
                    } else {
                        "text"
                    };
                    Some((p.id.value.clone(), kind))
                })
                .collect(),
        )
    });
    for p in &mut parts_data {
        // Only parts that read `prediction` say so (the runtime reads it absent as false).
        p.preds &= reads_preds;
        if !on.contains("answer") {
            // No expression reads `answer`: the runtime does not bind it, the parts need not
            // say how.
            p.answer = None;
        }
    }
    let data = data::PageData {
        max_ops: limits::MAX_OPERATIONS,
        lab_ops: limits::LAB_OPERATIONS,
        max_size: [limits::MAX_STRING, limits::MAX_ARRAY, limits::MAX_MAP],
        ledger_format: crate::ledger::FORMAT,
        lab: data::LabData {
            id: l.id.value.clone(),
            version: l.version,
            chapter,
            title: title_text.clone(),
            just_key,
        },
        constants: data::InOrder(constants),
        // The device table only when a formula looks a device up (it is most of the data).
        hardware: libjs::hardware_for(&fn_js, lab.modules.iter().flat_map(|m| &m.file.devices)),
        parts: parts_data,
        hud,
        has_decision_log,
        // The lab report's plan (report.js fills it from the record as Rust does).
        report: report::plan(lab)?,
        models: (!models.0.is_empty()).then_some(models),
        course: course.as_ref().map(|c| c.data.clone()),
        track: track.as_ref().map(|t| t.data.clone()),
        reads: carried.as_ref().map(|(d, _)| d.clone()),
        preds,
        pread: (!fns.pread.is_empty()).then_some(&fns.pread),
        // The words of the errors the page can raise (a lab function's only with functions, a
        // log sweep's only with one).
        msg: data::InOrder(crate::formula::messages::table_for(|k| match k {
            crate::formula::messages::IN_FUNCTION => fn_js.contains("_in("),
            crate::formula::messages::LOG_SWEEP => on.contains("logsweep"),
            crate::formula::messages::BINS_LIST
            | crate::formula::messages::BINS_COUNT
            | crate::formula::messages::BINS_RANGE => on.contains("hist"),
            _ => true,
        })),
    };
    let script = |name: &str| page_script(name, dir, &on);
    // The library, with the scripts of the namespaces the formulas call.
    let lib_js = format!(
        "{}{}",
        script("library.js")?,
        minify_js(&libjs::topic_scripts(&fn_js))
    );
    let charts_js = script("charts.js")?;
    // The runtime's script element holds Rhai's semantics (`labforgeRhai`), the page's way
    // of writing values (`labforgeFormat`), the chart model (`labforgeChartModel`), the record
    // and report (`labforgeLedger`) and, for a lab with questions, their script, before the
    // runtime that runs the page with them.
    let mut names = vec![
        "rhai.js",
        "format.js",
        "chart-model.js",
        "ledger.js",
        "report.js",
    ];
    if on.contains("questions") {
        names.push("questions.js");
    }
    if on.contains("tracks") {
        names.push("tracks.js");
    }
    names.push("runtime.js");
    let runtime_js = names
        .iter()
        .map(|n| script(n))
        .collect::<Result<Vec<_>, _>>()?
        .join("\n");
    // The course record's script runs before the runtime reads saved progress.
    // The formulas' script is read as written above (which library pieces, features and
    // fields it uses); the page carries it minified.
    let mut scripts = vec![lib_js, charts_js, minify_js(&fn_js)];
    if course.is_some() {
        // A lab page cleans only its own lab's record (the others pass through, to their own
        // page and the index): the question rule comes when this lab asks questions.
        scripts.push(script("course.js")?);
    }
    scripts.push(runtime_js);
    // The head's script decides how long the first paint waits; the tabs (one part at a time)
    // run right after the markup, before the data and the scripts above (page.html.j2).
    let key = J::from(format!("labforge:{}:v{}", l.id.value, l.version)).to_string();
    let head_js = page_script_with("first-paint.js", dir, &on, |s| {
        s.replace("\"LF_KEY\"", &key)
    })?;
    let tabs_js = script("tabs.js")?;
    let boot_js = script("boot.js")?;
    for s in scripts.iter().chain([&head_js, &tabs_js, &boot_js]) {
        if s.to_ascii_lowercase().contains("</script") {
            return Err("a page script contains `</script`".into());
        }
    }
    let hashes: Vec<String> = [&head_js, &tabs_js, &boot_js]
        .into_iter()
        .chain(&scripts)
        .map(|s| format!("'sha256-{}'", hash::sha256_base64(s.as_bytes())))
        .collect();
    let csp = format!(
        "default-src 'none'; script-src {}; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'",
        hashes.join(" ")
    );
    let style = minify::compact_css(&features::strip(&asset(ASSETS, "style.css", dir)?, &on));
    let packed = pack::pack(&scripts)?;
    let ctx = ctx::PageCtx {
        lang: "en",
        title: strip_tags(&md_inline(&title_text)),
        csp,
        style,
        lab: ctx::LabCtx {
            id: &l.id.value,
            version: l.version,
            topic: l.topic.as_deref().unwrap_or_default(),
            volume: l.volume,
            number: l.number,
            title_html: md_inline(&title_text),
            subtitle_html: opt_block(&h.subtitle),
            badges: h.badges.iter().map(ctx::BadgeCtx::of).collect(),
            duration: l.duration.as_ref().map_or("", |d| d.total.as_str()),
            breakdown: l
                .duration
                .as_ref()
                .and_then(|d| d.breakdown.as_deref())
                .unwrap_or_default(),
            objectives: h.objectives.iter().map(ctx::LeadCtx::of).collect(),
            prerequisites: prereq,
            core_question_html: opt_block(&h.core_question),
            reading_html: opt_block(&h.reading),
        },
        parts: parts_ctx,
        synthesis,
        hud: ctx::HudCtx {
            label: l
                .hud
                .as_ref()
                .and_then(|_| l.hud_label())
                .unwrap_or_default(),
            chapter_label: l
                .hud
                .as_ref()
                .and_then(|h| h.chapter_label.clone())
                .unwrap_or_default(),
            parts: hud_parts,
            // A standing only with tiers: without them the HUD shows the parts alone (the
            // schema's promise; "Standing: not started" stayed for ever).
            has_tiers: l.hud.as_ref().is_some_and(|h| !h.tiers.is_empty()),
        },
        data_json: script_json(&data),
        // `scripts` stays for an instructor's own page.html.j2 that writes them out (allowed by
        // their hashes as before); ours carries them packed, for boot.js.
        packed,
        scripts: &scripts,
        boot_script: boot_js,
        head_script: head_js,
        tabs_script: tabs_js,
        course: course.as_ref().map(|c| &c.ctx),
        track: track.as_ref().map(|t| &t.ctx),
        earlier: course.as_ref().map_or(&[], |c| c.earlier_top.as_slice()),
        carried: carried.map(|c| c.1),
    };
    render_template(dir, "page.html.j2", &ctx)
}

/// A script of `renderers/html/` for a page, with the optional features in `on` kept (see
/// `features`): minified, or, when the `--templates` folder (`dir`) has its own copy, only
/// stripped, so an instructor's script that leans on automatic semicolon insertion keeps
/// working.
fn page_script(
    name: &str,
    dir: Option<&Overrides>,
    on: &std::collections::BTreeSet<&'static str>,
) -> Result<String, Diagnostic> {
    page_script_with(name, dir, on, |s| s)
}

/// `page_script`, with `fill` applied to the script's text before it is minified (what only
/// the page knows, such as its lab's storage key in `first-paint.js`).
fn page_script_with(
    name: &str,
    dir: Option<&Overrides>,
    on: &std::collections::BTreeSet<&'static str>,
    fill: impl Fn(String) -> String,
) -> Result<String, Diagnostic> {
    let raw = asset(ASSETS, name, dir)?;
    // An instructor's own script (`--templates`) is kept as written: `asset` hands it over owned.
    let own = matches!(raw, std::borrow::Cow::Owned(_));
    let src = fill(features::strip(&raw, on));
    Ok(if own { strip_js(&src) } else { minify_js(&src) })
}

/// The optional script features the lab's parts use (see `features`).
fn page_features(lab: &crate::model::Lab) -> Vec<&'static str> {
    use crate::model::Control;
    let mut on = Vec::new();
    let controls = || lab.parts.iter().flat_map(|p| &p.controls);
    if controls().any(|c| matches!(c, Control::Radio(_))) {
        on.push("radio");
    }
    let numeric = || {
        lab.parts
            .iter()
            .filter_map(|p| p.prediction.as_ref()?.numeric.as_ref())
    };
    if numeric().any(|n| !n.bands.is_empty()) {
        on.push("bands");
    }
    if lab.parts.iter().any(|p| !p.questions.is_empty()) {
        on.push("questions");
    }
    if lab.parts.iter().any(|p| !p.lab_controls.is_empty()) {
        on.push("shared");
    }
    for b in &lab.badges {
        match b.kind {
            crate::model::BadgeKind::Danger => on.push("badge-danger"),
            crate::model::BadgeKind::Success => on.push("badge-success"),
            _ => {}
        }
    }
    on
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

/// `track` and `variant` hold every field of the track and every variant value, most of them
/// read only by prose the page receives already rendered. The page's copy keeps the fields its
/// script reads, each as `_prop(S.NAME,"FIELD")`: their names, for the record `v` of constant
/// `name`; `None` (whole) when `v` is not a record or the script reads it any other way (a
/// computed key, the record itself).
fn read_fields(
    name: &str,
    v: &rhai::Dynamic,
    script: &str,
) -> Option<std::collections::BTreeSet<String>> {
    if !v.is::<rhai::Map>() {
        return None;
    }
    let any = format!("S.{name}");
    let lit = format!("_prop(S.{name},\"");
    let (all, by_name) = (script.matches(&any).count(), script.matches(&lit).count());
    if all != by_name {
        return None;
    }
    let read = script
        .split(&lit)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(String::from)
        .collect();
    Some(read)
}
