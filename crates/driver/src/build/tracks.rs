//! What `render` writes for a lab with tracks: one output per track, and for an LMS one
//! course package per track (see docs/tracks.md).

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use std::path::{Path, PathBuf};

/// What `render` writes for one lab: (file stem, the lab compiled for that output; `None`:
/// the lab as loaded). A lab without tracks: itself under its stem. With tracks and `--track
/// ID`: that track under the plain stem. Otherwise one output per track, `STEM.TRACK`, and
/// for the page also `STEM.html`, the default track's page, where every link to the lab leads
/// (the page moves a student on another track to that track's page).
pub(super) type Units = Vec<(String, Option<CompiledLab>)>;

pub(super) fn track_units(
    lab: &CompiledLab,
    stem: &str,
    to: &str,
    track: Option<&str>,
) -> Result<Units, Vec<Diagnostic>> {
    if lab.track.is_none() {
        return Ok(vec![(stem.to_string(), None)]);
    }
    if let Some(t) = track {
        return Ok(vec![(stem.to_string(), Some(lab.on_track(t)?))]);
    }
    let mut units: Units = Vec::new();
    if to == "html" {
        units.push((stem.to_string(), None));
    }
    for t in &lab.tracks.tracks {
        units.push((format!("{stem}.{}", t.id), Some(lab.on_track(&t.id)?)));
    }
    Ok(units)
}

/// `course.TRACK.zip` for each track of the labs that vary by track, each titled with its track
/// (nothing when no lab varies). A package that cannot be built — a lab that does not compile on
/// its track, an index that does not render, a file the output folder refuses — is reported to
/// `on` as diagnostics (a lab's located in the lab file, each saying which package it stopped)
/// and the other tracks' packages are built all the same. Returns the number not written.
pub(super) fn scorm_per_track(
    r: &dyn crate::render::Renderer,
    labs: &[(String, CompiledLab)],
    opts: &crate::render::RenderOptions,
    out: &Path,
    on: &mut dyn FnMut(super::Event),
) -> usize {
    let Some(set) = labs
        .iter()
        .find(|(_, l)| l.track.is_some())
        .map(|(_, l)| l.tracks.clone())
    else {
        return 0;
    };
    let mut failed = 0;
    'track: for t in &set.tracks {
        let package = format!("course.{}.zip", t.id);
        let mut on_track: Vec<(String, Option<CompiledLab>)> = Vec::new();
        for (stem, l) in labs {
            let lab = match &l.track {
                Some(_) => match l.on_track(&t.id) {
                    Ok(lab) => Some(lab),
                    Err(d) => {
                        let d = stopped(d, &t.id, &package, &l.source.name);
                        on(super::Event::Diagnostics(Some(&l.source), &d));
                        failed += 1;
                        continue 'track;
                    }
                },
                None => None,
            };
            on_track.push((stem.clone(), lab));
        }
        let refs: Vec<(String, &CompiledLab)> = on_track
            .iter()
            .zip(labs)
            .map(|((s, own), (_, l))| (s.clone(), own.as_ref().unwrap_or(l)))
            .collect();
        let mut o = opts.clone();
        if let Some(c) = &mut o.course {
            c.title = format!("{} ({})", c.title, t.label);
        }
        let files: Vec<crate::render::OutFile> = match r.render_index(&refs, &o) {
            Ok(files) => files
                .into_iter()
                .map(|mut f| {
                    if f.path == Path::new(crate::render::scorm::COURSE_ZIP) {
                        f.path = PathBuf::from(&package);
                    }
                    f
                })
                .collect(),
            Err(d) => {
                on(super::Event::Diagnostics(None, &[d.in_file(&package)]));
                failed += 1;
                continue;
            }
        };
        if let Err(e) = super::write_files(out, &files) {
            on(super::Event::Diagnostics(
                None,
                &[super::unwritten(&package, out, e)],
            ));
            failed += 1;
        }
    }
    failed
}

/// A lab's diagnostics on track `track`, each saying it stopped `package`; an error without a
/// hint gets one.
fn stopped(d: Vec<Diagnostic>, track: &str, package: &str, file: &str) -> Vec<Diagnostic> {
    d.into_iter()
        .map(|d| {
            let d = Diagnostic {
                message: format!("on track `{track}` ({package} not written): {}", d.message),
                ..d.in_file(file)
            };
            if d.hint.is_none() && d.is_error() {
                d.with_hint(format!(
                    "{package} is the LMS package of track `{track}`, every lab on that track: `labforge check {file}` lists the lab's errors on each of its tracks"
                ))
            } else {
                d
            }
        })
        .collect()
}
