//! The give-away lint: prose a student reads before answering a prediction must not state the
//! answer. For each prediction with a `claim` output (or a numeric prediction's output), the
//! claimed value at the prediction's scenario, and the values its part computes from it (a text
//! output such as "Communication" among them), are compared with every number in the texts shown
//! before the question: the lab's header (badges, objectives, core question), every earlier part
//! (all of it is open by then), this part's title, stakeholder, concept and question, and what the
//! handout prints next to it (its tables). A number states the answer only in the answer's unit,
//! at the precision it is written to, and in its direction (issue 25 item 3: `1.00×` is no count
//! of 1, `32K` is not 32, a `50% reduction` is not +50%). Options are the choices and are not
//! judged; feedback, the explore section and the later parts come after the answer.

use super::compile::{header_texts, part_static_texts, CompiledPart, Origin};
use super::lint::{live_texts, locate_in_file};
use super::quantity::{self, Quantity, Unit};
use super::template::{line_col, segments, Segment};
use super::words::Rendered;
use super::{display, CompiledLab, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::{as_number, references};
use crate::model::*;
use indexmap::IndexMap;
use std::cell::OnceCell;

/// A value a text must not state before the question: the claimed output, or a formula of its
/// part computed from it (`wait_h: wait_min / 60`, a text output such as `bottleneck`).
struct Target {
    name: String,
    value: Val,
    unit: Option<Unit>,
    /// It names a fall (`saving_pct`, "Reduction"): `50% reduction` may state it.
    falling: bool,
    /// Compared by value: the claimed output, or a number computed from it in its unit's family
    /// (`wait_h` of `wait_min`). Every target counts by name (a placeholder that reads it).
    by_value: bool,
    /// As the output shows it (for the message), or the plain value.
    shown: String,
}

enum Val {
    Num(f64),
    Text(String),
}

/// The answer a prediction asks for.
struct Answer<'a> {
    /// The part the prediction belongs to.
    part: usize,
    /// The claimed (or graded) output.
    name: &'a str,
    /// The claimed output first, then the values computed from it, at the prediction's scenario.
    targets: Vec<Target>,
    /// The words that name the quantity in a sentence: the targets' labels and names (lower case).
    names: Vec<String>,
}

impl Answer<'_> {
    /// What the message says the answer is.
    fn is(&self, t: &Target) -> String {
        if t.name == self.name {
            format!("`{}` is {}", t.name, t.shown)
        } else {
            format!(
                "`{}` (computed from the claimed `{}`) is {}",
                t.name, self.name, t.shown
            )
        }
    }

    /// The numeric target `q` states, if any.
    fn stated_by(&self, q: &Quantity) -> Option<&Target> {
        self.targets
            .iter()
            .filter(|t| t.by_value)
            .find(|t| match t.value {
                Val::Num(x) => q.states(x, t.unit.as_ref(), t.falling),
                Val::Text(_) => false,
            })
    }
}

/// The decimals a number is written with (`27.4 GB` has one).
pub(super) fn decimals(text: &str) -> usize {
    let digits: String = text
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect();
    digits.split_once('.').map_or(0, |(_, d)| d.len())
}

/// The number of a quantity as written, without its unit (`600.0` of `600.0 minutes`).
pub(super) fn digits_of(q: &Quantity) -> String {
    q.text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect()
}

pub(super) const HINT: &str = "move it after the question: into the option's feedback, the explore section, or behind the lock";

/// The hint for what the printed handout shows at the controls' defaults.
const HANDOUT_HINT: &str = "the student handout prints the part's instruments and banners at the controls' defaults (and its math peek and reflection at the scenario) next to the question: give the part defaults other than the prediction's scenario, or move the number into feedback";

/// Where a text is read, which decides what counts as stating the answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Before the question, on the page and in the handout: a placeholder naming the claimed
    /// output gives it away whatever its value.
    Before,
    /// In the printed handout next to the question (the part's instruments and banners at the
    /// defaults, its math peek and reflection at the scenario): only a value equal to the
    /// answer gives it away, since the defaults may differ from the scenario.
    Handout,
}

