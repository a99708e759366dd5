//! SCORM 1.2 packages: `render --to scorm` writes `STEM.zip` per lab (and `course.zip`, one SCO
//! per lab in order, for a set of labs) that an LMS imports.
//!
//! A package holds `imsmanifest.xml` (`renderers/scorm/imsmanifest.xml.j2`) and the lab's page
//! as the HTML renderer writes it, saved as `index.html`, with one more inline script: the
//! adapter (`renderers/scorm/scorm.js`). The adapter runs before the page's runtime; when it
//! finds an LMS's SCORM 1.2 API it hands the runtime the saved record (`cmi.suspend_data`) and
//! reports each change of the student's record (the runtime's `labforge:record` event) as
//! completion, score and suspend data. Without an LMS it does nothing. The adapter is allowed
//! by its SHA-256 hash in the page's Content-Security-Policy, like the page's own scripts.
//!
//! Zips are deterministic: entries sorted by name, a fixed 1980-01-01 timestamp, fixed
//! permissions and system, the same compression level.

use super::html::{hash::sha256_base64, minify_js, HtmlRenderer};
use super::{asset, OutFile, RenderOptions, Renderer};
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Embedded templates and assets (overridable with `--templates DIR`).
pub const ASSETS: &[(&str, &str)] = &[
    (
        "imsmanifest.xml.j2",
        include_str!("../../../../renderers/scorm/imsmanifest.xml.j2"),
    ),
    (
        "scorm.js",
        include_str!("../../../../renderers/scorm/scorm.js"),
    ),
];

/// The name of the course package written for a set of labs.
pub const COURSE_ZIP: &str = "course.zip";

pub struct ScormRenderer;

impl Renderer for ScormRenderer {
    fn name(&self) -> &'static str {
        "scorm"
    }

    fn render(
        &self,
        lab: &CompiledLab,
        stem: &str,
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        let page = sco_page(lab, stem, opts)?;
        let sco = Sco {
            title: plain_title(lab)?,
            href: "index.html".into(),
        };
        let manifest = manifest(
            &format!("labforge-{}", xml_id(&lab.lab.id.value)),
            &lab.lab.version.to_string(),
            &sco.title,
            std::slice::from_ref(&sco),
            opts,
        )?;
        let bytes = zip(vec![
            ("imsmanifest.xml".into(), manifest.into_bytes()),
            (sco.href, page),
        ])?;
        Ok(vec![OutFile {
            path: PathBuf::from(super::file_name(&format!("{stem}.zip"))),
            bytes,
        }])
    }

    /// `course.zip`: every lab a SCO of its own, in the order given, each in its own folder.
    fn render_index(
        &self,
        labs: &[(String, &CompiledLab)],
        opts: &RenderOptions,
    ) -> Result<Vec<OutFile>, Diagnostic> {
        if labs.is_empty() {
            return Ok(Vec::new());
        }
        let mut scos = Vec::new();
        let mut entries = Vec::new();
        for (i, (stem, lab)) in labs.iter().enumerate() {
            let href = format!("{:02}-{}/index.html", i + 1, xml_id(stem));
            entries.push((href.clone(), sco_page(lab, stem, opts)?));
            scos.push(Sco {
                title: plain_title(lab)?,
                href,
            });
        }
        // A course.yaml names the package; without one it says what it holds.
        let (identifier, title) = match &opts.course {
            Some(c) => (xml_id(&c.id), c.title.clone()),
            None => (
                "labforge-course".to_string(),
                format!("labforge course ({} labs)", labs.len()),
            ),
        };
        let manifest = manifest(&identifier, "1", &title, &scos, opts)?;
        entries.push(("imsmanifest.xml".into(), manifest.into_bytes()));
        Ok(vec![OutFile {
            path: PathBuf::from(COURSE_ZIP),
            bytes: zip(entries)?,
        }])
    }
}

/// One SCO of a manifest: its title and the page it launches.
#[derive(Clone)]
struct Sco {
    title: String,
    href: String,
}

/// The lab's page with the SCORM adapter.
fn sco_page(lab: &CompiledLab, stem: &str, opts: &RenderOptions) -> Result<Vec<u8>, Diagnostic> {
    // The LMS moves between a package's labs: no course-site links (they name sibling pages
    // the package does not have); a lab with tracks is one track's package, with no links to
    // the other tracks' pages.
    let opts = &RenderOptions {
        course: None,
        record: None,
        one_track: true,
        ..opts.clone()
    };
    let page = HtmlRenderer
        .render(lab, stem, opts)?
        .into_iter()
        .next()
        .ok_or("the HTML renderer wrote no page")?;
    let html = String::from_utf8(page.bytes).map_err(|e| Diagnostic::from(e.to_string()))?;
    let adapter = minify_js(&asset(ASSETS, "scorm.js", opts.templates.as_ref())?);
    Ok(with_adapter(&html, &adapter)?.into_bytes())
}

/// `html` with `js` as an inline script placed right after the page's data (before the page's
/// own scripts, so it can hand the runtime the LMS's saved record), and the script's hash added
/// to the `script-src` of the page's Content-Security-Policy.
pub fn with_adapter(html: &str, js: &str) -> Result<String, Diagnostic> {
    if js.to_ascii_lowercase().contains("</script") {
        return Err("the SCORM adapter contains `</script`".into());
    }
    let head_end = html.find("</head>").ok_or("the page has no `</head>`")?;
    let csp = html[..head_end]
        .find("http-equiv=\"Content-Security-Policy\"")
        .ok_or("the page has no Content-Security-Policy in its `<head>`")?;
    let directive = "script-src ";
    let src_at = html[csp..head_end]
        .find(directive)
        .map(|i| csp + i + directive.len())
        .ok_or("the page's Content-Security-Policy has no `script-src`")?;
    let data_at = html
        .find("<script type=\"application/json\" id=\"lf-data\">")
        .ok_or("the page has no `lf-data` script")?;
    let data_end = html[data_at..]
        .find("</script>")
        .map(|i| data_at + i + "</script>".len())
        .ok_or("the page's `lf-data` script is not closed")?;
    let hash = format!("'sha256-{}' ", sha256_base64(js.as_bytes()));
    let script = format!("\n<script data-lf-scorm>{js}</script>");
    let mut out = String::with_capacity(html.len() + hash.len() + script.len());
    out.push_str(&html[..src_at]);
    out.push_str(&hash);
    out.push_str(&html[src_at..data_end]);
    out.push_str(&script);
    out.push_str(&html[data_end..]);
    Ok(out)
}

