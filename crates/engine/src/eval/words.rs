//! Numbers in the words a student reads, checked against the formulas: an option's text against
//! its claim and the claimed output's value at the prediction's scenario.

use super::quantity::{self, Family, Quantity, Says};
use super::{display, CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::formula::as_number;
use crate::load::check::option_id;
use crate::model::*;
use crate::template::{line_col, segments, Segment};

/// Where a segment starts in the rendered text, where in the template, and whether it was typed.
pub(super) type Segmap = (usize, usize, bool);

/// A text rendered at an evaluation, with where each quantity's number came from in the
/// template: a literal (its byte offset) or a placeholder (the offset of its `{{`).
pub(super) struct Rendered {
    pub quantities: Vec<(Quantity, usize, bool)>,
    /// The rendered text the quantities' offsets point into.
    pub text: String,
}

impl CompiledLab {
    /// Renders `t` at `ev` and reads its quantities, each with its offset in the template and
    /// whether it was typed (not a placeholder's value).
    pub(super) fn rendered_quantities(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &str,
    ) -> Option<Rendered> {
        let (text, map) = self.render_mapped(part, ev, t)?;
        let quantities = quantity::quantities(&text)
            .into_iter()
            .map(|q| {
                let (r, off, typed) = map
                    .iter()
                    .rev()
                    .find(|(r, _, _)| *r <= q.start)
                    .copied()
                    .unwrap_or((0, 0, true));
                let at = if typed { off + (q.start - r) } else { off };
                (q, at, typed)
            })
            .collect();
        Some(Rendered { quantities, text })
    }

    /// Renders `t` at `ev`: the text, and for each segment where it starts in the rendered
    /// text, where in the template, and whether it was typed (not a placeholder's value).
    pub(super) fn render_mapped(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        t: &str,
    ) -> Option<(String, Vec<Segmap>)> {
        let segs = segments(t).ok()?;
        let mut text = String::new();
        // (rendered start, template offset, typed)
        let mut map: Vec<(usize, usize, bool)> = Vec::new();
        for s in segs {
            match s {
                Segment::Lit(l) => {
                    let off = l.as_ptr() as usize - t.as_ptr() as usize;
                    map.push((text.len(), off, true));
                    text.push_str(l);
                }
                Segment::Expr(e, off) => {
                    let v = self.eval_expr(part, ev, e, &[]).ok()?;
                    map.push((text.len(), off, false));
                    text.push_str(&display(&v));
                }
                Segment::Output(name, off) => {
                    let v = self.output_view(ev?, name).ok()?;
                    map.push((text.len(), off, false));
                    text.push_str(&v.display);
                }
            }
        }
        Some((text, map))
    }

    /// The file position of byte `at` of text `t`.
    pub(super) fn text_pos(&self, t: &Text, at: usize, typed: bool, number: &str) -> Pos {
        let origin = super::compile::Origin::of(&self.source, t.pos);
        let (l, c) = line_col(&t.value, at);
        if typed {
            let digits: String = number
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
                .collect();
            let nth = super::lint::number_at(&t.value[..at], &digits).count();
            if let Some(p) = super::lint::locate_in_file(&self.source, t.pos, &digits, nth) {
                return p;
            }
        } else if let Some(open) = t.value.get(..at).and_then(|v| v.rfind("{{")) {
            // A placeholder (`at` is its expression): its `{{` in the file, since a folded
            // text's lines are joined in its value.
            let nth = t.value[..open].matches("{{").count();
            if let Some(p) = super::lint::locate_in_file(&self.source, t.pos, "{{", nth) {
                return p;
            }
        }
        origin.locate(l, c)
    }

    /// A warning at quantity `q` of text `t`.
    fn warn_at(&self, t: &Text, q: &(Quantity, usize, bool), message: String) -> Diagnostic {
        let (q, at, typed) = q;
        Diagnostic::warning(
            &self.source.name,
            self.text_pos(t, *at, *typed, &q.text),
            message,
        )
    }

    /// Values a text may state as they are: the controls and constants at the evaluation.
    pub(super) fn givens(&self, part: &CompiledPart, ev: &Evaluation) -> Vec<f64> {
        ev.values
            .iter()
            .filter(|(k, _)| !part.formulas.iter().any(|f| &&f.name == k))
            .filter_map(|(_, v)| as_number(v))
            .filter(|v| v.is_finite())
            .collect()
    }

    /// Each option's text against its claim and, for the correct one, the claimed output's value
    /// at the scenario: a correct option whose text states another number is an error, a
    /// distractor whose text contradicts its own claim a warning.
    pub(super) fn check_option_texts(
        &self,
        part: &CompiledPart,
        p: &Prediction,
        claim_out: &str,
        sev: &Evaluation,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(x) = sev.values.get(claim_out).and_then(as_number) else {
            return;
        };
        if !x.is_finite() {
            return;
        }
        let model = &self.lab.parts[part.index];
        let output = model.outputs.get(claim_out);
        let unit_label = output.and_then(|o| o.unit.clone()).unwrap_or_default();
        let unit = quantity::output_unit(&unit_label);
        let givens = self.givens(part, sev);
        let shown = output
            .and_then(|o| o.digits.as_ref())
            .map(|d| crate::library::format::fixed(x, d.value, true))
            .unwrap_or_else(|| crate::library::format::auto(x));
        let shown = if unit_label.is_empty() {
            shown
        } else {
            format!("{shown} {unit_label}")
        };
        for (i, o) in p.options.iter().enumerate() {
            let Some(r) = self.rendered_quantities(Some(part), Some(sev), &o.text.value) else {
                continue;
            };
            let id = option_id(i, o);
            // The quantities about the claimed output: in its unit's family, not a given.
            let about: Vec<&(Quantity, usize, bool)> = r
                .quantities
                .iter()
                .filter(|(q, _, _)| q.agrees(x, unit.as_ref()).is_some())
                .filter(|(q, _, _)| {
                    !(q.says == Says::Is
                        && q.lo == q.hi
                        && givens
                            .iter()
                            .any(|g| (g - q.lo).abs() <= 1e-9 * g.abs().max(1.0)))
                })
                .collect();
            if about.is_empty() {
                continue;
            }
            if o.correct {
                if about
                    .iter()
                    .any(|(q, _, _)| q.agrees(x, unit.as_ref()) == Some(true))
                {
                    continue;
                }
                let (q, at, typed) = about[0];
                let pos = self.text_pos(&o.text, *at, *typed, &q.text);
                out.push(
                    Diagnostic::error(
                        &self.source.name,
                        pos,
                        format!(
                            "option {id} is marked correct, but its text says `{}` where `{claim_out}` is {shown} at the prediction's scenario",
                            q.text
                        ),
                    )
                    .with_hint(fix_hint(claim_out, output, *typed)),
                );
                continue;
            }
            let Some(c) = &o.claim else { continue };
            let agrees = |q: &Quantity| -> Option<bool> {
                match (c.value.approx, c.value.min, c.value.max) {
                    (Some(a), _, _) => q.agrees(a, unit.as_ref()),
                    (None, None, None) => None,
                    (None, lo, hi) => q.overlaps(
                        lo.unwrap_or(f64::NEG_INFINITY),
                        hi.unwrap_or(f64::INFINITY),
                        unit.as_ref(),
                    ),
                }
            };
            let verdicts: Vec<Option<bool>> = about.iter().map(|(q, _, _)| agrees(q)).collect();
            if verdicts.iter().all(Option::is_none) || verdicts.contains(&Some(true)) {
                continue;
            }
            let q = &about[0].0;
            out.push(
                self.warn_at(
                    &o.text,
                    about[0],
                    format!(
                        "option {id}'s text says `{}`, but its claim is {}: the student reads one number and `check` verifies another",
                        q.text,
                        super::labtest::describe(&c.value)
                    ),
                )
                .with_hint("make the claim say what the text says (`claim: { approx: ... }` with the text's number), so `check` proves the distractor wrong for the reason the student reads"),
            );
        }
    }
}

impl CompiledLab {
    /// A correct option's text against its own feedback: when the feedback states quantities in
    /// a unit the option's text also states ("at least 6 checkpoints" / "2 checkpoints per
    /// node") and none of them agrees with it, the student reads two numbers for one answer.
    /// Checked on every choice question of the part (prediction, reflection, `questions:`) at
    /// the part's scenario; a live prediction's feedback follows the controls and is not.
    pub(super) fn check_correct_feedback(
        &self,
        part: &CompiledPart,
        sev: &Evaluation,
        out: &mut Vec<Diagnostic>,
    ) {
        let model = &self.lab.parts[part.index];
        let mut lists: Vec<&[Choice]> = Vec::new();
        if let Some(p) = model.prediction.as_ref().filter(|p| !p.live) {
            lists.push(&p.options);
        }
        lists.extend(model.reflection.iter().map(|r| r.options.as_slice()));
        lists.extend(model.questions.iter().map(|q| q.spec.options.as_slice()));
        for options in lists {
            for (i, o) in options.iter().enumerate() {
                let Some(f) = o.feedback.as_ref().filter(|_| o.correct) else {
                    continue;
                };
                let (Some(said), Some(fed)) = (
                    self.rendered_quantities(Some(part), Some(sev), &o.text.value),
                    self.rendered_quantities(Some(part), Some(sev), &f.value),
                ) else {
                    continue;
                };
                for said_q in &said.quantities {
                    let q = &said_q.0;
                    let same: Vec<&Quantity> = fed
                        .quantities
                        .iter()
                        .map(|(p, _, _)| p)
                        .filter(|p| same_unit(q, p))
                        .collect();
                    if same.is_empty() || same.iter().any(|p| consistent(q, p)) {
                        continue;
                    }
                    out.push(
                        self.warn_at(
                            &o.text,
                            said_q,
                            format!(
                                "option {} is marked correct and its text says `{}`, but its own feedback says {}: the student reads two numbers for one answer",
                                option_id(i, o),
                                q.text,
                                same.iter().map(|p| format!("`{}`", p.text)).collect::<Vec<_>>().join(", ")
                            ),
                        )
                        .with_hint("state the same value in both (the same placeholder, e.g. `{{ fmt(name, 0) }}`), or fix the one that is wrong"),
                    );
                }
            }
        }
    }
}

/// Do `a` and `b` speak in one unit (`GB` and `TB`, or the same word: `checkpoint(s)`)?
fn same_unit(a: &Quantity, b: &Quantity) -> bool {
    match (&a.unit, &b.unit) {
        (Some(x), Some(y)) if x.family == Family::Other && y.family == Family::Other => {
            x.word.trim_end_matches('s') == y.word.trim_end_matches('s')
        }
        // Shares and multiples are of many different wholes ("8% of the interval", "26% of it").
        (Some(x), Some(y)) => {
            x.family == y.family && !matches!(x.family, Family::Percent | Family::Times)
        }
        _ => false,
    }
}

/// Can `a` and `b` be one value, each read at the precision it is written to?
fn consistent(a: &Quantity, b: &Quantity) -> bool {
    let agrees = |x: &Quantity, y: &Quantity| {
        [y.lo, y.hi]
            .iter()
            .any(|v| x.agrees(*v, y.unit.as_ref()) == Some(true))
    };
    agrees(a, b) || agrees(b, a)
}

fn fix_hint(name: &str, output: Option<&Output>, typed: bool) -> String {
    let digits = output
        .and_then(|o| o.digits.as_ref())
        .map_or(0, |d| d.value);
    if typed {
        format!("the formulas win: write the number as a placeholder, `{{{{ fmt({name}, {digits}) }}}}`, or fix the formula or the scenario if the text is what you meant")
    } else {
        format!("this placeholder does not show `{name}` at the scenario: show `{{{{ fmt({name}, {digits}) }}}}` itself, or fix the formula or the scenario")
    }
}

/// The unit the library documents for a function's result (`result: GB (decimal).` gives
/// `GB`), when it is one labforge can compare.
fn library_result_unit(path: &str) -> Option<quantity::Unit> {
    let doc = crate::library::functions()
        .iter()
        .find(|d| d.path == path)?;
    let (_, rest) = doc.units.rsplit_once("result: ")?;
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '/' || *c == '%' || *c == '×')
        .collect();
    quantity::output_unit(&word).filter(|u| u.family != quantity::Family::Other)
}

