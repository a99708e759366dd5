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
//! A record not graded is printed by the one printer as a warning located in the record (the
//! JSON parser's line and column, when it has them) with a hint ([`Problem::diagnostic`]);
//! what stops the command (a records path that is not there, an instructor's report template
//! that fails, a file the output folder refuses) as an error located in its file.
//!
//! Student data is hostile: folder names, a record's `lab` and `format` fields and the JSON
//! parser's quotes of it reach the terminal only through the printer's terminal text filter (a
//! line break in them shown as U+FFFD) and [`say`], the CSV only through [`sheet::cell`], the
//! report only through minijinja's HTML escaping.
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

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::ledger::{self, Ledger};
use crate::load::text::visible;
use indexmap::IndexMap;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A record that was not graded, and why: `reason` as the report page lists it; where in the
/// file (the JSON parser's line and column; 0 for the whole file) and what to do, for the
/// printer ([`Problem::diagnostic`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// Whose it is (the folder or file name it was found under).
    pub student: String,
    pub file: String,
    pub reason: String,
    #[serde(skip)]
    pub line: u32,
    #[serde(skip)]
    pub col: u32,
    #[serde(skip)]
    pub hint: &'static str,
}

impl Problem {
    /// The problem as the one printer prints it: a warning (the other records are graded)
    /// located in the record, with its hint. A line break in a folder name or a quoted field
    /// is shown as U+FFFD, so a record cannot print a line of its own (a fake `graded …`).
    pub fn diagnostic(&self) -> Diagnostic {
        let one_line = |s: &str| s.replace(['\r', '\n'], "\u{FFFD}");
        Diagnostic::warning(
            &one_line(&self.file),
            crate::model::Pos::new(self.line, self.col),
            format!("not graded: {}", one_line(&self.reason)),
        )
        .with_hint(self.hint)
    }
}

/// Why a record is not one to grade ([`Problem`] without whose it is).
#[derive(Debug)]
struct Why {
    reason: String,
    line: u32,
    col: u32,
    hint: &'static str,
}

impl Why {
    fn new(reason: impl Into<String>, hint: &'static str) -> Why {
        Why {
            reason: reason.into(),
            line: 0,
            col: 0,
            hint,
        }
    }
    /// What the JSON parser said, where it said it.
    fn json(reason: String, e: &serde_json::Error) -> Why {
        Why {
            line: e.line() as u32,
            col: e.column() as u32,
            ..Why::new(reason, HAND_IN_AGAIN)
        }
    }
}

