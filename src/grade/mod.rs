//! `labforge grade`: a class's handed-in progress records (page downloads and terminal ledgers
//! are the same `labforge-ledger/1` JSON) read back against the lab files. A course record
//! (`labforge-course/1`: every lab's ledger of one course) is graded lab by lab.
//!
//! Correctness is recomputed from the lab: a record's `*_correct` flags, HUD and `complete` are
//! never trusted. Every record that cannot be graded (not JSON, cut short, another format,
//! another lab, a second record of the same student) is listed with its reason and the rest are
//! graded all the same. One CSV per lab (`LAB-ID.csv`, a row per student) and one class report
//! page (`report.html`) are written.
//!
//! A student is named by where the record is: `RECORDS/alice.json` is `alice`, and a record in
//! a folder of its own, `RECORDS/alice/anything.json`, is `alice` too (one folder per student,
//! as LMS bulk downloads lay them out).
//!
//! Student data is hostile: folder names, a record's `lab` and `format` fields and the JSON
//! parser's quotes of it reach the terminal only through [`say`] (the terminal text filter),
//! the CSV only through [`sheet::cell`], the report only through minijinja's HTML escaping.
//!
//! The CSV is [`sheet`], the class report page (roster, tallies, decision logs) [`report`].

mod reading;
mod report;
mod sheet;

pub use reading::{readings, QuestionGrade, Reading};
pub use report::{
    report, tallies, track_rows, Tally, TallyRow, TrackCount, TrackPart, TrackRow, REPORT_TEMPLATE,
};
pub use sheet::{cell, csv};

use crate::eval::CompiledLab;
use crate::ledger::{self, Ledger};
use crate::load::text::visible;
use indexmap::IndexMap;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A record that was not graded, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// Whose it is (the folder or file name it was found under).
    pub student: String,
    pub file: String,
    pub reason: String,
}

/// One student's graded record of one lab.
#[derive(Debug, Clone, Serialize)]
pub struct Graded {
    pub student: String,
    pub file: String,
    /// Per part, in the lab's order.
    pub parts: Vec<PartGrade>,
    pub decision_log: String,
    pub complete: bool,
    /// Predictions right, out of the predictions the lab asks.
    pub score: usize,
    pub asked: usize,
    /// What was dropped or differs (values the lab cannot have, another lab version).
    pub notes: Vec<String>,
    /// The student's track (a lab with tracks): the record's, else the default track.
    pub track: Option<String>,
}

/// One part of a graded record.
#[derive(Debug, Clone, Serialize)]
pub struct PartGrade {
    pub id: String,
    pub prediction: Option<String>,
    pub prediction_correct: Option<bool>,
    /// How many other answers the student looked at after locking in (format-2 records).
    pub attempts: Option<u64>,
    pub reflection: Option<String>,
    pub reflection_correct: Option<bool>,
    /// The track the part's answers are judged on (a lab with tracks): the one its prediction
    /// was locked on, else the student's.
    pub track: Option<String>,
    /// The answers to the part's questions, in the lab's order.
    pub questions: Vec<QuestionGrade>,
}

/// A lab and its class.
pub struct LabGrades<'a> {
    pub lab: &'a CompiledLab,
    /// The lab compiled for each of its other tracks (by id; `lab` is the default track's),
    /// once for the class.
    pub on: IndexMap<String, CompiledLab>,
    pub graded: Vec<Graded>,
}

impl LabGrades<'_> {
    /// The lab as compiled for `track` (the default track's for `None` or a lab without
    /// tracks; `None` for a track the lab does not have).
    pub fn on_track(&self, track: Option<&str>) -> Option<&CompiledLab> {
        match track {
            None => Some(self.lab),
            Some(t) if self.lab.track.as_deref() == Some(t) => Some(self.lab),
            Some(t) => self.on.get(t),
        }
    }
}