/// The library function a formula is, when it is one call and nothing else: `llm::kv_cache_gb(…)`.
fn single_call(src: &str) -> Option<&str> {
    let s = src.trim();
    let open = s.find('(')?;
    let name = s[..open].trim();
    let is_path = name.contains("::")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
    if !is_path || !s.ends_with(')') {
        return None;
    }
    // The parenthesis that opens the call must be the one that closes at the end.
    let mut depth = 0i32;
    for (i, c) in s.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i != s.len() - 1 {
                    return None;
                }
            }
            _ => {}
        }
    }
    Some(name)
}

impl CompiledLab {
    /// Where output `name`'s `unit:` is written in part `part` (outputs carry no position of
    /// their own): the first line after the part's id that starts with `name:` and has `unit:`.
    fn unit_label_pos(&self, part: &Part, name: &str) -> Option<Pos> {
        let from = part.id.pos.line.max(1) as usize;
        let key = format!("{name}:");
        for (i, l) in self.source.text.lines().enumerate().skip(from) {
            let t = l.trim_start();
            if t.starts_with(&key) {
                if let Some(c) = l.find("unit:") {
                    let col = l[..c + 5].chars().count()
                        + 1
                        + (l[c + 5..].len() - l[c + 5..].trim_start().len());
                    return Some(Pos::new(i as u32 + 1, col as u32));
                }
            }
            if t.starts_with("- id:") {
                break;
            }
        }
        None
    }

