//! Progress on disk: a lab's progress record (the ledger) and the course record, written
//! atomically (temporary file under a lock, fsync, rename) and read bounded. The records' data
//! and rules are the engine's (`ledger`, `record`); reading and writing them is the driver's,
//! through [`LedgerFile`] and [`RecordFile`] (bring the trait into scope: `Ledger::load(path)`).

use crate::diag::Diagnostic;
use crate::ledger::{self, Ledger, READS};
use crate::record::{merge, CourseRecord, SiteLab};
use serde_json::Value as J;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the terminal keeps progress by default: `<data dir>/labforge`, the data directory
/// being the platform's (`dirs::data_dir`: `$XDG_DATA_HOME` or `~/.local/share` on Linux,
/// `~/Library/Application Support` on macOS, `%APPDATA%` on Windows), else `./.labforge` when
/// there is none.
pub fn data_dir() -> PathBuf {
    dirs::data_dir()
        .map(|d| d.join("labforge"))
        .unwrap_or_else(|| PathBuf::from(".labforge"))
}

/// The largest progress record read (a real one is a few kilobytes).
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The directory a file is in (`.` for a bare name) and its name (for temporary files).
fn dir_and_name(path: &Path) -> (&Path, &str) {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("ledger.json");
    (dir, name)
}

/// Where a save of `path` really goes: `path` itself when it is a regular file or does not exist
/// yet; the file a symbolic link names (followed deliberately, link by link, so the link stays
/// and its target is replaced); an error for anything else — a directory, a device such as
/// `/dev/full`, a FIFO or a socket is never replaced by a record.
pub fn save_target(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(e),
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) => dir.join(to),
                    None => to,
                };
            }
            Ok(m) if m.is_file() => return Ok(p),
            Ok(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{} is not a regular file; a record is only written to a regular file",
                        p.display()
                    ),
                ))
            }
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

/// Writes `bytes` to `path` so that a reader (or a crash) sees the old file or the new one,
/// never a part: a temporary `.NAME.PID.tmp` in the same directory, held under an exclusive
/// lock while it exists, fsync, rename, fsync of the directory. Creates the directory. A
/// symbolic link is followed and its target replaced; a path that is neither a regular file nor
/// absent is refused ([`save_target`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = save_target(path)?;
    let path = target.as_path();
    let (dir, name) = dir_and_name(path);
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // A cleaner ([`clear_stale_temps`]) may remove the temporary between its creation and our
    // lock: the rename then finds nothing, and the write is done again.
    let mut tries = 0;
    let written = loop {
        tries += 1;
        let r = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.lock()?;
            f.write_all(bytes)?;
            f.sync_all()?;
            // The lock goes with `f`, after the rename.
            std::fs::rename(&tmp, path)
        })();
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries < 3 => continue,
            r => break r,
        }
    };
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes temporary files left by saves of processes that were killed (`.NAME.PID.tmp` beside
/// the ledger that no save holds locked: the operating system drops a killed process's locks).
/// A save in progress elsewhere holds its lock and is left alone.
pub fn clear_stale_temps(path: &Path) {
    // Saves write beside the file a symbolic link names: look there.
    let target = save_target(path).unwrap_or_else(|_| path.to_path_buf());
    let (dir, name) = dir_and_name(&target);
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let f = e.file_name();
        let ours = f
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|r| r.strip_suffix(".tmp"))
            .is_some_and(|p| p.parse::<u32>().is_ok());
        if !ours {
            continue;
        }
        let unlocked = std::fs::OpenOptions::new()
            .write(true)
            .open(e.path())
            .is_ok_and(|h| h.try_lock().is_ok());
        if unlocked {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The text of the file at `path`, refused before it is read when it is larger than a record
/// can be ([`merge::MAX_BYTES`]); the read itself stops there too (a file that grows meanwhile,
/// or a device).
pub fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let size = f.metadata()?.len();
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "{size} bytes is too large for a course record (at most {})",
                merge::MAX_BYTES
            ),
        )
    };
    if size > merge::MAX_BYTES as u64 {
        return Err(too_big());
    }
    let mut text = String::new();
    f.take(merge::MAX_BYTES as u64 + 1)
        .read_to_string(&mut text)?;
    if text.len() > merge::MAX_BYTES {
        return Err(too_big());
    }
    Ok(text)
}

