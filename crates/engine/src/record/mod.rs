//! The course record: every lab's ledger of one course in one JSON file, the same shape the
//! page keeps in browser storage and exports (`renderers/html/course.js`):
//!
//! ```json
//! { "format": "labforge-course/1", "course": "machine-learning-systems-1a2b3c4d",
//!   "labs": { "fault-tolerance": { "format": "labforge-ledger/2", ... } } }
//! ```
//!
//! The terminal keeps it at `<data dir>/labforge/course-<course id>.json`, next to the labs'
//! ledgers (beside the ledger file when `--ledger` names one), written atomically under a lock
//! ([`CourseRecord::update`]: two labs run at once both stay). Whatever comes in (an import,
//! the file itself) is bounded and checked against the labs before it counts, and merges part
//! by part ([`super::merge`]; docs/formats.md, "How course records merge").

pub mod merge;
pub mod questions;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

/// One lab of a course, as its record and its site know it (`site::Site::labs`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteLab {
    /// The lab's `id` (what the course record keys its ledger by).
    pub id: String,
    /// Its version (a record of another version is not this lab's).
    pub version: u32,
    /// The file stem its page is named after (`STEM.html`).
    pub stem: String,
    /// Plain-text title.
    pub title: String,
    /// Its own number, `Vol 2 · Lab 6` ([`Lab::short_label`](crate::model::Lab::short_label)),
    /// shown beside its place in the course; empty without `volume`/`number`.
    pub label: String,
    pub duration: String,
    /// What its ledger can hold ([`merge::shape_on_every_track`]: on any of its
    /// tracks): a record is checked against it.
    pub shape: serde_json::Value,
    /// The ids of the tracks it plays out on (empty: none): its pages are `STEM.TRACK.html`.
    pub tracks: Vec<String>,
    /// Its plain-text title on each of `tracks`, in the same order (a title may read `track`).
    pub track_titles: Vec<String>,
}

/// Format tag of the course record.
pub const FORMAT: &str = "labforge-course/1";

/// One course record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseRecord {
    pub format: String,
    pub course: String,
    /// Each lab's ledger by lab id, as its writer (page or terminal) wrote it.
    pub labs: IndexMap<String, J>,
    /// The student's track (an id of the course's `tracks:`), once picked. Each answer in a
    /// ledger also keeps the track it was given on (`parts.a.track`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// The student's name or identifier, typed once for the course (optional): shown in each
    /// lab's report, sent nowhere. Records without it still load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
    /// The terminal asked for the name and the student left it empty (Enter): no lab of the
    /// course asks again. Written only when true; records without it still load.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub student_skipped: bool,
}

/// The course's tracks, as its labs play out on them (every lab of a course with tracks has
/// them all).
fn course_tracks(labs: &[SiteLab]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for t in labs.iter().flat_map(|l| &l.tracks) {
        if !out.contains(&t.as_str()) {
            out.push(t);
        }
    }
    out
}

/// Answers in a ledger: predictions, reflections, questions and a non-empty decision log.
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
                        + a["questions"].as_object().map_or(0, |q| q.len())
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
            track: None,
            student: None,
            student_skipped: false,
        }
    }

    /// The record's file name: `course-<course id>.json`.
    pub fn file_name(course_id: &str) -> String {
        format!("course-{course_id}.json")
    }

    /// A record from outside (a page's export, a file, the record file itself): bounded
    /// ([`merge::bounds`]) before it is parsed; only this course's labs, of their version, with
    /// the lab id they say, each cleaned against the lab ([`merge::clean`]); a single lab's
    /// ledger counts as a record of that lab. Returns the record and what was left out (one
    /// sentence each, naming the lab), or why it is not one.
    pub fn parse(
        text: &str,
        course_id: &str,
        labs: &[SiteLab],
    ) -> Result<(CourseRecord, Vec<String>), String> {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        merge::bounds(text)?;
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
                "this record is for another course (`{}`, not `{course_id}`)",
                merge::plain(course)
            ));
        }
        let mut out = CourseRecord::new(course_id);
        // The student's track, when it is one of the course's (the labs' tracks).
        let tracks = course_tracks(labs);
        out.track = merge::merge_track(&j["track"], &J::Null, &tracks)
            .as_str()
            .map(String::from);
        out.student = merge::merge_student(&j["student"], &J::Null)
            .as_str()
            .map(String::from);
        out.student_skipped = j["student_skipped"] == J::Bool(true);
        let mut left = Vec::new();
        let given = j["labs"].as_object().expect("checked");
        let ids: Vec<&str> = labs.iter().map(|l| l.id.as_str()).collect();
        left.extend(merge::unknown(
            given,
            &ids,
            "a lab",
            "",
            "this course does not have",
        ));
        for me in labs {
            let Some(l) = given.get(&me.id) else {
                continue;
            };
            let ok = l["lab"].as_str() == Some(&me.id)
                && l["version"].as_u64() == Some(u64::from(me.version))
                && l["parts"].is_object()
                && l["format"]
                    .as_str()
                    .is_some_and(|f| f.starts_with("labforge-ledger/"));
            if ok {
                let (clean, dropped) = merge::clean(l, &me.shape);
                left.extend(dropped.into_iter().map(|d| format!("{}: {d}", me.title)));
                out.labs.insert(me.id.clone(), clean);
            } else {
                left.push(format!(
                    "{}: not a ledger of version {} of this lab",
                    me.title, me.version
                ));
            }
        }
        Ok((out, left))
    }

    /// Merges `other` (parsed: cleaned) in, lab by lab in course order and part by part
    /// ([`merge::merge_lab`]); a conflict is replaced only when `replace`. Returns each lab of
    /// `other` with its title and what happened.
    pub fn merge(
        &mut self,
        other: &CourseRecord,
        labs: &[SiteLab],
        replace: bool,
    ) -> Vec<(String, merge::Outcome)> {
        let mut said = Vec::new();
        let mine = self.track.clone().map_or(J::Null, J::from);
        let theirs = other.track.clone().map_or(J::Null, J::from);
        self.track = merge::merge_track(&mine, &theirs, &course_tracks(labs))
            .as_str()
            .map(String::from);
        let mine = self.student.clone().map_or(J::Null, J::from);
        let theirs = other.student.clone().map_or(J::Null, J::from);
        self.student = merge::merge_student(&mine, &theirs)
            .as_str()
            .map(String::from);
        for l in labs {
            let Some(theirs) = other.labs.get(&l.id) else {
                continue;
            };
            let (merged, o) = merge::merge_lab(self.labs.get(&l.id), theirs, &l.shape, replace);
            if !o.taken.is_empty() || (replace && !o.conflicts.is_empty()) {
                self.labs.insert(l.id.clone(), merged);
            }
            said.push((l.title.clone(), o));
        }
        said
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