/// `imsmanifest.xml.j2`'s context.
#[derive(Serialize)]
struct ManifestCtx<'a> {
    identifier: &'a str,
    version: &'a str,
    title: &'a str,
    scos: Vec<ScoCtx<'a>>,
}

/// One SCO as the manifest lists it: its item and its resource's files.
#[derive(Serialize)]
struct ScoCtx<'a> {
    title: &'a str,
    href: &'a str,
    files: [&'a str; 1],
}

fn manifest(
    identifier: &str,
    version: &str,
    title: &str,
    scos: &[Sco],
    opts: &RenderOptions,
) -> Result<String, Diagnostic> {
    let name = "imsmanifest.xml.j2";
    let src = asset(ASSETS, name, opts.templates.as_ref())?;
    let mut env = minijinja::Environment::new();
    env.set_trim_blocks(true);
    env.set_keep_trailing_newline(true);
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template_owned(name.to_string(), src.into_owned())
        .map_err(|e| super::template_error(opts.templates.as_ref(), &e))?;
    let ctx = ManifestCtx {
        identifier,
        version,
        title,
        scos: scos
            .iter()
            .map(|s| ScoCtx {
                title: &s.title,
                href: &s.href,
                files: [&s.href],
            })
            .collect(),
    };
    env.get_template(name)
        .and_then(|t| t.render(ctx))
        .map_err(|e| super::template_error(opts.templates.as_ref(), &e))
}

/// The lab's title as plain text (placeholders filled, Markdown markup dropped).
fn plain_title(lab: &CompiledLab) -> Result<String, Diagnostic> {
    let md = lab
        .render_text(None, None, &lab.lab.title.value, &[])
        .map_err(|e| e.0)?;
    Ok(super::plain_text(&md))
}

/// A name usable in an XML `ID` after a letter prefix and as a folder in a zip: ASCII letters,
/// digits, `-`, `_` and `.`; anything else becomes `_`.
fn xml_id(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() {
        "_".into()
    } else {
        out
    }
}

/// A zip of `entries` (name, bytes), the same bytes for the same entries.
fn zip(mut entries: Vec<(String, Vec<u8>)>) -> Result<Vec<u8>, Diagnostic> {
    use zip::write::SimpleFileOptions;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let opts = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9))
        .last_modified_time(zip::DateTime::default())
        .system(zip::System::Unix)
        .unix_permissions(0o644);
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let err = |e: &dyn std::fmt::Display| format!("zip: {e}");
    for (name, bytes) in &entries {
        w.start_file(name.as_str(), opts).map_err(|e| err(&e))?;
        w.write_all(bytes).map_err(|e| err(&e))?;
    }
    Ok(w.finish().map_err(|e| err(&e))?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_adapter_goes_after_the_data_and_its_hash_into_script_src() {
        let page = "<html><head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-A'; connect-src 'none'\"></head><body><script type=\"application/json\" id=\"lf-data\">{}</script>\n<script>runtime()</script></body></html>";
        let out = with_adapter(page, "adapter()").unwrap();
        let h = sha256_base64(b"adapter()");
        assert!(
            out.contains(&format!("script-src 'sha256-{h}' 'sha256-A';")),
            "{out}"
        );
        let (data, adapter, runtime) = (
            out.find("id=\"lf-data\"").unwrap(),
            out.find("<script data-lf-scorm>adapter()</script>")
                .unwrap(),
            out.find("<script>runtime()</script>").unwrap(),
        );
        assert!(data < adapter && adapter < runtime, "{out}");
        assert!(out.contains("connect-src 'none'"));
        assert!(with_adapter(page, "x('</SCRIPT>')").is_err());
        assert!(with_adapter("<html><head></head><body></body></html>", "a()").is_err());
        // A `script-src` in the body is not the policy's.
        let no_policy = "<html><head></head><body>script-src <script type=\"application/json\" id=\"lf-data\">{}</script></body></html>";
        assert!(with_adapter(no_policy, "a()").is_err());
    }

    #[test]
    fn zips_are_deterministic_and_sorted() {
        let a = zip(vec![
            ("b.txt".into(), b"two".to_vec()),
            ("a.txt".into(), b"one".to_vec()),
        ])
        .unwrap();
        let b = zip(vec![
            ("a.txt".into(), b"one".to_vec()),
            ("b.txt".into(), b"two".to_vec()),
        ])
        .unwrap();
        assert_eq!(a, b);
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(a)).unwrap();
        assert_eq!(z.len(), 2);
        assert_eq!(z.by_index(0).unwrap().name(), "a.txt");
        assert_eq!(
            z.by_index(1).unwrap().last_modified(),
            Some(zip::DateTime::default())
        );
    }

    #[test]
    fn ids_are_ascii_names() {
        assert_eq!(xml_id("fault-tolerance"), "fault-tolerance");
        assert_eq!(xml_id("my lab/é"), "my_lab__");
        assert_eq!(xml_id(""), "_");
    }
}
