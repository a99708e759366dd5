//! The student's track in `labforge run`: `--track ID`, else the one saved (the course record's
//! `track` in a course, the lab's ledger for a lab on its own), else asked once (a numbered
//! menu of the tracks: icon, label, summary; the default track first highlighted). With an
//! answers file nothing is asked: `--track`, else the saved one, else the default. A change of
//! track says what it changes; a locked prediction keeps the track it was answered on.
//!
//! Every text shown here (labels, summaries: course.yaml is untrusted) goes to the terminal
//! through the one filter ([`crate::print`], via [`super::term::Screen`]).

use super::course::RunCourse;
use super::term::Screen;
use super::ui::{Item, Prompter, Res, Stop};
use super::{letter, RunOptions, Source};
use crate::eval::CompiledLab;
use crate::ledger::Ledger;
use crate::model::track::{Track, TrackSet};
use crate::record::CourseRecord;
use crate::store::{LedgerFile as _, RecordFile as _};
use indexmap::IndexMap;
use std::path::Path;
use std::process::ExitCode;

/// `--track ID` checked against the tracks: `Err` names them (with a did-you-mean).
pub fn known<'a>(tracks: &'a TrackSet, id: &str) -> Result<&'a Track, String> {
    if tracks.is_empty() {
        return Err(format!(
            "--track {id}: this lab has no tracks (its course.yaml, or the lab, declares none)"
        ));
    }
    tracks.get(id).ok_or_else(|| {
        let ids = tracks.ids();
        let also = crate::diag::did_you_mean(id, ids.iter().copied())
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        format!("no track `{id}` (tracks: {}){also}", ids.join(", "))
    })
}

/// A track as the terminal names it: `📱 Phone` (the icon when there is one).
pub fn name(t: &Track) -> String {
    match &t.icon {
        Some(i) if !i.trim().is_empty() => format!("{} {}", i.trim(), t.label),
        _ => t.label.clone(),
    }
}

/// The id of the track named `id`, as the terminal names it, or the id itself when the lab no
/// longer has that track.
pub fn name_of(tracks: &TrackSet, id: &str) -> String {
    tracks.get(id).map(name).unwrap_or_else(|| id.to_string())
}

/// Asks for a track: one numbered item per track (icon, bold label, summary), the default
/// highlighted first. `what` is "course" or "lab".
pub fn ask(p: &mut dyn Prompter, scr: &Screen, tracks: &TrackSet, what: &str) -> Res<String> {
    let items: Vec<Item> = tracks
        .tracks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let icon = t
                .icon
                .as_deref()
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|x| format!("{x} "))
                .unwrap_or_default();
            let summary = t
                .summary
                .as_deref()
                .map(|s| format!(" — {s}"))
                .unwrap_or_default();
            Item {
                key: (i + 1).to_string(),
                text: format!("{icon}**{}**{summary}", md_text(&t.label)),
            }
        })
        .collect();
    scr.println("");
    let then = if what == "course" {
        "Every lab then uses its device and numbers"
    } else {
        "The lab then uses its device and numbers"
    };
    let intro = format!(
        "This {what} plays out on one of {} tracks: pick yours. {then}; you keep it for the whole {what} (`--track ID` changes it later).",
        tracks.tracks.len()
    );
    scr.print_lines(&super::md::render_prefixed(&intro, scr, "", ""));
    let k = p.select(scr, "Your track?", &items, tracks.default)?;
    scr.println("");
    Ok(tracks.tracks[k].id.clone())
}

