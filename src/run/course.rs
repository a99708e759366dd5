//! `labforge run` in a course: the lab's ledger also goes into the course record (the same
//! JSON as the page's export, [`crate::record`]), earlier labs' decisions named by
//! `carry_forward:` are shown, and `labforge run COURSE_DIR` lists the labs with progress
//! (`--import FILE` first merges a record exported from the page).

use super::term::Style;
use super::Session;
use crate::course::Course;
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::ledger::Ledger;
use crate::record::merge;
use crate::record::CourseRecord;
use crate::site::Site;
use crate::store::RecordFile as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The course a run belongs to, and its record.
pub struct RunCourse {
    pub site: Site,
    pub path: PathBuf,
    pub record: CourseRecord,
    /// The course's tracks (empty: none).
    pub tracks: crate::model::track::TrackSet,
}

/// The site of `course`, its labs compiled (a lab that does not compile is left out: `check`
/// says why; one that does not compile on one of the course's tracks is a diagnostic in its
/// file).
fn site_of(course: &Course) -> Result<Site, Diagnostic> {
    let labs: Vec<(String, CompiledLab)> = course
        .file
        .labs
        .iter()
        .filter_map(|f| {
            let stem = f.file_stem()?.to_str()?.to_string();
            Some((stem, crate::lab::load_lab(f).ok()?))
        })
        .collect();
    let refs: Vec<(String, &CompiledLab)> = labs.iter().map(|(s, l)| (s.clone(), l)).collect();
    Site::new(course, &refs)
}

/// The course's record, in `dir` (beside the lab's ledger), or the data directory. `Err`: a
/// diagnostic of the lab or of the record that stops it.
fn open(course: &Course, dir: Option<&Path>) -> Result<RunCourse, Diagnostic> {
    let site = site_of(course)?;
    let path = match dir {
        Some(d) => d.join(CourseRecord::file_name(&site.id)),
        None => CourseRecord::default_path(&site.id),
    };
    crate::store::clear_stale_temps(&path);
    let record = CourseRecord::load(&path, &site.id, &site.labs)?;
    Ok(RunCourse {
        site,
        path,
        record,
        tracks: course.file.tracks.clone(),
    })
}

