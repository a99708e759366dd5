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

use crate::eval::CompiledLab;
use crate::ledger::{self, Ledger};
use crate::load::check::option_id;
use crate::model::Choice;
use indexmap::IndexMap;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A record that was not graded, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
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
}

/// A lab and its class.
pub struct LabGrades<'a> {
    pub lab: &'a CompiledLab,
    pub graded: Vec<Graded>,
}

/// Record files under `paths` (files as given, folders searched recursively for `*.json`),
/// each with the student it belongs to, in a stable order.
pub fn record_files(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
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
        } else if p.is_file() {
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

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let t = e.file_type()?;
        let p = e.path();
        if t.is_dir() {
            walk(&p, out)?;
        } else if t.is_file() && p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    Ok(())
}

/// Reads one file as a student handed it in: a UTF-8 BOM is allowed; anything over the
/// ledger's size limit, not JSON, or of another format is a reason. A lab's record is one
/// entry; a course record (`labforge-course/1`, what a course's page exports) is one entry per
/// lab in it, named `FILE (lab LAB-ID)`, each a record or the reason it is not one.
fn read_records(path: &Path) -> Result<Vec<(String, Entry)>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > ledger::MAX_BYTES {
        return Err(format!(
            "{} bytes is too large for a progress record",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
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
    if raw.get("format").and_then(|f| f.as_str()) != Some(crate::course::record::FORMAT) {
        return Ok(vec![(file, ledger_of(bytes, raw))]);
    }
    let Some(labs) = raw.get("labs").and_then(|l| l.as_object()) else {
        return Err("a damaged course record: no `labs`".into());
    };
    Ok(labs
        .iter()
        .map(|(id, l)| {
            let bytes = serde_json::to_vec(l).unwrap_or_default();
            (format!("{file} (lab {id})"), ledger_of(bytes, l.clone()))
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
    let mut out: Vec<LabGrades> = labs
        .iter()
        .map(|lab| LabGrades {
            lab,
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
        let lab = &labs[k];
        let mut notes = Vec::new();
        if l.version != lab.lab.version {
            notes.push(format!(
                "record of version {}, the lab is version {}",
                l.version, lab.lab.version
            ));
        }
        notes.extend(l.sanitize(lab));
        // Recomputed from the answers alone: the file's flags are never read.
        l.refresh(lab);
        out[k]
            .graded
            .push(graded(lab, student, &file, &l, &raw, notes));
    }
    (out, problems)
}

fn graded(
    lab: &CompiledLab,
    student: &str,
    file: &str,
    l: &Ledger,
    raw: &serde_json::Value,
    notes: Vec<String>,
) -> Graded {
    let parts: Vec<PartGrade> = lab
        .lab
        .parts
        .iter()
        .map(|p| {
            let a = l.parts.get(&p.id.value).cloned().unwrap_or_default();
            // Looks at other answers after locking in (format 2); a format-1 record kept none.
            let attempts = raw["parts"][&p.id.value]
                .get("prediction_locked_at")
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
    }
}

/// The CSV of one lab: a row per student, columns per part as the lab asks them.
pub fn csv(g: &LabGrades) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["student".to_string(), "file".into(), "complete".into()];
    head.push("score".into());
    head.push("asked".into());
    for p in &g.lab.lab.parts {
        let l = ledger::part_letter(&p.id.value);
        if p.prediction.is_some() {
            head.push(format!("{l} prediction"));
            head.push(format!("{l} correct"));
            head.push(format!("{l} attempts"));
        }
        if p.reflection.is_some() {
            head.push(format!("{l} reflection"));
            head.push(format!("{l} reflection correct"));
        }
    }
    head.push("decision log".into());
    head.push("notes".into());
    w.write_record(&head).map_err(|e| e.to_string())?;
    let yn = |b: Option<bool>| match b {
        Some(true) => "yes".to_string(),
        Some(false) => "no".to_string(),
        None => String::new(),
    };
    for s in &g.graded {
        let mut row = vec![
            s.student.clone(),
            s.file.clone(),
            yn(Some(s.complete)),
            s.score.to_string(),
            s.asked.to_string(),
        ];
        for (p, pg) in g.lab.lab.parts.iter().zip(&s.parts) {
            if p.prediction.is_some() {
                row.push(pg.prediction.clone().unwrap_or_default());
                row.push(yn(pg.prediction_correct));
                row.push(pg.attempts.map(|a| a.to_string()).unwrap_or_default());
            }
            if p.reflection.is_some() {
                row.push(pg.reflection.clone().unwrap_or_default());
                row.push(yn(pg.reflection_correct));
            }
        }
        row.push(s.decision_log.clone());
        row.push(s.notes.join("; "));
        w.write_record(&row).map_err(|e| e.to_string())?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// How a class answered one question: each option with its text, how many chose it, and
/// whether it is the right one.
#[derive(Debug, Serialize)]
pub struct Tally {
    pub part: String,
    pub question: String,
    pub options: Vec<TallyRow>,
    pub unanswered: usize,
}

#[derive(Debug, Serialize)]
pub struct TallyRow {
    pub id: String,
    pub text: String,
    pub correct: bool,
    pub count: usize,
}

/// The per-question tallies of a lab: predictions (numeric ones as right/wrong) and
/// reflections.
pub fn tallies(g: &LabGrades) -> Vec<Tally> {
    let lab = g.lab;
    let mut out = Vec::new();
    for (k, p) in lab.lab.parts.iter().enumerate() {
        let title = format!("Part {}", ledger::part_letter(&p.id.value));
        // The texts as the student read them, at the prediction's scenario (evaluated once).
        let cp = lab.part(&p.id.value);
        let ev = cp.and_then(|cp| lab.evaluate(cp, &lab.scenario(cp)).ok());
        let text = |t: &str| {
            lab.render_text(cp, ev.as_ref(), t, &[])
                .unwrap_or_else(|_| t.to_string())
        };
        if let Some(pred) = &p.prediction {
            let answers: Vec<&PartGrade> = g.graded.iter().map(|s| &s.parts[k]).collect();
            let options = if pred.numeric.is_some() {
                vec![
                    row("right", "within the tolerance", true, &answers, |a| {
                        a.prediction.is_some() && a.prediction_correct == Some(true)
                    }),
                    row("wrong", "outside the tolerance", false, &answers, |a| {
                        a.prediction.is_some() && a.prediction_correct != Some(true)
                    }),
                ]
            } else {
                choice_rows(&pred.options, &text, &answers, |a| a.prediction.as_deref())
            };
            out.push(Tally {
                part: format!("{title} · prediction"),
                question: text(&pred.question.value),
                options,
                unanswered: answers.iter().filter(|a| a.prediction.is_none()).count(),
            });
        }
        if let Some(r) = &p.reflection {
            let answers: Vec<&PartGrade> = g.graded.iter().map(|s| &s.parts[k]).collect();
            out.push(Tally {
                part: format!("{title} · reflection"),
                question: text(&r.question.value),
                options: choice_rows(&r.options, &text, &answers, |a| a.reflection.as_deref()),
                unanswered: answers.iter().filter(|a| a.reflection.is_none()).count(),
            });
        }
    }
    out
}

fn row(
    id: &str,
    text: &str,
    correct: bool,
    answers: &[&PartGrade],
    counts: impl Fn(&PartGrade) -> bool,
) -> TallyRow {
    TallyRow {
        id: id.into(),
        text: text.into(),
        correct,
        count: answers.iter().filter(|a| counts(a)).count(),
    }
}

fn choice_rows(
    options: &[Choice],
    text: &dyn Fn(&str) -> String,
    answers: &[&PartGrade],
    pick: impl Fn(&PartGrade) -> Option<&str>,
) -> Vec<TallyRow> {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let id = option_id(i, o);
            TallyRow {
                text: text(&o.text.value),
                correct: o.correct,
                count: answers.iter().filter(|a| pick(a) == Some(&id)).count(),
                id,
            }
        })
        .collect()
}

/// The class report page's template, overridable with `--templates DIR` like the others.
pub const REPORT_TEMPLATE: &str = include_str!("../renderers/grade/report.html.j2");

#[derive(Serialize)]
struct ReportLab {
    id: String,
    title: String,
    csv: String,
    students: usize,
    complete: usize,
    mean: String,
    asked: usize,
    tallies: Vec<Tally>,
    logs: Vec<ReportNote>,
    notes: Vec<ReportNote>,
}

#[derive(Serialize)]
struct ReportNote {
    student: String,
    text: String,
}

/// The class report page: per lab, completion, each question's tally and the decision logs;
/// the records not graded first.
pub fn report(
    grades: &[LabGrades],
    problems: &[Problem],
    files: usize,
    templates: Option<&Path>,
) -> Result<String, String> {
    let labs: Vec<ReportLab> = grades
        .iter()
        .map(|g| {
            let n = g.graded.len();
            let total: usize = g.graded.iter().map(|s| s.score).sum();
            ReportLab {
                id: g.lab.lab.id.value.clone(),
                title: g
                    .lab
                    .render_text(None, None, &g.lab.lab.title.value, &[])
                    .unwrap_or_else(|_| g.lab.lab.title.value.clone()),
                csv: csv_name(g.lab),
                students: n,
                complete: g.graded.iter().filter(|s| s.complete).count(),
                mean: if n == 0 {
                    "–".into()
                } else {
                    crate::library::format::fixed(total as f64 / n as f64, 1, false)
                },
                asked: g.graded.first().map(|s| s.asked).unwrap_or_else(|| {
                    g.lab
                        .lab
                        .parts
                        .iter()
                        .filter(|p| p.prediction.is_some())
                        .count()
                }),
                tallies: tallies(g),
                logs: g
                    .graded
                    .iter()
                    .filter(|s| !s.decision_log.trim().is_empty())
                    .map(|s| ReportNote {
                        student: s.student.clone(),
                        text: s.decision_log.clone(),
                    })
                    .collect(),
                notes: g
                    .graded
                    .iter()
                    .flat_map(|s| {
                        s.notes.iter().map(|t| ReportNote {
                            student: s.student.clone(),
                            text: t.clone(),
                        })
                    })
                    .collect(),
            }
        })
        .collect();
    let graded: usize = grades.iter().map(|g| g.graded.len()).sum();
    let tpl = crate::render::asset(
        &[("report.html.j2", REPORT_TEMPLATE)],
        "report.html.j2",
        templates,
    )?;
    let mut env = minijinja::Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    // Everything in the report is the students' or the lab's text: escaped, always.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template("report.html.j2", &tpl)
        .map_err(|e| format!("report.html.j2: {e}"))?;
    env.get_template("report.html.j2")
        .and_then(|t| {
            t.render(minijinja::context! {
                labs => labs, problems => problems, graded => graded, files => files
            })
        })
        .map_err(|e| format!("report.html.j2: {e}"))
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
    let Some(files) = crate::cli::files_or_report(&[labs.to_path_buf()]) else {
        return ExitCode::FAILURE;
    };
    let mut compiled = Vec::new();
    for f in &files {
        match crate::cli::load_or_report(f) {
            Some(l) => compiled.push(l),
            None => return ExitCode::FAILURE,
        }
    }
    let recs = match record_files(records) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
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
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let page = report(&grades, &problems, recs.len(), templates)
        .and_then(|html| crate::render::csp::with_print_csp(&html));
    match page.and_then(|html| {
        crate::safe_fs::write_inside(out, Path::new("report.html"), html.as_bytes())
            .map(|()| out.join("report.html"))
    }) {
        Ok(p) => written.push(p),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    for p in &problems {
        eprintln!("not graded: {}: {}", p.file, p.reason);
    }
    let graded: usize = grades.iter().map(|g| g.graded.len()).sum();
    eprintln!(
        "graded {graded} record(s) of {} file(s) ({} not graded); wrote {}",
        recs.len(),
        problems.len(),
        written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    ExitCode::SUCCESS
}