/// A part's texts read before its prediction is answered (its options are the choices).
fn before_question(model: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = vec![&model.title];
    if let Some(s) = &model.stakeholder {
        v.push(&s.role);
        v.push(&s.message);
    }
    v.extend(model.concept.iter());
    v.extend(model.prediction.iter().map(|p| &p.question));
    v.extend(model.prediction.iter().filter_map(|p| p.lock_text.as_ref()));
    v
}

/// The outputs a part's handout tabulates at the defaults, each with where it is named: its
/// metric cards and tables, or every output when it has neither.
fn handout_rows(model: &Part) -> Vec<(&str, Pos)> {
    let mut v: Vec<(&str, Pos)> = Vec::new();
    for inst in &model.instruments {
        match inst {
            Instrument::Metrics(cs) => {
                v.extend(cs.iter().map(|c| (c.output.value.as_str(), c.output.pos)))
            }
            Instrument::Table(t) => v.extend(t.outputs.iter().map(|o| (o.value.as_str(), o.pos))),
            _ => {}
        }
    }
    let tabled = model
        .instruments
        .iter()
        .any(|i| matches!(i, Instrument::Metrics(_) | Instrument::Table(_)));
    if !tabled {
        v.extend(model.outputs.keys().map(|k| (k.as_str(), Pos::UNKNOWN)));
    }
    v
}

/// A part's texts the handout prints after its question (at the scenario): the math peek and
/// the reflection's question and choices (its feedback is the key's).
fn after_question(model: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = Vec::new();
    if let Some(m) = &model.math_peek {
        v.push(&m.title);
        v.push(&m.body);
    }
    if let Some(r) = &model.reflection {
        v.push(&r.question);
        v.extend(r.options.iter().map(|o| &o.text));
    }
    v
}

/// Does a text read the student's answer (`answer`, `prediction.x`)? The student handout has
/// none and prints such text without it.
fn reads_answer(s: &str) -> bool {
    s.contains("answer") || s.contains("prediction.")
}

/// The part's instrument texts and the banners that fire at `ev` (the defaults).
fn live_texts_printed<'a>(
    lab: &CompiledLab,
    part: &CompiledPart,
    ev: &Evaluation,
    model: &'a Part,
) -> Vec<&'a Text> {
    let banner = |t: &Text| {
        model.feedback.iter().any(|r| {
            r.title.iter().any(|x| std::ptr::eq(x, t))
                || r.callout().is_some_and(|(_, c)| std::ptr::eq(c, t))
        })
    };
    let mut v: Vec<&Text> = live_texts(model)
        .into_iter()
        .filter(|t| !banner(t))
        .collect();
    for r in &model.feedback {
        if reads_answer(&r.when.value) {
            continue;
        }
        let on = lab
            .eval_expr(Some(part), Some(ev), &r.when.value, &[])
            .ok()
            .and_then(|d| d.as_bool().ok())
            .unwrap_or(false);
        if on {
            v.extend(r.title.iter().chain(r.callout().map(|(_, t)| t)));
        }
    }
    v
}

impl CompiledLab {
    /// Warnings for prose that states a prediction's answer before the question.
    pub(super) fn lint_giveaways(&self, out: &mut Vec<Diagnostic>) {
        // The header and the earlier parts' texts are rendered (and their numbers read) once,
        // not once per later question: that made `check` of a 40-part lab 14.8× the 4-part
        // lab's time for 10.6× its work (`cargo bench --bench scale`, perf: `rendered_quantities`
        // under `lint_giveaways`).
        let header: Vec<Prose> = header_texts(&self.lab)
            .into_iter()
            .map(|t| self.prose(None, None, t))
            .collect();
        // Each part evaluated once at its scenario and once at its defaults, when first needed:
        // every later question reads them (evaluating them again per question made `check`
        // quadratic in the parts: 4 → 40 parts cost 23.8× the work, `cargo bench --bench scale`).
        let at = Evaluated::new(self);
        for (pi, part) in self.parts.iter().enumerate() {
            let Some(answer) = self.answer(part) else {
                continue;
            };
            for t in &header {
                self.giveaway_in(None, None, t, &answer, out);
            }
            for (ei, earlier) in self.parts[..pi].iter().enumerate() {
                let (statics, lives) = at.prose(ei);
                if let (Some(sev), Some(texts)) = (at.scenario(ei), statics) {
                    for t in texts {
                        self.giveaway_in(Some(earlier), Some(sev), t, &answer, out);
                    }
                }
                if let (Some(dev), Some(texts)) = (at.defaults(ei), lives) {
                    for t in texts {
                        self.giveaway_in(Some(earlier), Some(dev), t, &answer, out);
                    }
                }
            }
            if let Some(sev) = at.scenario(pi) {
                for t in before_question(&self.lab.parts[pi]) {
                    let t = self.prose(Some(part), Some(sev), t);
                    self.giveaway_in(Some(part), Some(sev), &t, &answer, out);
                }
            }
            self.lint_handout(pi, &answer, &at, out);
        }
        for (pi, part) in self.parts.iter().enumerate() {
            self.lint_live_feedback(pi, part, out);
        }
    }