/// Saving and reading a lab's progress record.
pub trait LedgerFile: Sized {
    /// Writes the record atomically ([`write_atomic`]).
    fn save(&self, path: &Path) -> std::io::Result<()>;
    /// Reads a record; `Ok(None)` when the file does not exist. One that cannot be read is a
    /// diagnostic of the file (at the JSON parser's line and column when it stops there); the
    /// caller, who knows what to do about it, gives the hint.
    fn load(path: &Path) -> Result<Option<Self>, Diagnostic>;
}

impl LedgerFile for Ledger {
    /// Writes the record atomically ([`write_atomic`]).
    fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut text = serde_json::to_string_pretty(self).expect("ledger serializes");
        text.push('\n');
        write_atomic(path, text.as_bytes())
    }

    /// Reads a record; `Ok(None)` when the file does not exist. A record of another format is
    /// an error (never silently rewritten as this one), and so is anything but a regular file
    /// (a symbolic link is followed) or a file over [`MAX_BYTES`]. A leading UTF-8 byte-order
    /// mark, as some editors write, is skipped.
    fn load(path: &Path) -> Result<Option<Ledger>, Diagnostic> {
        let file = path.display().to_string();
        let whole = |e: String| Diagnostic::error(&file, Default::default(), e);
        let target = save_target(path).map_err(|e| whole(e.to_string()))?;
        let size = match std::fs::metadata(&target) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(whole(e.to_string())),
            Ok(m) => m.len(),
        };
        if size > MAX_BYTES {
            return Err(whole(format!(
                "{size} bytes is too large for a progress record (at most {MAX_BYTES})"
            )));
        }
        let s = std::fs::read_to_string(&target).map_err(|e| whole(e.to_string()))?;
        let s = s.strip_prefix('\u{FEFF}').unwrap_or(&s);
        let mut l: Ledger = serde_json::from_str(s).map_err(|e| {
            let at = crate::model::Pos::new(e.line() as u32, e.column() as u32);
            Diagnostic::error(&file, at, format!("not a labforge ledger: {e}"))
        })?;
        if READS.contains(&l.format.as_str()) {
            l.format = ledger::FORMAT.into();
        }
        if l.format != ledger::FORMAT {
            return Err(whole(format!(
                "is a `{}` record; this labforge reads `{}` (and {})",
                l.format,
                ledger::FORMAT,
                READS.join(", ")
            )));
        }
        Ok(Some(l))
    }
}

/// Reading, saving and updating the course record.
pub trait RecordFile: Sized {
    /// The terminal's record file for the course `course_id`.
    fn default_path(course_id: &str) -> PathBuf;
    /// Reads the record at `path`, checked against `labs`: a fresh one when there is no file.
    /// One that cannot be read is a diagnostic of the file, with a hint.
    fn load(path: &Path, course_id: &str, labs: &[SiteLab]) -> Result<Self, Diagnostic>;
    /// Reads a record handed in (`render --record`); one that is not is a diagnostic of the
    /// file (at the JSON parser's line and column when it stops there), with a hint.
    fn read(path: &Path) -> Result<Self, Diagnostic>;
    /// Writes it atomically.
    fn save(&self, path: &Path) -> std::io::Result<()>;
    /// Reads, changes with `f` and writes the record under a lock.
    fn update(
        path: &Path,
        course_id: &str,
        labs: &[SiteLab],
        f: impl FnOnce(&mut Self),
    ) -> Result<Self, String>;
}

impl RecordFile for CourseRecord {
    /// The terminal's record file for the course `course_id`, in the [`data_dir`] beside the
    /// labs' ledgers.
    fn default_path(course_id: &str) -> PathBuf {
        data_dir().join(CourseRecord::file_name(course_id))
    }

