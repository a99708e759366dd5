//! The build: labs (or a course) to a folder of one format's output. The driver loads every lab
//! with its course, hands each to a renderer and writes what comes back inside the output folder
//! ([`output`]); what happens on the way reaches the caller as [`Event`]s, in order, for the
//! commands' printer. Every failure is a diagnostic: a lab's or a template's located where it
//! is, a file that cannot be written in the file it was rendered from (the lab, `index`, or an
//! LMS package such as `course.TRACK.zip`), with a hint.

pub mod output;
pub mod report;
mod tracks;

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::project::{labs_of, Failure};
use crate::render::RenderOptions;
use output::{check_output_dir, mark_output_dir, write_files};
use std::path::{Path, PathBuf};
use tracks::{scorm_per_track, track_units};

/// What a build reports while it runs.
#[derive(Debug)]
pub enum Event<'a> {
    /// Lab `index` (from 1) of `count` is being rendered.
    Rendering {
        index: usize,
        count: usize,
        file: &'a Path,
    },
    /// Diagnostics of a lab (it is then not rendered when one is an error), or of the index or
    /// a package that could not be rendered or written (then with no source).
    Diagnostics(
        Option<&'a crate::load::Source>,
        &'a [crate::diag::Diagnostic],
    ),
}

/// What could not be written (`e`, the output folder's refusal or the system's error, naming the
/// path) as a diagnostic of `from`, the lab file, `index` or the package it was rendered as.
pub(crate) fn unwritten(from: &str, out: &Path, e: String) -> Diagnostic {
    Diagnostic::error(from, Default::default(), format!("not written: {e}")).with_hint(format!(
        "rendered, but the output folder {} did not take it: fix that, or render to another folder (-o DIR)",
        out.display()
    ))
}

/// What a finished build did.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Labs rendered.
    pub rendered: usize,
    /// Where to.
    pub out: PathBuf,
    /// Labs (or the index) that failed.
    pub failed: usize,
    pub millis: u128,
}

/// Where a build writes when no `-o` is given: `build/FORMAT`, keys in `build/key/FORMAT`
/// (never beside what students get).
pub fn default_out(to: &str, answer_key: bool) -> PathBuf {
    if answer_key {
        PathBuf::from("build").join("key").join(to)
    } else {
        PathBuf::from("build").join(to)
    }
}

/// `labforge render`: the labs `paths` name to `out` (default [`default_out`]) as `to`; with
/// `track`, the labs with tracks on that track only. `Err` before anything is written.
pub fn render(
    paths: &[PathBuf],
    to: &str,
    out: Option<&Path>,
    opts: &RenderOptions,
    track: Option<&str>,
    on: &mut dyn FnMut(Event),
) -> Result<Summary, Failure> {
    let Some(r) = crate::render::renderer(to) else {
        return Err(Failure::Message(format!(
            "unknown format `{to}` (formats: html, markdown, handout-html, scorm)"
        )));
    };
    let (course, files) = labs_of(paths)?;
    if opts.answer_key && matches!(to, "html" | "scorm") {
        return Err(Failure::Message(format!(
            "the page (--to {to}) has no answer key; render one with --to markdown or --to handout-html"
        )));
    }
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_out(to, opts.answer_key));
    check_output_dir(&out, opts.answer_key, to)?;
    let start = std::time::Instant::now();
    let mut failed = 0;
    let mut compiled = Vec::new();
    for f in &files {
        match crate::lab::load_lab(f) {
            Ok(lab) => {
                let carry = crate::course::carry::check(f, &lab.lab, &lab.source.name);
                on(Event::Diagnostics(Some(&lab.source), &carry));
                if carry.iter().any(|d| d.is_error()) {
                    failed += 1;
                } else {
                    compiled.push((f, lab));
                }
            }
            Err((src, d)) => {
                on(Event::Diagnostics(src.as_ref(), &d));
                failed += 1;
            }
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
                return Err(Failure::Message(format!(
                    "--record is a record of course `{}`, these labs are of course `{}`",
                    opts.record.as_ref().map_or("", |r| r.course.as_str()),
                    site.id
                )));
            }
            Ok(site) => opts.course = Some(site),
            // A lab of the course that fails on one of its tracks: located in the lab's file.
            Err(d) => return Err(Failure::Diagnostics(None, vec![d])),
        }
    } else if opts.record.is_some() {
        return Err(Failure::Message("--record is a course record, and these labs are in no course (no course.yaml in their folder or above)".into()));
    }
    let opts = &opts;
    let mut labs = Vec::new();
    let count = compiled.len();
    for (i, (f, lab)) in compiled.into_iter().enumerate() {
        let stem = stem_of(f);
        on(Event::Rendering {
            index: i + 1,
            count,
            file: f,
        });
        let mut lab = lab;
        carry(&mut lab, opts);
        let units = match track_units(&lab, &stem, to, track) {
            Ok(u) => u,
            Err(d) => {
                on(Event::Diagnostics(Some(&lab.source), &d));
                failed += 1;
                continue;
            }
        };
        let mut ok = true;
        for (name, mut unit) in units {
            if let Some(u) = unit.as_mut() {
                carry(u, opts);
            }
            let one = unit.as_ref().unwrap_or(&lab);
            // A render error is located (in the lab, or in an instructor's template) and
            // printed as diagnostics are; a file that cannot be written is a message.
            let written = match r.render(one, &name, opts) {
                Err(d) => {
                    let d = [d.in_file(&one.source.name)];
                    on(Event::Diagnostics(Some(&one.source), &d));
                    Err(())
                }
                Ok(fs) => mark_output_dir(&out, opts.answer_key, to)
                    .and_then(|_| write_files(&out, &fs))
                    .map_err(|e| {
                        let d = [unwritten(&one.source.name, &out, e)];
                        on(Event::Diagnostics(None, &d))
                    }),
            };
            if written.is_err() {
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
        match r.render_index(&refs, opts) {
            Err(d) => {
                on(Event::Diagnostics(None, &[d.in_file("index")]));
                failed += 1;
            }
            Ok(fs) => {
                if let Err(e) =
                    mark_output_dir(&out, opts.answer_key, to).and_then(|_| write_files(&out, &fs))
                {
                    on(Event::Diagnostics(None, &[unwritten("index", &out, e)]));
                    failed += 1;
                }
            }
        }
        // An LMS course has no track picker: one package per track beside the default one.
        if to == "scorm" && track.is_none() {
            failed += scorm_per_track(r.as_ref(), &labs, opts, &out, on);
        }
    }
    Ok(Summary {
        rendered: labs.len(),
        out,
        failed,
        millis: start.elapsed().as_millis(),
    })
}

/// The numbers `lab` reads from earlier labs (`reads:`), from the course record given with
/// `--record` (without one, or for a lab it holds nothing of, the defaults).
fn carry(lab: &mut CompiledLab, opts: &RenderOptions) {
    if lab.lab.reads.is_empty() {
        return;
    }
    let ledger_of = |id: &str| opts.record.as_ref().and_then(|r| r.labs.get(id).cloned());
    lab.carry_from(&ledger_of, &|id: &str| id.to_string());
}

/// The name a lab's outputs take: its file's stem, made safe.
fn stem_of(f: &Path) -> String {
    crate::render::file_name(f.file_stem().and_then(|s| s.to_str()).unwrap_or("lab"))
}