    /// Live feedback (`live: true`) is worked out at the student's current settings, but the
    /// options it answers are about the scenario: feedback naming the claimed output then shows
    /// "Correct" next to a number that contradicts the option once the controls move.
    fn lint_live_feedback(&self, pi: usize, part: &CompiledPart, out: &mut Vec<Diagnostic>) {
        let Some(p) = self.lab.parts[pi].prediction.as_ref().filter(|p| p.live) else {
            return;
        };
        let Some(claim) = &p.claim else { return };
        let texts = p
            .options
            .iter()
            .filter_map(|o| o.feedback.as_ref())
            .chain(p.other_feedback.iter());
        for t in texts {
            let Ok(segs) = segments(&t.value) else {
                continue;
            };
            for s in segs {
                let (i, needle) = match s {
                    Segment::Expr(e, i)
                        if part
                            .exprs
                            .get(e)
                            .is_some_and(|ce| references(&ce.ast).contains(&claim.value)) =>
                    {
                        (i, e.to_string())
                    }
                    Segment::Output(name, i) if name == claim.value => (i, format!("@{name}")),
                    _ => continue,
                };
                let nth = t.value[..i].matches(&needle).count();
                let pos = locate_in_file(&self.source, t.pos, &needle, nth).unwrap_or_else(|| {
                    let (l, c) = line_col(&t.value, i);
                    Origin::of(&self.source, t.pos).locate(l, c)
                });
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "`{{{{ {needle} }}}}` in live feedback shows `{}` at the student's current settings, next to options about the prediction's scenario: once the controls move, an option can read \"Correct\" beside a number that contradicts it",
                            claim.value
                        ),
                    )
                    .with_hint("drop `live: true` (feedback is then worked out at the scenario, as the question is), or word the feedback about \"your current settings\" without the claimed output"),
                );
            }
        }
    }

    /// What the printed handout shows of a part next to its question: the instruments' rows and
    /// texts and the banners that fire at the controls' defaults, and the math peek and the
    /// reflection at the scenario. The tables of earlier parts (also at their defaults) are
    /// read too; their texts are [`Self::lint_giveaways`]'s.
    fn lint_handout(&self, pi: usize, answer: &Answer, at: &Evaluated, out: &mut Vec<Diagnostic>) {
        for (ei, part) in self.parts[..=pi].iter().enumerate() {
            let model = &self.lab.parts[ei];
            let Some(dev) = at.defaults(ei) else {
                continue;
            };
            for row in at.rows(ei) {
                let (name, pos, o) = (row.name, row.pos, &row.view);
                // A number in the answer's unit at its precision; a text output the answer
                // computes, as it reads at the scenario.
                // An earlier part's row is about the quantity asked when it is the same output
                // (name or label) or shows the answer to its precision.
                let same = ei == pi
                    || answer.names.contains(&row.words)
                    || row.label.as_ref().is_some_and(|l| answer.names.contains(l));
                let by_value = row.quantities.iter().find_map(|q| {
                    answer.stated_by(q).filter(|t| {
                        let shown = decimals(&t.shown);
                        same || (shown > 0 && decimals(&q.text) >= shown)
                    })
                });
                let by_text = answer.targets.iter().find(|t| {
                    ei == pi
                        && t.name == name
                        && matches!(&t.value, Val::Text(x) if o.display.trim() == x.trim())
                });
                let Some(target) = by_value.or(by_text) else {
                    continue;
                };
                let question = &self.parts[answer.part].id;
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        if pos.is_known() { pos } else { model.id.pos },
                        format!(
                            "`{name}` reads {} in the handout's table of part `{}` at the default settings, which gives away the answer to part `{question}`'s prediction: {} at the prediction's scenario",
                            o.display, part.id, answer.is(target)
                        ),
                    )
                    .with_hint(HANDOUT_HINT),
                );
            }
            if ei != pi {
                continue;
            }
            let mut texts = live_texts_printed(self, part, dev, model);
            texts.retain(|t| !reads_answer(&t.value));
            for t in texts {
                let t = self.prose(Some(part), Some(dev), t);
                self.giveaway_as(Some(part), Some(dev), &t, answer, Reading::Handout, out);
            }
            if let Ok(sev) = self.evaluate(part, &self.scenario(part)) {
                for t in after_question(model) {
                    let t = self.prose(Some(part), Some(&sev), t);
                    self.giveaway_as(Some(part), Some(&sev), &t, answer, Reading::Handout, out);
                }
            }
        }
    }

    /// The output a part's prediction asks for and the values its part computes from it, at
    /// the scenario.
    fn answer(&self, part: &CompiledPart) -> Option<Answer<'_>> {
        let model = &self.lab.parts[part.index];
        let p = model.prediction.as_ref()?;
        let name = p.claim.as_ref().or(p.numeric.as_ref().map(|n| &n.output))?;
        let ev = self.evaluate(part, &self.scenario(part)).ok()?;
        let mut from: Vec<&str> = vec![name.value.as_str()];
        for f in &part.formulas {
            let refs = references(&f.expr.ast);
            if !from.contains(&f.name.as_str()) && refs.iter().any(|r| from.contains(&r.as_str())) {
                from.push(&f.name);
            }
        }
        let mut targets = Vec::new();
        let mut names = Vec::new();
        for n in from {
            let Some(v) = ev.values.get(n) else { continue };
            let value = if let Some(x) = as_number(v).filter(|x| x.is_finite()) {
                Val::Num(x)
            } else if v.is_string() {
                Val::Text(v.to_string())
            } else {
                continue;
            };
            let o = model.outputs.get(n);
            let label = o.and_then(|o| o.label.as_deref());
            names.push(n.replace('_', " "));
            names.extend(label.map(str::to_lowercase));
            let unit = o
                .and_then(|o| o.unit.as_deref())
                .and_then(quantity::output_unit);
            let family = |u: &Option<Unit>| {
                u.as_ref()
                    .map(|u| u.family)
                    .filter(|f| *f != quantity::Family::Other)
            };
            let by_value = targets.is_empty()
                || matches!(value, Val::Num(_))
                    && family(&unit).is_some()
                    && family(&unit) == targets.first().and_then(|t: &Target| family(&t.unit));
            targets.push(Target {
                name: n.to_string(),
                by_value,
                unit,
                falling: quantity::names_a_fall(n, label),
                shown: self
                    .output_view(&ev, n)
                    .map(|o| o.display)
                    .unwrap_or_else(|_| display(v)),
                value,
            });
        }
        names.retain(|n| n.len() >= 4);
        (!targets.is_empty()).then_some(Answer {
            part: part.index,
            name: &name.value,
            targets,
            names,
        })
    }

    /// The numbers given at `ev` of `part` (its controls and constants, the lab's constants), or
    /// the lab's constants alone: values a text may restate, since they are not computed from
    /// anything. Lab-level formulas are computed, not given.
    fn restated(&self, part: Option<&CompiledPart>, ev: Option<&Evaluation>) -> Vec<f64> {
        self.constants
            .iter()
            .filter(|(k, _)| !self.lab.formulas.contains_key(k))
            .map(|(_, v)| v)
            .chain(ev.iter().flat_map(|ev| {
                ev.values
                    .iter()
                    .filter(|(k, _)| {
                        part.is_some_and(|p| !p.formulas.iter().any(|f| &f.name == *k))
                    })
                    .map(|(_, v)| v)
            }))
            .filter_map(as_number)
            .collect()
    }

    /// `t` rendered with `part`/`ev`, for [`Self::giveaway_as`].
    fn prose<'t>(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &'t Text,
    ) -> Prose<'t> {
        let rendered = self.rendered_quantities(part, ev, &t.value);
        let lower = rendered
            .as_ref()
            .map(|r| r.text.to_lowercase())
            .filter(|l| rendered.as_ref().is_some_and(|r| r.text.len() == l.len()))
            .unwrap_or_default();
        Prose {
            text: t,
            segs: segments(&t.value).ok(),
            rendered,
            lower,
            givens: OnceCell::new(),
        }
    }

    /// Warns for each place in `t` (rendered with `part`/`ev`) that states the answer.
    fn giveaway_in(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Prose,
        answer: &Answer,
        out: &mut Vec<Diagnostic>,
    ) {
        self.giveaway_as(part, ev, t, answer, Reading::Before, out)
    }

    /// [`Self::giveaway_in`] for a text read as `reading` says. In the asking part's own texts
    /// before the question, a placeholder naming the answer (or a value computed from it) gives
    /// it away whatever it shows, and any number stating it does; in the handout's printing of
    /// that part, a number stating it (a placeholder's only when it shows a computed value).
    /// Elsewhere (the header, earlier parts) only a number about the quantity asked: one that
    /// states it and whose sentence names it (its label or name) or that is written to the
    /// precision the answer is shown at (`~10×` in part B's prose is not part E's 10.0×).
    fn giveaway_as(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        prose: &Prose,
        answer: &Answer,
        reading: Reading,
        out: &mut Vec<Diagnostic>,
    ) {
        let t = prose.text;
        let Some(segs) = &prose.segs else { return };
        let same_part = part.is_some_and(|p| p.index == answer.part);
        let by_name = same_part && reading == Reading::Before;
        let at = |offset: usize, needle: &str| {
            let nth = t.value[..offset].matches(needle).count();
            locate_in_file(&self.source, t.pos, needle, nth).unwrap_or_else(|| {
                let (l, c) = line_col(&t.value, offset);
                Origin::of(&self.source, t.pos).locate(l, c)
            })
        };
        // In other parts, the header and the handout's printing of this part only computed
        // values count: a given (a control or a constant restated) that happens to equal the
        // answer gives nothing away.
        let no_givens = Vec::new();
        let givens = || {
            if by_name {
                &no_givens
            } else {
                prose.givens.get_or_init(|| self.restated(part, ev))
            }
        };
        let expr = |e: &str| {
            part.and_then(|p| p.exprs.get(e))
                .or_else(|| self.exprs.get(e.trim()))
        };
        let computed = |e: &str| {
            by_name
                || e.contains("::")
                || expr(e).is_some_and(|ce| {
                    references(&ce.ast).iter().any(|r| {
                        self.lab.formulas.contains_key(r)
                            || part.is_some_and(|p| p.formulas.iter().any(|f| &f.name == r))
                    })
                })
        };
        let is_target = |n: &str| answer.targets.iter().find(|t| t.name == n);
        let reads_target =
            |e: &str| expr(e).and_then(|ce| references(&ce.ast).iter().find_map(|r| is_target(r)));
        let mut found: Vec<(usize, String, &str, &Target)> = Vec::new();
        // Placeholders that name the answer (its part, before the question), or print a text
        // output computed from it (the handout's printing of its part).
        for s in segs.iter().filter(|_| same_part) {
            let (i, name_or_e) = match s {
                Segment::Expr(e, i) => (*i, *e),
                Segment::Output(n, i) => (*i, *n),
                Segment::Lit(_) => continue,
            };
            let target = match s {
                Segment::Expr(e, _) => reads_target(e),
                _ => is_target(name_or_e),
            };
            let Some(target) = target.filter(|_| same_part) else {
                continue;
            };
            let prints_text = || match (&target.value, s) {
                (Val::Text(x), Segment::Expr(e, _)) => self
                    .eval_expr(part, ev, e, &[])
                    .is_ok_and(|v| display(&v).contains(x.as_str())),
                (Val::Text(x), _) => ev
                    .and_then(|ev| self.output_view(ev, name_or_e).ok())
                    .is_some_and(|o| o.display.contains(x.as_str())),
                _ => false,
            };
            if by_name || prints_text() {
                found.push((i, placeholder(s), "a placeholder", target));
            }
        }
        let (rendered, lower) = (&prose.rendered, &prose.lower);
        for (q, off, typed) in rendered.iter().flat_map(|r| &r.quantities) {
            if found.iter().any(|(i, ..)| i == off) {
                continue;
            }
            let Some(target) = answer.stated_by(q) else {
                continue;
            };
            // Outside the asking part the number must be about the quantity asked: its
            // sentence names it, or it is written to the precision the answer is shown at.
            let linked = same_part || {
                let shown = decimals(&target.shown);
                let sentence = super::numbers::sentence_at(lower, q.start);
                (shown > 0 && decimals(&q.text) >= shown)
                    || answer.names.iter().any(|n| sentence.contains(n.as_str()))
            };
            if !linked {
                continue;
            }
            if *typed {
                if !givens()
                    .iter()
                    .any(|g| q.states(*g, None, true) || q.states(g * 100.0, None, true))
                {
                    found.push((*off, format!("`{}`", digits_of(q)), "the prose", target));
                }
                continue;
            }
            let Some(s) = segs
                .iter()
                .find(|s| matches!(s, Segment::Expr(_, i) | Segment::Output(_, i) if i == off))
            else {
                continue;
            };
            let judged = match s {
                Segment::Expr(e, _) => computed(e),
                _ => true,
            };
            if judged {
                found.push((*off, placeholder(s), "a placeholder", target));
            }
        }
        found.sort_by_key(|f| f.0);
        found.dedup_by_key(|f| f.0);
        for (i, what, kind, target) in found {
            let needle = what.trim_matches('`');
            let needle = needle
                .strip_prefix("{{ ")
                .and_then(|n| n.strip_suffix(" }}"))
                .unwrap_or(needle);
            let pos = if kind == "the prose" {
                self.text_pos(t, i, true, needle)
            } else {
                at(i, needle)
            };
            let question = &self.parts[answer.part].id;
            let (when, hint) = match reading {
                Reading::Before => ("before it is asked", HINT),
                Reading::Handout => (
                    "in the handout, which prints it next to the question",
                    HANDOUT_HINT,
                ),
            };
            out.push(
                Diagnostic::warning(
                    &self.source.name,
                    pos,
                    format!(
                        "{what} in {kind} gives away the answer to part `{question}`'s prediction {when}: {} at the prediction's scenario",
                        answer.is(target)
                    ),
                )
                .with_hint(hint),
            );
        }
    }
}

