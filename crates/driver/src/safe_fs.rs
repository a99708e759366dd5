//! The files labforge writes for the user and the files it reads from a folder it was given,
//! kept inside their folder whatever the folder holds: every output (pages, handouts, charts,
//! SCORM packages, the output mark, grade's CSVs and report) is written by [`write_inside`],
//! which never follows a symbolic link below the output folder; templates are read by
//! [`read_inside`], which reads only regular files inside the templates folder and stops at a
//! size limit while reading; a course's labs and modules are resolved by [`resolve_inside`].
//!
//! The output folder itself (`-o OUT`, or `build/FORMAT`) is the user's choice and is taken as
//! given, a link included; below it, a link is refused with a message naming it (never replaced:
//! a link someone put there may be the only pointer to what it names, and refusing shows it).

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Why a file could not be written inside the output folder.
#[derive(Debug)]
enum Refusal {
    /// A symbolic link on the way (a folder) or at the file itself.
    Link(PathBuf),
    /// Something that is not a folder where a folder is needed.
    NotDir(PathBuf),
    /// A folder, device, FIFO or socket where the file would go.
    NotFile(PathBuf),
    Io(PathBuf, std::io::Error),
}

/// A path as a message shows it: names found on disk may hold terminal escapes, shown as U+FFFD.
pub fn shown(p: &Path) -> String {
    crate::load::text::visible(&p.display().to_string()).into_owned()
}

impl Refusal {
    fn message(&self) -> String {
        match self {
            Refusal::Link(p) => {
                let to = std::fs::read_link(p)
                    .map(|t| format!(" to {}", shown(&t)))
                    .unwrap_or_default();
                format!(
                    "refusing to write through {}: it is a symbolic link{to}, and labforge writes only inside the output folder, never through a link; remove the link or render to another folder",
                    shown(p)
                )
            }
            Refusal::NotDir(p) => format!(
                "refusing to write under {}: it is not a folder; remove it or render to another folder",
                shown(p)
            ),
            Refusal::NotFile(p) => format!(
                "refusing to write {}: it is not a regular file; remove it or render to another folder",
                shown(p)
            ),
            Refusal::Io(p, e) => format!("{}: {e}", shown(p)),
        }
    }
}

/// The components of `rel` when it is a relative path that goes only downwards (no root, drive
/// prefix, `.` or `..`), at least one.
fn down_names(rel: &Path) -> Option<Vec<&OsStr>> {
    let mut v = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => v.push(n),
            _ => return None,
        }
    }
    (!v.is_empty()).then_some(v)
}

/// The refusal for `rel` under `out`, if any: `rel` leaves the folder, or a symbolic link or
/// something else than a folder is on its way, or its place holds a link or a non-file. Reads
/// only; a missing folder or file is fine (it will be created).
pub fn check_inside(out: &Path, rel: &Path) -> Result<(), String> {
    if down_names(rel).is_none() {
        return Err(not_inside(rel));
    }
    walk_checked(out, rel).map(|_| ()).map_err(|r| r.message())
}

fn not_inside(rel: &Path) -> String {
    format!(
        "refusing to write `{}`: not a relative path inside the output folder",
        rel.display()
    )
}

/// [`check_inside`] for a `rel` that goes only downwards; the path it names.
fn walk_checked(out: &Path, rel: &Path) -> Result<PathBuf, Refusal> {
    let names = down_names(rel).unwrap_or_default();
    let mut here = out.to_path_buf();
    for (i, n) in names.iter().enumerate() {
        here.push(n);
        let last = i + 1 == names.len();
        match std::fs::symlink_metadata(&here) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out.join(rel)),
            Err(e) => return Err(Refusal::Io(here, e)),
            Ok(m) if m.file_type().is_symlink() => return Err(Refusal::Link(here)),
            Ok(m) if !last && !m.is_dir() => return Err(Refusal::NotDir(here)),
            Ok(m) if last && !m.is_file() => return Err(Refusal::NotFile(here)),
            Ok(_) => {}
        }
    }
    Ok(here)
}

