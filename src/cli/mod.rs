//! Command implementations behind `main.rs` (kept in the library so tests can call them).

use crate::diag::Diagnostic;
use crate::eval::{self, CompiledLab};
use crate::load::Source;
use indexmap::IndexMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod tracks;
use tracks::{scorm_per_track, track_units};

fn default_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from("labs")]
    } else {
        paths.to_vec()
    }
}

/// Prints diagnostics to stderr with their source lines. Returns the number of errors.
pub fn report(diags: &[Diagnostic], source: Option<&Source>) -> usize {
    for d in diags {
        match source {
            Some(s) if s.name == d.file => eprint!("{}", d.render(Some(&s.text))),
            // A diagnostic in another file (a course module): its own lines.
            _ => eprint!(
                "{}",
                d.render(std::fs::read_to_string(&d.file).ok().as_deref())
            ),
        }
    }
    diags.iter().filter(|d| d.is_error()).count()
}

/// Every diagnostic for one lab file: parse, compile, then evaluation checks.
pub fn diagnose(path: &Path) -> (Option<Source>, Vec<Diagnostic>, Option<CompiledLab>) {
    match crate::lab::load_lab(path) {
        Err((src, d)) => (src, d, None),
        Ok(lab) => {
            let mut d = lab.check_every_track();
            d.extend(crate::course::carry::check(
                path,
                &lab.lab,
                &lab.source.name,
            ));
            (Some(lab.source.clone()), d, Some(lab))
        }
    }
}