    /// An output labelled in one unit whose formula is one library call documented in another
    /// of the same kind: `GiB` on a result the library gives in GB, `ms` on seconds.
    pub(super) fn lint_library_units(&self, out: &mut Vec<Diagnostic>) {
        for part in &self.lab.parts {
            for (name, f) in &part.formulas {
                let Some(label) = part.outputs.get(name).and_then(|o| o.unit.as_deref()) else {
                    continue;
                };
                let Some(call) = single_call(&f.value) else {
                    continue;
                };
                let Some(lib) = library_result_unit(call) else {
                    continue;
                };
                let Some(mine) = quantity::output_unit(label) else {
                    continue;
                };
                if mine.family != lib.family
                    || (mine.factor - lib.factor).abs() <= 1e-9 * lib.factor.abs()
                {
                    continue;
                }
                let lib_word = crate::library::functions()
                    .iter()
                    .find(|d| d.path == call)
                    .and_then(|d| d.units.rsplit_once("result: "))
                    .map(|(_, r)| r.trim_end_matches('.').to_string())
                    .unwrap_or_default();
                let pos = self.unit_label_pos(part, name).unwrap_or(f.pos);
                out.push(
                    Diagnostic::warning(
                        &self.source.name,
                        pos,
                        format!("output `{name}` is labelled `{label}`, but `{call}` gives its result in {lib_word}: the student reads a unit the number is not in"),
                    )
                    .with_hint(format!("label it in the library's unit (`unit: {}`), or convert in the formula (`units::` has the conversions) and keep your label", lib.word_as_written())),
                );
            }
        }
    }
}