/// Writes `bytes` to `rel` under `out`, creating `out` and the folders between. Below `out`
/// nothing is followed: a symbolic link (to a file or a folder) on the way or at the file is
/// refused with a message naming it, and so is a folder or device where the file would go.
/// The file is written to a temporary `.NAME.PID.tmp` beside it and renamed over it, so a
/// hard link to the old file is never written through and a reader sees the old file or the
/// new one. On Unix every step is relative to an open folder (`openat` with `O_NOFOLLOW`), so a
/// link swapped in while writing is refused too.
pub fn write_inside(out: &Path, rel: &Path, bytes: &[u8]) -> Result<(), String> {
    let Some(names) = down_names(rel) else {
        return Err(not_inside(rel));
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let (file, dirs) = names.split_last().expect("at least one name");
    imp::write(out, dirs, file, bytes).map_err(|r| r.message())
}

/// The temporary name a write of `file` goes through.
fn temp_name(file: &OsStr) -> String {
    format!(".{}.{}.tmp", file.to_string_lossy(), std::process::id())
}

#[cfg(unix)]
mod imp {
    use super::{temp_name, Refusal};
    use rustix::fs::{self, AtFlags, FileType, Mode, OFlags};
    use rustix::io::Errno;
    use std::ffi::OsStr;
    use std::io::Write;
    use std::os::fd::OwnedFd;
    use std::path::{Path, PathBuf};

    fn io(p: &Path) -> impl FnOnce(Errno) -> Refusal + '_ {
        move |e| Refusal::Io(p.to_path_buf(), e.into())
    }

    /// What `name` in `dir` is, without following a link (`None`: nothing there).
    fn kind(dir: &OwnedFd, name: &OsStr, shown: &Path) -> Result<Option<FileType>, Refusal> {
        match fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(FileType::from_raw_mode(st.st_mode as _))),
            Err(Errno::NOENT) => Ok(None),
            Err(e) => Err(io(shown)(e)),
        }
    }

    pub(super) fn write(
        out: &Path,
        dirs: &[&OsStr],
        file: &OsStr,
        bytes: &[u8],
    ) -> Result<(), Refusal> {
        let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let mut here: PathBuf = out.to_path_buf();
        let mut dir = fs::open(out, dir_flags, Mode::empty()).map_err(io(out))?;
        for name in dirs {
            here.push(name);
            match kind(&dir, name, &here)? {
                None => match fs::mkdirat(&dir, *name, Mode::from_bits_truncate(0o777)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(io(&here)(e)),
                },
                Some(FileType::Symlink) => return Err(Refusal::Link(here)),
                Some(FileType::Directory) => {}
                Some(_) => return Err(Refusal::NotDir(here)),
            }
            dir = match fs::openat(&dir, *name, dir_flags | OFlags::NOFOLLOW, Mode::empty()) {
                Ok(d) => d,
                // Made a link (or a file) since it was looked at.
                Err(Errno::LOOP | Errno::NOTDIR) => return Err(Refusal::Link(here)),
                Err(e) => return Err(io(&here)(e)),
            };
        }
        here.push(file);
        match kind(&dir, file, &here)? {
            None | Some(FileType::RegularFile) => {}
            Some(FileType::Symlink) => return Err(Refusal::Link(here)),
            Some(_) => return Err(Refusal::NotFile(here)),
        }
        let tmp = temp_name(file);
        // A temporary of an earlier process with our id: unlinked (a link is removed, never
        // followed), then created afresh (`O_EXCL`: never through a link put there meanwhile).
        let _ = fs::unlinkat(&dir, tmp.as_str(), AtFlags::empty());
        let fd = fs::openat(
            &dir,
            tmp.as_str(),
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_bits_truncate(0o666),
        )
        .map_err(io(&here))?;
        let written = std::fs::File::from(fd)
            .write_all(bytes)
            .map_err(|e| Refusal::Io(here.clone(), e))
            // `rename` replaces whatever has the name (a link swapped in included), never
            // what it points to.
            .and_then(|()| fs::renameat(&dir, tmp.as_str(), &dir, file).map_err(io(&here)));
        if written.is_err() {
            let _ = fs::unlinkat(&dir, tmp.as_str(), AtFlags::empty());
        }
        written
    }
}

