//! A lab with tracks in the page. `render` writes one page per track (`STEM.TRACK.html`, that
//! track's numbers) and `STEM.html` (the default track's page, where every link to the lab
//! leads). Each page knows its track and its siblings: the header shows the track and links to
//! the other tracks' pages; the runtime (`renderers/html/runtime.js`, feature `tracks`) asks a
//! student who has not picked a track yet, moves one on another track from `STEM.html` to
//! theirs, says so on a `STEM.TRACK.html` of another track, and records the track each
//! prediction was locked on.
//!
//! Track texts come from `tracks:` (course.yaml or the lab): labels and icons reach the page as
//! plain text (escaped by the template, or set as text by the script), summaries as Markdown
//! inline through the sanitising path ([`md_inline`]).

use super::ctx::{TrackCtx, TrackLink};
use super::data::TrackData;
use super::md::md_inline;
use super::url_escape;
use crate::eval::CompiledLab;
use crate::model::track::Track;

/// The track parts of one lab page.
pub struct TrackPage {
    /// The lab's file stem without the track (`STEM` of `STEM.TRACK`).
    pub base: String,
    /// The track this page shows.
    pub now: String,
    /// `STEM.html`, the page links lead to (moves a student on another track to theirs).
    pub home: bool,
    /// The data's `track`.
    pub data: TrackData,
    /// The template's `track`.
    pub ctx: TrackCtx,
}

/// The file of the page of track `id` of the lab `base` (a link: escaped).
pub fn href(base: &str, id: &str) -> String {
    format!("{}.{}.html", url_escape(base), url_escape(id))
}

fn view(t: &Track, base: &str) -> TrackLink {
    TrackLink {
        id: t.id.clone(),
        label: t.label.clone(),
        icon: t.icon.clone().unwrap_or_default(),
        summary_html: t.summary.as_deref().map(md_inline).unwrap_or_default(),
        href: href(base, &t.id),
    }
}

/// The track parts of the page of `lab` rendered as `stem`; `None` for a lab without tracks.
/// `one`: the page was rendered alone (`render --track ID`): no sibling pages to lead to.
pub fn page(lab: &CompiledLab, stem: &str, one: bool) -> Option<TrackPage> {
    let now = lab.track.as_deref().and_then(|id| lab.tracks.get(id))?;
    let base = if one {
        stem
    } else {
        stem.strip_suffix(&format!(".{}", now.id)).unwrap_or(stem)
    };
    let home = !one && base == stem;
    let list = lab
        .tracks
        .tracks
        .iter()
        .map(|t| (t.id.clone(), t.label.clone(), href(base, &t.id)))
        .collect();
    let others: Vec<TrackLink> = if one {
        Vec::new()
    } else {
        lab.tracks
            .tracks
            .iter()
            .filter(|t| t.id != now.id)
            .map(|t| view(t, base))
            .collect()
    };
    let pick: Vec<TrackLink> = if one {
        Vec::new()
    } else {
        lab.tracks.tracks.iter().map(|t| view(t, base)).collect()
    };
    Some(TrackPage {
        base: base.to_string(),
        now: now.id.clone(),
        home,
        data: TrackData {
            now: now.id.clone(),
            home,
            one,
            list,
        },
        ctx: TrackCtx {
            now: view(now, base),
            others,
            pick,
        },
    })
}
