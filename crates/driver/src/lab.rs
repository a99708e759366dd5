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

/// [`load_lab`], and when the only errors are structural, the lab compiled all the same (see
/// [`compile::compile_salvaging`]).
fn load_lab_salvaging(path: &Path) -> Result<CompiledLab, Salvaged> {
    let source = Source::read(path).map_err(|d| (None, vec![d], None))?;
    let (modules, tracks) = match crate::course::for_lab(path) {
        Ok(Some(course)) => match crate::module::load_all(&course.file.lib) {
            Ok(m) => (m, course.file.tracks),
            Err(d) => return Err((Some(source), d, None)),
        },
        Ok(None) => Default::default(),
        Err((_, d)) => return Err((Some(source), d, None)),
    };
    let lab = match load::parse(&source) {
        Ok(l) => l,
        Err(d) => return Err((Some(source), vec![d], None)),
    };
    compile::compile_salvaging(lab, &source, modules, &tracks, None)
        .map_err(|(d, l)| (Some(source), d, l))
}

type Salvaged = (Option<Source>, Vec<Diagnostic>, Option<Box<CompiledLab>>);

/// The part (by index) each line of the file belongs to: part `i` runs from its first line to
/// the line before the next part's.
fn part_of(lab: &CompiledLab, line: u32) -> Option<usize> {
    let starts: Vec<u32> = lab.lab.parts.iter().map(|p| p.id.pos.line).collect();
    starts.iter().rposition(|s| *s <= line && *s > 0)
}

/// Every diagnostic for one lab file: parse, compile, then the evaluation checks on every
/// track and the check of what it carries from earlier labs of its course.
pub fn diagnose(path: &Path) -> (Option<Source>, Vec<Diagnostic>, Option<CompiledLab>) {
    match load_lab_salvaging(path) {
        // Structural errors in some parts: the evaluation checks still run on the others, so
        // every part's errors are reported together.
        // (An error outside every part, in the constants say, reaches every part: then the
        // errors are all there is to say.)
        Err((src, mut d, Some(lab)))
            if d.iter()
                .filter(|x| x.is_error())
                .all(|x| part_of(&lab, x.line).is_some()) =>
        {
            let broken: Vec<usize> = d
                .iter()
                .filter(|x| x.is_error())
                .filter_map(|x| part_of(&lab, x.line))
                .collect();
            for x in lab.check_semantics() {
                let in_broken = part_of(&lab, x.line).is_some_and(|p| broken.contains(&p));
                if !in_broken && !d.contains(&x) {
                    d.push(x);
                }
            }
            (src, d, None)
        }
        Err((src, d, _)) => (src, d, None),
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

/// [`diagnose`] with `check --strict`: every number in the words a student reads (options,
/// feedback and worked examples too, with or without a unit) that is not a placeholder, a value
/// of the lab at the text's scenario or a declared given is a warning.
pub fn diagnose_strict(path: &Path) -> (Option<Source>, Vec<Diagnostic>, Option<CompiledLab>) {
    let (src, mut d, lab) = diagnose(path);
    if let Some(l) = &lab {
        for x in l.check_numbers(true) {
            if !d.contains(&x) {
                d.push(x);
            }
        }
    }
    (src, d, lab)
}