    /// Reads the record at `path`: a fresh one when there is no file. Its labs are checked
    /// like any record's ([`Self::parse`]); what the check drops is not kept.
    fn load(path: &Path, course_id: &str, labs: &[SiteLab]) -> Result<CourseRecord, Diagnostic> {
        let file = path.display().to_string();
        let unread = |e: String| {
            Diagnostic::error(&file, Default::default(), e).with_hint(
                "this is the course's record of progress; move the file away yourself (each lab's own ledger keeps its progress, and a new record is started), or pass another --ledger",
            )
        };
        match read_bounded(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(CourseRecord::new(course_id)),
            Err(e) => Err(unread(e.to_string())),
            Ok(text) => {
                let (r, _) = CourseRecord::parse(&text, course_id, labs).map_err(unread)?;
                Ok(r)
            }
        }
    }

    /// A record given on the command line (`render --record`), of whichever course: the caller
    /// compares its `course` with the labs'.
    fn read(path: &Path) -> Result<CourseRecord, Diagnostic> {
        let file = path.display().to_string();
        let refused = |at: crate::model::Pos, e: String| {
            Diagnostic::error(&file, at, e).with_hint(
                "--record takes a course record: a course page's export, or the terminal's course-COURSE-ID.json",
            )
        };
        let whole = |e: String| refused(Default::default(), e);
        let text = read_bounded(path).map_err(|e| whole(e.to_string()))?;
        merge::bounds(&text).map_err(whole)?;
        let j: J = serde_json::from_str(text.trim_start_matches('\u{FEFF}')).map_err(|e| {
            let at = crate::model::Pos::new(e.line() as u32, e.column() as u32);
            refused(at, format!("not a JSON file ({e})"))
        })?;
        if j["format"].as_str() != Some(crate::record::FORMAT)
            || !j["labs"].is_object()
            || !j["course"].is_string()
        {
            return Err(whole(format!(
                "not a labforge course record (`format: {}`)",
                crate::record::FORMAT
            )));
        }
        serde_json::from_value(j).map_err(|e| whole(format!("a damaged course record: {e}")))
    }

    /// Writes the record atomically.
    fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("json") + "\n";
        write_atomic(path, text.as_bytes())
    }

    /// Changes the record at `path` under an exclusive lock on `.NAME.lock` beside it: reads it
    /// as it is now (another run may have written it since this one read it), applies `f`,
    /// writes it, and only then lets the next writer in. Returns the record written.
    fn update(
        path: &Path,
        course_id: &str,
        labs: &[SiteLab],
        f: impl FnOnce(&mut CourseRecord),
    ) -> Result<CourseRecord, String> {
        let target = save_target(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("course.json");
        let lock_path = dir.join(format!(".{name}.lock"));
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("{}: {e}", lock_path.display()))?;
        lock.lock()
            .map_err(|e| format!("{}: {e}", lock_path.display()))?;
        let mut r = CourseRecord::load(path, course_id, labs).map_err(|d| d.to_string())?;
        f(&mut r);
        r.save(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        drop(lock);
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = std::env::temp_dir().join(format!("labforge-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let f = dir.join("sub/l.json");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        assert_eq!(names(&dir.join("sub")), ["l.json"]);
        // A target that cannot be replaced (a directory): an error, and no temporary left.
        std::fs::create_dir_all(dir.join("sub/d.json/x")).unwrap();
        assert!(write_atomic(&dir.join("sub/d.json"), b"x").is_err());
        assert_eq!(names(&dir.join("sub")), ["d.json", "l.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_unlocked_temporaries_are_cleared() {
        let dir = std::env::temp_dir().join(format!("labforge-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("l.json");
        std::fs::write(&f, b"{}").unwrap();
        // A save in progress (locked), a killed one (unlocked), and a file that is not ours.
        let busy = std::fs::File::create(dir.join(".l.json.1.tmp")).unwrap();
        busy.lock().unwrap();
        std::fs::write(dir.join(".l.json.2.tmp"), b"half").unwrap();
        std::fs::write(dir.join(".other.json.3.tmp"), b"x").unwrap();
        clear_stale_temps(&f);
        assert_eq!(
            names(&dir),
            [".l.json.1.tmp", ".other.json.3.tmp", "l.json"]
        );
        drop(busy);
        clear_stale_temps(&f);
        assert_eq!(names(&dir), [".other.json.3.tmp", "l.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
