//! What a `course.yaml` says, as data: its title, labs, modules and tracks, with paths resolved
//! against its folder. Finding and loading one is the driver's (`labforge_driver::course`).

use crate::diag::Diagnostic;
use crate::load::Source;
use std::path::{Path, PathBuf};

/// The name of the file that makes a folder a course.
pub const FILE_NAME: &str = "course.yaml";

/// What `course.yaml` says, with every path resolved against the folder it sits in.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseFile {
    pub title: String,
    /// Markdown, shown on the course index.
    pub description: Option<String>,
    /// The labs, in order (`course_dir/labs/x.yaml`, as joined: not canonicalised).
    pub labs: Vec<PathBuf>,
    /// The shared modules: as listed, or every `lib/*.yaml` (sorted) when `lib:` is absent.
    pub lib: Vec<PathBuf>,
    /// The tracks every lab of the course plays out on (empty: none).
    pub tracks: crate::model::track::TrackSet,
    /// The report of every lab that declares none (its `title`, `intro` and `sections`).
    pub report: Option<crate::model::ReportSpec>,
}

/// A loaded course: the file, where it is, and the id its students' record is kept under.
#[derive(Debug, Clone)]
pub struct Course {
    pub file: CourseFile,
    /// The `course.yaml` path as given (or found).
    pub path: PathBuf,
    /// The folder holding `course.yaml`.
    pub dir: PathBuf,
    pub source: Source,
    /// The course record's key: [`course_id`] of the title.
    pub id: String,
    /// Each of `file.labs` as a canonical path (`None` where it has none), found once when the
    /// driver loads the course: where a lab file is in its course is a lookup, not a walk of
    /// every lab's path on disk.
    pub canonical: Vec<Option<PathBuf>>,
}

/// Diagnostics from loading a course, with its text when it could be read (for source lines).
pub type Diagnostics = (Option<Source>, Vec<Diagnostic>);

impl Course {
    /// The file stem each lab's outputs are named after (`fault-tolerance`), in order.
    pub fn stems(&self) -> Vec<String> {
        self.file.labs.iter().map(|l| stem(l)).collect()
    }
}

/// A lab file's stem, as its outputs are named.
pub fn stem(p: &Path) -> String {
    p.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("lab")
        .to_string()
}
