//! A course: a folder with a `course.yaml` naming its labs in order (and the shared modules
//! under `lib/`). A lab finds its course by walking up from its own file to the nearest
//! `course.yaml`, as Cargo finds `Cargo.toml`; a lab with none above it is a lab on its own.
//!
//! ```yaml
//! title: Machine Learning Systems
//! description: |            # optional, Markdown
//!   Labs for volume 2.
//! labs:                     # in order, relative to course.yaml
//!   - fault-tolerance.yaml
//!   - fleet-orchestration.yaml
//! lib: [lib/comm.yaml]      # optional; default: every lib/*.yaml, sorted
//! tracks:                   # optional: the worlds a student picks one of, for every lab
//!   - { id: iphone, label: iPhone, icon: "📱", device: A17Pro }
//! default_track: iphone     # optional; default: the first
//! ```
//!
//! Unknown keys, missing or repeated lab files and two labs that would render to the same page
//! are errors located in `course.yaml`, with a hint. Every file of a course is read from inside
//! its folder: a lab or module (or a `lib/` folder) that is a symbolic link resolving outside
//! the folder holding `course.yaml` is an error there too, and is never read.

pub mod carry;

use crate::course_file::stem;
use crate::diag::{Diagnostic, Severity};
use crate::load::Source;
use crate::model::{Pos, Spanned};
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub use crate::course_file::{Course, CourseFile, Diagnostics, FILE_NAME};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCourse {
    title: Spanned<String>,
    #[serde(default)]
    description: Option<Spanned<String>>,
    #[serde(default)]
    labs: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    lib: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    tracks: Vec<crate::model::TrackSpec>,
    #[serde(default)]
    default_track: Option<Spanned<String>>,
    #[serde(default)]
    report: Option<crate::model::ReportSpec>,
}

/// The nearest `course.yaml` at or above the lab file's folder, if any.
pub fn find_for(lab_path: &Path) -> Option<PathBuf> {
    let abs = if lab_path.is_absolute() {
        lab_path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(lab_path)
    };
    let mut dir = abs.parent();
    while let Some(d) = dir {
        let c = d.join(FILE_NAME);
        if c.is_file() {
            return Some(c);
        }
        dir = d.parent();
    }
    None
}

/// The `course.yaml` directly in `dir`, if there is one (`render DIR`, `check DIR`).
pub fn in_dir(dir: &Path) -> Option<PathBuf> {
    let c = dir.join(FILE_NAME);
    (dir.is_dir() && c.is_file()).then_some(c)
}

/// The course the lab at `lab_path` belongs to: the nearest `course.yaml` above it, loaded,
/// when it lists this lab. `Ok(None)` when there is none or it does not list the lab.
pub fn for_lab(lab_path: &Path) -> Result<Option<Course>, Diagnostics> {
    let Some(p) = find_for(lab_path) else {
        return Ok(None);
    };
    let course = load(&p)?;
    Ok(course.position(lab_path).is_some().then_some(course))
}

/// The course record's key: a slug of the title and the first 8 hex digits of the SHA-256 of the
/// exact title (`machine-learning-systems-1a2b3c4d`). Two courses whose titles slug alike keep
/// apart; renaming the course starts a new record.
pub fn course_id(title: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut slug = String::new();
    for c in title.trim().chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 40 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    let hash = Sha256::digest(title.as_bytes());
    let hex: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    if slug.is_empty() {
        format!("course-{hex}")
    } else {
        format!("{slug}-{hex}")
    }
}

/// Where a lab file is in its course: found on disk, so the driver's (the type is the core's).
pub trait Locate {
    /// The index of `lab_path` among the course's labs (compared as canonical paths).
    fn position(&self, lab_path: &Path) -> Option<usize>;
}

impl Locate for Course {
    fn position(&self, lab_path: &Path) -> Option<usize> {
        let want = std::fs::canonicalize(lab_path).ok()?;
        self.canonical
            .iter()
            .position(|c| c.as_ref() == Some(&want))
    }
}

