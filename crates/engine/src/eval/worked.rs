//! Worked examples (the synthesis' self-assessment items, issue 25): a question states its
//! inputs ("a ring all-reduce of 14 GB over 64 GPUs at 50 GB/s") and its answer works with
//! them. A number the question states that the answer, working in the same unit, never uses
//! means the two are about different cases; a number the answer types that is neither in its
//! question nor among the numbers its placeholders compute with (`pk_wait(0.8, cs, 30)` states
//! 80% and 30) nor a constant of the lab is one nothing proves.

use super::numbers::{literals, matches, Candidate};
use super::quantity::{self, Family, Quantity, Says};
use super::CompiledLab;
use crate::diag::Diagnostic;

/// A number a student is meant to read as a value: one value (not a bound or a range) with a
/// unit labforge knows, or a multiplier (`175B`), and not a small whole number.
fn judged(q: &Quantity) -> bool {
    let measured = q.unit.as_ref().is_some_and(|u| u.family != Family::Other)
        || (q.unit.is_none() && q.text.contains(['K', 'M', 'B', 'G', 'T']));
    measured && q.says == Says::Is && q.lo == q.hi && !(q.lo < 10.0 && q.ulp >= 1.0)
}

/// Do `a` and `b` speak in one unit family?
fn same_family(a: &Quantity, b: &Quantity) -> bool {
    match (&a.unit, &b.unit) {
        (Some(x), Some(y)) => x.family == y.family && x.family != Family::Other,
        (None, None) => true,
        _ => false,
    }
}

/// Can `a` and `b` be one value, each at the precision it is written to?
fn one_value(a: &Quantity, b: &Quantity) -> bool {
    a.agrees(b.lo, b.unit.as_ref()) == Some(true) || b.agrees(a.lo, a.unit.as_ref()) == Some(true)
}

/// `q` as one of the numbers a text is written with: as written (`30`), a percentage as its
/// fraction (`0.8`), or in another unit of its family (`14e9` bytes for 14 GB, `2.039` TB/s
/// for 2,039 GB/s).
fn written_with(q: &Quantity, lits: &[f64]) -> bool {
    let (factor, others) = match &q.unit {
        Some(u) if u.family != Family::Other => (u.factor, quantity::family_factors(u.family)),
        _ => (1.0, vec![1.0]),
    };
    let percent = q.unit.as_ref().is_some_and(|u| u.family == Family::Percent);
    let c = |v: f64| Candidate {
        name: String::new(),
        value: v,
        unit: None,
        label: None,
    };
    lits.iter().any(|x| {
        (percent && matches(q, &c(x * 100.0)))
            || std::iter::once(1.0)
                .chain(others.iter().copied())
                .any(|g| matches(q, &c(x * g / factor)))
    })
}