/// The hint of a file that is no record (damaged, cut short, not text).
const HAND_IN_AGAIN: &str = "ask for the record again: the download of the lab's page, or the ledger file `labforge run` saves";
/// The hint of a file of another kind.
const NOT_A_RECORD: &str = "grade reads progress records (`labforge-ledger/...`: the download of a lab's page, the terminal's ledger) and course records (`labforge-course/1`: a course page's export)";

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
/// A path that names no records is a diagnostic of the path.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, Diagnostic> {
    let unread = |p: &Path, e: String| {
        Diagnostic::error(&p.display().to_string(), Default::default(), e).with_hint(
            "give grade the records handed in: record files (*.json), or folders of them",
        )
    };
    let mut out = Vec::new();
    for p in paths {
        if crate::files::is_dir(p) {
            let mut found = crate::files::json_files(p).map_err(|e| unread(p, e.to_string()))?;
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
            return Err(unread(p, "no such file or directory".into()));
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
fn read_records(path: &Path) -> Result<Vec<(String, Entry)>, Why> {
    let bytes = crate::files::read_limited(path, crate::store::MAX_BYTES).map_err(|e| match e {
        crate::files::ReadError::TooLarge { size, .. } => Why::new(
            format!("{size} bytes is too large for a progress record"),
            HAND_IN_AGAIN,
        ),
        e => Why::new(e.to_string(), HAND_IN_AGAIN),
    })?;
    let text =
        std::str::from_utf8(&bytes).map_err(|_| Why::new("not UTF-8 text", HAND_IN_AGAIN))?;
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(Why::new("empty file", HAND_IN_AGAIN));
    }
    let raw: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        if e.is_eof() {
            Why::json(
                format!("cut short (the file ends at line {})", e.line()),
                &e,
            )
        } else {
            Why::json(format!("not JSON: {e}"), &e)
        }
    })?;
    let file = path.display().to_string();
    if raw.get("format").and_then(|f| f.as_str()) != Some(crate::record::FORMAT) {
        return Ok(vec![(file, ledger_of(bytes, raw))]);
    }
    let Some(labs) = raw.get("labs").and_then(|l| l.as_object()) else {
        return Err(Why::new(
            "a damaged course record: no `labs`",
            HAND_IN_AGAIN,
        ));
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
type Entry = Result<(Vec<u8>, Ledger, serde_json::Value), Why>;

/// `raw` as a lab's progress record, or why it is not one.
fn ledger_of(bytes: Vec<u8>, raw: serde_json::Value) -> Entry {
    match raw.get("format").and_then(|f| f.as_str()) {
        Some(f) if f == ledger::FORMAT || ledger::READS.contains(&f) => {}
        Some(other) => {
            return Err(Why::new(
                format!("a `{other}` record, not `{}`", ledger::FORMAT),
                NOT_A_RECORD,
            ))
        }
        None => {
            return Err(Why::new(
                "not a labforge progress record (no `format`)",
                NOT_A_RECORD,
            ))
        }
    }
    let l: Ledger = serde_json::from_value(raw.clone())
        .map_err(|e| Why::new(format!("a damaged progress record: {e}"), HAND_IN_AGAIN))?;
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
        let problem = |why: Why| Problem {
            student: student.clone(),
            file: file.clone(),
            reason: why.reason,
            line: why.line,
            col: why.col,
            hint: why.hint,
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
            problems.push(problem(Why::new(
                format!(
                    "a record of lab `{}`, which is not graded here (labs: {})",
                    l.lab,
                    ids.join(", ")
                ),
                "grade it with its lab: give grade the lab's file too, or the folder of its course",
            )));
            continue;
        };
        if let Some(first) = contents.get(&bytes) {
            problems.push(problem(Why::new(
                format!("the same record as {first}"),
                "only the first of identical records is graded",
            )));
            continue;
        }
        contents.insert(bytes, file.clone());
        let key = (student.clone(), l.lab.clone());
        if let Some(first) = seen.get(&key) {
            problems.push(problem(Why::new(
                format!(
                    "a second record of `{student}` for lab `{}` (graded: {first})",
                    l.lab
                ),
                "only a student's first record of a lab is graded: remove the other one to grade this one",
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
    let fail = |d: Diagnostic| {
        crate::cmd::report(&[d], None);
        ExitCode::FAILURE
    };
    let recs = match record_files(records) {
        Ok(r) => r,
        Err(d) => return fail(d),
    };
    let (grades, problems) = grade(&compiled, &recs);
    let mut written = Vec::new();
    // A file `out` does not take: a diagnostic of that file.
    let write = |name: &str, text: Result<String, String>| {
        let path = out.join(name);
        text.and_then(|t| crate::safe_fs::write_inside(out, Path::new(name), t.as_bytes()))
            .map(|()| path.clone())
            .map_err(|e| {
                Diagnostic::error(&path.display().to_string(), Default::default(), format!("not written: {e}"))
                    .with_hint(format!("grade writes its CSVs and report.html into {}: fix that folder, or give another (-o DIR)", out.display()))
            })
    };
    for g in &grades {
        match write(&csv_name(g.lab), csv(g)) {
            Ok(p) => written.push(p),
            Err(d) => return fail(d),
        }
    }
    let page = match report(&grades, &problems, &recs, templates)
        .and_then(|html| crate::render::csp::with_print_csp(&html))
    {
        Ok(p) => p,
        Err(d) => return fail(d.in_file(&out.join("report.html").display().to_string())),
    };
    match write("report.html", Ok(page)) {
        Ok(p) => written.push(p),
        Err(d) => return fail(d),
    }
    let not_graded: Vec<_> = problems.iter().map(Problem::diagnostic).collect();
    crate::cmd::report(&not_graded, None);
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
