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
use super::feedback_numbers::{feedback_texts, About, PLAIN};
use super::lint::live_texts;
use super::quantity::{self, Family, Quantity, Says, Unit};
use super::{CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::as_number;
use crate::model::*;
use rhai::Dynamic;

/// A value of the lab a number may state.
#[derive(Clone)]
pub(super) struct Candidate {
    pub name: String,
    pub value: f64,
    pub unit: Option<Unit>,
    /// The output's label, lower case, when it has one.
    pub label: Option<String>,
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
                    unit: name_unit(k),
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
            let control = model
                .controls
                .iter()
                .find(|c| c.id().value == *k)
                .and_then(control_unit);
            let unit = o
                .and_then(|o| o.unit.as_deref())
                .and_then(quantity::output_unit)
                .or(control)
                .or_else(|| self.constant_unit(k))
                .or_else(|| name_unit(k));
            let label = o.and_then(|o| o.label.clone()).map(|l| l.to_lowercase());
            push_values(&mut out, k, v, unit, label);
        }
        out
    }

    fn constant_unit(&self, name: &str) -> Option<Unit> {
        match &self.lab.constants.get(name)?.value {
            Constant::Documented(d) => d
                .unit
                .as_deref()
                .and_then(quantity::output_unit)
                .or_else(|| name_unit(name)),
            Constant::Bare(_) => name_unit(name),
        }
    }

    /// The numbers the lab declares about itself: its `duration:` ("55 min") and each part's.
    fn declared(&self) -> Vec<Candidate> {
        let lab = &self.lab;
        let mut texts: Vec<&str> = Vec::new();
        if let Some(d) = &lab.duration {
            texts.push(&d.total);
            texts.extend(d.breakdown.as_deref());
        }
        texts.extend(lab.parts.iter().filter_map(|p| p.duration.as_deref()));
        texts
            .into_iter()
            .flat_map(quantity::quantities)
            .map(|q| Candidate {
                name: "the lab's `duration:`".into(),
                value: q.lo,
                unit: q.unit,
                label: None,
            })
            .collect()
    }

    /// The numbers a banner that follows the student's pick may quote back ("You predicted
    /// about 90%"): the quantities of the prediction options its `when:` tests `answer` against
    /// (all of them when it names none).
    fn quoted_options(
        &self,
        part: &CompiledPart,
        model: &Part,
        t: &Text,
        ev: &Evaluation,
    ) -> Vec<Candidate> {
        let Some(p) = &model.prediction else {
            return Vec::new();
        };
        let rule = model.feedback.iter().find(|r| {
            r.title
                .iter()
                .chain(r.callout().map(|(_, x)| x))
                .any(|x| std::ptr::eq(x, t))
        });
        let Some(when) = rule.map(|r| r.when.value.as_str()) else {
            return Vec::new();
        };
        if !when
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "answer")
        {
            return Vec::new();
        }
        let named = answer_ids(when);
        let picked = p.options.iter().enumerate().filter(|(i, o)| {
            named.is_empty() || named.contains(&crate::load::check::option_id(*i, o))
        });
        self.option_quantities(part, picked, ev)
    }

    /// The quantities the options' texts state, as values a text about them may quote.
    pub(super) fn option_quantities<'c>(
        &self,
        part: &CompiledPart,
        options: impl IntoIterator<Item = (usize, &'c Choice)>,
        ev: &Evaluation,
    ) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (i, o) in options {
            let name = format!("option {}'s text", crate::load::check::option_id(i, o));
            let Some(r) = self.rendered_quantities(Some(part), Some(ev), &o.text.value) else {
                continue;
            };
            for (q, _, _) in r.quantities {
                let ends = if q.hi != q.lo {
                    vec![q.lo, q.hi]
                } else {
                    vec![q.lo]
                };
                out.extend(ends.into_iter().map(|value| Candidate {
                    name: name.clone(),
                    value,
                    unit: q.unit.clone(),
                    label: None,
                }));
            }
        }
        out
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
        // A course module's constants (`mlsys::OPTIMIZER_BYTES`) are givens as a lab's are.
        for (ns, consts) in self.engine.module_consts() {
            for (k, v) in consts {
                push_values(&mut every, &format!("{ns}::{k}"), v, name_unit(k), None);
            }
        }
        // What a feedback may state: its own part's values, the lab's givens, and the option
        // it answers (not any value anywhere in the lab, which a wrong number often hits: nor
        // the lab's `duration:`, which the header states).
        let givens = every.clone();
        every.extend(self.declared());
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
                self.check_correct_feedback(part, sev, &mut out);
                self.check_text_words(part, sev, &prose(model), &mut out);
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
                    self.check_text(
                        Some(part),
                        Some(sev),
                        t,
                        sc,
                        &every,
                        strict,
                        PLAIN,
                        &mut out,
                    );
                }
                if !strict {
                    let reads = self.part_reads(part);
                    for fed in feedback_texts(model) {
                        self.check_feedback(part, sev, &fed, [&givens, sc, dc], &reads, &mut out);
                    }
                }
            }
            if let Some(dev) = dev {
                for t in live_texts(model) {
                    let quoted = self.quoted_options(part, model, t, dev);
                    let every = if quoted.is_empty() {
                        std::borrow::Cow::Borrowed(&every)
                    } else {
                        std::borrow::Cow::Owned([every.clone(), quoted].concat())
                    };
                    self.check_text(
                        Some(part),
                        Some(dev),
                        t,
                        dc,
                        &every,
                        strict,
                        PLAIN,
                        &mut out,
                    );
                }
            }
        }
        let lab_prose = if strict {
            lab_texts(&self.lab)
        } else {
            lab_prose(&self.lab)
        };
        for t in lab_prose {
            self.check_text(None, None, t, &every, &every, strict, PLAIN, &mut out);
        }
        self.check_worked_examples(&mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_text(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &Text,
        near: &[Candidate],
        every: &[Candidate],
        strict: bool,
        about: About,
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
        for (i, (q, at, typed)) in r.quantities.iter().enumerate() {
            let point;
            let in_claimed = about
                .bounds_in
                .is_some_and(|u| q.unit.as_ref().is_some_and(|qu| qu.family == u.family));
            let wide = every;
            let every = if in_claimed { about.narrow } else { every };
            // A bound in a feedback ("under 20%", "25% or less") is read as the number it quotes:
            // in the answer's unit, the option's or the answer's; in any unit `check` knows, a
            // value of the part (a threshold, a target), as a prose number is.
            let bound_read = in_claimed
                || (about.feedback && q.unit.as_ref().is_some_and(|qu| qu.family != Family::Other));
            let q = match () {
                _ if q.says != Says::Is && q.lo == q.hi && bound_read => {
                    point = Quantity {
                        says: Says::Is,
                        ..q.clone()
                    };
                    &point
                }
                _ => q,
            };
            if !typed || own.iter().any(|c| matches(q, c)) {
                continue;
            }
            if let Some(p) = contrasted_with_itself(&r, i) {
                let pos = self.text_pos(t, *at, true, &q.text);
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "`{}` is set against `{}`, the value this sentence shows, but at the precision it is written to it is that value",
                            q.text, p.text
                        ),
                    )
                    .with_hint(format!("a contrast (`not ...`, `rather than ...`) names a value clearly apart from the one shown: write the alternative you mean (an option's number, a constant with its `source:`), or write `{}` to the digit it means", q.text)),
                );
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
            // In a feedback, a value of the part it does state, in the unit of the output the
            // options claim about, which it is read as being about.
            if let Some(c) = wide.iter().find(|c| in_claimed && matches(q, c)) {
                let mut about: Vec<String> = names.iter().take(2).cloned().collect();
                about.dedup();
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "`{}` in this feedback is in the unit of the answer, but states neither the option's number nor the answer ({}): it reads as `{}` = {}",
                            q.text,
                            about.join(", "),
                            c.name,
                            shown(c)
                        ),
                    )
                    .with_hint(format!("a feedback's number in the answer's unit is read as quoting the option or the answer: fix it to the option's number, or, if it is `{}`, write `{{{{ fmt({}, 0) }}}}`", c.name, c.name)),
                );
                continue;
            }
            // A value of the lab this feedback's part never reads: name it, it is what the
            // author may have meant.
            let unread = about.unread.iter().find(|c| matches(q, c));
            let (message, hint) = match (unread, part) {
                (Some(c), Some(p)) => (
                    format!("`{}` in this feedback matches no value part `{}` reads", q.text, p.id),
                    format!("`{}` = {} is a value of the lab, but part `{}` reads none of it: if this feedback means it, show it (`{{{{ fmt({}, 0) }}}}`); otherwise {hint}", c.name, shown(c), p.id, c.name),
                ),
                _ => (
                    format!("`{}` matches no value of the lab at this text's scenario", q.text),
                    hint,
                ),
            };
            out.push(Diagnostic::warning(&self.source.name, pos, message).with_hint(hint));
        }
    }
}

