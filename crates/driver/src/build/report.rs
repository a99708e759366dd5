//! `labforge render LAB --to report --record RECORD`: a student's lab report from the record
//! they handed in (the page's download, the terminal's ledger, or a course record holding the
//! lab), written as `LAB_ID-report.md`, the name the page downloads it under.

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::ledger::Ledger;
use crate::project::Failure;
use crate::record::CourseRecord;
use crate::store::{write_atomic, LedgerFile as _, RecordFile as _};
use std::path::{Path, PathBuf};

/// The file name of a lab's report.
pub fn file_name(lab_id: &str) -> String {
    format!("{lab_id}-report.md")
}

/// A handed-in record as the lab's ledger: a ledger file, or the lab's entry of a course
/// record (with the course record's track and student where the ledger says none).
pub fn read_record(path: &Path, lab_id: &str) -> Result<Ledger, Failure> {
    let file = path.display().to_string();
    const HINT: &str = "--record takes the record the student handed in: the download of the lab's page, the terminal's ledger, or a course record";
    let refused = |e: String| Diagnostic::error(&file, Default::default(), e).with_hint(HINT);
    let as_ledger = Ledger::load(path);
    let mut l = match as_ledger {
        Ok(Some(l)) => l,
        Ok(None) => return Err(refused("no such file".into()).into()),
        Err(ledger_err) => {
            let r = CourseRecord::read(path).map_err(|_| ledger_err.with_hint(HINT))?;
            let Some(j) = r.labs.get(lab_id) else {
                return Err(refused(format!(
                    "the course record holds no answers for lab `{lab_id}`"
                ))
                .into());
            };
            let mut l: Ledger = serde_json::from_value(j.clone())
                .map_err(|e| refused(format!("lab `{lab_id}`: {e}")))?;
            l.track = l.track.or(r.track.clone());
            l.student = l.student.or(r.student.clone());
            l
        }
    };
    if l.lab != lab_id {
        return Err(refused(format!("a record of lab `{}`, not of `{lab_id}`", l.lab)).into());
    }
    l.student = l.student.filter(|s| !s.trim().is_empty());
    Ok(l)
}

/// The lab compiled on the record's track (the default track when it names none, or one the
/// lab does not have).
fn on_track(path: &Path, l: &Ledger) -> Result<CompiledLab, Failure> {
    let lab = crate::lab::load_lab(path).map_err(|(s, d)| Failure::Diagnostics(s, d))?;
    match &l.track {
        Some(t) if lab.track.as_deref() != Some(t.as_str()) && lab.track.is_some() => {
            match crate::lab::load_lab_on(path, Some(t)) {
                Ok(on) => Ok(on),
                Err(_) => Ok(lab),
            }
        }
        _ => Ok(lab),
    }
}

/// The report's text for the lab file at `lab_path` and a record.
pub fn text(lab_path: &Path, l: &Ledger) -> Result<String, Failure> {
    let lab = on_track(lab_path, l)?;
    crate::view::report::report(&lab, None, l).map_err(|d| {
        let d = d.in_file(&lab.source.name);
        Failure::Diagnostics(Some(lab.source.clone()), vec![d])
    })
}

/// Writes the report of the record at `record` for the lab at `lab_path` into `out` (a folder,
/// made if missing); returns the file written.
pub fn render(lab_path: &Path, record: &Path, out: &Path) -> Result<PathBuf, Failure> {
    let lab = crate::lab::load_lab(lab_path).map_err(|(s, d)| Failure::Diagnostics(s, d))?;
    let l = read_record(record, &lab.lab.id.value)?;
    let body = text(lab_path, &l)?;
    let file = out.join(file_name(&lab.lab.id.value));
    std::fs::create_dir_all(out)
        .and_then(|()| write_atomic(&file, body.as_bytes()))
        .map_err(|e| super::unwritten(&lab.source.name, out, format!("{}: {e}", file.display())))?;
    Ok(file)
}

/// Writes the report of `l` for `lab` (compiled on the record's track) beside the record file
/// `record` (the terminal, at the end of a lab); returns the file written.
/// What stops it is a diagnostic: the view's, located in the lab; a write's, of the lab.
pub fn write_beside(record: &Path, lab: &CompiledLab, l: &Ledger) -> Result<PathBuf, Diagnostic> {
    let body =
        crate::view::report::report(lab, None, l).map_err(|d| d.in_file(&lab.source.name))?;
    let dir = record
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file = dir.join(file_name(&lab.lab.id.value));
    write_atomic(&file, body.as_bytes()).map_err(|e| {
        let e = format!("not written: {}: {e}", file.display());
        Diagnostic::error(&lab.source.name, Default::default(), e).with_hint(format!(
            "the report goes beside the record, in {}: make that folder writable, or run with another --ledger",
            dir.display()
        ))
    })?;
    Ok(file)
}
