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
/// (nothing when no lab varies).
pub(super) fn scorm_per_track(
    r: &dyn crate::render::Renderer,
    labs: &[(String, CompiledLab)],
    opts: &crate::render::RenderOptions,
    out: &Path,
) -> Result<(), String> {
    let Some(set) = labs
        .iter()
        .find(|(_, l)| l.track.is_some())
        .map(|(_, l)| l.tracks.clone())
    else {
        return Ok(());
    };
    for t in &set.tracks {
        let mut on: Vec<(String, Option<CompiledLab>)> = Vec::new();
        for (stem, l) in labs {
            let lab = match &l.track {
                Some(_) => Some(l.on_track(&t.id).map_err(|d| {
                    format!(
                        "{stem} on track {}: {}",
                        t.id,
                        d.first().map_or(String::new(), |d| d.message.clone())
                    )
                })?),
                None => None,
            };
            on.push((stem.clone(), lab));
        }
        let refs: Vec<(String, &CompiledLab)> = on
            .iter()
            .zip(labs)
            .map(|((s, own), (_, l))| (s.clone(), own.as_ref().unwrap_or(l)))
            .collect();
        let mut o = opts.clone();
        if let Some(c) = &mut o.course {
            c.title = format!("{} ({})", c.title, t.label);
        }
        let files: Vec<crate::render::OutFile> = r
            .render_index(&refs, &o)
            .map_err(|d| d.in_file("index").to_string())?
            .into_iter()
            .map(|mut f| {
                if f.path == Path::new(crate::render::scorm::COURSE_ZIP) {
                    f.path = PathBuf::from(format!("course.{}.zip", t.id));
                }
                f
            })
            .collect();
        super::write_files(out, &files)?;
    }
    Ok(())
}