/// The option ids a `when:` compares `answer` with: `answer == "A" && ...` gives `A`.
fn answer_ids(when: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = when;
    while let Some(i) = rest.find("answer") {
        rest = &rest[i + "answer".len()..];
        let t = rest.trim_start();
        let Some(t) = t.strip_prefix("==").or_else(|| t.strip_prefix("!=")) else {
            continue;
        };
        let t = t.trim_start();
        let Some(q) = t.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        if let Some(end) = t[1..].find(q) {
            out.push(t[1..1 + end].to_string());
        }
    }
    out
}

/// The unit a control shows next to it (`unit: GB/s`).
fn control_unit(c: &Control) -> Option<Unit> {
    let u = match c {
        Control::Slider(s) => s.unit.as_deref(),
        Control::Number(n) => n.unit.as_deref(),
        _ => None,
    };
    u.and_then(quantity::output_unit)
}

/// The unit a value's name ends in when nothing labels it: `tau_opt_min` is in minutes,
/// `waste_pct` a percentage, `recovery_s` seconds, `kv_gb` gigabytes, `speedup_x` a multiple.
/// So "30 minutes" is not proven by a percentage that happens to be 26, nor "90 minutes" by a
/// recovery of 90 seconds.
pub(super) fn name_unit(name: &str) -> Option<Unit> {
    let (_, suffix) = name.rsplit_once('_')?;
    let word = match suffix.to_ascii_lowercase().as_str() {
        "pct" | "percent" => "%",
        "s" | "sec" | "secs" | "seconds" => "s",
        "ms" => "ms",
        "us" => "µs",
        "min" | "mins" | "minutes" => "min",
        "h" | "hr" | "hrs" | "hours" => "h",
        "day" | "days" => "days",
        "kb" => "KB",
        "mb" => "MB",
        "gb" => "GB",
        "tb" => "TB",
        "gib" => "GiB",
        "x" => "×",
        "w" => "W",
        "kw" => "kW",
        "mw" => "MW",
        "usd" | "dollars" => "$",
        "bytes" => "bytes",
        _ => return None,
    };
    quantity::output_unit(word).filter(|u| u.family != Family::Other)
}