/// Record files under `paths` (files as given, folders searched recursively for `*.json`),
/// each with the student it belongs to, in a stable order.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut out = Vec::new();
    for p in paths {
        if crate::files::is_dir(p) {
            let mut found =
                crate::files::json_files(p).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            for f in found {
                let rel = f.strip_prefix(p).unwrap_or(&f);
                let mut comps = rel.components();
                let first = comps
                    .next()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned());
                let student = match (first, comps.next()) {
                    (Some(dir), Some(_)) => dir,
                    _ => stem(&f),
                };
                out.push((student, f));
            }
        } else if crate::files::is_file(p) {
            out.push((stem(p), p.clone()));
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(out)
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads one file as a student handed it in: a UTF-8 BOM is allowed; anything over the
/// ledger's size limit, not JSON, or of another format is a reason. A lab's record is one
/// entry; a course record (`labforge-course/1`, what a course's page exports) is one entry per
/// lab in it, named `FILE (lab LAB-ID)`, each a record or the reason it is not one.
fn read_records(path: &Path) -> Result<Vec<(String, Entry)>, String> {
    let bytes = crate::files::read_limited(path, crate::store::MAX_BYTES).map_err(|e| match e {
        crate::files::ReadError::TooLarge { size, .. } => {
            format!("{size} bytes is too large for a progress record")
        }
        e => e.to_string(),
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err("empty file".into());
    }
    let raw: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        if e.is_eof() {
            format!("cut short (the file ends at line {})", e.line())
        } else {
            format!("not JSON: {e}")
        }
    })?;
    let file = path.display().to_string();
    if raw.get("format").and_then(|f| f.as_str()) != Some(crate::record::FORMAT) {
        return Ok(vec![(file, ledger_of(bytes, raw))]);
    }
    let Some(labs) = raw.get("labs").and_then(|l| l.as_object()) else {
        return Err("a damaged course record: no `labs`".into());
    };
    // The student's track is the course record's (each lab's copy may not say it).
    let track = raw.get("track").and_then(|t| t.as_str());
    Ok(labs
        .iter()
        .map(|(id, l)| {
            let bytes = serde_json::to_vec(l).unwrap_or_default();
            let entry = ledger_of(bytes, l.clone()).map(|(b, mut led, raw)| {
                if let Some(t) = track {
                    led.track = Some(t.to_string());
                }
                (b, led, raw)
            });
            (format!("{file} (lab {id})"), entry)
        })
        .collect())
}

/// One lab's record read from a file: its bytes (to find copies), the ledger and its JSON.
type Entry = Result<(Vec<u8>, Ledger, serde_json::Value), String>;

/// `raw` as a lab's progress record, or why it is not one.
fn ledger_of(bytes: Vec<u8>, raw: serde_json::Value) -> Entry {
    match raw.get("format").and_then(|f| f.as_str()) {
        Some(f) if f == ledger::FORMAT || ledger::READS.contains(&f) => {}
        Some(other) => return Err(format!("a `{other}` record, not `{}`", ledger::FORMAT)),
        None => return Err("not a labforge progress record (no `format`)".into()),
    }
    let l: Ledger = serde_json::from_value(raw.clone())
        .map_err(|e| format!("a damaged progress record: {e}"))?;
    Ok((bytes, l, raw))
}