/// The folder of the course record that a run with `--ledger ledger` keeps: the ledger's
/// (`--ledger l.json` has the parent "": the current folder).
fn record_dir(ledger: &Path) -> &Path {
    ledger
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The lab id of the ledger at `path`, when it is one.
fn ledger_lab(path: &Path) -> Option<String> {
    let t = crate::store::read_bounded(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&t).ok()?;
    Some(v.get("lab")?.as_str()?.to_string())
}

/// The course of the lab at `lab` with its record (kept beside the lab's ledger at `ledger`), if
/// the lab is in one. `Err` is printed.
pub fn for_lab(lab: &Path, ledger: &Path) -> Result<Option<RunCourse>, ExitCode> {
    match crate::course::for_lab(lab) {
        Ok(None) => Ok(None),
        Ok(Some(c)) => open(&c, Some(record_dir(ledger))).map(Some).map_err(|d| {
            crate::cmd::report(&[d], None);
            ExitCode::FAILURE
        }),
        Err((src, d)) => {
            crate::cmd::report(&d, src.as_ref());
            Err(ExitCode::FAILURE)
        }
    }
}

impl RunCourse {
    /// Answers the course record's copy of this lab has and `ledger` lacks (an import, or
    /// progress made on the page): taken, part by part, with a note; nothing `ledger` answered
    /// is replaced ([`crate::record::merge::merge_lab`]).
    pub fn seed(&self, lab: &CompiledLab, ledger: &mut Ledger) {
        let Some(theirs) = self.record.labs.get(&lab.lab.id.value) else {
            return;
        };
        let Some(me) = self.site.labs.iter().find(|l| l.id == lab.lab.id.value) else {
            return;
        };
        let mine = serde_json::to_value(&*ledger).unwrap_or_default();
        let (merged, o) = merge::merge_lab(Some(&mine), theirs, &me.shape, false);
        if o.taken.is_empty() {
            return;
        }
        if let Ok(mut l) = serde_json::from_value::<Ledger>(merged) {
            if l.lab == lab.lab.id.value && l.version == lab.lab.version {
                l.sanitize(lab);
                eprintln!(
                    "note: taking {} of this lab from the course record {}",
                    o.taken.join(", "),
                    self.path.display()
                );
                *ledger = l;
            }
        }
    }

    /// Puts the lab's ledger into the course record and writes it, under the record's lock and
    /// over the record as it is on disk now, so a run of another lab at the same time keeps its
    /// own ([`CourseRecord::update`]).
    pub fn save(&mut self, ledger: &Ledger) -> std::io::Result<()> {
        let v = serde_json::to_value(ledger).map_err(std::io::Error::other)?;
        let id = ledger.lab.clone();
        let student = ledger.student.clone();
        self.record = CourseRecord::update(&self.path, &self.site.id, &self.site.labs, |r| {
            r.labs.insert(id, v);
            // The name typed for the report is the course's (every lab's report shows it).
            if student.is_some() {
                r.student = student;
            }
        })
        .map_err(std::io::Error::other)?;
        Ok(())
    }
}

impl Session<'_> {
    /// The earlier decisions shown at `part` (`None`: under the header).
    pub(super) fn earlier(&self, part: Option<&str>) -> Vec<String> {
        let mut l = Vec::new();
        let Some(c) = &self.course else {
            return l;
        };
        for cf in &self.lab.lab.carry_forward {
            if cf.part.as_ref().map(|p| p.value.as_str()) != part {
                continue;
            }
            let from = &cf.from.value;
            let title = c
                .site
                .labs
                .iter()
                .find(|x| &x.id == from)
                .map_or(from.as_str(), |x| x.title.as_str());
            l.push(String::new());
            let prompt = cf
                .prompt
                .as_ref()
                .map(|p| p.value.clone())
                .unwrap_or_else(|| format!("Your decision in {title}:"));
            l.extend(self.md(&prompt));
            let bar = self.scr.paint(Style::Blue, "┃ ");
            match c
                .record
                .labs
                .get(from)
                .and_then(|r| r["decision_log"].as_str())
            {
                Some(t) if !t.is_empty() => {
                    for x in self.plain(t) {
                        l.push(format!("{bar}{x}"));
                    }
                }
                _ => l.push(format!(
                    "{bar}{}",
                    self.scr.paint(
                        Style::Dim,
                        &format!(
                            "Not recorded yet: write it in the decision log of {}.",
                            crate::load::text::visible(title)
                        )
                    )
                )),
            }
            l.push(String::new());
        }
        l
    }
}

/// `labforge run COURSE_DIR [--ledger FILE] [--import FILE]`: merges an exported record, then
/// lists the labs in order with their progress. With `--ledger FILE` the record is the one the
/// labs' runs keep beside FILE, and each suggested command keeps `--ledger`: FILE for the lab it
/// holds, else the lab's default file name in FILE's folder (a run there takes its progress
/// from the course record).
pub fn list(
    dir: &Path,
    ledger: Option<&Path>,
    import: Option<&Path>,
    replace: bool,
    track: Option<&str>,
) -> ExitCode {
    let Some(c) = crate::course::in_dir(dir) else {
        crate::cmd::error(format_args!(
            "{} has no course.yaml\n  hint: run a lab file (labforge run LAB.yaml), or a course folder",
            dir.display()
        ));
        return ExitCode::FAILURE;
    };
    let course = match crate::course::load(&c) {
        Ok(c) => c,
        Err((src, d)) => {
            crate::cmd::report(&d, src.as_ref());
            return ExitCode::FAILURE;
        }
    };
    let mut rc = match open(&course, ledger.map(record_dir)) {
        Ok(r) => r,
        Err(d) => {
            crate::cmd::report(&[d], None);
            return ExitCode::FAILURE;
        }
    };
    if let Some(f) = import {
        if let Err(code) = import_record(&mut rc, f, replace) {
            return code;
        }
    }
    if let Err(code) = list_track(&mut rc, track) {
        return code;
    }
    println!("{}", course.file.title);
    if !rc.tracks.is_empty() {
        let tracks = &rc.tracks;
        let all: Vec<String> = tracks
            .tracks
            .iter()
            .map(|t| format!("{} ({})", super::track::name(t), t.id))
            .collect();
        match rc.record.track.as_deref().and_then(|t| tracks.get(t)) {
            Some(t) => println!(
                "  Track: {} (--track ID changes it; tracks: {})",
                super::track::name(t),
                all.join(", ")
            ),
            None => println!(
                "  Track: not chosen yet; the first lab you run asks (or --track ID; tracks: {})",
                all.join(", ")
            ),
        }
    }
    let holds = ledger.and_then(ledger_lab);
    for (i, (l, f)) in rc.site.labs.iter().zip(&course.file.labs).enumerate() {
        let d = if l.duration.is_empty() {
            String::new()
        } else {
            format!(" ({})", l.duration)
        };
        let flag = match ledger {
            None => String::new(),
            Some(p) if holds.as_deref() == Some(l.id.as_str()) => {
                format!(" --ledger {}", p.display())
            }
            Some(p) => format!(
                " --ledger {}",
                record_dir(p)
                    .join(format!("{}-v{}.json", l.id, l.version))
                    .display()
            ),
        };
        // The title on the student's track (it may read `track`).
        let title = rc
            .record
            .track
            .as_deref()
            .filter(|t| rc.tracks.get(t).is_some())
            .and_then(|t| crate::lab::load_lab_on(f, Some(t)).ok())
            .and_then(|lab| crate::view::header(&lab).ok())
            .map_or_else(|| l.title.clone(), |h| h.title.plain());
        println!(
            "  {}. {title}{d} — {}\n     labforge run {}{flag}",
            i + 1,
            rc.record.status(&l.id),
            f.display()
        );
    }
    println!(
        "Course record: {} (import it on the course index page to continue in a browser)",
        rc.path.display()
    );
    ExitCode::SUCCESS
}

