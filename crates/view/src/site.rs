//! The course site: what every page of a rendered course knows about the course (its record's
//! key, its title and its labs in order), handed to the renderers in
//! [`crate::render::RenderOptions::course`].

use crate::course_file::Course;
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use serde::Serialize;

/// The course as its pages see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Site {
    /// The course record's key ([`course_id`](crate::course_file::Course::id)).
    pub id: String,
    pub title: String,
    /// Markdown.
    pub description: Option<String>,
    pub labs: Vec<SiteLab>,
    /// The course's tracks, in order (empty: none): the index asks the student to pick one.
    pub tracks: Vec<crate::view::TrackView>,
}

/// One lab of the course site: declared with the course record, which is checked against it.
pub use crate::record::SiteLab;

/// The tracks the lab's pages are written for: its tracks when it varies by track, else none
/// (a lab of a course with tracks that reads no track has one page, `STEM.html`).
fn page_tracks(lab: &CompiledLab) -> Vec<String> {
    match lab.track {
        Some(_) => lab.tracks.tracks.iter().map(|t| t.id.clone()).collect(),
        None => Vec::new(),
    }
}

/// The lab's title on each of its tracks ([`page_tracks`]).
fn track_titles(lab: &CompiledLab) -> Result<Vec<String>, Diagnostic> {
    let mut out = Vec::new();
    for t in lab.tracks.tracks.iter().filter(|_| lab.track.is_some()) {
        let title = if lab.track.as_ref() == Some(&t.id) {
            crate::view::header(lab)?.title.plain()
        } else {
            let other = lab.on_track_or_first(&t.id)?;
            crate::view::header(&other)
                .map_err(|d| d.in_file(&other.source.name))?
                .title
                .plain()
        };
        out.push(title);
    }
    Ok(out)
}

impl Site {
    /// The site of `course`, from its labs compiled in order as `(stem, lab)`.
    pub fn new(course: &Course, labs: &[(String, &CompiledLab)]) -> Result<Site, Diagnostic> {
        let mut out = Vec::new();
        for (stem, lab) in labs {
            out.push(SiteLab {
                id: lab.lab.id.value.clone(),
                version: lab.lab.version,
                stem: stem.clone(),
                title: crate::view::header(lab)
                    .map_err(|d| d.in_file(&lab.source.name))?
                    .title
                    .plain(),
                label: lab.lab.short_label().unwrap_or_default(),
                duration: lab
                    .lab
                    .duration
                    .as_ref()
                    .map(|d| d.total.clone())
                    .unwrap_or_default(),
                shape: crate::record::merge::shape_on_every_track(lab)?,
                tracks: page_tracks(lab),
                track_titles: track_titles(lab)?,
            });
        }
        Ok(Site {
            id: course.id.clone(),
            title: course.file.title.clone(),
            description: course.file.description.clone(),
            labs: out,
            tracks: course
                .file
                .tracks
                .tracks
                .iter()
                .map(crate::view::track_view)
                .collect(),
        })
    }

    /// The position of the lab rendered as `stem`.
    pub fn position(&self, stem: &str) -> Option<usize> {
        self.labs.iter().position(|l| l.stem == stem)
    }

    /// The ids of the course's tracks (what a record's `track` may be).
    pub fn track_ids(&self) -> Vec<&str> {
        self.tracks.iter().map(|t| t.id.as_str()).collect()
    }
}
