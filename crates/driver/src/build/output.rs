//! Output folders: a render writes only inside its folder (no link followed, no path leading
//! up), and a folder holds one kind of output — students' or keys', one format — so one render
//! never replaces another's. A folder that may not take a render is a diagnostic of the folder
//! with a hint; a file it refuses is the caller's to place (`build::unwritten`).

use crate::diag::Diagnostic;
use std::path::Path;

/// The file that says whose folder an output folder is and what it holds: `student FORMAT` or
/// `answer-key FORMAT` (`student html`, `answer-key markdown`; an older labforge wrote the kind
/// alone).
pub const OUTPUT_MARK: &str = ".labforge-output";

/// What a folder of `format` output holds, in the words of a message.
fn holding(format: &str, key: bool) -> String {
    let what = match (format, key) {
        ("html", _) => "the interactive pages",
        ("handout-html", false) => "the print handouts",
        ("handout-html", true) => "the print answer keys",
        ("markdown", false) => "the Markdown handouts",
        ("markdown", true) => "the Markdown answer keys",
        ("scorm", _) => "the SCORM packages",
        _ => "labforge output",
    };
    let key = if key { " --answer-key" } else { "" };
    format!("{what} (--to {format}{key})")
}

/// The mark in `out`, if any: (is it a key folder, its format if the mark says). A mark that is
/// a link is refused like any link in an output folder.
fn read_mark(out: &Path) -> Result<Option<(bool, Option<String>)>, String> {
    use std::io::Read;
    if !out.is_dir() {
        // Not there yet (or not a folder: writing into it will say so).
        return Ok(None);
    }
    let rel = Path::new(OUTPUT_MARK);
    crate::safe_fs::check_inside(out, rel)?;
    let mut text = String::new();
    match std::fs::File::open(out.join(rel)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", out.join(rel).display())),
        Ok(f) => {
            let _ = f.take(256).read_to_string(&mut text);
        }
    }
    let mut words = text.split_whitespace();
    let key = words.next() == Some("answer-key");
    Ok(Some((key, words.next().map(str::to_string))))
}

/// The format of the labforge output in a folder an older labforge marked without one: SCORM
/// packages, Markdown handouts, interactive pages (with scripts) or print handouts.
fn format_in(out: &Path) -> Option<&'static str> {
    use std::io::Read;
    let mut found = None;
    for e in std::fs::read_dir(out).into_iter().flatten().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if n.ends_with(".zip") {
            return Some("scorm");
        } else if n.ends_with(".md") {
            return Some("markdown");
        } else if regular && n.ends_with(".html") && n != "index.html" {
            let mut head = String::new();
            if let Ok(f) = std::fs::File::open(e.path()) {
                let _ = f.take(512 * 1024).read_to_string(&mut head);
            }
            found = Some(if head.contains("<script") {
                "html"
            } else {
                "handout-html"
            });
        }
    }
    found
}

