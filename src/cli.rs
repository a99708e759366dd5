//! Command implementations shared by `main.rs` (kept here so tests can call them).

use crate::diag::Diagnostic;
use crate::load::{self, Source};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn default_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from("labs")]
    } else {
        paths.to_vec()
    }
}

/// Prints diagnostics to stderr with their source lines. Returns the number of errors.
pub fn report(diags: &[Diagnostic], source: Option<&Source>) -> usize {
    for d in diags {
        eprint!("{}", d.render(source.map(|s| s.text.as_str())));
    }
    diags.iter().filter(|d| d.is_error()).count()
}

/// Loads one lab file; diagnostics printed.
pub fn check_file(path: &Path) -> (usize, usize) {
    let source = match Source::read(path) {
        Ok(s) => s,
        Err(d) => return (report(&[d], None), 0),
    };
    let diags: Vec<Diagnostic> = match load::parse(&source) {
        Ok(_) => vec![],
        Err(d) => vec![d],
    };
    let errors = report(&diags, Some(&source));
    (errors, diags.len() - errors)
}

/// `labforge check`.
pub fn check(paths: &[PathBuf]) -> ExitCode {
    let files = match load::lab_files(&default_paths(paths)) {
        Ok(f) => f,
        Err(d) => {
            report(&[d], None);
            return ExitCode::FAILURE;
        }
    };
    let (mut errors, mut warnings) = (0, 0);
    for f in &files {
        let (e, w) = check_file(f);
        errors += e;
        warnings += w;
    }
    eprintln!("checked {} lab(s): {errors} error(s), {warnings} warning(s)", files.len());
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
