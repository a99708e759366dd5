//! The course site: what every page of a rendered course knows about the course (its record's
//! key, its title and its labs in order), handed to the renderers in
//! [`crate::render::RenderOptions::course`].

use super::Course;
use crate::eval::CompiledLab;
use serde::Serialize;

/// The course as its pages see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Site {
    /// The course record's key ([`super::course_id`]).
    pub id: String,
    pub title: String,
    /// Markdown.
    pub description: Option<String>,
    pub labs: Vec<SiteLab>,
}

/// One lab of the course site.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteLab {
    /// The lab's `id` (what the course record keys its ledger by).
    pub id: String,
    /// Its version (a record of another version is not this lab's).
    pub version: u32,
    /// The file stem its page is named after (`STEM.html`).
    pub stem: String,
    /// Plain-text title.
    pub title: String,
    pub duration: String,
    /// What its ledger can hold ([`super::merge::shape`]): a record is checked against it.
    pub shape: serde_json::Value,
}

impl Site {
    /// The site of `course`, from its labs compiled in order as `(stem, lab)`.
    pub fn new(course: &Course, labs: &[(String, &CompiledLab)]) -> Result<Site, String> {
        let mut out = Vec::new();
        for (stem, lab) in labs {
            out.push(SiteLab {
                id: lab.lab.id.value.clone(),
                version: lab.lab.version,
                stem: stem.clone(),
                title: crate::view::header(lab)?.title.plain(),
                duration: lab
                    .lab
                    .duration
                    .as_ref()
                    .map(|d| d.total.clone())
                    .unwrap_or_default(),
                shape: super::merge::shape(lab),
            });
        }
        Ok(Site {
            id: course.id.clone(),
            title: course.file.title.clone(),
            description: course.file.description.clone(),
            labs: out,
        })
    }

    /// The position of the lab rendered as `stem`.
    pub fn position(&self, stem: &str) -> Option<usize> {
        self.labs.iter().position(|l| l.stem == stem)
    }
}
