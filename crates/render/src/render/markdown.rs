//! Printable handouts: a Markdown handout (with its charts as SVG files next to it), the matching
//! answer key, and a print-ready HTML variant of both.
//!
//! Everything shown comes from the lab's view ([`crate::view`], adapted in [`view`]) laid out by minijinja
//! templates under `renderers/markdown/`, embedded in the binary and overridable file by file
//! with `--templates DIR`. The student handout's model holds no answers, so no template can show
//! them.

mod earlier;
pub mod marks;
pub mod paged;
pub mod view;

use super::{asset, sanitize, OutFile, Overrides, RenderOptions, Renderer};
use crate::diag::Diagnostic;
use crate::eval::chart::ChartData;
use crate::eval::CompiledLab;
use minijinja::{AutoEscape, Environment, Error, ErrorKind, Value};
use pulldown_cmark::Options;
use serde::Serialize;
use std::path::PathBuf;

/// The embedded templates and stylesheet, by file name.
pub const ASSETS: &[(&str, &str)] = &[
    (
        "handout.md.j2",
        include_str!("../../../../renderers/markdown/handout.md.j2"),
    ),
    (
        "earlier.md.j2",
        include_str!("../../../../renderers/markdown/earlier.md.j2"),
    ),
    (
        "earlier.html.j2",
        include_str!("../../../../renderers/markdown/earlier.html.j2"),
    ),
    (
        "key.md.j2",
        include_str!("../../../../renderers/markdown/key.md.j2"),
    ),
    (
        "index.md.j2",
        include_str!("../../../../renderers/markdown/index.md.j2"),
    ),
    (
        "handout.html.j2",
        include_str!("../../../../renderers/markdown/handout.html.j2"),
    ),
    (
        "key.html.j2",
        include_str!("../../../../renderers/markdown/key.html.j2"),
    ),
    (
        "index.html.j2",
        include_str!("../../../../renderers/markdown/index.html.j2"),
    ),
    (
        "print.css",
        include_str!("../../../../renderers/markdown/print.css"),
    ),
];

/// Draws a chart as SVG (the chart model and drawing shared with the HTML page); `uid` makes
/// its element ids unique within a document (`PART-CHART`).
pub fn chart_svg(c: &ChartData, uid: &str) -> String {
    super::svg::chart_svg_with_id(c, uid)
}

/// The width a printed chart is drawn at, in CSS pixels: print.css sets it beside its data, in
/// about half the column, so its 12 px text prints at about 8 pt (drawn at the page's 640 px
/// and shrunk to fit, it printed at 5 pt).
const PRINT_CHART_WIDTH: f64 = 420.0;
/// A printed chart's height as a share of the page's (beside its data, a shorter plot).
const PRINT_CHART_HEIGHT: f64 = 0.65;

/// Draws a chart for the print-ready handout: narrower and shorter than on the page.
pub fn print_chart_svg(c: &ChartData, uid: &str) -> String {
    let mut c = c.clone();
    c.height = (c.height * PRINT_CHART_HEIGHT).round();
    super::svg::chart_svg_sized(&c, uid, PRINT_CHART_WIDTH)
}

/// The Markdown handout: `STEM.md` (or `STEM-key.md`) and `STEM-charts/*.svg`.
pub struct MarkdownRenderer;
/// The print-ready HTML handout: `STEM.html` (or `STEM-key.html`), charts inline.
pub struct HandoutHtmlRenderer;

/// Markdown options used to read prose (the same everywhere: [`sanitize::options`]).
pub fn markdown_options() -> Options {
    sanitize::options()
}

/// Markdown to safe HTML ([`sanitize::html_block`], the policy every HTML output shares).
pub fn md_to_html(s: &str) -> String {
    sanitize::html_block(s)
}

/// Inline Markdown to safe HTML (a single paragraph's `<p>` removed).
pub fn md_inline_to_html(s: &str) -> String {
    sanitize::html_inline(s)
}

