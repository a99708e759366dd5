//! Which lab files a command line names: files as given, folders searched for labs (never
//! following a link out of the folder).

use crate::diag::Diagnostic;
use crate::model::Pos;
use std::path::{Path, PathBuf};

/// Lab files named by `paths`: files as given, directories searched (not recursively) for
/// `*.yaml`/`*.yml` (but not a `course.yaml`), sorted by name.
pub fn lab_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|e| {
                Diagnostic::error(
                    &p.display().to_string(),
                    Pos::UNKNOWN,
                    format!("cannot read the directory: {e}"),
                )
            })?;
            let mut files: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file()
                        && f.file_name().is_some_and(|n| n != crate::course::FILE_NAME)
                        && matches!(f.extension().and_then(|x| x.to_str()), Some("yaml" | "yml"))
                })
                .collect();
            files.sort();
            for f in &files {
                leads_outside(p, f)?;
            }
            out.extend(files);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(Diagnostic::error(
                &p.display().to_string(),
                Pos::UNKNOWN,
                "no such file or directory",
            )
            .with_hint("give a lab file (.yaml) or a directory of them"));
        }
    }
    Ok(out)
}

/// A lab found in folder `dir` that is a symbolic link resolving outside `dir`, as an error: a
/// folder of labs is read from inside it (a file named on the command line is the user's own
/// choice, and is read wherever it is).
fn leads_outside(dir: &Path, file: &Path) -> Result<(), Diagnostic> {
    let linked = std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink());
    if !linked {
        return Ok(());
    }
    let (Ok(d), Ok(f)) = (dir.canonicalize(), file.canonicalize()) else {
        return Ok(());
    };
    if f.starts_with(&d) {
        return Ok(());
    }
    Err(Diagnostic::error(
        &file.display().to_string(),
        Pos::UNKNOWN,
        format!(
            "this lab leads outside `{}` (a symbolic link to {}), so it is not read",
            dir.display(),
            f.display()
        ),
    )
    .with_hint("copy the lab into the folder, or name that file itself on the command line"))
}