#[cfg(not(unix))]
mod imp {
    use super::{temp_name, walk_checked, Refusal};
    use std::ffi::OsStr;
    use std::io::Write;
    use std::path::{Path, PathBuf};

    /// Without `openat`: each step is looked at (no link, folders are folders) just before
    /// the write, then the temporary is created new and renamed over the file.
    pub(super) fn write(
        out: &Path,
        dirs: &[&OsStr],
        file: &OsStr,
        bytes: &[u8],
    ) -> Result<(), Refusal> {
        let rel: PathBuf = dirs.iter().chain([&file]).collect();
        let path = walk_checked(out, &rel)?;
        let dir = path.parent().unwrap_or(out).to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|e| Refusal::Io(dir.clone(), e))?;
        walk_checked(out, &rel)?;
        let tmp = dir.join(temp_name(file));
        let _ = std::fs::remove_file(&tmp);
        let r = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .and_then(|mut f| f.write_all(bytes))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if r.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        r.map_err(|e| Refusal::Io(path, e))
    }
}

/// `path`'s canonical form when it resolves inside the folder whose canonical form is `root`;
/// otherwise `Err` with where it leads (`None` when it cannot be resolved at all).
pub fn resolve_inside(root: &Path, path: &Path) -> Result<PathBuf, Option<PathBuf>> {
    match std::fs::canonicalize(path) {
        Ok(real) if real.starts_with(root) => Ok(real),
        Ok(real) => Err(Some(real)),
        Err(_) => Err(None),
    }
}

/// The largest file [`read_inside`] reads for a template or an asset: 1 MiB (the shipped ones
/// are under 100 KiB, and a page must stay under 164 KiB).
pub const MAX_TEMPLATE_BYTES: u64 = 1024 * 1024;