/// Words that set a number against another: "~27 minutes -- not 30 minutes".
fn contrasts(before: &str) -> bool {
    let b = before.trim_end().to_lowercase();
    let b = b
        .trim_end_matches(['~', '≈'])
        .trim_end()
        .trim_end_matches("about")
        .trim_end();
    ["not", "rather than", "instead of", "not even"]
        .iter()
        .any(|w| {
            b.strip_suffix(w)
                .is_some_and(|r| !r.ends_with(|c: char| c.is_alphanumeric()))
        })
}

/// A typed number set against a value its own sentence shows ("the optimum is ~27 minutes --
/// not 30 minutes"), which at the precision it is written to (30 is ±5) is that value: the
/// shown quantity it cannot be told apart from. A list goes on contrasting ("not 10 minutes
/// (too aggressive) or 90 minutes").
fn contrasted_with_itself(r: &super::words::Rendered, i: usize) -> Option<&Quantity> {
    let text = &r.text;
    let contrasted = |k: usize| -> bool {
        let mut k = k;
        loop {
            let q = &r.quantities[k].0;
            if contrasts(&text[..q.start]) {
                return true;
            }
            if k == 0 || !r.quantities[k - 1].2 {
                return false;
            }
            let prev = &r.quantities[k - 1].0;
            let gap = text
                .get(prev.start + prev.text.len()..q.start)
                .unwrap_or_default();
            if gap.contains(['.', ';', '\n']) || !gap.split_whitespace().any(|w| w == "or") {
                return false;
            }
            k -= 1;
        }
    };
    if !contrasted(i) {
        return None;
    }
    let q = &r.quantities[i].0;
    let (s, e) = sentence_bounds(text, q.start);
    r.quantities
        .iter()
        .filter(|(p, _, typed)| !typed && p.start >= s && p.start < e)
        .map(|(p, _, _)| p)
        .find(|p| {
            let same = match (&q.unit, &p.unit) {
                (Some(a), Some(b)) => a.family == b.family && a.family != Family::Other,
                _ => false,
            };
            same && p.says == Says::Is && q.agrees(p.lo, p.unit.as_ref()) == Some(true)
        })
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
pub(super) fn matches(q: &Quantity, c: &Candidate) -> bool {
    let x = c.value;
    match (&c.unit, &q.unit) {
        (Some(u), _) if u.family != Family::Other => q.agrees(x, Some(u)) == Some(true),
        // A value without a known unit: the number as written, a fraction as a percentage (not
        // a count or a coefficient labelled in its own unit: `sim_cs` = 1.5 C_s is not 150%).
        (u, Some(qu)) if qu.family == Family::Percent => {
            q.agrees(x, Some(qu)) == Some(true)
                || (u.as_ref().is_none_or(fraction_like)
                    && q.agrees(x * 100.0, Some(qu)) == Some(true))
        }
        (_, qu) => q.agrees(x, qu.as_ref()) == Some(true),
    }
}

/// A unit a fraction is written in ("fraction", "1", "Jain index"), which a text may show as a
/// percentage.
fn fraction_like(u: &Unit) -> bool {
    u.word.split(|c: char| !c.is_alphanumeric()).any(|w| {
        matches!(
            w,
            "1" | "fraction"
                | "fractions"
                | "ratio"
                | "share"
                | "probability"
                | "index"
                | "efficiency"
                | "utilization"
        )
    })
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
    let (s, e) = sentence_bounds(text, at);
    &text[s..e]
}

/// Where the sentence of `text` around byte `at` starts and ends.
pub(super) fn sentence_bounds(text: &str, at: usize) -> (usize, usize) {
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
    (start, end)
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
pub(super) fn literals(text: &str) -> Vec<f64> {
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
