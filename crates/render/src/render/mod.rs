//! Renderers: the compiled lab to files a user gets. Each renderer owns its templates and
//! assets under `renderers/<name>/`, embedded in the binary and overridable with `--templates`.

pub mod csp;
pub mod html;
pub mod markdown;
pub mod sanitize;
pub mod scorm;
pub mod svg;

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use std::borrow::Cow;
use std::path::PathBuf;

/// Options shared by renderers.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Produce the answer key instead of the student handout (handout renderers).
    pub answer_key: bool,
    /// The instructor's files that replace the embedded templates/assets of the same name
    /// (`--templates DIR`), read through the driver.
    pub templates: Option<Overrides>,
    /// The paper the print handouts are laid out for.
    pub paper: Paper,
    /// The course the labs are rendered as (a course site: index, prev/next, one record).
    pub course: Option<crate::site::Site>,
    /// A student's course record (`render --record`): the handouts print the decisions its labs
    /// carry forward from it.
    pub record: Option<crate::record::CourseRecord>,
    /// `render --track ID`: a lab with tracks renders that track's page alone, under its plain
    /// name (no sibling pages to link to or move a student to).
    pub one_track: bool,
}

/// Paper sizes of the print handouts (`--paper`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Paper {
    /// US Letter, 8.5 × 11 in (the default: US courses print on it).
    #[default]
    Letter,
    /// ISO A4, 210 × 297 mm.
    A4,
}

impl Paper {
    /// The paper called `name` (`letter`, `a4`; any case).
    pub fn parse(name: &str) -> Option<Paper> {
        match name.to_ascii_lowercase().as_str() {
            "letter" => Some(Paper::Letter),
            "a4" => Some(Paper::A4),
            _ => None,
        }
    }
    /// Its name as `--paper` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Paper::Letter => "letter",
            Paper::A4 => "a4",
        }
    }
    /// The CSS `@page { size: ... }` value.
    pub fn css_size(self) -> &'static str {
        match self {
            Paper::Letter => "letter",
            Paper::A4 => "A4",
        }
    }
}

/// A file a renderer produced, relative to the output directory.
#[derive(Debug, Clone, PartialEq)]
pub struct OutFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// A renderer turns a compiled lab into files.
pub trait Renderer {
    /// Name used by `--to`.
    fn name(&self) -> &'static str;
    /// Files for one lab; `stem` is the lab file's stem.
    fn render(
        &self,
        lab: &CompiledLab,
        stem: &str,
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic>;
    /// Files for a set of labs rendered together (e.g. an index), given `(stem, lab)` pairs.
    fn render_index(
        &self,
        _labs: &[(String, &CompiledLab)],
        _opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        Ok(Vec::new())
    }
}

/// A template's error as a diagnostic. In a template of the instructor's (`--templates DIR`):
/// located in their file, at the line and column minijinja names, with a hint saying whose file
/// it is. In an embedded one (a bug of ours): an error of the lab being rendered, naming the
/// template.
pub fn template_error(overrides: Option<&Overrides>, e: &minijinja::Error) -> Diagnostic {
    let name = e.name().unwrap_or("template").to_string();
    let mut message = e.kind().to_string();
    if let Some(d) = e.detail() {
        message = format!("{message}: {d}");
    }
    let mut src = std::error::Error::source(e);
    while let Some(x) = src {
        message.push_str(&format!(": {x}"));
        src = x.source();
    }
    let theirs = overrides.and_then(|o| Some((o, (o.read)(&name).ok()??)));
    let Some((o, bytes)) = theirs else {
        return Diagnostic::from(format!("{name}: {message}"));
    };
    let text = String::from_utf8_lossy(&bytes);
    let line = e.line().unwrap_or(0) as u32;
    let col = e
        .range()
        .and_then(|r| text.get(..r.start))
        .map_or(1, |before| {
            let start = before.rfind('\n').map_or(0, |k| k + 1);
            before[start..].chars().count() as u32 + 1
        });
    Diagnostic::error(
        &o.dir.join(&name).display().to_string(),
        crate::model::Pos::new(line, if line == 0 { 0 } else { col }),
        message,
    )
    .with_hint(format!(
        "this is your template (--templates {}): fix it, or remove it to use the built-in one",
        o.dir.display()
    ))
}

/// Reads one override by its relative name: `Ok(None)` when the folder has no such file.
pub type ReadOverride = dyn Fn(&str) -> Result<Option<Vec<u8>>, String> + Send + Sync;

/// The instructor's templates and assets (`--templates DIR`): a renderer asks for a file by
/// name, and the driver, which owns the disk, reads it (only inside DIR, bounded: see
/// `labforge_driver::safe_fs::read_inside`).
#[derive(Clone)]
pub struct Overrides {
    /// The folder, for messages.
    pub dir: PathBuf,
    pub read: std::sync::Arc<ReadOverride>,
}

impl std::fmt::Debug for Overrides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overrides").field("dir", &self.dir).finish()
    }
}

