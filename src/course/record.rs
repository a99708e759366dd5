//! The course record: every lab's ledger of one course in one JSON file, the same shape the
//! page keeps in browser storage and exports (`renderers/html/course.js`):
//!
//! ```json
//! { "format": "labforge-course/1", "course": "machine-learning-systems-1a2b3c4d",
//!   "labs": { "fault-tolerance": { "format": "labforge-ledger/2", ... } } }
//! ```
//!
//! The terminal keeps it at `<data dir>/labforge/course-<course id>.json`, next to the labs'
//! ledgers (beside the ledger file when `--ledger` names one), written atomically. Merging (an import, a lab's save) goes lab by lab: the ledger
//! with more answers (predictions, reflections, a decision log) wins; a tie keeps the record's.

use super::site::SiteLab;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;
use std::path::{Path, PathBuf};

/// Format tag of the course record.
pub const FORMAT: &str = "labforge-course/1";

/// One course record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseRecord {
    pub format: String,
    pub course: String,
    /// Each lab's ledger by lab id, as its writer (page or terminal) wrote it.
    pub labs: IndexMap<String, J>,
}

/// Answers in a ledger: predictions, reflections and a non-empty decision log.
pub fn score(ledger: &J) -> usize {
    let log = ledger["decision_log"]
        .as_str()
        .is_some_and(|s| !s.is_empty());
    let answers: usize = ledger["parts"]
        .as_object()
        .map(|parts| {
            parts
                .values()
                .map(|a| {
                    usize::from(!a["prediction"].is_null())
                        + usize::from(!a["reflection"].is_null())
                })
                .sum()
        })
        .unwrap_or(0);
    answers + usize::from(log)
}

impl CourseRecord {
    pub fn new(course_id: &str) -> CourseRecord {
        CourseRecord {
            format: FORMAT.into(),
            course: course_id.into(),
            labs: IndexMap::new(),
        }
    }

    /// The record's file name: `course-<course id>.json`.
    pub fn file_name(course_id: &str) -> String {
        format!("course-{course_id}.json")
    }

    /// The terminal's record file for the course `course_id`, in the data directory beside the
    /// labs' ledgers (see [`crate::run::default_ledger_path`]).
    pub fn default_path(course_id: &str) -> PathBuf {
        dirs::data_dir()
            .map(|d| d.join("labforge"))
            .unwrap_or_else(|| PathBuf::from(".labforge"))
            .join(CourseRecord::file_name(course_id))
    }

    /// Reads the record at `path`: a fresh one when there is no file.
    pub fn load(path: &Path, course_id: &str, labs: &[SiteLab]) -> Result<CourseRecord, String> {
        match std::fs::read_to_string(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(CourseRecord::new(course_id)),
            Err(e) => Err(format!("{}: {e}", path.display())),
            Ok(text) => {
                let (r, _) = CourseRecord::parse(&text, course_id, labs)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(r)
            }
        }
    }

    /// A record given on the command line (`render --record`), of whichever course: the caller
    /// compares its `course` with the labs'.
    pub fn read(path: &Path) -> Result<CourseRecord, String> {
        let size = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
        if size > crate::ledger::MAX_BYTES {
            return Err(format!("{size} bytes is too large for a course record"));
        }
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let j: J = serde_json::from_str(text.trim_start_matches('\u{FEFF}'))
            .map_err(|e| format!("not a JSON file ({e})"))?;
        if j["format"].as_str() != Some(FORMAT)
            || !j["labs"].is_object()
            || !j["course"].is_string()
        {
            return Err(format!("not a labforge course record (`format: {FORMAT}`)"));
        }
        serde_json::from_value(j).map_err(|e| format!("a damaged course record: {e}"))
    }

    /// A record from outside (a page's export, a file): only this course's labs, of their
    /// version, with the lab id they say; a single lab's ledger counts as a record of that lab.
    /// Returns the record and what was left out, or why it is not one.
    pub fn parse(
        text: &str,
        course_id: &str,
        labs: &[SiteLab],
    ) -> Result<(CourseRecord, Vec<String>), String> {
        let j: J = serde_json::from_str(text).map_err(|e| format!("not a JSON file ({e})"))?;
        let j = match j["format"].as_str() {
            Some(f) if f.starts_with("labforge-ledger/") => {
                let id = j["lab"].as_str().unwrap_or_default().to_string();
                serde_json::json!({"format": FORMAT, "course": course_id, "labs": {id: j}})
            }
            _ => j,
        };
        if j["format"].as_str() != Some(FORMAT) || !j["labs"].is_object() {
            return Err(format!("not a labforge course record (`format: {FORMAT}`)"));
        }
        let course = j["course"].as_str().unwrap_or_default();
        if course != course_id {
            return Err(format!(
                "this record is for another course (`{course}`, not `{course_id}`)"
            ));
        }
        let mut out = CourseRecord::new(course_id);
        let mut left = Vec::new();
        for (id, l) in j["labs"].as_object().into_iter().flatten() {
            let Some(me) = labs.iter().find(|x| &x.id == id) else {
                left.push(format!("`{id}`: no such lab in this course"));
                continue;
            };
            let ok = l["lab"].as_str() == Some(id)
                && l["version"].as_u64() == Some(u64::from(me.version))
                && l["parts"].is_object()
                && l["format"]
                    .as_str()
                    .is_some_and(|f| f.starts_with("labforge-ledger/"));
            if ok {
                out.labs.insert(id.clone(), l.clone());
            } else {
                left.push(format!(
                    "`{id}`: not a ledger of version {} of this lab",
                    me.version
                ));
            }
        }
        Ok((out, left))
    }

    /// Merges `other` in, lab by lab (see the module docs). Returns one line per lab of `other`.
    pub fn merge(&mut self, other: CourseRecord, labs: &[SiteLab]) -> Vec<String> {
        let mut said = Vec::new();
        for (id, theirs) in other.labs {
            let title = labs
                .iter()
                .find(|l| l.id == id)
                .map_or(id.as_str(), |l| l.title.as_str())
                .to_string();
            match self.labs.get(&id) {
                Some(mine) if score(mine) >= score(&theirs) => said.push(format!(
                    "{title}: kept this record's ({} answers)",
                    score(mine)
                )),
                _ => {
                    said.push(format!("{title}: {} answers taken", score(&theirs)));
                    self.labs.insert(id, theirs);
                }
            }
        }
        said
    }

    /// Writes the record atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("json") + "\n";
        crate::ledger::write_atomic(path, text.as_bytes())
    }

    /// `done`, `in progress` or `not started` for the lab `id`.
    pub fn status(&self, id: &str) -> &'static str {
        match self.labs.get(id) {
            Some(l) if l["complete"].as_bool() == Some(true) => "done",
            Some(l) if score(l) > 0 => "in progress",
            _ => "not started",
        }
    }
}
