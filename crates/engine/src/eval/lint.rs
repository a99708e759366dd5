//! Warnings for things that are legal but likely wrong: a banner that can never show, an output
//! no instrument shows, a number typed in prose that a formula computes.

use super::compile::{part_static_texts, CompiledPart, Origin};
use super::template::{line_col, segments, Segment};
use super::{CompiledLab, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::{as_number, references};
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;
use std::collections::BTreeSet;

/// Control settings sampled to judge whether a banner can fire.
pub const SAMPLES: usize = 200;

/// A small deterministic generator (64-bit LCG), so lint results never vary between runs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pick(&mut self, n: usize) -> usize {
        ((self.next() * n as f64) as usize).min(n.saturating_sub(1))
    }
}

/// One random legal value of a control.
fn sample_control(ctl: &Control, rng: &mut Lcg, corner: Option<bool>) -> Option<Dynamic> {
    Some(match ctl {
        Control::Slider(s) => {
            if let Some(v) = &s.values {
                let i = match corner {
                    Some(false) => 0,
                    Some(true) => v.value.len() - 1,
                    None => rng.pick(v.value.len()),
                };
                return Some(Dynamic::from_float(*v.value.get(i)?));
            }
            let (min, max) = (s.min.as_ref()?.value, s.max.as_ref()?.value);
            let step = s.step.as_ref().map(|x| x.value).unwrap_or(1.0);
            let n = ((max - min) / step + 1e-9).floor() as usize;
            let k = match corner {
                Some(false) => 0,
                Some(true) => n,
                None => rng.pick(n + 1),
            };
            let pos = min + step * k as f64;
            Dynamic::from_float(match s.exponent_base {
                Some(b) => b.powf(pos),
                None => pos,
            })
        }
        Control::Number(n) => {
            let (lo, hi) = (
                n.min.unwrap_or(n.default.value),
                n.max.unwrap_or(n.default.value),
            );
            Dynamic::from_float(match corner {
                Some(false) => lo,
                Some(true) => hi,
                None => lo + (hi - lo) * rng.next(),
            })
        }
        Control::Switch(_) => Dynamic::from_bool(corner.unwrap_or(rng.next() < 0.5)),
        Control::Select(s) | Control::Radio(s) => {
            let n = s.options.value.len();
            let i = match corner {
                Some(false) => 0,
                Some(true) => n - 1,
                None => rng.pick(n),
            };
            super::value_to_dynamic(s.options.value.get_index(i)?.1)
        }
        Control::Checkboxes(cb) => Dynamic::from_map(
            cb.options
                .keys()
                .map(|k| {
                    (
                        k.as_str().into(),
                        Dynamic::from_bool(corner.unwrap_or(rng.next() < 0.5)),
                    )
                })
                .collect(),
        ),
    })
}

/// Control settings: defaults, both corners, then random points.
pub fn samples(lab: &CompiledLab, part: &CompiledPart, n: usize) -> Vec<IndexMap<String, Dynamic>> {
    let model = &lab.lab.parts[part.index];
    let mut rng = Lcg(0x1ab_f0e6e ^ part.index as u64);
    let defaults = lab.inputs(part, &IndexMap::new()).unwrap_or_default();
    let mut out = vec![defaults.clone()];
    for i in 0..n {
        let corner = match i {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        };
        let mut s = defaults.clone();
        for ctl in &model.controls {
            if let Some(v) = sample_control(ctl, &mut rng, corner) {
                s.insert(ctl.id().value.clone(), v);
            }
        }
        out.push(s);
    }
    out
}

/// The file position of the `nth` occurrence (0-based) of the number `text` in the scalar that
/// starts at `node`: found in the file itself, so folded (`>`) and literal (`|`) blocks, whose
/// lines the value does not keep, are located as exactly as quoted and plain ones.
pub(super) fn locate_in_file(
    source: &crate::load::Source,
    node: Pos,
    text: &str,
    nth: usize,
) -> Option<Pos> {
    if !node.is_known() {
        return None;
    }
    let line_start = source.line_start(node.line);
    let from = line_start
        + source.text[line_start..]
            .chars()
            .take(node.col as usize - 1)
            .map(char::len_utf8)
            .sum::<usize>();
    let abs = from + number_at(&source.text[from..], text).nth(nth)?;
    let (line, col_start) = source.line_at(abs);
    let col = source.text[col_start..abs].chars().count() + 1;
    Some(Pos::new(line, col as u32))
}

/// Byte offsets in `hay` where the number `text` stands whole (not inside a longer number or a
/// name such as `H100`).
pub(super) fn number_at<'a>(hay: &'a str, text: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = hay.as_bytes();
    hay.match_indices(text).map(|(i, _)| i).filter(move |&i| {
        (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || matches!(bytes[i - 1], b'.' | b',')))
            && !bytes
                .get(i + text.len())
                .is_some_and(|c| c.is_ascii_digit())
    })
}