/// The file `name` inside `dir` (`Ok(None)` when there is none), read only when `name` is a
/// relative path going downwards (no root, no `..`), it resolves inside `dir` (a symbolic link
/// may point only within it), it is a regular file (not a device such as `/dev/zero`, a FIFO
/// or a folder), and it holds at most `limit` bytes: the read stops at `limit + 1` bytes, so a
/// larger file costs no more memory than that.
pub fn read_inside(dir: &Path, name: &str, limit: u64) -> Result<Option<Vec<u8>>, String> {
    if down_names(Path::new(name)).is_none() {
        return Err(format!(
            "`{name}`: only files inside the templates folder {} are read (a relative name, without `..` or a leading `/`)",
            shown(dir)
        ));
    }
    let p = dir.join(name);
    match std::fs::symlink_metadata(&p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", shown(&p))),
        Ok(_) => {}
    }
    let root = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", shown(dir)))?;
    let real = match resolve_inside(&root, &p) {
        Ok(r) => r,
        Err(to) => {
            return Err(format!(
                "{} leads outside the templates folder {}{}: only files inside it are read",
                shown(&p),
                shown(dir),
                to.map(|t| format!(" (to {})", shown(&t)))
                    .unwrap_or_else(|| " (a link to nothing)".into())
            ))
        }
    };
    let not_file = || {
        format!(
            "{} is not a regular file: templates are read from files only",
            shown(&p)
        )
    };
    if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
        return Err(not_file());
    }
    let f = std::fs::File::open(&real).map_err(|e| format!("{}: {e}", shown(&p)))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return Err(not_file());
    }
    let mut buf = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{}: {e}", shown(&p)))?;
    if buf.len() as u64 > limit {
        return Err(format!(
            "{} is larger than {} KiB, the limit for a template file",
            shown(&p),
            limit / 1024
        ));
    }
    Ok(Some(buf))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A link to a file and a link to a folder, both outside: refused, named, and the outside
    /// is untouched; a plain write goes through and replaces the file.
    #[test]
    fn writes_never_follow_a_link_below_the_output_folder() {
        let t = tempfile::tempdir().unwrap();
        let (out, outside) = (t.path().join("out"), t.path().join("outside"));
        std::fs::create_dir_all(&out).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("victim.html"), "precious").unwrap();
        symlink(outside.join("victim.html"), out.join("lab.html")).unwrap();
        symlink(&outside, out.join("lab-charts")).unwrap();
        for rel in ["lab.html", "lab-charts/a.svg", "lab-charts/new/b.svg"] {
            let e = write_inside(&out, Path::new(rel), b"x").unwrap_err();
            assert!(e.contains("symbolic link"), "{rel}: {e}");
            let link = rel.split('/').next().unwrap();
            assert!(e.contains(&out.join(link).display().to_string()), "{e}");
            assert!(check_inside(&out, Path::new(rel)).is_err(), "{rel}");
        }
        assert_eq!(
            std::fs::read_to_string(outside.join("victim.html")).unwrap(),
            "precious"
        );
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
        // A hard link to a file outside is replaced, not written through.
        std::fs::hard_link(outside.join("victim.html"), out.join("hard.html")).unwrap();
        write_inside(&out, Path::new("hard.html"), b"new").unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("hard.html")).unwrap(),
            "new"
        );
        assert_eq!(
            std::fs::read_to_string(outside.join("victim.html")).unwrap(),
            "precious"
        );
        write_inside(&out, Path::new("sub/dir/c.svg"), b"c").unwrap();
        assert_eq!(std::fs::read(out.join("sub/dir/c.svg")).unwrap(), b"c");
        for bad in ["../x", "/abs", "", "./x", "a/../b"] {
            assert!(write_inside(&out, Path::new(bad), b"x").is_err(), "{bad}");
        }
        // No temporary left behind.
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn reads_stay_inside_bounded_and_from_regular_files() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("theme");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(t.path().join("secret.txt"), "secret").unwrap();
        std::fs::write(dir.join("sub/part.j2"), "part").unwrap();
        symlink(dir.join("sub/part.j2"), dir.join("inner.j2")).unwrap();
        symlink(t.path().join("secret.txt"), dir.join("style.css")).unwrap();
        symlink("/dev/zero", dir.join("zero.css")).unwrap();
        std::fs::write(dir.join("big.css"), vec![b'a'; 2049]).unwrap();
        let read = |n: &str, limit| read_inside(&dir, n, limit);
        assert_eq!(read("sub/part.j2", 100).unwrap().unwrap(), b"part");
        assert_eq!(read("inner.j2", 100).unwrap().unwrap(), b"part");
        assert_eq!(read("missing.css", 100).unwrap(), None);
        for (name, says) in [
            ("style.css", "leads outside"),
            ("zero.css", "leads outside"),
            ("/etc/hostname", "only files inside"),
            ("../secret.txt", "only files inside"),
            ("sub", "not a regular file"),
            ("big.css", "larger than 2 KiB"),
        ] {
            let e = read(name, 2048).unwrap_err();
            assert!(e.contains(says), "{name}: {e}");
        }
        // A device is refused as a non-file, never read.
        let e = read_inside(Path::new("/dev"), "zero", 2048).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
    }
}

/// The instructor's `--templates DIR` for the renderers: each file they ask for is read with
/// [`read_inside`] (no absolute name, no `..`, no symbolic link leading out, regular files
/// only, at most [`MAX_TEMPLATE_BYTES`]).
pub fn template_overrides(dir: PathBuf) -> crate::render::Overrides {
    let at = dir.clone();
    crate::render::Overrides {
        dir,
        read: std::sync::Arc::new(move |name| read_inside(&at, name, MAX_TEMPLATE_BYTES)),
    }
}
