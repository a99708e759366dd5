//! Loading a lab as a command means it: the file, the course it sits in (found by walking up
//! to the nearest `course.yaml`), that course's modules and tracks, compiled together.

use crate::diag::Diagnostic;
use crate::eval::{compile, CompiledLab};
use crate::load::{self, Source};
use std::path::Path;

/// Loads and compiles a lab file: parse errors or compile errors as diagnostics.
/// A lab inside a course (a `course.yaml` above it listing it) is compiled with the course's
/// modules.
pub fn load_lab(path: &Path) -> Result<CompiledLab, (Option<Source>, Vec<Diagnostic>)> {
    load_lab_on(path, None)
}

/// [`load_lab`] for one track of the lab's course (or of the lab): `None` for the default one.
pub fn load_lab_on(
    path: &Path,
    track: Option<&str>,
) -> Result<CompiledLab, (Option<Source>, Vec<Diagnostic>)> {
    let source = Source::read(path).map_err(|d| (None, vec![d]))?;
    let (modules, tracks, report) = match crate::course::for_lab(path) {
        Ok(Some(course)) => match crate::module::load_all(&course.file.lib) {
            Ok(m) => (m, course.file.tracks, course.file.report),
            Err(d) => return Err((Some(source), d)),
        },
        Ok(None) => Default::default(),
        Err((_, d)) => return Err((Some(source), d)),
    };
    let mut lab = match load::parse(&source) {
        Ok(l) => l,
        Err(d) => return Err((Some(source), vec![d])),
    };
    // A lab that says nothing of its report takes the course's.
    if lab.report.is_none() {
        lab.report = report;
    }
    compile::compile_on(lab, &source, modules, &tracks, track).map_err(|d| (Some(source), d))
}

/// Every diagnostic for one lab file: parse, compile, then the evaluation checks on every
/// track and the check of what it carries from earlier labs of its course.
pub fn diagnose(path: &Path) -> (Option<Source>, Vec<Diagnostic>, Option<CompiledLab>) {
    match load_lab(path) {
        Err((src, d)) => (src, d, None),
        Ok(lab) => {
            let mut d = lab.check_every_track();
            d.extend(crate::course::carry::check(
                path,
                &lab.lab,
                &lab.source.name,
            ));
            (Some(lab.source.clone()), d, Some(lab))
        }
    }
}