/// Answers a student can lock in, for banners that read `answer`: every option's id; for a
/// number, the box's bounds and default, the bands' bounds and a spread of magnitudes.
/// The answers a student can lock in to `model`'s prediction, for sampling banners: every
/// option; for a number, the box's bounds and default, the bands' edges, powers of ten, and the
/// right answer (`right`: the graded output at the scenario) with the edges of its tolerance.
fn answer_samples(model: &Part, right: Option<f64>) -> Vec<Dynamic> {
    let Some(pr) = &model.prediction else {
        return Vec::new();
    };
    match &pr.numeric {
        None => pr
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| Dynamic::from(crate::load::check::option_id(i, o)))
            .collect(),
        Some(n) => {
            let mut xs: Vec<f64> = [&n.min, &n.max, &n.default]
                .into_iter()
                .flatten()
                .map(|x| x.value)
                .collect();
            for b in &n.bands {
                xs.extend(b.from.iter().chain(&b.to).map(|x| x.value));
            }
            xs.extend((-3..=6).map(|e| 10f64.powi(e)));
            if let Some(x) = right.filter(|x| x.is_finite()) {
                let tol = n.tolerance.as_ref().map_or(0.1, |t| t.value);
                let abs = n.abs_tol.as_ref().map_or(0.0, |t| t.value);
                let d = (x.abs() * tol).max(abs) * 0.99;
                xs.extend([x, x - d, x + d]);
            }
            xs.into_iter().map(Dynamic::from_float).collect()
        }
    }
}

impl CompiledLab {
    /// The number a numeric prediction of `model` is graded against: its output at the scenario.
    fn right_number(&self, model: &Part) -> Option<f64> {
        let n = model.prediction.as_ref()?.numeric.as_ref()?;
        let part = self.part(&model.id.value)?;
        let ev = self.evaluate(part, &self.scenario(part)).ok()?;
        crate::formula::as_number(ev.values.get(&n.output.value)?)
    }

    /// Lint warnings for the whole lab.
    pub fn lint(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for part in &self.parts {
            if self.lab_budget_spent() {
                break;
            }
            let model = &self.lab.parts[part.index];
            self.lint_banners(part, model, &mut out);
            self.lint_unshown_outputs(part, model, &mut out);
            if let Ok(sev) = self.evaluate(part, &self.scenario(part)) {
                for t in part_static_texts(model) {
                    self.lint_typed_numbers(part, &sev, t, &mut out);
                }
            }
            if let Ok(dev) = self.evaluate(
                part,
                &self.inputs(part, &IndexMap::new()).unwrap_or_default(),
            ) {
                for t in live_texts(model) {
                    self.lint_typed_numbers(part, &dev, t, &mut out);
                }
            }
        }
        if !self.lab_budget_spent() {
            let from = out.len();
            self.lint_giveaways(&mut out);
            agree_with_giveaways(&mut out, 0..from, from);
        }
        out
    }

    fn lint_banners(&self, part: &CompiledPart, model: &Part, out: &mut Vec<Diagnostic>) {
        if model.feedback.is_empty() {
            return;
        }
        let mut fired = vec![false; model.feedback.len()];
        let mut failure: Option<Diagnostic> = None;
        // Each sample computes only what the conditions read, not every formula of the part.
        let needed = part.needed_by(model.feedback.iter().map(|r| r.when.value.as_str()));
        // Per banner: unset, then the answers a student can lock in to the predictions it
        // reads (`answer`, `prediction.a`).
        let combos: Vec<Vec<Vec<(&str, Dynamic)>>> = model
            .feedback
            .iter()
            .map(|r| match part.exprs.get(r.when.value.trim()) {
                Some(ce) => super::xpart::samples(part, &self.lab.parts, &ce.ast, &|m: &Part| {
                    answer_samples(m, self.right_number(m))
                }),
                None => vec![Vec::new()],
            })
            .collect();
        // Nor `prediction` (every part's entry; `()` instead, so a scope keeps its size and its
        // variable limit) unless a condition names it: copying it into each sample and each
        // condition's scope made `check` grow faster than the lab's parts.
        let record = model
            .feedback
            .iter()
            .any(|r| r.when.value.contains(super::xpart::NAME));
        for s in samples(self, part, SAMPLES) {
            let ev = match self.evaluate_for(part, &s, Some(&needed), record) {
                Ok(ev) => ev,
                Err(e) if self.lab_budget_spent() => {
                    out.push(e.0);
                    return;
                }
                Err(e) => {
                    if failure.is_none() {
                        let at: Vec<String> = s
                            .iter()
                            .map(|(k, v)| format!("{k} = {}", super::display(v)))
                            .collect();
                        failure = Some(
                            Diagnostic::warning(&self.source.name, e.0.pos(), format!("{} (at {})", e.0.message, at.join(", ")))
                                .with_hint("a student can reach these control values; make the formula handle them"),
                        );
                    }
                    continue;
                }
            };
            for (i, rule) in model.feedback.iter().enumerate() {
                for extra in &combos[i] {
                    if fired[i] {
                        break;
                    }
                    fired[i] = self
                        .eval_expr(Some(part), Some(&ev), &rule.when.value, extra)
                        .ok()
                        .and_then(|v| v.as_bool().ok())
                        .unwrap_or(false);
                }
            }
        }
        out.extend(failure);
        for (i, rule) in model.feedback.iter().enumerate() {
            if !fired[i] && !rule.may_never_fire.allows(self.track.as_deref()) {
                let accept = match &self.track {
                    None => "`may_never_fire: true`",
                    Some(_) => "`may_never_fire:` with the tracks where it cannot show (the tracks this warning is on), e.g. `may_never_fire: [iphone]`",
                };
                out.push(
                    Diagnostic::warning(&self.source.name, rule.when.pos, format!("this banner never shows: `{}` was false at all {} sampled control settings", rule.when.value.trim(), SAMPLES + 1))
                        .with_hint(format!("check the condition's threshold and units against the controls' ranges; if it is meant to be unreachable, add {accept}")),
                );
            }
        }
    }