/// Grades every record against `labs` (matched by lab id). Problems are returned beside the
/// grades; nothing stops the rest.
pub fn grade<'a>(
    labs: &'a [CompiledLab],
    records: &[(String, PathBuf)],
) -> (Vec<LabGrades<'a>>, Vec<Problem>) {
    // Each lab compiled once per track for the whole class (a track that does not compile is
    // left out: `check` says why; its answers are judged on the default track, with a note).
    let mut out: Vec<LabGrades> = labs
        .iter()
        .map(|lab| LabGrades {
            lab,
            on: lab
                .tracks
                .tracks
                .iter()
                .filter(|t| Some(&t.id) != lab.track.as_ref())
                .filter_map(|t| Some((t.id.clone(), lab.on_track(&t.id).ok()?)))
                .collect(),
            graded: Vec::new(),
        })
        .collect();
    let mut problems = Vec::new();
    let mut seen: IndexMap<(String, String), String> = IndexMap::new();
    let mut contents: IndexMap<Vec<u8>, String> = IndexMap::new();
    let entries = records.iter().flat_map(|(student, path)| {
        match read_records(path) {
            Ok(v) => v,
            Err(reason) => vec![(path.display().to_string(), Err(reason))],
        }
        .into_iter()
        .map(move |(file, entry)| (student, file, entry))
    });
    for (student, file, entry) in entries {
        let problem = |reason: String| Problem {
            student: student.clone(),
            file: file.clone(),
            reason,
        };
        let (bytes, mut l, raw) = match entry {
            Ok(r) => r,
            Err(reason) => {
                problems.push(problem(reason));
                continue;
            }
        };
        let Some(k) = labs.iter().position(|c| c.lab.id.value == l.lab) else {
            let ids: Vec<&str> = labs.iter().map(|c| c.lab.id.value.as_str()).collect();
            problems.push(problem(format!(
                "a record of lab `{}`, which is not graded here (labs: {})",
                l.lab,
                ids.join(", ")
            )));
            continue;
        };
        if let Some(first) = contents.get(&bytes) {
            problems.push(problem(format!("the same record as {first}")));
            continue;
        }
        contents.insert(bytes, file.clone());
        let key = (student.clone(), l.lab.clone());
        if let Some(first) = seen.get(&key) {
            problems.push(problem(format!(
                "a second record of `{student}` for lab `{}` (graded: {first})",
                l.lab
            )));
            continue;
        }
        seen.insert(key, file.clone());
        let g = &out[k];
        let mut notes = Vec::new();
        if l.version != g.lab.lab.version {
            notes.push(format!(
                "record of version {}, the lab is version {}",
                l.version, g.lab.lab.version
            ));
        }
        // The student's track: the record's, else the default; each part on its own track.
        let track = student_track(g, &l, &mut notes);
        let lab = g.on_track(track.as_deref()).unwrap_or(g.lab);
        notes.extend(l.sanitize(lab));
        for (pid, a) in &mut l.parts {
            if g.lab.tracks.is_empty() {
                a.track = None;
            } else if let Some(t) = a
                .track
                .as_deref()
                .filter(|t| g.on_track(Some(*t)).is_none())
            {
                notes.push(format!(
                    "Part {}: answered on a track `{}` the lab does not have; judged on {}",
                    crate::model::part_letter(pid),
                    visible(t),
                    track.as_deref().unwrap_or("the default track")
                ));
                a.track = None;
            }
        }
        // Recomputed from the answers alone, each on its track: the file's flags are never read.
        l.refresh_on(lab, &|t| g.on_track(Some(t)));
        let one = graded(lab, student, &file, &l, &raw, notes, track);
        out[k].graded.push(one);
    }
    (out, problems)
}

/// The track a record is graded on: its own (a course record's `track`, or a lab's ledger's),
/// else the lab's default track; `None` for a lab without tracks. A track the lab does not
/// have is noted, and the default taken.
fn student_track(g: &LabGrades, l: &Ledger, notes: &mut Vec<String>) -> Option<String> {
    let default = g.lab.track.clone()?;
    match l.track.as_deref() {
        None => Some(default),
        Some(t) if g.on_track(Some(t)).is_some() => Some(t.to_string()),
        Some(t) => {
            notes.push(format!(
                "a track `{}` the lab does not have; graded on `{default}`",
                visible(t)
            ));
            Some(default)
        }
    }
}