/// `labforge run COURSE --track ID`: the course's track set (or changed, saying what that
/// changes). `Err` has been printed.
fn list_track(rc: &mut RunCourse, track: Option<&str>) -> Result<(), ExitCode> {
    let Some(want) = track else {
        return Ok(());
    };
    let t = super::track::known(&rc.tracks, want).map_err(|e| {
        crate::cmd::fail(&crate::project::Failure::Message(e));
        ExitCode::FAILURE
    })?;
    let id = t.id.clone();
    let old = rc.record.track.clone().filter(|o| *o != id);
    let fail = |e: String| {
        crate::cmd::fail(&crate::project::Failure::Message(e));
        ExitCode::FAILURE
    };
    let kept = super::track::set_course_track(rc, old.as_deref(), &id).map_err(fail)?;
    if let Some(o) = &old {
        println!(
            "{}
",
            super::track::change_note(&rc.tracks, o, &id, &kept)
        );
    }
    Ok(())
}

/// At most this many sentences about what a record left out are printed (then a count).
const NAMED: usize = 10;

/// `--import FILE`: the file bounded before it is read, checked against the labs (what is left
/// out is named), merged part by part into the record under its lock. Answers that would replace
/// the student's own are taken only with `--replace` or a `y` on a terminal; without a terminal
/// the import is refused. `Err` has been printed.
fn import_record(rc: &mut RunCourse, f: &Path, replace: bool) -> Result<(), ExitCode> {
    // What the import says about the file: diagnostics of it, through the one printer.
    let file = f.display().to_string();
    let refuse = |e: String, hint: &str| {
        let d = Diagnostic::error(&file, Default::default(), format!("not imported: {e}"));
        crate::cmd::report(&[d.with_hint(hint)], None);
        ExitCode::FAILURE
    };
    const HINT: &str = "--import takes this course's record: the export of its index page (labforge-course/1), or a lab page's download";
    let text = crate::store::read_bounded(f).map_err(|e| refuse(e.to_string(), HINT))?;
    let (r, left) =
        CourseRecord::parse(&text, &rc.site.id, &rc.site.labs).map_err(|e| refuse(e, HINT))?;
    let mut notes: Vec<Diagnostic> = left
        .iter()
        .take(NAMED)
        .map(|l| Diagnostic::warning(&file, Default::default(), format!("left out {l}")))
        .collect();
    if left.len() > NAMED {
        let more = format!("left out {} more", left.len() - NAMED);
        notes.push(Diagnostic::warning(&file, Default::default(), more));
    }
    crate::cmd::report(&notes, None);
    if r.labs.is_empty() {
        return Err(refuse(
            "it holds no lab of this course".into(),
            "export the record from this course's index page",
        ));
    }
    // A trial on the record as it is: does the import change anything, or replace anything?
    let trial = rc.record.clone().merge(&r, &rc.site.labs, false);
    if trial.iter().all(|(_, o)| o.unchanged()) {
        println!(
            "Nothing imported: {} holds no answer this record does not already have.",
            f.display()
        );
        return Ok(());
    }
    let conflicts: Vec<String> = trial
        .iter()
        .filter(|(_, o)| !o.conflicts.is_empty())
        .map(|(t, o)| format!("{t}: {}", o.conflicts.join(", ")))
        .collect();
    let mut replace = replace;
    if !conflicts.is_empty() && !replace {
        use std::io::IsTerminal;
        eprintln!(
            "{} has other answers than yours for:\n  - {}",
            f.display(),
            conflicts.join("\n  - ")
        );
        if !std::io::stdin().is_terminal() {
            return Err(refuse(
                "it would replace your answers".into(),
                "run it in a terminal to be asked, or pass --replace to take the imported answers",
            ));
        }
        eprint!("Replace yours with the imported answers? [y/N] ");
        let mut a = String::new();
        let _ = std::io::stdin().read_line(&mut a);
        replace = matches!(a.trim(), "y" | "Y" | "yes" | "Yes");
        if !replace {
            eprintln!("Keeping your answers; taking only what they do not have.");
        }
    }
    let mut said = Vec::new();
    let site = &rc.site;
    let tracks = &rc.tracks;
    rc.record = CourseRecord::update(&rc.path, &site.id, &site.labs, |rec| {
        said = rec.merge(&r, &site.labs, replace);
        // The track picked on the page, when none is chosen here yet.
        if rec.track.is_none() {
            rec.track = r.track.clone().filter(|t| tracks.get(t).is_some());
        }
    })
    .map_err(|e| {
        let d = crate::diag::Diagnostic::error(
            &rc.path.display().to_string(),
            Default::default(),
            format!("could not save the course record: {e}"),
        )
        .with_hint("nothing was merged; free some space or fix the folder's permissions, then import again");
        crate::cmd::report(&[d], None);
        ExitCode::FAILURE
    })?;
    let lines: Vec<String> = said
        .iter()
        .map(|(t, o)| {
            let mut s = Vec::new();
            if !o.taken.is_empty() {
                s.push(format!("took {}", o.taken.join(", ")));
            }
            if !o.conflicts.is_empty() {
                let how = if replace {
                    "replaced"
                } else {
                    "kept yours for"
                };
                s.push(format!("{how} {}", o.conflicts.join(", ")));
            }
            if !o.locked.is_empty() {
                s.push(format!(
                    "kept your locked prediction in {}",
                    o.locked.join(", ")
                ));
            }
            if s.is_empty() {
                s.push("nothing new".into());
            }
            format!("{t}: {}", s.join("; "))
        })
        .collect();
    println!("Imported {}: {}.", f.display(), lines.join("; "));
    Ok(())
}

