//! Checking `tracks:` (a course's or a lab's own) and a lab's `variants:`: located errors for
//! a track without an id or label, a repeated or reserved id, an unknown `default_track`, a
//! variant for no track, and a variant value some track lacks or holds in another kind.

use crate::diag::{did_you_mean, Diagnostic};
use crate::model::track::{Track, TrackSet, SHARED_VARIANT};
use crate::model::{Pos, Spanned, TrackSpec, Value, Variants};
use indexmap::IndexMap;

/// The names `track` and `variant`: bound in every expression of a lab with tracks.
pub const TRACK: &str = "track";
pub const VARIANT: &str = "variant";

/// A track id: lowercase letters, digits and dashes, a letter first, at most 40 characters.
pub fn is_track_id(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c.is_ascii_lowercase())
        && cs.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && s.len() <= 40
}

fn text(v: &Spanned<Value>) -> Option<&str> {
    match &v.value {
        Value::Text(s) => Some(s),
        _ => None,
    }
}

/// At most this many tracks: `check` compiles a lab once per track and `render` writes a page
/// per track, so the count bounds the work a course file can ask for.
pub const MAX_TRACKS: usize = 16;

/// Checks a track list and its `default_track`; the tracks as a [`TrackSet`] (empty when
/// none are declared), with errors appended to `out` (in `file`).
pub fn check(
    specs: &[TrackSpec],
    default: Option<&Spanned<String>>,
    file: &str,
    out: &mut Vec<Diagnostic>,
) -> TrackSet {
    if specs.len() > MAX_TRACKS {
        out.push(
            Diagnostic::error(
                file,
                specs[MAX_TRACKS].pos,
                format!("{} tracks: at most {MAX_TRACKS} are allowed", specs.len()),
            )
            .with_hint("each track is a compilation in `check` and a page per lab in `render`; merge tracks that differ only in a number into one track's `variants:`"),
        );
        return TrackSet::default();
    }
    let mut err = |pos: Pos, m: String, h: &str| {
        out.push(Diagnostic::error(file, pos, m).with_hint(h));
    };
    let mut tracks: Vec<Track> = Vec::new();
    for spec in specs {
        let f = &spec.value;
        let Some(id) = f.get("id") else {
            err(
                spec.pos,
                "a track needs an `id`".into(),
                "e.g. `- { id: iphone, label: iPhone }`",
            );
            continue;
        };
        let Some(id_s) = text(id).filter(|s| is_track_id(s) && *s != SHARED_VARIANT) else {
            err(
                id.pos,
                format!("track id {} must be lowercase letters, digits and dashes (not `default`)", show(&id.value)),
                "e.g. `id: oura-ring`; the id is saved in the student's record, so keep it once chosen",
            );
            continue;
        };
        if tracks.iter().any(|t| t.id == id_s) {
            err(
                id.pos,
                format!("track `{id_s}` is declared twice"),
                "give each track its own id",
            );
            continue;
        }
        let label = match f.get("label").map(|l| (l, text(l))) {
            Some((_, Some(l))) if !l.trim().is_empty() => l.to_string(),
            Some((l, _)) => {
                err(
                    l.pos,
                    format!("track `{id_s}`: `label` must be text"),
                    "e.g. `label: Oura Ring`",
                );
                continue;
            }
            None => {
                err(
                    id.pos,
                    format!("track `{id_s}` needs a `label`"),
                    "the label is what the student picks, e.g. `label: RoboTaxi`",
                );
                continue;
            }
        };
        for key in ["icon", "summary", "device", "model"] {
            if let Some(v) = f.get(key) {
                if text(v).is_none() {
                    err(
                        v.pos,
                        format!("track `{id_s}`: `{key}` must be text"),
                        "write it as a string",
                    );
                }
            }
        }
        tracks.push(Track {
            id: id_s.to_string(),
            label,
            icon: f.get("icon").and_then(text).map(str::to_string),
            summary: f.get("summary").and_then(text).map(str::to_string),
            fields: f
                .iter()
                .map(|(k, v)| (k.clone(), v.value.clone()))
                .collect(),
        });
    }
    let mut set = TrackSet { tracks, default: 0 };
    if let Some(d) = default {
        match set.tracks.iter().position(|t| t.id == d.value) {
            Some(i) => set.default = i,
            None if specs.is_empty() => err(
                d.pos,
                format!("`default_track: {}` but no tracks are declared", d.value),
                "declare `tracks:` (in course.yaml for a course's labs) or remove `default_track`",
            ),
            None => {
                let ids = set.ids();
                let hint = did_you_mean(&d.value, ids.iter().copied())
                    .unwrap_or_else(|| format!("the tracks are {}", ids.join(", ")));
                err(
                    d.pos,
                    format!("`default_track: {}` is not a track", d.value),
                    &hint,
                );
            }
        }
    }
    set
}