/// Reads and checks `course.yaml`.
pub fn load(path: &Path) -> Result<Course, Diagnostics> {
    let source = Source::read(path).map_err(|d| (None, vec![d]))?;
    let raw: RawCourse = match serde_saphyr::from_str::<Option<RawCourse>>(&source.text) {
        Ok(Some(r)) => r,
        Ok(None) => {
            let d = Diagnostic::error(&source.name, Pos::new(1, 1), "the course file is empty")
                .with_hint("write `title:` and `labs:` (a list of lab files, in order)");
            return Err((Some(source), vec![d]));
        }
        Err(e) => {
            let d = course_yaml_diagnostic(&source, &e);
            return Err((Some(source), vec![d]));
        }
    };
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut diags = Vec::new();
    let name = source.name.clone();
    if raw.title.value.trim().is_empty() {
        diags.push(
            Diagnostic::error(&name, raw.title.pos, "the course title is empty")
                .with_hint("write the course's name, e.g. `title: Machine Learning Systems`"),
        );
    }
    let mut labs = Vec::new();
    let mut canonical = Vec::new();
    // Each listed lab with its canonical path, found once: finding every earlier lab's again for
    // each entry made loading a course (once per lab checked) grow with the square of its labs.
    let mut seen: Vec<(PathBuf, PathBuf, String, Pos)> = Vec::new();
    match &raw.labs {
        None => diags.push(
            Diagnostic::error(&name, Pos::new(1, 1), "course.yaml needs a `labs:` key")
                .with_hint("add `labs:`, the course's lab files in order, relative to course.yaml"),
        ),
        Some(l) if l.value.is_empty() => diags.push(
            Diagnostic::error(&name, l.pos, "the course lists no labs")
                .with_hint("list the lab files in order, e.g. `labs: [labs/intro.yaml]`"),
        ),
        Some(l) => {
            for entry in &l.value {
                match check_lab_entry(&dir, entry, &name, &seen) {
                    Ok(p) => {
                        let found = std::fs::canonicalize(&p).ok();
                        let canon = found.clone().unwrap_or_else(|| p.clone());
                        seen.push((p.clone(), canon, entry.value.clone(), entry.pos));
                        canonical.push(found);
                        labs.push(p);
                    }
                    Err(d) => diags.push(d),
                }
            }
        }
    }
    let lib = match &raw.lib {
        Some(list) => {
            let mut v = Vec::new();
            for e in list {
                let p = dir.join(&e.value);
                if relative_inside(&e.value) && p.is_file() {
                    match outside(&dir, &p) {
                        Some(d) => diags.push(d.at(&name, e.pos, &e.value)),
                        None => v.push(p),
                    }
                } else {
                    diags.push(
                        Diagnostic::error(
                            &name,
                            e.pos,
                            format!("no module file `{}` in the course folder", e.value),
                        )
                        .maybe_hint(
                            crate::diag::did_you_mean(
                                &e.value,
                                yaml_files_in(&dir.join("lib"))
                                    .iter()
                                    .map(|f| format!("lib/{f}"))
                                    .collect::<Vec<_>>()
                                    .iter()
                                    .map(String::as_str),
                            )
                            .or(Some(
                                "list module files relative to course.yaml, e.g. `lib/comm.yaml`"
                                    .into(),
                            )),
                        ),
                    );
                }
            }
            v
        }
        None => {
            let mut v = Vec::new();
            for f in yaml_files_in(&dir.join("lib")) {
                let p = dir.join("lib").join(&f);
                // No `lib:` line to point at: the message names the file.
                match outside(&dir, &p) {
                    Some(d) => diags.push(d.at(&name, Pos::new(1, 1), &format!("lib/{f}"))),
                    None => v.push(p),
                }
            }
            v
        }
    };
    let tracks =
        crate::load::tracks::check(&raw.tracks, raw.default_track.as_ref(), &name, &mut diags);
    if let Some(r) = &raw.report {
        report_default(r, &name, &mut diags);
    }
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err((Some(source), diags));
    }
    let title = raw.title.value.trim().to_string();
    Ok(Course {
        id: course_id(&title),
        file: CourseFile {
            title,
            description: raw.description.map(|d| d.value),
            labs,
            lib,
            tracks,
            report: raw.report,
        },
        path: path.to_path_buf(),
        dir,
        source,
        canonical,
    })
}

/// One `labs:` entry: a relative `.yaml` path to an existing file, not listed before, whose page
/// name no earlier lab has.
fn check_lab_entry(
    dir: &Path,
    entry: &Spanned<String>,
    file: &str,
    seen: &[(PathBuf, PathBuf, String, Pos)],
) -> Result<PathBuf, Diagnostic> {
    let rel = entry.value.trim();
    let err = |m: String| Diagnostic::error(file, entry.pos, m);
    if !relative_inside(rel) {
        return Err(err(format!("`{rel}` is not a path inside the course folder")).with_hint(
            "list labs relative to course.yaml, without `..` or a leading `/`, e.g. `labs/intro.yaml`",
        ));
    }
    let p = dir.join(rel);
    if !p.is_file() {
        let siblings = p.parent().map(yaml_files_in).unwrap_or_default();
        let prefix = Path::new(rel)
            .parent()
            .map(|d| d.to_string_lossy().into_owned())
            .filter(|d| !d.is_empty())
            .map(|d| format!("{d}/"))
            .unwrap_or_default();
        let names: Vec<String> = siblings.iter().map(|s| format!("{prefix}{s}")).collect();
        let hint = crate::diag::did_you_mean(rel, names.iter().map(String::as_str))
            .unwrap_or_else(|| "list lab files relative to course.yaml".into());
        return Err(err(format!("no lab file `{rel}` in the course folder")).with_hint(hint));
    }
    if !matches!(p.extension().and_then(|x| x.to_str()), Some("yaml" | "yml")) {
        return Err(err(format!("`{rel}` is not a lab file (.yaml)"))
            .with_hint("list the labs' YAML files"));
    }
    if let Some(o) = outside(dir, &p) {
        return Err(o.at(file, entry.pos, rel));
    }
    let canon = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
    for (q, q_canon, earlier, pos) in seen {
        if *q_canon == canon {
            return Err(err(format!(
                "`{rel}` is listed twice (first at line {})",
                pos.line
            ))
            .with_hint(format!(
                "remove this entry; `{earlier}` is already in the course"
            )));
        }
        if stem(q) == stem(&p) {
            return Err(err(format!(
                "`{rel}` and `{earlier}` (line {}) would render to the same page `{}.html`",
                pos.line,
                stem(&p)
            ))
            .with_hint("rename one of the files: a course's pages sit side by side"));
        }
    }
    Ok(p)
}