    fn lint_unshown_outputs(&self, part: &CompiledPart, model: &Part, out: &mut Vec<Diagnostic>) {
        let mut shown: BTreeSet<String> = BTreeSet::new();
        for inst in &model.instruments {
            match inst {
                Instrument::Metrics(cs) => shown.extend(cs.iter().map(|c| c.output.value.clone())),
                Instrument::Table(t) => shown.extend(t.outputs.iter().map(|o| o.value.clone())),
                _ => {}
            }
        }
        for t in live_texts(model) {
            if let Ok(segs) = segments(&t.value) {
                for s in segs {
                    match s {
                        Segment::Expr(e, _) => {
                            if let Some(ce) = part.exprs.get(e) {
                                shown.extend(references(&ce.ast));
                            }
                        }
                        Segment::Output(name, _) => {
                            shown.insert(name.to_string());
                        }
                        Segment::Lit(_) => {}
                    }
                }
            }
        }
        for inst in &model.instruments {
            if let Instrument::Chart(ch) = inst {
                for e in chart_exprs(ch) {
                    if let Some(ce) = part.exprs.get(e.value.trim()) {
                        shown.extend(references(&ce.ast));
                    }
                }
            }
        }
        for name in model.outputs.keys() {
            if !shown.contains(name) {
                out.push(
                    Diagnostic::warning(&self.source.name, part_pos(model), format!("output `{name}` of part `{}` is not shown by any metric card, table, panel, banner or chart", part.id))
                        .with_hint("add it to a `metrics:` row or a `table:`, or mention it in a panel line"),
                );
            }
        }
    }

    fn lint_typed_numbers(
        &self,
        part: &CompiledPart,
        ev: &Evaluation,
        t: &Text,
        out: &mut Vec<Diagnostic>,
    ) {
        let Ok(segs) = segments(&t.value) else { return };
        let model = &self.lab.parts[part.index];
        let computed: Vec<(&String, f64)> = part
            .formulas
            .iter()
            .filter_map(|f| {
                ev.values
                    .get(&f.name)
                    .and_then(as_number)
                    .map(|v| (&f.name, v))
            })
            .filter(|(_, v)| v.is_finite() && *v != 0.0)
            // A formula that is a bare number (`layers: 96`) is a given, not a computed value.
            .filter(|(name, _)| {
                part.formulas
                    .iter()
                    .find(|f| &&f.name == name)
                    .is_some_and(|f| !references(&f.expr.ast).is_empty())
            })
            .collect();
        let given: Vec<f64> = ev
            .values
            .iter()
            .filter(|(k, _)| !part.formulas.iter().any(|f| &&f.name == k))
            .filter_map(|(_, v)| as_number(v))
            .collect();
        let origin = Origin::of(&self.source, t.pos);
        let mut offset = 0;

        for s in segs {
            let Segment::Lit(lit) = s else {
                continue;
            };
            let base = t.value[offset..]
                .find(lit)
                .map(|i| i + offset)
                .unwrap_or(offset);
            offset = base + lit.len();
            for q in super::quantity::quantities(lit) {
                if given
                    .iter()
                    .any(|g| q.states(*g, None, true) || q.states(g * 100.0, None, true))
                {
                    continue; // a control or constant value the story states
                }
                let hit = computed.iter().find(|(name, x)| {
                    let o = model.outputs.get(name.as_str());
                    let unit = o
                        .and_then(|o| o.unit.as_deref())
                        .and_then(super::quantity::output_unit)
                        .or_else(|| super::numbers::name_unit(name));
                    let falling =
                        super::quantity::names_a_fall(name, o.and_then(|o| o.label.as_deref()));
                    q.states(*x, unit.as_ref(), falling)
                });
                if let Some((name, _)) = hit {
                    let text = super::giveaway::digits_of(&q);
                    let decimals = super::giveaway::decimals(&text);
                    let at = q.start;
                    let (l, c) = line_col(&t.value, base + at);
                    let nth = number_at(&t.value[..base + at], &text).count();
                    let pos = locate_in_file(&self.source, t.pos, &text, nth)
                        .unwrap_or_else(|| origin.locate(l, c));
                    out.push(
                        Diagnostic::warning(
                            &self.source.name,
                            pos,
                            format!(
                                "`{text}` is typed in the prose, but formula `{name}` computes it"
                            ),
                        )
                        .with_hint(format!(
                            "interpolate it so it stays true: {{{{ fmt({name}, {decimals}) }}}}"
                        )),
                    );
                }
            }
        }
    }
}

