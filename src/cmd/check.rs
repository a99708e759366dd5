//! `labforge check`: every diagnostic of every lab named, then a count.

use super::{fail, report};
use crate::lab::{diagnose, diagnose_strict};
use crate::project::labs_of;
use std::path::PathBuf;
use std::process::ExitCode;

/// `labforge check` (`--strict`: every unproven number in the words a student reads too).
pub fn check(paths: &[PathBuf], strict: bool) -> ExitCode {
    let files = match labs_of(paths) {
        Ok((_, files)) => files,
        Err(f) => {
            fail(&f);
            return ExitCode::FAILURE;
        }
    };
    let (mut errors, mut warnings) = (0, 0);
    for f in &files {
        let (src, diags, _) = if strict {
            diagnose_strict(f)
        } else {
            diagnose(f)
        };
        let e = report(&diags, src.as_ref());
        errors += e;
        warnings += diags.len() - e;
    }
    eprintln!(
        "checked {} lab(s): {errors} error(s), {warnings} warning(s)",
        files.len()
    );
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