/// A label as Markdown text that shows as written (its `*`, `_`, `` ` `` and `[` escaped).
fn md_text(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '\\' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// What a change of track from `from` to `to` says: the labs now show `to`'s numbers,
/// questions and right answers, and the predictions already locked (`kept`: `Lab: Part A`)
/// keep the track they were answered on.
pub fn change_note(tracks: &TrackSet, from: &str, to: &str, kept: &[String]) -> String {
    let mut s = format!(
        "Track changed from {} to {}: the labs with tracks now show {}'s numbers, questions and right answers.",
        name_of(tracks, from),
        name_of(tracks, to),
        tracks.get(to).map_or(to, |t| t.label.as_str()),
    );
    if kept.is_empty() {
        s.push_str(" No prediction was locked in yet.");
    } else {
        s.push_str(&format!(
            " Predictions already locked in keep the track they were answered on, and are judged on it: {}.",
            kept.join("; ")
        ));
    }
    s
}

/// The lab compiled for the run's track, the lab compiled for other tracks (by id), and the
/// track the run was on before a change.
pub(super) type OnTrack = (CompiledLab, IndexMap<String, CompiledLab>, Option<String>);

/// The lab compiled for the run's track, and for each other track a locked answer of this lab
/// was given on (to judge it there). Chooses the track ([`super::run`]'s order: `--track`,
/// the saved one, the default with an answers file, else asks), saves it in the course record
/// (in a course; the ledger keeps it for a lab on its own) and says what a change changes.
/// `Err` has been printed.
pub(super) fn on_track(
    lab: CompiledLab,
    opts: &RunOptions,
    ledger_path: &Path,
    course: &mut Option<RunCourse>,
    source: &mut Source<'_>,
    scr: &Screen,
) -> Result<OnTrack, ExitCode> {
    let fail = |e: String| {
        crate::cmd::fail(&crate::project::Failure::Message(e));
        ExitCode::FAILURE
    };
    if lab.tracks.is_empty() {
        if let Some(t) = &opts.track {
            return Err(fail(known(&lab.tracks, t).err().unwrap_or_default()));
        }
        return Ok((lab, IndexMap::new(), None));
    }
    // A lab of a course with tracks that reads no track is the same on every track: nothing to
    // ask (the first lab that varies asks); `--track` still sets the course's track.
    if lab.track.is_none() && opts.track.is_none() {
        return Ok((lab, IndexMap::new(), None));
    }
    let tracks = lab.tracks.clone();
    let on_disk = Ledger::load(ledger_path).ok().flatten();
    let saved = match course {
        Some(c) => c.record.track.clone(),
        None => on_disk.as_ref().and_then(|l| l.track.clone()),
    };
    let saved = saved.filter(|s| {
        let ok = tracks.get(s).is_some();
        if !ok {
            eprintln!(
                "warning: the saved track `{s}` is not a track of this {} any more (tracks: {}); choose again",
                if course.is_some() { "course" } else { "lab" },
                tracks.ids().join(", ")
            );
        }
        ok
    });
    let chosen = match (&opts.track, &saved) {
        (Some(w), _) => known(&tracks, w).map_err(fail)?.id.clone(),
        (None, Some(s)) => s.clone(),
        (None, None) => match source {
            Source::Answers(_) => tracks
                .default_track()
                .map(|t| t.id.clone())
                .unwrap_or_default(),
            Source::Prompt(p) => {
                let what = if course.is_some() { "course" } else { "lab" };
                match ask(p.as_mut(), scr, &tracks, what) {
                    Ok(id) => id,
                    Err(Stop::Interrupted) => {
                        eprintln!("\nInterrupted before a track was chosen; nothing was saved.");
                        return Err(ExitCode::from(130));
                    }
                    Err(Stop::Bad(e)) => {
                        crate::cmd::report(&[*e], None);
                        return Err(ExitCode::FAILURE);
                    }
                    Err(_) => {
                        eprintln!("\nInput ended before a track was chosen; nothing was saved.");
                        return Err(ExitCode::from(1));
                    }
                }
            }
        },
    };
    let old = saved.clone().filter(|s| *s != chosen);
    // The other tracks this lab's answers were given on (the old track: answers locked before
    // the change keep it).
    let mut need: Vec<String> = old.iter().cloned().collect();
    let mut add = |parts: &serde_json::Value| {
        for a in parts.as_object().into_iter().flat_map(|m| m.values()) {
            if let Some(t) = a["track"].as_str() {
                if t != chosen && !need.iter().any(|n| n == t) && tracks.get(t).is_some() {
                    need.push(t.to_string());
                }
            }
        }
    };
    if let Some(l) = &on_disk {
        add(&serde_json::to_value(&l.parts).unwrap_or_default());
    }
    if let Some(c) = course.as_ref() {
        if let Some(l) = c.record.labs.get(&lab.lab.id.value) {
            add(&l["parts"]);
        }
    }
    if let Some(c) = course {
        let kept = set_course_track(c, old.as_deref(), &chosen).map_err(fail)?;
        if let Some(o) = &old {
            say(scr, &change_note(&tracks, o, &chosen, &kept));
        }
    } else if let Some(o) = &old {
        let kept: Vec<String> = on_disk
            .iter()
            .flat_map(|l| l.parts.iter())
            .filter(|(_, a)| a.prediction.is_some())
            .map(|(pid, a)| {
                let t = a.track.as_deref().unwrap_or(o);
                format!("Part {} ({})", letter(pid), name_of(&tracks, t))
            })
            .collect();
        say(scr, &change_note(&tracks, o, &chosen, &kept));
    }
    let compile = |id: &str| {
        lab.on_track(id).map_err(|d| {
            crate::cmd::report(&d, Some(&lab.source));
            ExitCode::FAILURE
        })
    };
    let mut others = IndexMap::new();
    for t in &need {
        others.insert(t.clone(), compile(t)?);
    }
    let lab = if lab.track.as_deref() == Some(chosen.as_str()) {
        lab
    } else {
        compile(&chosen)?
    };
    Ok((lab, others, old))
}

/// `text` on stdout after an empty line, wrapped at the screen width.
fn say(scr: &Screen, text: &str) {
    scr.println("");
    scr.print_lines(&super::term::wrap(text, scr.width.min(100)));
}

/// Sets the course record's track to `id`, under its lock. When it changes from `old`, every
/// locked prediction of the record that does not say its track (given before tracks were kept
/// per answer) first gets `old`, so it stays judged on the track it was answered on. Returns
/// the locked predictions, each with its track (`Batching: Part A (☁ Cloud Fleet)`).
pub(super) fn set_course_track(
    c: &mut RunCourse,
    old: Option<&str>,
    id: &str,
) -> Result<Vec<String>, String> {
    if c.record.track.as_deref() == Some(id) && old.is_none() {
        return Ok(Vec::new());
    }
    let site = &c.site;
    let mut kept = Vec::new();
    c.record = CourseRecord::update(&c.path, &site.id, &site.labs, |r| {
        r.track = Some(id.to_string());
        kept.clear();
        let Some(old) = old else { return };
        for l in &site.labs {
            let Some(parts) = r
                .labs
                .get_mut(&l.id)
                .and_then(|x| x.get_mut("parts"))
                .and_then(|p| p.as_object_mut())
            else {
                continue;
            };
            for (pid, a) in parts.iter_mut() {
                if a.get("prediction").is_none_or(|p| p.is_null()) {
                    continue;
                }
                if a.get("track").and_then(|t| t.as_str()).is_none() {
                    a["track"] = serde_json::Value::from(old);
                }
                let t = a["track"].as_str().unwrap_or(old).to_string();
                kept.push((l.title.clone(), pid.clone(), t));
            }
        }
    })?;
    let tracks = &c.tracks;
    Ok(kept
        .into_iter()
        .map(|(title, pid, t)| {
            format!(
                "{}: Part {} ({})",
                crate::load::text::visible(&title),
                letter(&pid),
                name_of(tracks, &t)
            )
        })
        .collect())
}
