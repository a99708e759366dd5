//! The course site in the page: prev/next navigation, the earlier decisions a lab shows
//! (`carry_forward:`), the course record's script and data, and the course index with each
//! lab's progress (`renderers/html/course.js`). The templates' contexts are the structs below
//! (fields in the order the templates have always been handed them).

use super::data::{CourseData, CourseLab, IndexData};
use super::md::{md_block, md_inline};
use super::{asset, render_template, url_escape, ASSETS};
use crate::diag::Diagnostic;
use crate::model::Lab;
use crate::render::{OutFile, RenderOptions};
use crate::site::Site;
use serde::Serialize;
use serde_json::Value as J;
use std::path::PathBuf;

/// What a lab page of a course adds: the template's `course` and the data's `course`.
pub struct PageCourse<'a> {
    pub ctx: PageCtx<'a>,
    pub data: CourseData<'a>,
    /// Earlier decisions shown under the header.
    pub earlier_top: Vec<Earlier<'a>>,
    /// Earlier decisions shown at the top of a part, by part id.
    pub earlier_parts: Vec<(String, Earlier<'a>)>,
}

/// `course` in `page.html.j2`: the course's title, the lab's place in it, and the links to the
/// previous and next labs (`null` at either end).
#[derive(Clone, Serialize)]
pub struct PageCtx<'a> {
    pub title: &'a str,
    pub pos: usize,
    pub n: usize,
    pub prev: Option<Link<'a>>,
    pub next: Option<Link<'a>>,
}

/// A link to another lab of the course.
#[derive(Clone, Serialize)]
pub struct Link<'a> {
    pub href: String,
    pub title: &'a str,
}

/// An earlier lab's decision shown on this page (`earlier.html.j2`).
#[derive(Clone, Serialize)]
pub struct Earlier<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub href: String,
    pub prompt_html: String,
}

/// `course-index.html.j2`'s context.
#[derive(Serialize)]
struct IndexCtx<'a> {
    title: &'a str,
    description_html: String,
    labs: Vec<IndexLab<'a>>,
    tracks: Vec<IndexTrack<'a>>,
    style: &'a str,
    csp: String,
    data_json: String,
    scripts: &'a [String; 2],
}

/// One lab's row on the index.
#[derive(Serialize)]
struct IndexLab<'a> {
    n: usize,
    id: &'a str,
    href: String,
    title: &'a str,
    label: &'a str,
    duration: &'a str,
    /// A lab with tracks: its stem, URL-escaped (`null` otherwise).
    tracked: Option<String>,
    titles: Vec<TrackTitle<'a>>,
}

/// The lab's title on one of its tracks.
#[derive(Serialize)]
struct TrackTitle<'a> {
    id: &'a str,
    title: &'a str,
}

/// One of the course's tracks, as the index offers it.
#[derive(Serialize)]
struct IndexTrack<'a> {
    id: &'a str,
    label: &'a str,
    icon: &'a str,
    summary_html: String,
}

fn href(stem: &str) -> String {
    format!("{}.html", url_escape(stem))
}

/// The data's `course`. The index (`me` -1) and a lab page's own lab carry the lab's shape
/// (`[id, version, title, shape]`: course.js cleans such a lab's ledgers with it); a lab page
/// carries the other labs as `[id, version, title, null, [part ids]]`: their ledgers pass
/// through it uncleaned, merged part by part (their own page and the index clean them), which
/// keeps every other lab's shape (~2.6 KB on a page of the shipped course) off the page.
fn data(site: &Site, me: i64) -> CourseData<'_> {
    let labs = site
        .labs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if me < 0 || i as i64 == me {
                CourseLab::Shaped(&l.id, l.version, &l.title, &l.shape)
            } else {
                let parts: Vec<&J> = l
                    .shape
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| &p[0])
                    .collect();
                CourseLab::Passed(&l.id, l.version, &l.title, (), parts)
            }
        })
        .collect();
    CourseData {
        id: &site.id,
        labs,
        me,
        tracks: (!site.tracks.is_empty()).then(|| site.track_ids()),
    }
}

