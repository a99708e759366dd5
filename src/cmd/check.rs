//! `labforge check`: every diagnostic of every lab named, then a count.

use super::{fail, report};
use crate::lab::diagnose;
use crate::project::labs_of;
use std::path::PathBuf;
use std::process::ExitCode;

/// `labforge check`.
pub fn check(paths: &[PathBuf]) -> ExitCode {
    let files = match labs_of(paths) {
        Ok((_, files)) => files,
        Err(f) => {
            fail(&f);
            return ExitCode::FAILURE;
        }
    };
    let (mut errors, mut warnings) = (0, 0);
    for f in &files {
        let (src, diags, _) = diagnose(f);
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