/// How a message names a placeholder: `{{ expr }}` or `{{ @name }}`.
fn placeholder(s: &Segment) -> String {
    match s {
        Segment::Expr(e, _) => format!("`{{{{ {e} }}}}`"),
        Segment::Output(n, _) => format!("`{{{{ @{n} }}}}`"),
        Segment::Lit(l) => format!("`{l}`"),
    }
}

/// A text rendered at an evaluation, with its numbers and its lower-case reading (empty when
/// lower-casing moves offsets): what every later question's give-away check reads of it, made
/// once (remaking its segments and givens for every later question made `check` of the 40-part
/// generated lab grow faster than its parts).
struct Prose<'t> {
    text: &'t Text,
    /// Its placeholders and literal runs (`None`: it does not parse; reported elsewhere).
    segs: Option<Vec<Segment<'t>>>,
    rendered: Option<Rendered>,
    lower: String,
    /// The numbers given where it is read ([`CompiledLab::restated`]), worked out when a
    /// question first needs them: a prose is always judged at the part and evaluation it was
    /// rendered with.
    givens: OnceCell<Vec<f64>>,
}

/// Each part's static texts at its scenario and live texts at its defaults, rendered.
type PartProse<'a> = (Option<Vec<Prose<'a>>>, Option<Vec<Prose<'a>>>);