/// The course parts of the page for the lab rendered as `stem`, if it is in the site. On the
/// page of track `track` (`STEM.TRACK.html`), the previous and next labs' links lead to their
/// page of the same track.
pub fn page<'a>(
    site: &'a Site,
    stem: &str,
    lab: &Lab,
    track: Option<&str>,
) -> Option<PageCourse<'a>> {
    let i = site.position(stem)?;
    let link = |j: usize| {
        site.labs.get(j).map(|l| {
            let href = match track.filter(|t| l.tracks.iter().any(|x| x == t)) {
                Some(t) => super::tracks::href(&l.stem, t),
                None => href(&l.stem),
            };
            Link {
                href,
                title: &l.title,
            }
        })
    };
    let ctx = PageCtx {
        title: &site.title,
        pos: i + 1,
        n: site.labs.len(),
        prev: if i > 0 { link(i - 1) } else { None },
        next: link(i + 1),
    };
    let mut earlier_top = Vec::new();
    let mut earlier_parts = Vec::new();
    for c in &lab.carry_forward {
        let Some(from) = site.labs.iter().find(|l| l.id == c.from.value) else {
            continue;
        };
        let e = Earlier {
            id: &from.id,
            title: &from.title,
            href: href(&from.stem),
            prompt_html: c
                .prompt
                .as_ref()
                .map(|p| md_inline(&p.value))
                .unwrap_or_default(),
        };
        match &c.part {
            Some(p) => earlier_parts.push((p.value.clone(), e)),
            None => earlier_top.push(e),
        }
    }
    Some(PageCourse {
        ctx,
        data: data(site, i as i64),
        earlier_top,
        earlier_parts,
    })
}

/// The course index: title, description, every lab in order with its duration and progress,
/// and import/export of the course record.
pub fn index(site: &Site, opts: &RenderOptions) -> Result<Vec<OutFile>, Diagnostic> {
    let dir = opts.templates.as_ref();
    // The index cleans and merges every lab's record with its shape: the question rule comes
    // when some lab asks questions (its parts' shapes then have a fifth entry,
    // `record::questions::shape`); no other optional feature.
    let asks = site.labs.iter().any(|l| {
        l.shape
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p.get(4).is_some())
    });
    let mut on = std::collections::BTreeSet::new();
    if asks {
        on.insert("questions");
    }
    let script = |name: &str| super::page_script(name, dir, &on);
    let scripts = [script("course.js")?, script("course-index.js")?];
    let labs = site
        .labs
        .iter()
        .enumerate()
        .map(|(i, l)| IndexLab {
            n: i + 1,
            id: &l.id,
            href: href(&l.stem),
            title: &l.title,
            label: &l.label,
            duration: &l.duration,
            // A lab with tracks: the script leads the link to the student's track's page.
            tracked: (!l.tracks.is_empty()).then(|| url_escape(&l.stem)),
            titles: l
                .tracks
                .iter()
                .zip(&l.track_titles)
                .map(|(id, title)| TrackTitle { id, title })
                .collect(),
        })
        .collect();
    let tracks = site
        .tracks
        .iter()
        .map(|t| IndexTrack {
            id: &t.id,
            label: &t.label,
            icon: t.icon.as_deref().unwrap_or_default(),
            summary_html: t.summary.as_deref().map(md_inline).unwrap_or_default(),
        })
        .collect();
    let csp = format!(
        "default-src 'none'; script-src 'sha256-{}' 'sha256-{}'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'",
        super::hash::sha256_base64(scripts[0].as_bytes()),
        super::hash::sha256_base64(scripts[1].as_bytes())
    );
    let style = asset(ASSETS, "style.css", dir)?;
    let ctx = IndexCtx {
        title: &site.title,
        description_html: site
            .description
            .as_deref()
            .map(md_block)
            .unwrap_or_default(),
        labs,
        tracks,
        style: &style,
        csp,
        data_json: super::script_json(&IndexData {
            course: data(site, -1),
        }),
        scripts: &scripts,
    };
    let html = render_template(dir, "course-index.html.j2", &ctx)?;
    Ok(vec![OutFile {
        path: PathBuf::from("index.html"),
        bytes: html.into_bytes(),
    }])
}
