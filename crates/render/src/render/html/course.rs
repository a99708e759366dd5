//! The course site in the page: prev/next navigation, the earlier decisions a lab shows
//! (`carry_forward:`), the course record's script and data, and the course index with each
//! lab's progress (`renderers/html/course.js`).

use super::data::{CourseData, CourseLab, IndexData};
use super::md::{md_block, md_inline};
use super::{asset, render_template, url_escape, ASSETS};
use crate::diag::Diagnostic;
use crate::model::Lab;
use crate::render::{OutFile, RenderOptions};
use crate::site::Site;
use serde_json::{json, Value as J};
use std::path::PathBuf;

/// What a lab page of a course adds: the template's `course` and the data's `course`.
pub struct PageCourse<'a> {
    pub ctx: J,
    pub data: CourseData<'a>,
    /// Earlier decisions shown under the header, and per part id.
    pub earlier_top: Vec<J>,
    pub earlier_parts: Vec<(String, J)>,
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
        site.labs
            .get(j)
            .map(|l| {
                let href = match track.filter(|t| l.tracks.iter().any(|x| x == t)) {
                    Some(t) => super::tracks::href(&l.stem, t),
                    None => href(&l.stem),
                };
                json!({"href": href, "title": l.title})
            })
            .unwrap_or(J::Null)
    };
    let ctx = json!({
        "title": site.title,
        "pos": i + 1,
        "n": site.labs.len(),
        "prev": if i > 0 { link(i - 1) } else { J::Null },
        "next": link(i + 1),
    });
    let mut earlier_top = Vec::new();
    let mut earlier_parts = Vec::new();
    for c in &lab.carry_forward {
        let Some(from) = site.labs.iter().find(|l| l.id == c.from.value) else {
            continue;
        };
        let e = json!({
            "id": from.id,
            "title": from.title,
            "href": href(&from.stem),
            "prompt_html": c.prompt.as_ref().map(|p| md_inline(&p.value)).unwrap_or_default(),
        });
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
    let labs: Vec<J> = site
        .labs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            // A lab with tracks: the script leads the link to the student's track's page.
            let tracked = (!l.tracks.is_empty()).then(|| url_escape(&l.stem));
            let titles: Vec<J> = l.tracks.iter().zip(&l.track_titles).map(|(t, x)| json!({"id": t, "title": x})).collect();
            json!({"n": i + 1, "id": l.id, "href": href(&l.stem), "title": l.title, "label": l.label, "duration": l.duration, "tracked": tracked, "titles": titles})
        })
        .collect();
    let tracks: Vec<J> = site
        .tracks
        .iter()
        .map(|t| {
            json!({"id": t.id, "label": t.label, "icon": t.icon.clone().unwrap_or_default(),
                "summary_html": t.summary.as_deref().map(md_inline).unwrap_or_default()})
        })
        .collect();
    let csp = format!(
        "default-src 'none'; script-src 'sha256-{}' 'sha256-{}'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'",
        super::hash::sha256_base64(scripts[0].as_bytes()),
        super::hash::sha256_base64(scripts[1].as_bytes())
    );
    let ctx = json!({
        "title": site.title,
        "description_html": site.description.as_deref().map(md_block).unwrap_or_default(),
        "labs": labs,
        "tracks": tracks,
        "style": asset(ASSETS, "style.css", dir)?.as_ref(),
        "csp": csp,
        "data_json": super::script_json(&IndexData { course: data(site, -1) }),
        "scripts": scripts,
    });
    let html = render_template(dir, "course-index.html.j2", &ctx)?;
    Ok(vec![OutFile {
        path: PathBuf::from("index.html"),
        bytes: html.into_bytes(),
    }])
}