impl CompiledLab {
    pub(super) fn check_worked_examples(&self, out: &mut Vec<Diagnostic>) {
        let Some(s) = &self.lab.synthesis else {
            return;
        };
        let constants: Vec<f64> = self
            .constants
            .iter()
            .filter_map(|(_, v)| crate::formula::as_number(v))
            .collect();
        for item in &s.self_assessment {
            let Some(answer) = &item.answer else { continue };
            let (Some(q), Some(a)) = (
                self.rendered_quantities(None, None, &item.question.value),
                self.rendered_quantities(None, None, &answer.value),
            ) else {
                continue;
            };
            let lits = literals(&answer.value);
            let q_lits = literals(&item.question.value);
            // Every number the answer types, operands too (`63/64 × 14 GB / 50 GB/s`).
            let worked: Vec<f64> = [lits.clone(), typed_numbers(&answer.value)].concat();
            let mut typed_qs: Vec<(Quantity, usize, bool)> = a
                .quantities
                .iter()
                .filter(|(y, _, t)| *t && judged(y))
                .cloned()
                .collect();
            // And the operands of a worked formula (`14 GB / 50 GB/s`), which are not read as
            // quantities of their own in prose.
            for (y, at) in operands(&answer.value) {
                if judged(&y) && !typed_qs.iter().any(|(_, b, _)| *b == at) {
                    typed_qs.push((y, at, true));
                }
            }
            // The question's inputs, against the answer that works with them (an answer in
            // words only is not judged).
            for (x, at, typed) in q.quantities.iter().filter(|(x, _, t)| *t && judged(x)) {
                let same: Vec<&Quantity> = typed_qs
                    .iter()
                    .map(|(y, _, _)| y)
                    .filter(|y| same_family(x, y))
                    .collect();
                if (same.is_empty() && lits.is_empty()) || same.iter().any(|y| one_value(x, y)) {
                    continue;
                }
                if written_with(x, &worked) || written_with(x, &constants) {
                    continue;
                }
                let pos = self.text_pos(&item.question, *at, *typed, &x.text);
                let said = if same.is_empty() {
                    "other numbers".to_string()
                } else {
                    let v: Vec<String> = same.iter().map(|y| format!("`{}`", y.text)).collect();
                    v.join(", ")
                };
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "the question states `{}`, but its answer works with {said}: the two are about different cases",
                            x.text,
                        ),
                    )
                    .with_hint("make the question and its answer state the same inputs (a constant written as `{{ name }}` in both keeps them in step)"),
                );
            }
            // The answer's typed numbers: the question's, its placeholders' inputs, a constant.
            for (y, at, typed) in &typed_qs {
                let stated = q
                    .quantities
                    .iter()
                    .any(|(x, _, _)| same_family(x, y) && one_value(x, y));
                if stated || written_with(y, &lits) || written_with(y, &q_lits) {
                    continue;
                }
                if written_with(y, &constants) {
                    continue;
                }
                let pos = self.text_pos(answer, *at, *typed, &y.text);
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!(
                            "the worked answer types `{}`, which is neither in its question nor among the numbers its placeholders compute with",
                            y.text
                        ),
                    )
                    .with_hint("a worked answer states its question's inputs: write the number the question gives (or the one the placeholder computes with), or mark a given typed on purpose: `{{ \"...\" }}`"),
                );
            }
        }
    }
}

/// The numbers typed outside a text's placeholders, as written (`2 × 63/64 × 14 GB` gives 2,
/// 63, 64 and 14).
fn typed_numbers(text: &str) -> Vec<f64> {
    let Ok(segs) = crate::template::segments(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in segs {
        let crate::template::Segment::Lit(l) = s else {
            continue;
        };
        let mut cur = String::new();
        for c in l.chars().chain([' ']) {
            if c.is_ascii_digit() || (c == '.' && !cur.is_empty()) {
                cur.push(c);
            } else if c == ',' && !cur.is_empty() {
                // A thousands separator (`1,000`) reads on; any other comma ends the number.
            } else {
                if let Ok(x) = cur.trim_end_matches('.').parse::<f64>() {
                    out.push(x);
                }
                cur.clear();
            }
        }
    }
    out
}

/// Every typed number with a unit labforge knows in a template's literal text, operands of a
/// written-out formula too, with its byte offset in the template.
fn operands(template: &str) -> Vec<(Quantity, usize)> {
    let Ok(segs) = crate::template::segments(template) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for seg in segs {
        let crate::template::Segment::Lit(l) = seg else {
            continue;
        };
        let off = l.as_ptr() as usize - template.as_ptr() as usize;
        let b = l.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let prev_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.');
            if !(b[i].is_ascii_digit() && prev_ok) {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || b[i] == b',') {
                i += 1;
            }
            let number = l[start..i].trim_end_matches(['.', ',']);
            let rest = l[i..].strip_prefix(' ').unwrap_or(&l[i..]);
            let Some((u, n)) = quantity::unit_at(rest) else {
                continue;
            };
            if u.family == Family::Other {
                continue;
            }
            let written = format!("{number} {}", &rest[..n]);
            if let Some(q) = quantity::quantities(&written).into_iter().next() {
                out.push((q, off + start));
            }
        }
    }
    out
}