fn graded(
    lab: &CompiledLab,
    student: &str,
    file: &str,
    l: &Ledger,
    raw: &serde_json::Value,
    notes: Vec<String>,
    track: Option<String>,
) -> Graded {
    let parts: Vec<PartGrade> = lab
        .lab
        .parts
        .iter()
        .map(|p| {
            let a = l.parts.get(&p.id.value).cloned().unwrap_or_default();
            // Looks at other answers after locking in (format 2); a format-1 record kept none,
            // and an unanswered prediction has none.
            let attempts = raw["parts"][&p.id.value]
                .get("prediction_locked_at")
                .filter(|_| a.prediction.is_some())
                .map(|_| a.prediction_attempts.len() as u64);
            PartGrade {
                id: p.id.value.clone(),
                prediction: a.prediction.clone(),
                prediction_correct: p
                    .prediction
                    .as_ref()
                    .map(|_| a.prediction_correct.unwrap_or(false)),
                attempts,
                reflection: a.reflection.clone(),
                reflection_correct: p
                    .reflection
                    .as_ref()
                    .map(|_| a.reflection_correct.unwrap_or(false)),
                track: a.track.clone().or_else(|| track.clone()),
                questions: reading::question_grades(p, &a),
            }
        })
        .collect();
    let asked = lab
        .lab
        .parts
        .iter()
        .filter(|p| p.prediction.is_some())
        .count();
    let score = parts
        .iter()
        .filter(|g| g.prediction_correct == Some(true))
        .count();
    Graded {
        student: student.to_string(),
        file: file.to_string(),
        parts,
        decision_log: l.decision_log.clone(),
        complete: l.complete,
        score,
        asked,
        notes,
        track,
    }
}

/// The CSV file of a lab: `LAB-ID.csv` (ids are file-name safe).
pub fn csv_name(lab: &CompiledLab) -> String {
    format!("{}.csv", lab.lab.id.value)
}

/// `labforge grade`: the labs under `labs` (a file, or a folder of them), the records under
/// `records`, the CSVs and `report.html` into `out`. Exits 1 only when nothing could be done
/// (no lab, no records folder); records that cannot be graded are listed, not fatal.
pub fn grade_cmd(
    labs: &Path,
    records: &[PathBuf],
    out: &Path,
    templates: Option<&Path>,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    let files = match crate::project::lab_files(&[labs.to_path_buf()]) {
        Ok(f) => f,
        Err(f) => {
            crate::cmd::fail(&f);
            return ExitCode::FAILURE;
        }
    };
    let mut compiled = Vec::new();
    for f in &files {
        match crate::cmd::load_or_report(f) {
            Some(l) => compiled.push(l),
            None => return ExitCode::FAILURE,
        }
    }
    let recs = match record_files(records) {
        Ok(r) => r,
        Err(e) => {
            say(&format!("error: {e}"));
            return ExitCode::FAILURE;
        }
    };
    let (grades, problems) = grade(&compiled, &recs);
    let mut written = Vec::new();
    for g in &grades {
        let r = csv(g).and_then(|text| {
            let name = csv_name(g.lab);
            crate::safe_fs::write_inside(out, Path::new(&name), text.as_bytes())
                .map(|()| out.join(name))
        });
        match r {
            Ok(p) => written.push(p),
            Err(e) => {
                say(&format!("error: {e}"));
                return ExitCode::FAILURE;
            }
        }
    }
    let page = report(&grades, &problems, &recs, templates)
        .and_then(|html| crate::render::csp::with_print_csp(&html).map_err(|d| d.to_string()));
    match page.and_then(|html| {
        crate::safe_fs::write_inside(out, Path::new("report.html"), html.as_bytes())
            .map(|()| out.join("report.html"))
    }) {
        Ok(p) => written.push(p),
        Err(e) => {
            say(&format!("error: {e}"));
            return ExitCode::FAILURE;
        }
    }
    for p in &problems {
        say(&format!("not graded: {}: {}", p.file, p.reason));
    }
    let graded: usize = grades.iter().map(|g| g.graded.len()).sum();
    say(&format!(
        "graded {graded} record(s) of {} file(s) ({} not graded); wrote {}",
        recs.len(),
        problems.len(),
        written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    ExitCode::SUCCESS
}

/// One line on stderr. What `grade` prints names files and quotes records, so it goes through
/// the terminal text filter ([`visible`]: no escape sequence, control character or bidi
/// override reaches the terminal); a line break in a name is shown as U+FFFD too, so a folder
/// name cannot print a line of its own (a fake `graded …` line).
fn say(line: &str) {
    eprintln!("{}", visible(&line.replace(['\r', '\n'], "\u{FFFD}")));
}