/// A typed number the give-away lint finds before the question that asks for it must not be
/// told to become a placeholder (which prints the answer as surely): its typed-number warning
/// (`typed`, indices into `out`) at the same place says to move it after the prediction instead.
fn agree_with_giveaways(out: &mut [Diagnostic], typed: std::ops::Range<usize>, from: usize) {
    let before: Vec<(u32, u32, String)> = out[from..]
        .iter()
        .filter(|d| d.hint.as_deref() == Some(super::giveaway::HINT))
        .filter_map(|d| {
            let q = d
                .message
                .split("the answer to part `")
                .nth(1)?
                .split('`')
                .next()?;
            Some((d.line, d.col, q.to_string()))
        })
        .collect();
    for d in &mut out[typed] {
        if !d.message.contains("is typed in the prose") {
            continue;
        }
        if let Some((_, _, q)) = before.iter().find(|(l, c, _)| (*l, *c) == (d.line, d.col)) {
            d.hint = Some(format!("this number is the answer to part `{q}`'s prediction, shown before it is asked: a placeholder would print it too, so do not interpolate it; move it after the prediction (into an option's feedback, the explore section, or behind the lock) or remove it"));
        }
    }
}

fn part_pos(model: &Part) -> Pos {
    model.id.pos
}

/// Prose evaluated live (at the current control values).
pub(super) fn live_texts(model: &Part) -> Vec<&Text> {
    let mut v = Vec::new();
    for inst in &model.instruments {
        match inst {
            Instrument::Panel(p) => v.extend(std::iter::once(&p.title).chain(p.lines.iter())),
            Instrument::Metrics(cs) => v.extend(
                cs.iter()
                    .flat_map(|c| c.label.iter().chain(c.caption.iter())),
            ),
            Instrument::Table(t) => v.extend(t.title.iter()),
            Instrument::Chart(_) => {}
        }
    }
    for r in &model.feedback {
        v.extend(r.title.iter().chain(r.callout().map(|(_, t)| t)));
    }
    v
}

fn chart_exprs(ch: &Chart) -> Vec<&Expr> {
    let mut v: Vec<&Expr> = Vec::new();
    for s in &ch.series {
        v.extend(s.x.iter().chain(s.y.iter()).chain(s.values.iter()));
    }
    for b in &ch.bars {
        v.push(&b.value);
    }
    for m in &ch.markers {
        v.push(&m.x);
        v.push(&m.y);
    }
    for l in ch.hlines.iter().chain(ch.vlines.iter()) {
        v.push(&l.at);
    }
    let whens = ch.series.iter().map(|s| &s.when);
    let whens = whens
        .chain(ch.markers.iter().map(|m| &m.when))
        .chain(ch.bands.iter().map(|b| &b.when))
        .chain(ch.hlines.iter().chain(ch.vlines.iter()).map(|l| &l.when));
    v.extend(whens.flatten());
    v
}

#[cfg(test)]
mod tests {
    fn stated(text: &str) -> Vec<f64> {
        super::super::quantity::quantities(text)
            .iter()
            .filter(|q| q.states(q.lo, None, true))
            .map(|q| q.lo)
            .collect()
    }

    #[test]
    fn finds_numbers_in_prose() {
        let got = stated("takes 2,450 seconds = ~41 minutes, 7.4% overhead, v2_06 and H100");
        assert_eq!(got, vec![2450.0, 41.0, 7.4]);
    }

    #[test]
    fn ranges_years_and_citations_are_not_computed_values() {
        let got = stated(
            "100-1000x, 10–15%, 2 to 40 nodes, in 2012 [45], a 96-layer net, 3.5 ms, 32K tokens",
        );
        assert_eq!(got, vec![96.0, 3.5, 32000.0]);
    }
}