impl Session<'_> {
    /// The numbers read from earlier labs (`reads:`), each with where it came from, under the
    /// header.
    pub(super) fn carried_lines(&self) -> Vec<String> {
        let mut l = Vec::new();
        if self.carried.is_empty() {
            return l;
        }
        l.push(String::new());
        l.extend(self.plain("Numbers from earlier labs:"));
        for c in &self.carried {
            let unit = c
                .unit
                .as_deref()
                .map(|u| format!(" {u}"))
                .unwrap_or_default();
            let line = format!("  {}: {}{unit} ({})", c.label, c.value, c.how);
            for x in self.plain(&line) {
                l.push(match c.origin {
                    crate::eval::carried::Origin::Record => x,
                    _ => self.scr.paint(Style::Dim, &x),
                });
            }
        }
        l
    }
}

/// Fills the numbers `lab` reads from earlier labs of its course (`reads:`) from the course
/// record (defaults outside a course); returns them as the header shows them.
pub fn carry(
    lab: &mut crate::eval::CompiledLab,
    c: Option<&RunCourse>,
) -> Vec<crate::eval::carried::Carried> {
    if lab.lab.reads.is_empty() {
        return Vec::new();
    }
    let ledger_of = |id: &str| c.and_then(|c| c.record.labs.get(id).cloned());
    let title_of = |id: &str| {
        c.and_then(|c| c.site.labs.iter().find(|l| l.id == id))
            .map_or_else(|| id.to_string(), |l| l.title.clone())
    };
    lab.carry_from(&ledger_of, &title_of)
}
