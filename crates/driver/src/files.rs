//! The other files the commands read and write, so that the driver owns every disk access (the
//! `labforge` crate's `run`, `new`, `preview` and `grade` call these, never `std::fs`): an
//! answers file, a record's backup, the records a class hands in, a new lab, and what the
//! preview watches. Reads from outside are bounded before they are parsed.

use crate::diag::Diagnostic;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Why a bounded read failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// It holds more than the limit: `size` bytes (or more), at most `limit`.
    TooLarge { size: u64, limit: u64 },
    /// It is not UTF-8 text ([`read_text`]).
    NotText,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge { size, limit } => {
                write!(f, "{size} bytes is too large (at most {limit})")
            }
            ReadError::NotText => f.write_str("not UTF-8 text"),
        }
    }
}

/// The bytes of the file at `path`, at most `limit` of them: a larger file is refused before
/// it is read, and the read stops past `limit` too (a file that grows meanwhile, a device).
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let f = std::fs::File::open(path).map_err(ReadError::Io)?;
    let size = f.metadata().map_err(ReadError::Io)?.len();
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        let size = bytes.len() as u64;
        return Err(ReadError::TooLarge { size, limit });
    }
    Ok(bytes)
}

/// The text of the file at `path` (UTF-8), at most `limit` bytes ([`read_limited`]).
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read_limited(path, limit)?).map_err(|_| ReadError::NotText)
}

/// The bytes of a file read whole (the lab a preview watches; [`std::fs::read`]'s error).
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

/// Copies the record that a save of `path` would replace ([`crate::store::save_target`]), if
/// there is one, to `backup`, atomically; nothing to copy is not an error.
pub fn back_up(path: &Path, backup: &Path) -> Result<(), Diagnostic> {
    let target = crate::store::save_target(path).map_err(|e| of(path, e))?;
    match std::fs::read(&target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(of(path, e)),
        Ok(bytes) => crate::store::write_atomic(backup, &bytes).map_err(|e| of(backup, e)),
    }
}

/// The system's error `e` on `path` as a diagnostic of that file (the caller adds the hint).
fn of(path: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::error(
        &path.display().to_string(),
        Default::default(),
        e.to_string(),
    )
}

/// Every `.json` file under `dir`, in folders walked without following links (a link to a
/// file or a folder is not read: a class's folder cannot lead the grader outside it).
pub fn json_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
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
    let mut out = Vec::new();
    walk(dir, &mut out)?;
    Ok(out)
}

/// The files under `dir`, relative to it; folders (not links to them) walked, 16 deep, and an
/// unreadable folder left out (the preview hashes a templates folder with these).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, rel: &Path, depth: usize, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir.join(rel)) else {
            return;
        };
        for e in rd.flatten() {
            let r = rel.join(e.file_name());
            match e.file_type() {
                Ok(t) if t.is_dir() && depth < 16 => walk(dir, &r, depth + 1, out),
                Ok(t) if t.is_dir() => {}
                _ => out.push(r),
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, Path::new(""), 0, &mut out);
    out.sort();
    out
}

/// A new file at `path` with `bytes`, made with `create_new`: a file that appeared since the
/// caller looked is never clobbered. Its folder is made first.
pub fn create_new(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        make_dir(dir)?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| of(path, e))?;
    f.write_all(bytes).map_err(|e| of(path, e))
}

/// Makes the folder `dir` and its parents.
pub fn make_dir(dir: &Path) -> Result<(), Diagnostic> {
    std::fs::create_dir_all(dir).map_err(|e| of(dir, e))
}

/// The size and last change of the file at `path`, if it is there.
pub fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// Is there anything at `path` (a file, a folder, a link that leads somewhere)?
pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// Is `path` a folder (through links)?
pub fn is_dir(path: &Path) -> bool {
    path.is_dir()
}

/// Is `path` a regular file (through links)?
pub fn is_file(path: &Path) -> bool {
    path.is_file()
}

/// The absolute path of `path` with every link resolved (the preview watches real folders).
pub fn canonical(path: &Path) -> std::io::Result<PathBuf> {
    path.canonicalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_is_refused_past_its_limit_and_a_new_file_never_clobbers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        std::fs::write(&p, "12345").unwrap();
        assert_eq!(read_text(&p, 5).unwrap(), "12345");
        let e = read_text(&p, 4).unwrap_err();
        assert!(
            matches!(e, ReadError::TooLarge { size: 5, limit: 4 }),
            "{e}"
        );
        assert!(create_new(&p, b"x").is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "12345");
        create_new(&dir.path().join("sub/b.yaml"), b"y").unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/c.json"), "{}").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.path().join("d"), dir.path().join("link")).unwrap();
        let found = json_files(dir.path()).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found
            .iter()
            .all(|f| !f.starts_with(dir.path().join("link"))));
    }
}
