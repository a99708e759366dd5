//! `labforge test`: the labs' own tests, on every track.

use super::{fail, load_or_report, report};
use crate::diag::Diagnostic;
use crate::project::labs_of;
use std::path::PathBuf;
use std::process::ExitCode;

/// `labforge test`: runs every lab's tests; last line `N passed, N failed`. The labs are the
/// ones `check` reads ([`labs_of`]: in a course folder, its labs in its order).
pub fn test(paths: &[PathBuf]) -> ExitCode {
    let files = match labs_of(paths) {
        Ok((_, files)) => files,
        Err(f) => {
            fail(&f);
            return ExitCode::FAILURE;
        }
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let Some(lab) = load_or_report(f) else {
            failed += 1;
            println!("FAIL {}: the lab does not compile", f.display());
            continue;
        };
        let semantic: Vec<Diagnostic> = lab
            .check_semantics()
            .into_iter()
            .filter(|d| d.is_error())
            .collect();
        if !semantic.is_empty() {
            report(&semantic, Some(&lab.source));
            println!("FAIL {}: check errors", f.display());
            failed += 1;
        }
        let mut outcomes = lab.run_tests();
        for t in lab.other_tracks() {
            match lab.on_track(&t) {
                Ok(l) => outcomes.extend(l.run_tests()),
                Err(d) => {
                    failed += 1;
                    println!(
                        "FAIL {} [{t}]: the lab does not compile on this track",
                        f.display()
                    );
                    report(&d, Some(&lab.source));
                }
            }
        }
        for o in outcomes {
            if o.passed() {
                passed += 1;
                println!("ok   {} :: {}", f.display(), o.name);
            } else {
                failed += 1;
                println!("FAIL {} :: {}", f.display(), o.name);
                report(&o.failures, Some(&lab.source));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
