//! Numbers in words (issue 25 item 1): every number with a unit or a multiplier that a student
//! reads is a placeholder, a value of the lab at the text's scenario (within the precision it is
//! written to), or a declared given. A given is a constant (with its `source:`), or a number the
//! author writes as a quoted placeholder, `{{ "30 minutes" }}`, which says "typed on purpose".
//!
//! - A typed number in the same sentence as an output's label or name, in that output's unit,
//!   that matches no value: an error (it contradicts the value it names).
//! - One that matches no value of the lab: a warning naming the nearest values.
//! - `check --strict`: every typed number, with or without a unit, that matches no value.

use super::compile::{lab_texts, part_static_texts};
use super::lint::live_texts;
use super::quantity::{self, Family, Quantity, Says, Unit};
use super::{CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::as_number;
use crate::model::*;
use rhai::Dynamic;

/// A value of the lab a number may state.
#[derive(Clone)]
struct Candidate {
    name: String,
    value: f64,
    unit: Option<Unit>,
    /// The output's label, lower case, when it has one.
    label: Option<String>,
}

fn push_values(
    out: &mut Vec<Candidate>,
    name: &str,
    v: &Dynamic,
    unit: Option<Unit>,
    label: Option<String>,
) {
    if let Some(x) = as_number(v).filter(|x| x.is_finite()) {
        out.push(Candidate {
            name: name.to_string(),
            value: x,
            unit,
            label,
        });
    } else if let Some(m) = v.read_lock::<rhai::Map>() {
        for (k, f) in m.iter() {
            if let Some(x) = as_number(f).filter(|x| x.is_finite()) {
                out.push(Candidate {
                    name: format!("{name}.{k}"),
                    value: x,
                    unit: None,
                    label: None,
                });
            }
        }
    }
}

impl CompiledLab {
    fn candidates(&self, model: &Part, ev: &Evaluation) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (k, v) in &ev.values {
            let o = model.outputs.get(k);
            let unit = o
                .and_then(|o| o.unit.as_deref())
                .and_then(quantity::output_unit)
                .or_else(|| self.constant_unit(k));
            let label = o.and_then(|o| o.label.clone()).map(|l| l.to_lowercase());
            push_values(&mut out, k, v, unit, label);
        }
        out
    }

    fn constant_unit(&self, name: &str) -> Option<Unit> {
        match &self.lab.constants.get(name)?.value {
            Constant::Documented(d) => d.unit.as_deref().and_then(quantity::output_unit),
            Constant::Bare(_) => None,
        }
    }

    /// The numbers-in-words findings of the whole lab; `strict` adds every unproven number.
    pub fn check_numbers(&self, strict: bool) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut every: Vec<Candidate> = self
            .constants
            .iter()
            .flat_map(|(k, v)| {
                let mut c = Vec::new();
                push_values(&mut c, k, v, self.constant_unit(k), None);
                c
            })
            .collect();
        let mut per_part = Vec::new();
        for part in &self.parts {
            if self.lab_budget_spent() {
                return out;
            }
            let model = &self.lab.parts[part.index];
            let sev = self.evaluate(part, &self.scenario(part)).ok();
            let dev = self
                .inputs(part, &Default::default())
                .ok()
                .and_then(|d| self.evaluate(part, &d).ok());
            let sc = sev
                .as_ref()
                .map(|e| self.candidates(model, e))
                .unwrap_or_default();
            let dc = dev
                .as_ref()
                .map(|e| self.candidates(model, e))
                .unwrap_or_default();
            every.extend(sc.iter().cloned());
            every.extend(dc.iter().cloned());
            per_part.push((part, model, sev, dev, sc, dc));
        }
        for (part, model, sev, dev, sc, dc) in &per_part {
            if let Some(sev) = sev {
                let texts = if strict {
                    // An option with a claim is proven against it (words.rs), not here.
                    let claimed: Vec<*const Text> = claimed_options(model);
                    part_static_texts(model)
                        .into_iter()
                        .filter(|t| !claimed.contains(&(*t as *const Text)))
                        .collect()
                } else {
                    prose(model)
                };
                for t in texts {
                    self.check_text(Some(part), Some(sev), t, sc, &every, strict, &mut out);
                }
            }
            if let Some(dev) = dev {
                for t in live_texts(model) {
                    self.check_text(Some(part), Some(dev), t, dc, &every, strict, &mut out);
                }
            }
        }
        let lab_prose = if strict {
            lab_texts(&self.lab)
        } else {
            lab_prose(&self.lab)
        };
        for t in lab_prose {
            self.check_text(None, None, t, &every, &every, strict, &mut out);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn check_text(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Text,
        near: &[Candidate],
        every: &[Candidate],
        strict: bool,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(r) = self.rendered_quantities(part, ev, &t.value) else {
            return;
        };
        let lower = Some(t.value.to_lowercase())
            .filter(|l| l.len() == t.value.len())
            .unwrap_or_else(|| t.value.clone());
        // A worked example's inputs are the numbers its own placeholders compute with
        // ("312 / 2.039 = {{ roofline::ridge(312, 2.039) }}").
        // And a part's own formulas: `mtbf_h: 50000 / gpus` states "50,000 hours" as a given.
        let mut written = literals(&t.value);
        if let Some(p) = part {
            for f in self.lab.parts[p.index].formulas.values() {
                written.extend(literals(&format!("{{{{ {} }}}}", f.value)));
            }
        }
        let own: Vec<Candidate> = written
            .into_iter()
            .map(|x| Candidate {
                name: "a number the text or its part's formulas are written with".into(),
                value: x,
                unit: None,
                label: None,
            })
            .collect();
        for (q, at, typed) in &r.quantities {
            if !typed || own.iter().any(|c| matches(q, c)) {
                continue;
            }
            // A unit labforge knows (GB, ms, h, %, ×, $, …) or a multiplier (32K, 175B).
            let multiplied = q.unit.is_none() && q.text.contains(['K', 'M', 'B', 'G', 'T']);
            let measured = q.unit.as_ref().is_some_and(|u| u.family != Family::Other) || multiplied;
            if !(measured || strict) {
                continue;
            }
            if (q.says != Says::Is || q.lo != q.hi) && !strict {
                continue;
            }
            let small_whole = q.lo < 10.0 && q.ulp >= 1.0;
            if small_whole && !strict {
                continue; // "2 minutes", "5x": too common to judge
            }
            if every.iter().any(|c| matches(q, c)) {
                continue;
            }
            let sentence = sentence_at(&lower, *at);
            // The value the sentence names: an output of the part (for the lab's own prose, of
            // any part, named by its snake name or a label of two words or more) in this unit.
            let measured_unit = q.unit.as_ref().is_some_and(|u| u.family != Family::Other);
            let named: Vec<&Candidate> = near
                .iter()
                .filter(|_| measured_unit)
                .filter(|c| {
                    comparable(q, c) && c.unit.as_ref().is_some_and(|u| u.family != Family::Other)
                })
                .filter(|c| {
                    let spaced = c.name.replace('_', " ");
                    let label_ok = |l: &String| {
                        l.len() >= 4
                            && (part.is_some() || l.contains(' '))
                            && sentence.contains(l.as_str())
                    };
                    sentence.contains(&spaced) || c.label.as_ref().is_some_and(label_ok)
                })
                .collect();
            let pos = self.text_pos(t, *at, true, &q.text);
            if let Some(c) = named.first() {
                out.push(
                    Diagnostic::error(
                        &self.source.name,
                        pos,
                        format!(
                            "`{}` contradicts the value it names: `{}` is {}",
                            q.text,
                            c.name,
                            shown(c)
                        ),
                    )
                    .with_hint(format!("the formulas win: fix the number (or the formula, if the text is right); to keep it in step write `{{{{ fmt({}, 0) }}}}`, unless the text comes before a question that asks for it", c.name)),
                );
                continue;
            }
            let same_kind = |c: &&Candidate| match (&q.unit, &c.unit) {
                (Some(a), Some(b)) if a.family != Family::Other => a.family == b.family,
                (Some(a), None) => {
                    a.family == Family::Other
                        || a.family == Family::Percent
                        || a.family == Family::Times
                }
                _ => true,
            };
            let mut nearest: Vec<(&Candidate, f64)> = every
                .iter()
                .filter(same_kind)
                .filter(|c| comparable(q, c))
                .map(|c| (c, distance(q, c)))
                .collect();
            nearest.sort_by(|a, b| a.1.total_cmp(&b.1));
            nearest.dedup_by(|a, b| a.0.name == b.0.name);
            let names: Vec<String> = nearest
                .iter()
                .take(3)
                .map(|(c, _)| format!("`{}` = {}", c.name, shown(c)))
                .collect();
            let hint = if names.is_empty() {
                "no value of the lab is in this unit: if it is a given, make it a constant with its `source:` and write `{{ name }}`, or mark it typed on purpose: `{{ \"...\" }}`".to_string()
            } else {
                format!("the nearest values are {}; if the number is a given, make it a constant with its `source:`, or mark it typed on purpose: `{{{{ \"{}\" }}}}`", names.join(", "), q.text)
            };
            out.push(
                Diagnostic::warning(
                    &self.source.name,
                    pos,
                    format!(
                        "`{}` matches no value of the lab at this text's scenario",
                        q.text
                    ),
                )
                .with_hint(hint),
            );
        }
    }
}

fn shown(c: &Candidate) -> String {
    let v = crate::library::format::auto(c.value);
    match &c.unit {
        Some(u) => format!("{v} {}", u.word_as_written()),
        None => v,
    }
}

/// Can `q` state candidate `c` at all (its unit converts to the candidate's)?
fn comparable(q: &Quantity, c: &Candidate) -> bool {
    match &c.unit {
        Some(u) if u.family != Family::Other => q.agrees(c.value, Some(u)).is_some(),
        _ => true,
    }
}

/// Does `q` state `c`'s value within the precision it is written to?
fn matches(q: &Quantity, c: &Candidate) -> bool {
    let x = c.value;
    match (&c.unit, &q.unit) {
        (Some(u), _) if u.family != Family::Other => q.agrees(x, Some(u)) == Some(true),
        // A value without a known unit: the number as written, a fraction as a percentage.
        (_, Some(qu)) if qu.family == Family::Percent => {
            q.agrees(x, Some(qu)) == Some(true) || q.agrees(x * 100.0, Some(qu)) == Some(true)
        }
        (_, qu) => q.agrees(x, qu.as_ref()) == Some(true),
    }
}

fn distance(q: &Quantity, c: &Candidate) -> f64 {
    let scale = q
        .scales(c.unit.as_ref().filter(|u| u.family != Family::Other))
        .first()
        .copied()
        .unwrap_or(1.0);
    let a = (q.lo * scale).abs().max(1e-300);
    let b = c.value.abs().max(1e-300);
    (a / b).ln().abs()
}

/// The sentence of `text` around byte `at` (lower case already).
pub(super) fn sentence_at(text: &str, at: usize) -> &str {
    let at = at.min(text.len());
    let ends = |c: char| matches!(c, '.' | '!' | '?' | '\n' | ';');
    let start = text[..at]
        .char_indices()
        .rev()
        .find(|(i, c)| ends(*c) && text[i + 1..].starts_with(' ') || *c == '\n')
        .map_or(0, |(i, _)| i + 1);
    let end = text[at..]
        .char_indices()
        .find(|(i, c)| {
            ends(*c) && (text[at + i + 1..].starts_with(' ') || at + i + 1 == text.len())
                || *c == '\n'
        })
        .map_or(text.len(), |(i, _)| at + i);
    &text[start..end]
}

/// A part's prose that states the story's numbers: everything but the choices and what they
/// answer (options and their feedback are checked against their claims; `--strict` reads them
/// too).
fn prose(part: &Part) -> Vec<&Text> {
    let mut v: Vec<&Text> = vec![&part.title];
    if let Some(s) = &part.stakeholder {
        v.push(&s.role);
        v.push(&s.message);
    }
    v.extend(part.concept.iter());
    if let Some(p) = &part.prediction {
        v.push(&p.question);
        v.extend(p.lock_text.iter());
    }
    v.extend(part.explore_title.iter());
    v.extend(part.controls.iter().map(|c| c.label()));
    if let Some(m) = &part.math_peek {
        v.push(&m.title);
        v.push(&m.body);
    }
    v
}

/// The lab's prose: header (badges, objectives, core question) and the synthesis' takeaways and
/// cards (its self-assessment items are worked examples with their own inputs).
fn lab_prose(lab: &Lab) -> Vec<&Text> {
    let mut v = super::compile::header_texts(lab);
    if let Some(s) = &lab.synthesis {
        for o in &s.takeaways {
            v.push(&o.title);
            v.extend(o.text.iter());
        }
        for card in &s.cards {
            v.push(&card.title);
            v.push(&card.body);
        }
    }
    v
}

/// The numbers written in a text's placeholders.
fn literals(text: &str) -> Vec<f64> {
    let Ok(segs) = crate::template::segments(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in segs {
        let crate::template::Segment::Expr(e, _) = s else {
            continue;
        };
        for w in e.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '_')) {
            if let Ok(x) = w.replace('_', "").parse::<f64>() {
                if x.is_finite() && x != 0.0 {
                    out.push(x);
                }
            }
        }
    }
    out
}

/// The texts of the options that make a claim (predictions' and questions').
fn claimed_options(part: &Part) -> Vec<*const Text> {
    let mut v: Vec<*const Text> = Vec::new();
    if let Some(p) = &part.prediction {
        v.extend(
            p.options
                .iter()
                .filter(|o| o.claim.is_some())
                .map(|o| &o.text as *const Text),
        );
    }
    for q in &part.questions {
        v.extend(
            q.spec
                .options
                .iter()
                .filter(|o| o.claim.is_some())
                .map(|o| &o.text as *const Text),
        );
    }
    v
}