fn show(v: &Value) -> String {
    match v {
        Value::Text(s) => format!("`{s}`"),
        other => format!("{other:?}"),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::Text(_) => "text",
        Value::List(_) => "a list",
        Value::Record(_) => "a record",
    }
}

/// Checks a lab's `variants:` against its tracks: every key is `default` or a track, and every
/// track ends up with every value (its own or the shared one), each of one kind on all tracks.
pub fn check_variants(
    variants: &Variants,
    tracks: &TrackSet,
    file: &str,
    out: &mut Vec<Diagnostic>,
) {
    if variants.is_empty() {
        return;
    }
    let first_pos = variants.values().next().map_or(Pos::UNKNOWN, |v| v.pos);
    if tracks.is_empty() {
        out.push(
            Diagnostic::error(file, first_pos, "`variants:` but the lab has no tracks").with_hint(
                "declare `tracks:` in the course's course.yaml (or, for a lab on its own, in the lab)",
            ),
        );
        return;
    }
    let ids = tracks.ids();
    for (k, v) in variants {
        if k != SHARED_VARIANT && tracks.get(k).is_none() {
            let hint = did_you_mean(k, ids.iter().copied()).unwrap_or_else(|| {
                format!(
                    "variants are given per track ({}) or as `default:` for all",
                    ids.join(", ")
                )
            });
            out.push(
                Diagnostic::error(file, v.pos, format!("`{k}` in `variants:` is not a track"))
                    .with_hint(hint),
            );
        }
    }
    // Every name any entry gives, where it is first given, and its kind there.
    let mut names: IndexMap<&str, (&Spanned<Value>, &str)> = IndexMap::new();
    for (k, entry) in variants {
        for (name, v) in &entry.value {
            names.entry(name.as_str()).or_insert((v, k.as_str()));
        }
    }
    let shared = variants.get(SHARED_VARIANT);
    for (name, (first, first_in)) in &names {
        for t in &tracks.tracks {
            let own = variants.get(&t.id).and_then(|e| e.value.get(*name));
            let Some(v) = own.or_else(|| shared.and_then(|s| s.value.get(*name))) else {
                let pos = variants.get(&t.id).map_or(first_pos, |e| e.pos);
                out.push(
                    Diagnostic::error(
                        file,
                        pos,
                        format!("track `{}` has no value for `variant.{name}`", t.id),
                    )
                    .with_hint(format!(
                        "give `{name}:` under `{}:` in `variants:`, or once under `default:` for every track",
                        t.id
                    )),
                );
                continue;
            };
            if kind(&v.value) != kind(&first.value) {
                out.push(
                    Diagnostic::error(
                        file,
                        v.pos,
                        format!(
                            "`variant.{name}` is {} on track `{}` but {} under `{first_in}:`",
                            kind(&v.value),
                            t.id,
                            kind(&first.value)
                        ),
                    )
                    .with_hint(
                        "give the value one kind on every track, so the same formulas read it",
                    ),
                );
            }
        }
    }
}

/// The record `variant` reads on `track`: the shared values overridden by the track's own.
pub fn variant_record(variants: &Variants, track: &str) -> IndexMap<String, Value> {
    let mut r: IndexMap<String, Value> = IndexMap::new();
    for key in [SHARED_VARIANT, track] {
        if let Some(e) = variants.get(key) {
            for (k, v) in &e.value {
                r.insert(k.clone(), v.value.clone());
            }
        }
    }
    r
}
