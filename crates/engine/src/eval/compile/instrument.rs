//! Compiling a part's instruments: metric cards, panels, charts and tables, each expression
//! compiled in the part's scope and every output they show checked to exist.

use super::{with, CompiledExpr, Compiler};
use crate::diag::did_you_mean;
use crate::model::*;
use std::collections::{BTreeSet, HashMap};

pub(super) fn compile_instrument(
    c: &mut Compiler,
    part: &Part,
    inst: &Instrument,
    names: &BTreeSet<String>,
    exprs: &mut HashMap<String, CompiledExpr>,
) {
    let check_output = |c: &mut Compiler, o: &Spanned<String>| {
        if !part.outputs.contains_key(&o.value) {
            let msg = if names.contains(&o.value) {
                format!("`{}` is shown but has no entry under `outputs:`", o.value)
            } else {
                format!("unknown output `{}`", o.value)
            };
            c.err(o.pos, msg).hint =
                did_you_mean(&o.value, part.outputs.keys().map(|s| s.as_str())).or_else(|| {
                    Some(format!(
                        "add `{}: {{ label: ..., unit: ... }}` under `outputs:`",
                        o.value
                    ))
                });
        }
    };
    match inst {
        Instrument::Panel(p) => {
            c.template(&p.title, names, exprs);
            for l in &p.lines {
                c.template(l, names, exprs);
            }
        }
        Instrument::Metrics(cards) => {
            for card in cards {
                check_output(c, &card.output);
                for t in card.label.iter().chain(card.caption.iter()) {
                    c.template(t, names, exprs);
                }
            }
        }
        Instrument::Table(t) => {
            for o in &t.outputs {
                check_output(c, o);
            }
            if let Some(title) = &t.title {
                c.template(title, names, exprs);
            }
        }
        Instrument::Chart(ch) => {
            let mut known = names.clone();
            if let Some(s) = &ch.sweep {
                c.expr(&s.from, names, "the sweep start", exprs);
                c.expr(&s.to, names, "the sweep end", exprs);
                known.insert(s.var.value.clone());
            }
            let point = with(&known, &["x", "y"]);
            for t in ch
                .title
                .iter()
                .chain(ch.x.label.iter())
                .chain(ch.y.label.iter())
                .chain(ch.description.iter())
            {
                c.template(t, names, exprs);
            }
            let whens = ch
                .series
                .iter()
                .filter_map(|s| s.when.as_ref())
                .chain(ch.markers.iter().filter_map(|m| m.when.as_ref()))
                .chain(ch.bands.iter().filter_map(|b| b.when.as_ref()))
                .chain(
                    ch.hlines
                        .iter()
                        .chain(ch.vlines.iter())
                        .filter_map(|l| l.when.as_ref()),
                );
            for w in whens {
                c.expr(w, names, "a `when` condition", exprs);
            }
            for b in &ch.bands {
                if let Some(t) = &b.name {
                    c.template(t, names, exprs);
                }
            }
            for a in [&ch.x.min, &ch.x.max, &ch.y.min, &ch.y.max]
                .into_iter()
                .flatten()
            {
                c.expr(a, names, "an axis bound", exprs);
            }
            for s in &ch.series {
                c.template(&s.name, names, exprs);
                for e in s.x.iter().chain(s.y.iter()).chain(s.values.iter()) {
                    c.expr(e, &known, "a series expression", exprs);
                }
                if let Some(e) = &s.color_when {
                    c.expr(e, &point, "a colour expression", exprs);
                }
                if let Some(e) = &s.emphasis {
                    c.expr(e, names, "an emphasis condition", exprs);
                }
                if let Some(t) = &s.text {
                    c.template(t, &point, exprs);
                }
            }
            check_level_colors(c, part, ch);
            for b in &ch.bars {
                c.template(&b.label, names, exprs);
                c.expr(&b.value, names, "a bar value", exprs);
                if let Some(e) = &b.color_when {
                    c.expr(e, &point, "a colour expression", exprs);
                }
                if let Some(t) = &b.text {
                    c.template(t, &point, exprs);
                }
            }
            if let Some(b) = &ch.bins {
                c.expr(&b.counts, names, "a histogram's counts", exprs);
                c.expr(&b.from, names, "a histogram's `from`", exprs);
                c.expr(&b.to, names, "a histogram's `to`", exprs);
                if let Some(t) = &b.name {
                    c.template(t, names, exprs);
                }
            }
            for m in &ch.markers {
                c.template(&m.name, names, exprs);
                c.expr(&m.x, names, "a marker x", exprs);
                c.expr(&m.y, names, "a marker y", exprs);
                if let Some(t) = &m.text {
                    c.template(t, &with(names, &["x", "y"]), exprs);
                }
            }
            for l in ch.hlines.iter().chain(ch.vlines.iter()) {
                c.expr(&l.at, names, "a reference line position", exprs);
                if let Some(t) = &l.label {
                    c.template(t, names, exprs);
                }
            }
            crate::eval::chart::check_shape(ch, &mut |pos, msg, hint| {
                c.err(pos, msg).hint = Some(hint.to_string());
            });
        }
    }
}

/// A chart's colours for a quantity a card also shows agree with the card (issue 27 item 7):
/// `color_by` names an output with levels; a bar showing such an output keeps its card's colour
/// unless it colours itself by another rule (a warning: the two can disagree).
fn check_level_colors(c: &mut Compiler, part: &Part, ch: &Chart) {
    use crate::eval::chart::{is_level_color, levelled_output};
    for s in &ch.series {
        let Some(by) = &s.color_by else { continue };
        if levelled_output(part, &by.value).is_none() {
            let levelled = part
                .outputs
                .iter()
                .filter(|(_, o)| o.level.is_some() || o.bands.is_some())
                .map(|(k, _)| k.as_str());
            let hint = did_you_mean(&by.value, levelled.clone()).unwrap_or_else(|| {
                format!(
                    "name an output of this part with `bands:` or `level:`{}",
                    match levelled.collect::<Vec<_>>() {
                        v if v.is_empty() => String::new(),
                        v => format!(": {}", v.join(", ")),
                    }
                )
            });
            c.err(
                by.pos,
                format!(
                    "`color_by: {}` needs an output with `bands:` or `level:`",
                    by.value
                ),
            )
            .hint = Some(hint);
        }
        if s.color_when.is_some() {
            c.err(
                by.pos,
                "a series takes `color_by` or `color_when`, not both",
            )
            .hint = Some("keep `color_by`: the colours of the output's levels".into());
        }
    }
    for b in &ch.bars {
        if levelled_output(part, &b.value.value).is_none() {
            continue;
        }
        let own = match (&b.color_when, b.color) {
            (Some(w), _) => Some((w.pos, "`color_when`")),
            (None, Some(col)) if is_level_color(col) => Some((b.value.pos, "a fixed level colour")),
            _ => None,
        };
        if let Some((pos, what)) = own {
            let name = b.value.value.trim();
            c.warn(
                pos,
                format!(
                    "this bar shows `{name}`, whose card is coloured by its levels, but the bar by {what}: the two can disagree"
                ),
            )
            .hint = Some(format!(
                "remove the bar's colour: a bar showing `{name}` takes its card's level colour"
            ));
        }
    }
}