/// An embedded asset, or the instructor's file of the same relative name in `overrides`
/// (`--templates DIR`). Every name a template includes comes here too, so only files inside
/// DIR are read; any other name is an error, never a file elsewhere. The text is borrowed when
/// it is the embedded asset and owned exactly when it is the instructor's file.
pub fn asset<'a>(
    embedded: &'a [(&'static str, &'static str)],
    name: &str,
    overrides: Option<&Overrides>,
) -> Result<Cow<'a, str>, String> {
    if let Some(o) = overrides {
        if let Some(bytes) = (o.read)(name)? {
            let p = o.dir.join(name);
            return String::from_utf8(bytes)
                .map(Cow::Owned)
                .map_err(|_| format!("{}: not UTF-8 text", p.display()));
        }
    }
    embedded
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| Cow::Borrowed(*s))
        .ok_or_else(|| format!("no asset `{name}`"))
}

/// Escapes text for HTML/SVG element content and attribute values; drops control characters
/// that XML forbids.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => o.push(c),
        }
    }
    o
}

/// A file or folder name made from lab text (a lab file's stem, part and chart ids): one path
/// component that stays inside the output folder. Separators, `:` and characters Windows
/// forbids become `_`, control characters are dropped, a leading `.` (hidden files, `..`)
/// gets a `_` before it, an empty name becomes `_`, and the name is cut to 200 bytes.
/// Names already safe are returned unchanged.
pub fn file_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            continue;
        }
        let c = if matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
            '_'
        } else {
            c
        };
        if out.len() + c.len_utf8() > 200 {
            break;
        }
        out.push(c);
    }
    if out.is_empty() || out.starts_with('.') {
        out.insert(0, '_');
    }
    out
}

/// The renderer called `name`.
pub fn renderer(name: &str) -> Option<Box<dyn Renderer>> {
    match name {
        "html" => Some(Box::new(html::HtmlRenderer)),
        "markdown" => Some(Box::new(markdown::MarkdownRenderer)),
        "handout-html" => Some(Box::new(markdown::HandoutHtmlRenderer)),
        "scorm" => Some(Box::new(scorm::ScormRenderer)),
        _ => None,
    }
}

/// The text of inline Markdown without its markup (`**When** failure` → `When failure`), for
/// places that take plain text (a print header, an LMS title): raw HTML stays as the text the
/// sanitiser shows, line breaks become spaces, runs of whitespace one space, and control
/// characters are dropped.
pub fn plain_text(md: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let mut s = String::new();
    for ev in Parser::new_ext(md, markdown::markdown_options()) {
        match ev {
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                s.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => s.push(' '),
            _ => {}
        }
    }
    s.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::file_name;
    use std::path::{Component, Path};

    #[test]
    fn file_names_are_one_component_inside_the_folder() {
        for hostile in [
            "/../../../escaped/pwned",
            "..",
            ".",
            "",
            "a/../../b",
            "..\\..\\x",
            "C:\\x",
            "\u{0}x\ny",
            &"é".repeat(300),
        ] {
            let n = file_name(hostile);
            let comps: Vec<Component> = Path::new(&n).components().collect();
            assert!(
                matches!(comps.as_slice(), [Component::Normal(_)]) && !n.starts_with('.'),
                "{hostile:?} -> {n:?}"
            );
            assert!(n.len() <= 200 && file_name(&n) == n, "{n}");
        }
        assert_eq!(file_name("fault-tolerance"), "fault-tolerance");
        assert_eq!(file_name("a-wait.svg"), "a-wait.svg");
        assert_eq!(file_name("my lab"), "my lab");
    }
}