/// Lab files under the given paths, or a printed diagnostic.
pub fn files_or_report(paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
    match crate::discover::lab_files(&default_paths(paths)) {
        Ok(f) if f.is_empty() => {
            eprintln!(
                "error: no lab files (*.yaml) under {}",
                default_paths(paths)
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            None
        }
        Ok(f) => Some(f),
        Err(d) => {
            report(&[d], None);
            None
        }
    }
}

/// The course `paths` name: a folder holding a `course.yaml` (or no paths: `labs/`), or one lab
/// file listed by the nearest `course.yaml` above it. `Err` after printing its diagnostics.
fn course_or_report(paths: &[PathBuf]) -> Result<Option<crate::course::Course>, ()> {
    let paths = default_paths(paths);
    let found = match paths.as_slice() {
        [p] if p.is_dir() => crate::course::in_dir(p).map(|c| crate::course::load(&c)),
        [p] if p.is_file() => match crate::course::for_lab(p) {
            Ok(c) => c.map(Ok),
            Err(e) => Some(Err(e)),
        },
        _ => None,
    };
    match found {
        None => Ok(None),
        Some(Ok(c)) => Ok(Some(c)),
        Some(Err((src, d))) => {
            report(&d, src.as_ref());
            Err(())
        }
    }
}

/// The labs `paths` name: a course's labs in its order, or [`files_or_report`]'s.
fn course_files(paths: &[PathBuf]) -> Option<(Option<crate::course::Course>, Vec<PathBuf>)> {
    let course = course_or_report(paths).ok()?;
    match &course {
        Some(c) if paths.len() != 1 || default_paths(paths)[0].is_dir() => {
            let labs = c.file.labs.clone();
            Some((course, labs))
        }
        _ => Some((course, files_or_report(paths)?)),
    }
}

/// Loads a lab for a command that needs a valid one; diagnostics printed on failure.
pub fn load_or_report(path: &Path) -> Option<CompiledLab> {
    match crate::lab::load_lab(path) {
        Ok(l) => Some(l),
        Err((src, d)) => {
            report(&d, src.as_ref());
            None
        }
    }
}

/// `labforge check`.
pub fn check(paths: &[PathBuf]) -> ExitCode {
    let Some((_, files)) = course_files(paths) else {
        return ExitCode::FAILURE;
    };
    let (mut errors, mut warnings) = (0, 0);
    for f in &files {
        let (src, diags, _) = diagnose(f);
        let e = report(&diags, src.as_ref());
        errors += e;
        warnings += diags.len() - e;
    }
    eprintln!(
        "checked {} lab(s): {errors} error(s), {warnings} warning(s)",
        files.len()
    );
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `labforge test`: runs every lab's tests; last line `N passed, N failed`. The labs are the
/// ones `check` reads ([`course_files`]: in a course folder, its labs in its order).
pub fn test(paths: &[PathBuf]) -> ExitCode {
    let Some((_, files)) = course_files(paths) else {
        return ExitCode::FAILURE;
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let Some(lab) = load_or_report(f) else {
            failed += 1;
            println!("FAIL {}: the lab does not compile", f.display());
            continue;
        };
        let semantic: Vec<Diagnostic> = lab
            .check_semantics()
            .into_iter()
            .filter(|d| d.is_error())
            .collect();
        if !semantic.is_empty() {
            report(&semantic, Some(&lab.source));
            println!("FAIL {}: check errors", f.display());
            failed += 1;
        }
        let mut outcomes = lab.run_tests();
        for t in lab.other_tracks() {
            match lab.on_track(&t) {
                Ok(l) => outcomes.extend(l.run_tests()),
                Err(d) => {
                    failed += 1;
                    println!(
                        "FAIL {} [{t}]: the lab does not compile on this track",
                        f.display()
                    );
                    report(&d, Some(&lab.source));
                }
            }
        }
        for o in outcomes {
            if o.passed() {
                passed += 1;
                println!("ok   {} :: {}", f.display(), o.name);
            } else {
                failed += 1;
                println!("FAIL {} :: {}", f.display(), o.name);
                report(&o.failures, Some(&lab.source));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `labforge eval`.
pub fn eval_cmd(
    path: &Path,
    part: Option<&str>,
    sets: &[String],
    json: bool,
    track: Option<&str>,
) -> ExitCode {
    let lab = match crate::lab::load_lab_on(path, track) {
        Ok(l) => l,
        Err((src, d)) => {
            report(&d, src.as_ref());
            return ExitCode::FAILURE;
        }
    };
    let part_id = part
        .map(str::to_string)
        .unwrap_or_else(|| lab.parts[0].id.clone());
    let Some(cpart) = lab.part(&part_id) else {
        let ids: Vec<&str> = lab.parts.iter().map(|p| p.id.as_str()).collect();
        eprintln!(
            "error: no part `{part_id}` in {} (parts: {})",
            path.display(),
            ids.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let mut set = IndexMap::new();
    for s in sets {
        let Some((k, v)) = s.split_once('=') else {
            eprintln!("error: `--set {s}` must be NAME=VALUE");
            return ExitCode::FAILURE;
        };
        set.insert(k.trim().to_string(), eval::parse_cli_value(v));
    }
    let inputs = match lab.inputs(cpart, &set) {
        Ok(i) => i,
        Err(m) => {
            eprintln!("error: {m}");
            return ExitCode::FAILURE;
        }
    };
    let result = lab
        .evaluate(cpart, &inputs)
        .and_then(|ev| Ok((lab.outputs(&ev)?, lab.callouts(&ev)?, ev)));
    let (outputs, callouts, ev) = match result {
        Ok(r) => r,
        Err(e) => {
            report(&[e.0], Some(&lab.source));
            return ExitCode::FAILURE;
        }
    };
    if json {
        let mut obj = serde_json::Map::new();
        for (k, v) in &ev.values {
            obj.insert(k.clone(), crate::formula::to_json(v));
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::Value::Object(obj)).unwrap()
        );
    } else {
        let title = |t: &str, part| {
            lab.render_text(part, Some(&ev), t, &[])
                .unwrap_or_else(|_| t.to_string())
        };
        println!(
            "{} — part {}: {}",
            title(&lab.lab.title.value, None),
            part_id,
            title(&lab.lab.parts[cpart.index].title.value, Some(cpart))
        );
        if let Some(t) = lab.track.as_deref().and_then(|id| lab.tracks.get(id)) {
            println!("  on track {} ({})", t.id, t.label);
        }
        for (k, v) in &inputs {
            println!("  {k:<24} = {}", eval::display(v));
        }
        println!();
        let w = outputs
            .iter()
            .map(|o| o.label.chars().count())
            .max()
            .unwrap_or(0)
            .min(MAX_LABEL_PAD);
        for o in &outputs {
            let lvl = o
                .level
                .as_deref()
                .map(|l| format!("  [{l}]"))
                .unwrap_or_default();
            println!("  {:<w$}  {}{lvl}", o.label, o.display);
        }
        for c in &callouts {
            println!();
            println!(
                "  [{}] {}{}",
                c.kind.to_uppercase(),
                c.title
                    .as_deref()
                    .map(|t| format!("{t}: "))
                    .unwrap_or_default(),
                c.text
            );
        }
    }
    ExitCode::SUCCESS
}

/// Labels up to this width are aligned in `eval`'s listing; longer ones just run on.
const MAX_LABEL_PAD: usize = 60;

/// The JSON Schema of the lab format.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(crate::model::Lab);
    serde_json::to_string_pretty(&schema).unwrap() + "\n"
}

/// `labforge render` as typed.
pub struct RenderArgs<'a> {
    pub paths: &'a [PathBuf],
    pub to: &'a str,
    pub out: Option<&'a Path>,
    pub answer_key: bool,
    pub templates: Option<PathBuf>,
    /// Only for the print handout (default letter).
    pub paper: Option<&'a str>,
    pub record: Option<&'a Path>,
    pub track: Option<&'a str>,
}

/// `labforge render` as typed: `--paper` (default letter) only for the print handout.
pub fn render_cmd(a: RenderArgs) -> ExitCode {
    let RenderArgs {
        paths,
        to,
        out,
        answer_key,
        templates,
        paper,
        record,
        track,
    } = a;
    let paper = match paper {
        None => crate::render::Paper::default(),
        Some(_) if to != "handout-html" => {
            eprintln!("error: --paper sets the page size of the print handout; use it with --to handout-html");
            return ExitCode::FAILURE;
        }
        Some(p) => match crate::render::Paper::parse(p) {
            Some(p) => p,
            None => {
                eprintln!("error: unknown paper `{p}` (papers: letter, a4)");
                return ExitCode::FAILURE;
            }
        },
    };
    let record = match record {
        None => None,
        Some(_) if !matches!(to, "markdown" | "handout-html") => {
            eprintln!("error: --record prints carried-forward decisions in the handouts; use it with --to markdown or --to handout-html");
            return ExitCode::FAILURE;
        }
        Some(p) => match crate::record::CourseRecord::read(p) {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::FAILURE;
            }
        },
    };
    // A student's handout is on the student's track: the record's, unless --track says.
    let record_track = record.as_ref().and_then(|r| r.track.clone());
    let track = track.or(record_track.as_deref());
    let opts = crate::render::RenderOptions {
        answer_key,
        templates: templates.map(crate::safe_fs::template_overrides),
        paper,
        course: None,
        record,
        one_track: track.is_some(),
    };
    render(paths, to, out, &opts, track)
}

/// `labforge render`: one lab file or a directory of them, to `out` (default: `build/<format>`);
/// with `track`, the labs with tracks on that track only.
pub fn render(
    paths: &[PathBuf],
    to: &str,
    out: Option<&Path>,
    opts: &crate::render::RenderOptions,
    track: Option<&str>,
) -> ExitCode {
    let Some(r) = crate::render::renderer(to) else {
        eprintln!("error: unknown format `{to}` (formats: html, markdown, handout-html, scorm)");
        return ExitCode::FAILURE;
    };
    let Some((course, files)) = course_files(paths) else {
        return ExitCode::FAILURE;
    };
    if opts.answer_key && matches!(to, "html" | "scorm") {
        eprintln!(
            "error: the page (--to {to}) has no answer key; render one with --to markdown or --to handout-html"
        );
        return ExitCode::FAILURE;
    }
    // Keys go to a folder of their own (build/key/FORMAT), never beside what students get.
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| {
        if opts.answer_key {
            PathBuf::from("build").join("key").join(to)
        } else {
            PathBuf::from("build").join(to)
        }
    });
    if let Err(e) = check_output_dir(&out, opts.answer_key, to) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let start = std::time::Instant::now();
    let mut failed = 0;
    let mut compiled = Vec::new();
    for f in &files {
        match load_or_report(f) {
            Some(lab) => {
                let carry = crate::course::carry::check(f, &lab.lab, &lab.source.name);
                if report(&carry, Some(&lab.source)) > 0 {
                    failed += 1;
                } else {
                    compiled.push((f, lab));
                }
            }
            None => failed += 1,
        }
    }
    let mut opts = opts.clone();
    opts.one_track = track.is_some();
    if let Some(c) = &course {
        // Every lab of the course, for the site (a lab rendered alone still links its siblings).
        let others: Vec<(String, CompiledLab)> = c
            .file
            .labs
            .iter()
            .filter(|f| !compiled.iter().any(|(g, _)| g == f))
            .filter_map(|f| Some((stem_of(f), crate::lab::load_lab(f).ok()?)))
            .collect();
        let mut refs: Vec<(String, &CompiledLab)> = Vec::new();
        for f in &c.file.labs {
            let s = stem_of(f);
            if let Some((_, l)) = compiled.iter().find(|(g, _)| *g == f) {
                refs.push((s, l));
            } else if let Some((_, l)) = others.iter().find(|(o, _)| *o == s) {
                refs.push((s, l));
            }
        }
        match crate::site::Site::new(c, &refs) {
            Ok(site) if opts.record.as_ref().is_some_and(|r| r.course != site.id) => {
                eprintln!(
                    "error: --record is a record of course `{}`, these labs are of course `{}`",
                    opts.record.as_ref().map_or("", |r| r.course.as_str()),
                    site.id
                );
                return ExitCode::FAILURE;
            }
            Ok(site) => opts.course = Some(site),
            Err(e) => {
                eprintln!("error: {}: {e}", c.path.display());
                return ExitCode::FAILURE;
            }
        }
    } else if opts.record.is_some() {
        eprintln!("error: --record is a course record, and these labs are in no course (no course.yaml in their folder or above)");
        return ExitCode::FAILURE;
    }
    let opts = &opts;
    let mut labs = Vec::new();
    let n = compiled.len();
    for (i, (f, lab)) in compiled.into_iter().enumerate() {
        let stem = stem_of(f);
        eprintln!("[{}/{n}] {} -> {to}", i + 1, f.display());
        let units = match track_units(&lab, &stem, to, track) {
            Ok(u) => u,
            Err(d) => {
                report(&d, Some(&lab.source));
                failed += 1;
                continue;
            }
        };
        let mut ok = true;
        for (name, unit) in units {
            let one = unit.as_ref().unwrap_or(&lab);
            if let Err(e) = r.render(one, &name, opts).and_then(|fs| {
                mark_output_dir(&out, opts.answer_key, to)?;
                write_files(&out, &fs)
            }) {
                eprintln!("error: {}: {e}", f.display());
                failed += 1;
                ok = false;
                break;
            }
        }
        if ok {
            labs.push((stem, lab));
        }
    }
    if files.len() > 1 || paths.iter().any(|p| p.is_dir()) || paths.is_empty() {
        let refs: Vec<(String, &CompiledLab)> = labs.iter().map(|(s, l)| (s.clone(), l)).collect();
        if let Err(e) = r.render_index(&refs, opts).and_then(|fs| {
            mark_output_dir(&out, opts.answer_key, to)?;
            write_files(&out, &fs)
        }) {
            eprintln!("error: index: {e}");
            failed += 1;
        }
        // An LMS course has no track picker: one package per track beside the default one.
        if to == "scorm" && track.is_none() {
            if let Err(e) = scorm_per_track(r.as_ref(), &labs, opts, &out) {
                eprintln!("error: index: {e}");
                failed += 1;
            }
        }
    }
    eprintln!(
        "rendered {} lab(s) to {} in {} ms",
        labs.len(),
        out.display(),
        start.elapsed().as_millis()
    );
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The name a lab's outputs take: its file's stem, made safe.
fn stem_of(f: &Path) -> String {
    crate::render::file_name(f.file_stem().and_then(|s| s.to_str()).unwrap_or("lab"))
}

/// The file that says whose folder an output folder is and what it holds: `student FORMAT` or
/// `answer-key FORMAT` (`student html`, `answer-key markdown`; an older labforge wrote the kind
/// alone).
pub const OUTPUT_MARK: &str = ".labforge-output";

/// What a folder of `format` output holds, in the words of a message.
fn holding(format: &str, key: bool) -> String {
    let what = match (format, key) {
        ("html", _) => "the interactive pages",
        ("handout-html", false) => "the print handouts",
        ("handout-html", true) => "the print answer keys",
        ("markdown", false) => "the Markdown handouts",
        ("markdown", true) => "the Markdown answer keys",
        ("scorm", _) => "the SCORM packages",
        _ => "labforge output",
    };
    let key = if key { " --answer-key" } else { "" };
    format!("{what} (--to {format}{key})")
}

/// The mark in `out`, if any: (is it a key folder, its format if the mark says). A mark that is
/// a link is refused like any link in an output folder.
fn read_mark(out: &Path) -> Result<Option<(bool, Option<String>)>, String> {
    use std::io::Read;
    if !out.is_dir() {
        // Not there yet (or not a folder: writing into it will say so).
        return Ok(None);
    }
    let rel = Path::new(OUTPUT_MARK);
    crate::safe_fs::check_inside(out, rel)?;
    let mut text = String::new();
    match std::fs::File::open(out.join(rel)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", out.join(rel).display())),
        Ok(f) => {
            let _ = f.take(256).read_to_string(&mut text);
        }
    }
    let mut words = text.split_whitespace();
    let key = words.next() == Some("answer-key");
    Ok(Some((key, words.next().map(str::to_string))))
}

/// The format of the labforge output in a folder an older labforge marked without one: SCORM
/// packages, Markdown handouts, interactive pages (with scripts) or print handouts.
fn format_in(out: &Path) -> Option<&'static str> {
    use std::io::Read;
    let mut found = None;
    for e in std::fs::read_dir(out).into_iter().flatten().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if n.ends_with(".zip") {
            return Some("scorm");
        } else if n.ends_with(".md") {
            return Some("markdown");
        } else if regular && n.ends_with(".html") && n != "index.html" {
            let mut head = String::new();
            if let Ok(f) = std::fs::File::open(e.path()) {
                let _ = f.take(512 * 1024).read_to_string(&mut head);
            }
            found = Some(if head.contains("<script") {
                "html"
            } else {
                "handout-html"
            });
        }
    }
    found
}

/// Checks that `out` may receive `format` output for students (or, with `key`, answer keys):
/// a folder marked for the other kind ([`mark_output_dir`]), or (written before folders were
/// marked) holding the other kind's files, is an error, and so is a folder holding another
/// format's output (`--to handout-html` would replace the pages and index of `--to html`),
/// before anything is written. Publishing a student folder can then never publish a key,
/// whatever order the renders ran in, and one render never silently replaces another's.
pub fn check_output_dir(out: &Path, key: bool, format: &str) -> Result<(), String> {
    let other = if key { "student" } else { "answer-key" };
    let hint = if key {
        "render keys to a folder of their own (the default is build/key/FORMAT)"
    } else {
        "render student output to a folder without keys (the default is build/FORMAT)"
    };
    match read_mark(out)? {
        Some((k, _)) if k != key => {
            return Err(format!(
                "{} holds {other} output; {} are never written beside it: {hint}",
                out.display(),
                if key {
                    "answer keys"
                } else {
                    "student handouts"
                }
            ))
        }
        Some((_, theirs)) => {
            // A word the mark should not hold is no format: the files say what is there.
            let theirs = theirs
                .filter(|t| crate::render::renderer(t).is_some())
                .or_else(|| format_in(out).map(str::to_string));
            if let Some(t) = theirs.filter(|t| t != format) {
                let default = if key {
                    format!("build/key/{format}")
                } else {
                    format!("build/{format}")
                };
                return Err(format!(
                    "{} holds {}; --to {format} would write over them (index included): render each format to a folder of its own (without -o, {default}), or empty {} first",
                    out.display(),
                    holding(&t, key),
                    out.display()
                ));
            }
        }
        None => {
            // An unmarked folder: look for the other kind's files.
            let clash = std::fs::read_dir(out)
                .into_iter()
                .flatten()
                .flatten()
                .find(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    let is_key = n.contains("-key.");
                    let is_output = n.ends_with(".md") || n.ends_with(".html");
                    is_output && n != "index.md" && n != "index.html" && is_key != key
                });
            if let Some(e) = clash {
                return Err(format!(
                    "{} already holds {} ({}); {hint}",
                    out.display(),
                    if key {
                        "student output"
                    } else {
                        "an answer key"
                    },
                    e.file_name().to_string_lossy()
                ));
            }
        }
    }
    Ok(())
}

/// Marks `out` as a folder of student output or of answer keys, of `format` (when the first
/// file is written into it).
fn mark_output_dir(out: &Path, key: bool, format: &str) -> Result<(), String> {
    let mine = format!("{} {format}\n", if key { "answer-key" } else { "student" });
    if read_mark(out)? == Some((key, Some(format.to_string()))) {
        return Ok(());
    }
    crate::safe_fs::write_inside(out, Path::new(OUTPUT_MARK), mine.as_bytes())
}

/// Writes rendered files under `out` through [`crate::safe_fs::write_inside`]. A file's path
/// must be relative and go only downwards (no root, drive prefix, `.` or `..` component), and
/// no symbolic link may be on its way or at its place: all are checked before any is written.
fn write_files(out: &Path, files: &[crate::render::OutFile]) -> Result<(), String> {
    for f in files {
        crate::safe_fs::check_inside(out, &f.path)?;
    }
    for f in files {
        crate::safe_fs::write_inside(out, &f.path, &f.bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::write_files;
    use crate::render::OutFile;
    use std::path::PathBuf;

    #[test]
    fn write_files_refuses_paths_leaving_the_output_folder() {
        let tmp = std::env::temp_dir().join(format!("lf-write-files-{}", std::process::id()));
        let out = tmp.join("out");
        for bad in ["../x.svg", "/tmp/x.svg", "a/../../x.svg", "./../x", ""] {
            let f = OutFile {
                path: PathBuf::from(bad),
                bytes: b"x".to_vec(),
            };
            let ok = OutFile {
                path: PathBuf::from("fine.md"),
                bytes: b"y".to_vec(),
            };
            let e = write_files(&out, &[ok, f]).unwrap_err();
            assert!(e.contains("refusing"), "{bad}: {e}");
            // Nothing at all was written.
            assert!(!out.join("fine.md").exists(), "{bad}");
        }
        assert!(!tmp.join("x.svg").exists());
        write_files(
            &out,
            &[OutFile {
                path: PathBuf::from("lab-charts/a-wait.svg"),
                bytes: b"z".to_vec(),
            }],
        )
        .unwrap();
        assert!(out.join("lab-charts/a-wait.svg").exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