/// Checks that `out` may receive `format` output for students (or, with `key`, answer keys):
/// a folder marked for the other kind ([`mark_output_dir`]), or (written before folders were
/// marked) holding the other kind's files, is an error, and so is a folder holding another
/// format's output (`--to handout-html` would replace the pages and index of `--to html`),
/// before anything is written. Publishing a student folder can then never publish a key,
/// whatever order the renders ran in, and one render never silently replaces another's. The
/// error is a diagnostic of the folder, with what to do as its hint.
pub fn check_output_dir(out: &Path, key: bool, format: &str) -> Result<(), Diagnostic> {
    let folder = out.display().to_string();
    let refuse = |message: String, hint: String| {
        Err(Diagnostic::error(&folder, Default::default(), message).with_hint(hint))
    };
    let other = if key { "student" } else { "answer-key" };
    let hint = if key {
        "render keys to a folder of their own (the default is build/key/FORMAT)"
    } else {
        "render student output to a folder without keys (the default is build/FORMAT)"
    };
    let mark = read_mark(out).map_err(|e| {
        Diagnostic::error(&folder, Default::default(), e)
            .with_hint("remove it or render to another folder")
    })?;
    match mark {
        Some((k, _)) if k != key => {
            return refuse(
                format!(
                    "holds {other} output; {} are never written beside it",
                    if key {
                        "answer keys"
                    } else {
                        "student handouts"
                    }
                ),
                hint.into(),
            )
        }
        Some((_, theirs)) => {
            // A word the mark should not hold is no format: the files say what is there.
            let theirs = theirs
                .filter(|t| crate::render::renderer(t).is_some())
                .or_else(|| format_in(out).map(str::to_string));
            if let Some(t) = theirs.filter(|t| t != format) {
                let default = if key {
                    format!("build/key/{format}")
                } else {
                    format!("build/{format}")
                };
                return refuse(
                    format!(
                        "holds {}; --to {format} would write over them (index included)",
                        holding(&t, key)
                    ),
                    format!("render each format to a folder of its own (without -o, {default}), or empty {folder} first"),
                );
            }
        }
        None => {
            // An unmarked folder: look for the other kind's files.
            let clash = std::fs::read_dir(out)
                .into_iter()
                .flatten()
                .flatten()
                .find(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    let is_key = n.contains("-key.");
                    let is_output = n.ends_with(".md") || n.ends_with(".html");
                    is_output && n != "index.md" && n != "index.html" && is_key != key
                });
            if let Some(e) = clash {
                return refuse(
                    format!(
                        "already holds {} ({})",
                        if key {
                            "student output"
                        } else {
                            "an answer key"
                        },
                        e.file_name().to_string_lossy()
                    ),
                    hint.into(),
                );
            }
        }
    }
    Ok(())
}

/// Marks `out` as a folder of student output or of answer keys, of `format` (when the first
/// file is written into it).
pub fn mark_output_dir(out: &Path, key: bool, format: &str) -> Result<(), String> {
    let mine = format!("{} {format}\n", if key { "answer-key" } else { "student" });
    if read_mark(out)? == Some((key, Some(format.to_string()))) {
        return Ok(());
    }
    crate::safe_fs::write_inside(out, Path::new(OUTPUT_MARK), mine.as_bytes())
}

/// Writes rendered files under `out` through [`crate::safe_fs::write_inside`]. A file's path
/// must be relative and go only downwards (no root, drive prefix, `.` or `..` component), and
/// no symbolic link may be on its way or at its place: all are checked before any is written.
pub fn write_files(out: &Path, files: &[crate::render::OutFile]) -> Result<(), String> {
    for f in files {
        crate::safe_fs::check_inside(out, &f.path)?;
    }
    for f in files {
        crate::safe_fs::write_inside(out, &f.path, &f.bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::write_files;
    use crate::render::OutFile;
    use std::path::PathBuf;

    #[test]
    fn write_files_refuses_paths_leaving_the_output_folder() {
        let tmp = std::env::temp_dir().join(format!("lf-write-files-{}", std::process::id()));
        let out = tmp.join("out");
        for bad in ["../x.svg", "/tmp/x.svg", "a/../../x.svg", "./../x", ""] {
            let f = OutFile {
                path: PathBuf::from(bad),
                bytes: b"x".to_vec(),
            };
            let ok = OutFile {
                path: PathBuf::from("fine.md"),
                bytes: b"y".to_vec(),
            };
            let e = write_files(&out, &[ok, f]).unwrap_err();
            assert!(e.contains("refusing"), "{bad}: {e}");
            // Nothing at all was written.
            assert!(!out.join("fine.md").exists(), "{bad}");
        }
        assert!(!tmp.join("x.svg").exists());
        write_files(
            &out,
            &[OutFile {
                path: PathBuf::from("lab-charts/a-wait.svg"),
                bytes: b"z".to_vec(),
            }],
        )
        .unwrap();
        assert!(out.join("lab-charts/a-wait.svg").exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