/// Prefixes every line with `> ` (a Markdown blockquote).
fn quote(s: &str) -> String {
    s.lines()
        .map(|l| {
            if l.trim().is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Makes text safe inside a Markdown table cell: one line, pipes escaped.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// Escapes text for a Markdown link's alt text or label.
fn alt(s: &str) -> String {
    cell(s).replace('[', "\\[").replace(']', "\\]")
}

/// Marks a paragraph that is only bold text (`**System MTBF**`, a heading in all but name) as
/// `<p class="lead">`, so print keeps it with what follows, as a heading.
fn leads(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(i) = rest.find("<p><strong>") {
        let after = &rest[i + "<p><strong>".len()..];
        let lead = after
            .find("</strong></p>")
            .filter(|&j| !after[..j].contains('<'));
        out.push_str(&rest[..i]);
        match lead {
            Some(_) => out.push_str("<p class=\"lead\"><strong>"),
            None => out.push_str("<p><strong>"),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The template environment: embedded templates, or the instructor's under `templates`.
fn environment(templates: Option<Overrides>) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    // A misspelt field in an instructor's template is an error, not silently empty text.
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    env.set_loader(move |name| match asset(ASSETS, name, templates.as_ref()) {
        Ok(s) => Ok(Some(s.into_owned())),
        Err(e) if e.starts_with("no asset") => Ok(None),
        Err(e) => Err(Error::new(ErrorKind::InvalidOperation, e)),
    });
    // Lab text is escaped wherever it lands: HTML-escaped in `.html.j2` templates (prose goes
    // through `md`/`mdi`, the one sanitising policy), and made inert Markdown in `.md.j2`
    // templates (sanitize::markdown_text), so no payload survives into either.
    env.set_auto_escape_callback(|name| {
        let base = name.strip_suffix(".j2").unwrap_or(name);
        if base.ends_with(".md") {
            AutoEscape::Custom("markdown")
        } else if base.ends_with(".html") {
            AutoEscape::Html
        } else {
            minijinja::default_auto_escape_callback(name)
        }
    });
    env.set_formatter(|out, state, value| {
        if state.auto_escape() == AutoEscape::Custom("markdown") && !value.is_safe() {
            out.write_str(&sanitize::markdown_text(&value.to_string()))?;
            Ok(())
        } else {
            minijinja::escape_formatter(out, state, value)
        }
    });
    env.add_filter("quote", |s: String| {
        Value::from_safe_string(quote(&sanitize::markdown_text(&s)))
    });
    env.add_filter("cell", |s: String| cell(&s));
    env.add_filter("alt", |s: String| alt(&s));
    // The HTML filters draw symbols as SVG (`marks`): printed, they need no font.
    env.add_filter("md", |s: String| {
        Value::from_safe_string(marks::draw(&leads(&md_to_html(&s))))
    });
    env.add_filter("css_string", |s: String| {
        Value::from_safe_string(paged::css_string(&crate::render::plain_text(&s)))
    });
    env.add_filter("mdi", |s: String| {
        Value::from_safe_string(marks::draw(&md_inline_to_html(&s)))
    });
    env.add_function("icon", |name: String| {
        Value::from_safe_string(marks::icon(&name))
    });
    env
}

/// Collapses runs of blank lines (outside fenced code) and trailing spaces; ends with one newline.
pub fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut fence: Option<String> = None;
    let mut blank = true;
    for line in s.lines() {
        let t = line.trim_start();
        let marker: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
        if marker.len() >= 3 {
            match &fence {
                None => fence = Some(marker.clone()),
                Some(f) if t.trim() == f => fence = None,
                _ => {}
            }
            out.push_str(line.trim_end());
            out.push('\n');
            blank = false;
            continue;
        }
        if fence.is_some() {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if line.trim().is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
            continue;
        }
        out.push_str(line.trim_end());
        out.push('\n');
        blank = false;
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Template `name` of `env` (embedded, or the instructor's in `overrides`) filled with `ctx`.
fn render_template(
    env: &Environment<'_>,
    overrides: Option<&Overrides>,
    name: &str,
    ctx: impl Serialize,
) -> Result<String, Diagnostic> {
    let t = env
        .get_template(name)
        .map_err(|e| super::template_error(overrides, &e))?;
    t.render(ctx)
        .map_err(|e| super::template_error(overrides, &e))
}

/// The template and the output file of a handout (`handout.EXT.j2`, `STEM.EXT`) or answer key
/// (`key.EXT.j2`, `STEM-key.EXT`).
fn names(stem: &str, opts: &RenderOptions, ext: &str) -> (String, String) {
    if opts.answer_key {
        (
            format!("key.{ext}.j2"),
            super::file_name(&format!("{stem}-key.{ext}")),
        )
    } else {
        (
            format!("handout.{ext}.j2"),
            super::file_name(&format!("{stem}.{ext}")),
        )
    }
}

impl Renderer for MarkdownRenderer {
    fn name(&self) -> &'static str {
        "markdown"
    }
    fn render(
        &self,
        lab: &CompiledLab,
        stem: &str,
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        let mut doc = view::build(lab, stem, opts.answer_key, &chart_svg)?;
        earlier::add(&mut doc.context, lab, opts);
        let (tpl, file) = names(stem, opts, "md");
        let md = tidy(&render_template(
            &environment(opts.templates.clone()),
            opts.templates.as_ref(),
            &tpl,
            &doc.context,
        )?);
        let mut out = vec![OutFile {
            path: PathBuf::from(file),
            bytes: md.into_bytes(),
        }];
        for (path, svg) in doc.charts {
            out.push(OutFile {
                path: PathBuf::from(path),
                bytes: svg.into_bytes(),
            });
        }
        Ok(out)
    }
    fn render_index(
        &self,
        labs: &[(String, &CompiledLab)],
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        index(labs, opts, "index.md.j2", "index.md", "md")
    }
}

impl Renderer for HandoutHtmlRenderer {
    fn name(&self) -> &'static str {
        "handout-html"
    }
    fn render(
        &self,
        lab: &CompiledLab,
        stem: &str,
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        let mut doc = view::build(lab, stem, opts.answer_key, &print_chart_svg)?;
        earlier::add(&mut doc.context, lab, opts);
        let css = asset(ASSETS, "print.css", opts.templates.as_ref())?.into_owned();
        doc.context.css = Some(css);
        doc.context.paper = Some(opts.paper.css_size());
        let (tpl, file) = names(stem, opts, "html");
        let html = super::csp::with_print_csp(&render_template(
            &environment(opts.templates.clone()),
            opts.templates.as_ref(),
            &tpl,
            &doc.context,
        )?)?;
        Ok(vec![OutFile {
            path: PathBuf::from(file),
            bytes: html.into_bytes(),
        }])
    }
    fn render_index(
        &self,
        labs: &[(String, &CompiledLab)],
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        index(labs, opts, "index.html.j2", "index.html", "html")
    }
}

#[derive(Serialize)]
struct IndexEntry {
    stem: String,
    title: String,
    file: String,
    /// A lab with tracks rendered one file per track: each track's file (else empty).
    tracks: Vec<TrackFile>,
}

#[derive(Serialize)]
struct TrackFile {
    label: String,
    icon: Option<String>,
    file: String,
}

fn index(
    labs: &[(String, &CompiledLab)],
    opts: &RenderOptions,
    tpl: &str,
    out: &str,
    ext: &str,
) -> Result<Vec<OutFile>, Diagnostic> {
    if labs.is_empty() {
        return Ok(Vec::new());
    }
    let entries: Vec<IndexEntry> = labs
        .iter()
        .map(|(stem, lab)| IndexEntry {
            stem: stem.clone(),
            title: lab
                .render_text(None, None, &lab.lab.title.value, &[])
                .unwrap_or_else(|_| lab.lab.title.value.clone()),
            file: names(stem, opts, ext).1,
            tracks: match &lab.track {
                Some(_) if !opts.one_track => lab
                    .tracks
                    .tracks
                    .iter()
                    .map(|t| TrackFile {
                        label: t.label.clone(),
                        icon: t.icon.clone(),
                        file: names(&format!("{stem}.{}", t.id), opts, ext).1,
                    })
                    .collect(),
                _ => Vec::new(),
            },
        })
        .collect();
    let env = environment(opts.templates.clone());
    let css = asset(ASSETS, "print.css", opts.templates.as_ref())?.into_owned();
    let text = render_template(
        &env,
        opts.templates.as_ref(),
        tpl,
        minijinja::context! {
            labs => entries,
            key => opts.answer_key,
            css => css,
            course => opts.course.as_ref().map(|c| c.title.clone()),
        },
    )?;
    let text = if ext == "md" {
        tidy(&text)
    } else {
        super::csp::with_print_csp(&text)?
    };
    Ok(vec![OutFile {
        path: PathBuf::from(out),
        bytes: text.into_bytes(),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_collapses_blank_lines_but_not_in_fences() {
        assert_eq!(tidy("a\n\n\n\nb  \n\n"), "a\n\nb\n");
        assert_eq!(
            tidy("```text\nx\n\n\n\n```\n\n\nc"),
            "```text\nx\n\n\n\n```\n\nc\n"
        );
    }

    #[test]
    fn quote_and_cell() {
        assert_eq!(quote("a\n\nb"), "> a\n>\n> b");
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(md_inline_to_html("**x**"), "<strong>x</strong>");
        assert_eq!(
            leads("<p><strong>A</strong></p>\n<p><strong>B</strong> c</p><p><strong>D <em>e</em></strong></p>"),
            "<p class=\"lead\"><strong>A</strong></p>\n<p><strong>B</strong> c</p><p><strong>D <em>e</em></strong></p>"
        );
    }
}
