//! Decisions carried forward from earlier labs of the course (`carry_forward:`), as the
//! handouts print them: under the lab's header (an entry without a `part`) or at the top of
//! its part, each with the earlier lab's title, the instructor's prompt and the student's
//! decision log from the course record given with `render --record` — or, without one, a
//! space to copy it into by hand.

use super::view::Context;
use crate::eval::CompiledLab;
use crate::record::CourseRecord;
use crate::render::RenderOptions;
use serde::Serialize;

/// A decision carried forward from the earlier lab `from`; `text` is the student's decision
/// log (`null` without one: the handout leaves space to copy it into).
#[derive(Clone, Serialize)]
pub struct Earlier<'a> {
    pub from: &'a str,
    pub title: String,
    pub prompt: String,
    pub text: Option<String>,
}

/// A number read from an earlier lab: its value and where it came from.
#[derive(Serialize)]
pub struct Carried {
    pub label: String,
    pub unit: Option<String>,
    pub value: String,
    pub how: String,
}

/// Fills in `earlier` (a list, maybe empty) on the context and on each of its parts, and
/// `carried`.
pub fn add<'a>(ctx: &mut Context<'a>, lab: &'a CompiledLab, opts: &RenderOptions) {
    let mut by_part: Vec<(&str, Earlier)> = Vec::new();
    for c in &lab.lab.carry_forward {
        let from = c.from.value.as_str();
        let title = title_of(opts, from);
        let e = Earlier {
            from,
            prompt: c
                .prompt
                .as_ref()
                .map_or_else(|| format!("Your decision in {title}:"), |p| p.value.clone()),
            title,
            text: decision(opts.record.as_ref(), from),
        };
        match &c.part {
            Some(p) => by_part.push((&p.value, e)),
            None => ctx.earlier.push(e),
        }
    }
    ctx.carried = carried(lab, opts);
    for p in &mut ctx.parts {
        p.earlier = by_part
            .iter()
            .filter(|(pid, _)| *pid == p.id)
            .map(|(_, e)| e.clone())
            .collect();
    }
}

/// The decision log the record holds for the lab `from`, when it is not empty. A student's
/// text, filtered as lab text is (`load::text::visible`: a control character, an escape
/// sequence's ESC or a bidirectional override prints as `U+FFFD`), then escaped by the
/// templates like any value.
fn decision(record: Option<&CourseRecord>, from: &str) -> Option<String> {
    let text = record?.labs.get(from)?["decision_log"].as_str()?;
    let text = crate::load::text::visible(text);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The title of the course's lab `from` (its id when the course has none such). Another lab
/// file's title (that lab may not check clean) is filtered as its text is.
fn title_of(opts: &RenderOptions, from: &str) -> String {
    let title = opts
        .course
        .as_ref()
        .and_then(|s| s.labs.iter().find(|l| l.id == from))
        .map_or(from, |l| l.title.as_str());
    crate::load::text::visible(title).into_owned()
}

/// The numbers the lab reads from earlier labs, as the handout lists them: the course record's
/// (`render --record`) when it holds a number inside the range, else the default, each saying
/// where it came from ([`crate::eval::carried::lookup`], as the driver filled them in).
fn carried(lab: &CompiledLab, opts: &RenderOptions) -> Vec<Carried> {
    use crate::eval::carried::{how_texts, lookup, Origin};
    lab.lab
        .reads
        .iter()
        .map(|r| {
            let from = r.from.value.as_str();
            let title = title_of(opts, from);
            let ledger = opts.record.as_ref().and_then(|rec| rec.labs.get(from));
            let (x, origin) = lookup(ledger, r);
            let [rec, missing, refused] = how_texts(r, &title);
            Carried {
                label: r.label.clone().unwrap_or_else(|| r.name.value.clone()),
                unit: r.unit.clone(),
                value: x.unwrap_or(r.default.value).to_string(),
                how: match origin {
                    Origin::Record => rec,
                    Origin::Missing => missing,
                    Origin::Refused => refused,
                },
            }
        })
        .collect()
}
