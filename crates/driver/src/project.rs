//! What a command line names: lab files and folders, or a course (a folder holding a
//! `course.yaml`, or one lab file that a `course.yaml` above it lists). Nothing is printed:
//! a problem is a [`Failure`] for the commands' printer.

use crate::course::{self, Course};
use crate::diag::Diagnostic;
use crate::load::Source;
use std::path::{Path, PathBuf};

/// Why a command cannot go on: located diagnostics (with the text they point into, when it
/// could be read), or a message about the command line itself.
#[derive(Debug, Clone)]
pub enum Failure {
    Diagnostics(Option<Source>, Vec<Diagnostic>),
    Message(String),
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Message(m)
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure::Diagnostics(None, vec![d])
    }
}

/// The paths as given, or `labs/` when none are.
pub fn default_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from("labs")]
    } else {
        paths.to_vec()
    }
}

/// Lab files under the given paths ([`crate::discover::lab_files`]); none at all is a failure.
pub fn lab_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    match crate::discover::lab_files(&default_paths(paths)) {
        Ok(f) if f.is_empty() => Err(Failure::Message(format!(
            "no lab files (*.yaml) under {}",
            default_paths(paths)
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        Ok(f) => Ok(f),
        Err(d) => Err(Failure::Diagnostics(None, vec![d])),
    }
}

/// The course `paths` name: a folder holding a `course.yaml` (or no paths: `labs/`), or one lab
/// file listed by the nearest `course.yaml` above it.
pub fn course_of(paths: &[PathBuf]) -> Result<Option<Course>, Failure> {
    let paths = default_paths(paths);
    let found = match paths.as_slice() {
        [p] if p.is_dir() => course::in_dir(p).map(|c| course::load(&c)),
        [p] if p.is_file() => match course::for_lab(p) {
            Ok(c) => c.map(Ok),
            Err(e) => Some(Err(e)),
        },
        _ => None,
    };
    match found {
        None => Ok(None),
        Some(Ok(c)) => Ok(Some(c)),
        Some(Err((src, d))) => Err(Failure::Diagnostics(src, d)),
    }
}

/// The labs `paths` name, with their course: a course's labs in its order, or [`lab_files`].
pub fn labs_of(paths: &[PathBuf]) -> Result<(Option<Course>, Vec<PathBuf>), Failure> {
    let course = course_of(paths)?;
    match &course {
        Some(c) if paths.len() != 1 || default_paths(paths)[0].is_dir() => {
            let labs = c.file.labs.clone();
            Ok((course, labs))
        }
        _ => Ok((course, lab_files(paths)?)),
    }
}

/// The text of the file a diagnostic points into, when it is not the lab's own (a course
/// module), for its source lines.
pub fn text_of(file: &Path) -> Option<String> {
    std::fs::read_to_string(file).ok()
}