/// Where a file of the course leads when it resolves outside the course folder.
struct Outside(Option<PathBuf>);

impl Outside {
    /// The error, located at `pos` in `course.yaml` (`file`), naming the entry `rel`.
    fn at(self, file: &str, pos: Pos, rel: &str) -> Diagnostic {
        let to = match self.0 {
            Some(t) => format!("to {}", crate::safe_fs::shown(&t)),
            None => "that cannot be followed".into(),
        };
        Diagnostic::error(
            file,
            pos,
            format!("`{rel}` leads outside the course folder (a symbolic link {to})"),
        )
        .with_hint("labforge reads a course's labs and modules only from inside the folder holding course.yaml: copy the file into it instead of linking to it")
    }
}

/// `Some` when `p` (a file in the course folder `dir`, or a link there) resolves outside `dir`.
fn outside(dir: &Path, p: &Path) -> Option<Outside> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let root = std::fs::canonicalize(dir).ok()?;
    crate::safe_fs::resolve_inside(&root, p).err().map(Outside)
}

/// A relative path that goes only downwards.
fn relative_inside(p: &str) -> bool {
    use std::path::Component;
    let p = Path::new(p.trim());
    p.components().any(|c| matches!(c, Component::Normal(_)))
        && p.components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The `*.yaml` file names directly in `dir`, sorted.
fn yaml_files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    v.sort();
    v
}

/// The course's default `report:`: what a lab's may say but its key outputs, which are a lab's
/// own (the lab's check does the rest once a lab takes it, `load::report`).
fn report_default(r: &crate::model::ReportSpec, file: &str, diags: &mut Vec<Diagnostic>) {
    if let Some(o) = r.outputs.as_ref().and_then(|o| o.first()) {
        diags.push(
            Diagnostic::error(file, o.pos, "a course's `report:` names no outputs")
                .with_hint("key outputs are a lab's: list them in that lab's own `report:`"),
        );
    }
    for s in r.sections.iter().flatten() {
        if !crate::model::report::SECTIONS.contains(&s.value.as_str()) {
            let hint =
                crate::diag::did_you_mean(&s.value, crate::model::report::SECTIONS.iter().copied())
                    .unwrap_or_else(|| {
                        format!(
                            "a part's sections: {}",
                            crate::model::report::SECTIONS.join(", ")
                        )
                    });
            diags.push(
                Diagnostic::error(
                    file,
                    s.pos,
                    format!("the report has no section `{}`", s.value),
                )
                .with_hint(hint),
            );
        }
    }
    if let Some(t) = r
        .title
        .as_ref()
        .filter(|t| t.value.trim().is_empty() || t.value.contains('\n'))
    {
        diags.push(
            Diagnostic::error(file, t.pos, "the report's `title` must be one line of text")
                .with_hint("e.g. `title: Lab memo`"),
        );
    }
    for t in r
        .title
        .iter()
        .chain(r.intro.iter())
        .filter(|t| t.value.contains("{{"))
    {
        diags.push(
            Diagnostic::error(
                file,
                t.pos,
                "the report's text takes no `{{ }}` placeholders",
            )
            .with_hint(
                "write the text plainly: the report prints each student's settings and outputs",
            ),
        );
    }
}

/// A YAML error as the lab parser words it, with the course's own keys in the hints.
fn course_yaml_diagnostic(source: &Source, e: &serde_saphyr::Error) -> Diagnostic {
    let d = crate::load::yaml_diagnostic(source, e);
    const KEYS: [&str; 7] = [
        "title",
        "description",
        "labs",
        "lib",
        "tracks",
        "default_track",
        "report",
    ];
    let hint = if d.message.contains("` is not a key this mapping takes") {
        let name = d.message.split('`').nth(1).unwrap_or("");
        crate::diag::did_you_mean(name, KEYS)
            .unwrap_or_else(|| "a course.yaml has `title`, `description`, `labs` and `lib`".into())
    } else if let Some(rest) = d.message.strip_prefix("this mapping needs a `") {
        format!(
            "add `{}` to course.yaml",
            rest.split('`').next().unwrap_or("")
        )
    } else {
        d.hint
            .clone()
            .unwrap_or_else(|| "check the YAML on this line and the one before".into())
    };
    d.with_hint(hint)
}

#[cfg(test)]
mod tests;