/// A row of a part's handout table at the defaults, as every later question reads it.
struct Row<'a> {
    name: &'a str,
    /// Where it is named (a metric card, a table), or unknown.
    pos: Pos,
    view: super::OutputView,
    /// Its name with spaces for underscores, and its label in lower case: the words that say
    /// it is the quantity a question asks.
    words: String,
    label: Option<String>,
    /// The numbers its display shows.
    quantities: Vec<Quantity>,
}

/// Each part of a lab evaluated at its scenario and at its controls' defaults, once each, when
/// first asked for (`None`: the evaluation failed; its error is reported elsewhere), and what
/// every later question reads of it (its texts, its handout rows) worked out once: redoing that
/// per question made `check` grow faster than the lab's parts.
struct Evaluated<'a> {
    lab: &'a CompiledLab,
    scenario: Vec<OnceCell<Option<Evaluation>>>,
    defaults: Vec<OnceCell<Option<Evaluation>>>,
    prose: Vec<OnceCell<PartProse<'a>>>,
    rows: Vec<OnceCell<Vec<Row<'a>>>>,
}

impl<'a> Evaluated<'a> {
    fn new(lab: &'a CompiledLab) -> Self {
        let n = lab.parts.len();
        Evaluated {
            lab,
            scenario: (0..n).map(|_| OnceCell::new()).collect(),
            defaults: (0..n).map(|_| OnceCell::new()).collect(),
            prose: (0..n).map(|_| OnceCell::new()).collect(),
            rows: (0..n).map(|_| OnceCell::new()).collect(),
        }
    }
    /// Part `i`'s handout rows at its defaults (none when they fail to evaluate), the ones
    /// whose output cannot be shown left out.
    fn rows(&self, i: usize) -> &[Row<'a>] {
        self.rows[i].get_or_init(|| {
            let Some(dev) = self.defaults(i) else {
                return Vec::new();
            };
            let model: &'a Part = &self.lab.lab.parts[i];
            handout_rows(model)
                .into_iter()
                .filter_map(|(name, pos)| {
                    let view = self.lab.output_view(dev, name).ok()?;
                    Some(Row {
                        name,
                        pos,
                        words: name.replace('_', " "),
                        label: model
                            .outputs
                            .get(name)
                            .and_then(|o| o.label.as_ref())
                            .map(|l| l.to_lowercase()),
                        quantities: quantity::quantities(&view.display),
                        view,
                    })
                })
                .collect()
        })
    }
    /// Part `i`'s texts as every later part's question reads them, rendered once.
    fn prose(&self, i: usize) -> &PartProse<'a> {
        self.prose[i].get_or_init(|| {
            let (lab, part, model) = (self.lab, &self.lab.parts[i], &self.lab.lab.parts[i]);
            let at = |ev: Option<&Evaluation>, texts: Vec<&'a Text>| {
                ev.map(|ev| {
                    texts
                        .into_iter()
                        .map(|t| lab.prose(Some(part), Some(ev), t))
                        .collect()
                })
            };
            (
                at(self.scenario(i), part_static_texts(model)),
                at(self.defaults(i), live_texts(model)),
            )
        })
    }
    fn scenario(&self, i: usize) -> Option<&Evaluation> {
        self.scenario[i]
            .get_or_init(|| {
                let p = &self.lab.parts[i];
                self.lab.evaluate(p, &self.lab.scenario(p)).ok()
            })
            .as_ref()
    }
    fn defaults(&self, i: usize) -> Option<&Evaluation> {
        self.defaults[i]
            .get_or_init(|| {
                let p = &self.lab.parts[i];
                let inputs = self.lab.inputs(p, &IndexMap::new()).unwrap_or_default();
                self.lab.evaluate(p, &inputs).ok()
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::super::quantity::quantities;

    fn states(text: &str, x: f64) -> bool {
        quantities(text).iter().any(|q| q.states(x, None, false))
    }

    #[test]
    fn a_number_states_a_value_it_rounds_from() {
        assert!(states("1,643", 1643.4));
        assert!(states("27.4", 27.38));
        assert!(!states("27", 1643.4));
        assert!(!states("3", 2.6), "small whole numbers are not judged");
        assert!(!states("600", 601.0));
    }
}
