//! Structural checks that need no formula: ids, gating, options, control ranges.

use crate::diag::{did_you_mean, Diagnostic};
use crate::load::Source;
use crate::model::*;
use std::collections::BTreeSet;

/// Whether a control can take a value (`Err`: why not, in the author's words). The engine's
/// (`eval::validate_control`) is the one rule; this layer has no formula values to run it on.
pub type Accepts<'a> = &'a dyn Fn(&Control, &Value) -> Result<(), String>;

struct Ctx<'a> {
    file: &'a str,
    accepts: Accepts<'a>,
    out: &'a mut Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn err(&mut self, pos: Pos, msg: impl Into<String>, hint: impl Into<String>) {
        self.out
            .push(Diagnostic::error(self.file, pos, msg).with_hint(hint));
    }
    fn warn(&mut self, pos: Pos, msg: impl Into<String>, hint: impl Into<String>) {
        self.out
            .push(Diagnostic::warning(self.file, pos, msg).with_hint(hint));
    }
}

/// Option ids: explicit, or A, B, C... by position.
pub fn option_id(index: usize, c: &Choice) -> String {
    c.id.as_ref()
        .map(|i| i.value.clone())
        .unwrap_or_else(|| ((b'A' + (index as u8 % 26)) as char).to_string())
}

/// Letters, digits and `_`, not starting with a digit. `__proto__` is excluded: the page keys
/// JavaScript objects by these names, where it would reach `Object.prototype`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "__proto__"
}

/// A HUD `label` that numbers the lab otherwise than its `volume` and `number` (`Vol2 · Lab 07`
/// on lab 6): the page would show both. Its numbers are read in order (`06` is 6); a label that
/// names only the lab's number, or no number, agrees.
fn hud_label(lab: &Lab, cx: &mut Ctx) {
    let (Some(label), Some(short)) = (
        lab.hud.as_ref().and_then(|h| h.label.as_ref()),
        lab.short_label(),
    ) else {
        return;
    };
    let said: Vec<u64> = label
        .value
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|d| d.parse().ok())
        .collect();
    let is: Vec<u64> = [lab.volume, lab.number]
        .into_iter()
        .flatten()
        .map(u64::from)
        .collect();
    let agrees = said.is_empty()
        || said == is
        || (said.len() == 1 && lab.number.map(u64::from) == Some(said[0]));
    if !agrees {
        cx.warn(
            label.pos,
            format!(
                "the HUD's label `{}` numbers the lab otherwise than its header (`{short}`, from `volume:` and `number:`)",
                label.value
            ),
            format!("drop `label:` and the HUD shows `{short}`; or correct `volume:`/`number:`"),
        );
    }
}

/// Appends structural problems of `lab` to `out`; a scenario's values are checked against
/// their controls with `accepts`.
pub fn structure(lab: &Lab, source: &Source, accepts: Accepts, out: &mut Vec<Diagnostic>) {
    let mut cx = Ctx {
        file: &source.name,
        accepts,
        out,
    };
    let id = &lab.id;
    if id.value.is_empty()
        || !id
            .value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    {
        cx.err(
            id.pos,
            format!(
                "lab id `{}` must be lowercase letters, digits and dashes",
                id.value
            ),
            "e.g. `id: fault-tolerance`",
        );
    }
    hud_label(lab, &mut cx);
    if lab.parts.is_empty() {
        cx.err(
            id.pos,
            "the lab has no parts",
            "add `parts:` with at least one part",
        );
    }
    for (k, _) in lab.constants.iter() {
        if !is_identifier(k) {
            cx.err(
                id.pos,
                format!("constant name `{k}` is not a valid identifier"),
                "use letters, digits and `_`, starting with a letter",
            );
        }
    }
    for (k, c) in lab
        .constants
        .iter()
        .chain(lab.parts.iter().flat_map(|p| p.constants.iter()))
    {
        if let Constant::Bare(Value::Record(m)) = &c.value {
            if !m.contains_key("value") && (m.contains_key("unit") || m.contains_key("source")) {
                cx.err(c.pos, format!("constant `{k}` has a unit or source but no `value`"), "write `{ value: 30, unit: min, source: ... }`; a record without `unit`/`source` is a lookup table");
            }
        }
    }
    super::report::check(cx.out, cx.file, lab);
    let mut seen: Vec<&str> = Vec::new();
    for (i, part) in lab.parts.iter().enumerate() {
        let pid = &part.id;
        if !is_identifier(&pid.value) {
            cx.err(
                pid.pos,
                format!("part id `{}` is not a valid identifier", pid.value),
                "use letters, digits and `_`, e.g. `a`",
            );
        }
        if seen.contains(&pid.value.as_str()) {
            cx.err(
                pid.pos,
                format!("part id `{}` is used twice", pid.value),
                "give every part its own id",
            );
        }
        for r in &part.requires {
            check_gate(&mut cx, lab, i, r);
        }
        if let Some(p) = &part.prediction {
            check_prediction(&mut cx, part, p);
        }
        if let Some(r) = &part.reflection {
            check_choices(&mut cx, &r.question, &r.options, "reflection");
            unused_other_feedback(&mut cx, &r.options, r.other_feedback.as_ref(), "reflection");
        }
        super::questions::check(cx.out, cx.file, part);
        let mut ids: Vec<&str> = Vec::new();
        for ctl in &part.controls {
            let cid = ctl.id();
            if !is_identifier(&cid.value) {
                cx.err(
                    cid.pos,
                    format!("control id `{}` is not a valid identifier", cid.value),
                    "use letters, digits and `_`, e.g. `cluster_gpus`",
                );
            }
            if ids.contains(&cid.value.as_str()) {
                cx.err(
                    cid.pos,
                    format!(
                        "control `{}` is defined twice in part `{}`",
                        cid.value, pid.value
                    ),
                    "give each control its own id",
                );
            }
            ids.push(&cid.value);
            check_control(&mut cx, ctl);
        }
        for (name, e) in &part.formulas {
            if !is_identifier(name) {
                cx.err(
                    e.pos,
                    format!("formula name `{name}` is not a valid identifier"),
                    "use letters, digits and `_`, starting with a letter",
                );
            }
        }
        for rule in &part.feedback {
            let n = [&rule.success, &rule.info, &rule.warn, &rule.danger]
                .iter()
                .filter(|t| t.is_some())
                .count();
            if n != 1 {
                cx.err(rule.when.pos, format!("a feedback rule needs exactly one of success, info, warn, danger (found {n})"), "e.g. `danger: \"SLO violated at {{ fmt(qps, 0) }} QPS\"`");
            }
        }
        seen.push(&pid.value);
    }
    if let Some(h) = &lab.hud {
        for p in &h.parts {
            match lab.parts.iter().find(|x| x.id.value == p.value) {
                None => cx.err(
                    p.pos,
                    format!("unknown part `{}` in the HUD", p.value),
                    did_you_mean(&p.value, seen.iter().copied())
                        .unwrap_or_else(|| format!("parts: {}", seen.join(", "))),
                ),
                Some(x) if x.prediction.is_none() => cx.err(
                    p.pos,
                    format!("part `{}` has no prediction to show in the HUD", p.value),
                    "list only parts with a prediction",
                ),
                _ => {}
            }
        }
        let n = h.tiers.len();
        for (i, t) in h.tiers.iter().enumerate() {
            if t.when.is_none() && i + 1 < n {
                cx.err(
                    Pos::UNKNOWN,
                    format!(
                        "HUD tier `{}` has no `when` but is not the last tier",
                        t.name
                    ),
                    "only the last tier may omit `when`",
                );
            }
        }
    }
    for t in &lab.tests {
        match lab.parts.iter().find(|p| p.id.value == t.part.value) {
            None => cx.err(
                t.part.pos,
                format!("test names unknown part `{}`", t.part.value),
                did_you_mean(&t.part.value, seen.iter().copied())
                    .unwrap_or_else(|| format!("parts: {}", seen.join(", "))),
            ),
            Some(p) => {
                for (k, v) in &t.set {
                    if !p.controls.iter().any(|c| &c.id().value == k) {
                        let ids: Vec<&str> =
                            p.controls.iter().map(|c| c.id().value.as_str()).collect();
                        cx.err(
                            v.pos,
                            format!("`{k}` is not a control of part `{}`", p.id.value),
                            did_you_mean(k, ids.iter().copied())
                                .unwrap_or_else(|| format!("controls: {}", ids.join(", "))),
                        );
                    }
                }
                if t.expect.is_empty() {
                    cx.err(
                        t.part.pos,
                        "test expects nothing",
                        "add `expect: { output: value }`",
                    );
                }
            }
        }
    }
}

fn check_gate(cx: &mut Ctx, lab: &Lab, index: usize, r: &Spanned<String>) {
    let Some((pid, what)) = r.value.split_once('.') else {
        cx.err(
            r.pos,
            format!(
                "gate `{}` must be `PART.prediction` or `PART.reflection`",
                r.value
            ),
            "e.g. `requires: [a.reflection]`",
        );
        return;
    };
    let Some(pi) = lab.parts.iter().position(|p| p.id.value == pid) else {
        let ids: Vec<&str> = lab.parts.iter().map(|p| p.id.value.as_str()).collect();
        cx.err(
            r.pos,
            format!("gate names unknown part `{pid}`"),
            did_you_mean(pid, ids.iter().copied())
                .unwrap_or_else(|| format!("parts: {}", ids.join(", "))),
        );
        return;
    };
    if pi >= index {
        cx.err(
            r.pos,
            format!(
                "part `{}` cannot wait for part `{pid}`, which comes at or after it",
                lab.parts[index].id.value
            ),
            "a part can only require earlier parts",
        );
    }
    let p = &lab.parts[pi];
    match what {
        "prediction" if p.prediction.is_none() => cx.err(
            r.pos,
            format!("part `{pid}` has no prediction to wait for"),
            "require its reflection instead, or add a prediction",
        ),
        "reflection" if p.reflection.is_none() => cx.err(
            r.pos,
            format!("part `{pid}` has no reflection to wait for"),
            "require its prediction instead, or add a reflection",
        ),
        "prediction" | "reflection" => {}
        other => cx.err(
            r.pos,
            format!("unknown gate `{other}`"),
            "gates are `PART.prediction` or `PART.reflection`",
        ),
    }
}

/// `other_feedback:` is for options without their own: with none such, no student sees it
/// (and the answer key does not print it).
fn unused_other_feedback(cx: &mut Ctx, options: &[Choice], other: Option<&Text>, what: &str) {
    if let Some(o) = other {
        if !options.is_empty() && options.iter().all(|c| c.feedback.is_some()) {
            cx.warn(
                o.pos,
                format!("this {what}'s `other_feedback` is never shown: every option has its own feedback"),
                "fold what it says into the options' feedback, or remove it",
            );
        }
    }
}

/// Every option of a question has its own id (explicit, or its letter).
pub(super) fn option_ids_unique(out: &mut Vec<Diagnostic>, file: &str, options: &[Choice]) {
    let accepts: Accepts = &|_, _| Ok(());
    let mut cx = Ctx { file, accepts, out };
    let mut ids = BTreeSet::new();
    for (i, o) in options.iter().enumerate() {
        if !ids.insert(option_id(i, o)) {
            cx.err(
                o.text.pos,
                format!("option id `{}` is used twice", option_id(i, o)),
                "give every option its own id",
            );
        }
    }
}

fn check_choices(cx: &mut Ctx, q: &Text, options: &[Choice], what: &str) {
    if options.is_empty() {
        cx.err(
            q.pos,
            format!("the {what} has no options"),
            "add `options:` with one marked `correct: true`",
        );
        return;
    }
    let n = options.iter().filter(|o| o.correct).count();
    if n == 0 {
        cx.err(
            q.pos,
            format!("the {what} has no correct option"),
            "mark exactly one option with `correct: true`",
        );
    } else if n > 1 {
        let second = options.iter().filter(|o| o.correct).nth(1).unwrap();
        cx.err(
            second.text.pos,
            format!("the {what} has {n} correct options"),
            "mark exactly one option with `correct: true`",
        );
    }
    option_ids_unique(cx.out, cx.file, options);
}

/// A numeric prediction's box and bands: tolerances not negative and not both kinds, `min`
/// below `max` with the default between, bands from low to high covering every answer the box
/// takes without overlapping; `answer` in frozen feedback (it is only known live).
fn check_numeric(cx: &mut Ctx, p: &Prediction, n: &NumericAnswer) {
    for t in [&n.tolerance, &n.abs_tol].into_iter().flatten() {
        if t.value < 0.0 || !t.value.is_finite() {
            cx.err(
                t.pos,
                format!("a tolerance must be a number >= 0, not {}", t.value),
                "`tolerance: 0.1` accepts answers within ±10%; `abs_tol: 5` within ±5 of the value",
            );
        }
    }
    if let (Some(_), Some(a)) = (&n.tolerance, &n.abs_tol) {
        cx.err(
            a.pos,
            "give a relative `tolerance` or an absolute `abs_tol`, not both",
            "keep the one that says what is close enough",
        );
    }
    let (lo, hi) = (
        n.min.as_ref().map(|x| x.value),
        n.max.as_ref().map(|x| x.value),
    );
    if let (Some(l), Some(h)) = (lo, &n.max) {
        if l >= h.value {
            cx.err(
                h.pos,
                format!("`max` ({}) must be above `min` ({l})", h.value),
                "swap them",
            );
        }
    }
    if let Some(s) = &n.step {
        if s.value <= 0.0 || !s.value.is_finite() {
            cx.err(
                s.pos,
                "`step` must be a number above 0",
                "e.g. `step: 1`, or leave it out to accept any number",
            );
        }
    }
    if let Some(d) = &n.default {
        if lo.is_some_and(|l| d.value < l) || hi.is_some_and(|h| d.value > h) {
            cx.err(
                d.pos,
                format!("the default {} is outside the box's range", d.value),
                "move it between `min` and `max`",
            );
        }
    }
    let word = |x: Option<f64>| x.map_or("any".to_string(), |x| x.to_string());
    let mut reach: Option<f64> = None; // where the bands so far end (None: open below)
    for (i, b) in n.bands.iter().enumerate() {
        let pos = b.from.as_ref().map_or(b.feedback.pos, |f| f.pos);
        if let (Some(f), Some(t)) = (&b.from, &b.to) {
            if f.value >= t.value {
                cx.err(
                    t.pos,
                    format!(
                        "this band is empty: `to` ({}) is not above `from` ({})",
                        t.value, f.value
                    ),
                    "list a band as `from` (inclusive) up to `to` (exclusive)",
                );
                return;
            }
        }
        let from = b.from.as_ref().map(|f| f.value);
        if i == 0 {
            // The first band must start at or below the lowest answer the box takes.
            if let Some(f) = from {
                if lo.is_none_or(|l| f > l) {
                    cx.err(
                        pos,
                        format!(
                            "the bands do not cover answers below {f} (the box takes {} and up)",
                            word(lo)
                        ),
                        "start the first band lower, or leave out its `from`",
                    );
                }
            }
        } else {
            match (reach, from) {
                (None, _) | (_, None) => {
                    cx.err(pos, "this band overlaps the one before it (that one has no upper bound `to`, or this one no `from`)", "list the bands from low to high, each starting where the one before ends");
                    return;
                }
                (Some(r), Some(f)) if f < r => {
                    cx.err(pos, format!("this band overlaps the one before it: it starts at {f}, before that one ends at {r}"), "start it where the one before ends");
                }
                (Some(r), Some(f)) if f > r => {
                    cx.err(
                        pos,
                        format!("the bands leave a gap: answers from {r} up to {f} get no band"),
                        format!("start this band at {r}"),
                    );
                }
                _ => {}
            }
        }
        reach = b.to.as_ref().map(|t| t.value);
        if i + 1 == n.bands.len() {
            if let Some(r) = reach {
                if hi.is_none_or(|h| r < h) {
                    let t = b.to.as_ref().map_or(pos, |t| t.pos);
                    cx.err(
                        t,
                        format!(
                            "the bands do not cover answers above {r} (the box takes up to {})",
                            word(hi)
                        ),
                        "end the last band higher, or leave out its `to`",
                    );
                }
            }
        }
    }
    if !p.live {
        let frozen = n
            .correct_feedback
            .iter()
            .chain(&n.other_feedback)
            .chain(n.bands.iter().map(|b| &b.feedback));
        for t in frozen {
            let uses = crate::template::segments(&t.value).is_ok_and(|segs| {
                segs.iter().any(
                    |s| matches!(s, crate::template::Segment::Expr(e, _) if mentions(e, "answer")),
                )
            });
            if uses {
                cx.err(
                    t.pos,
                    "`answer` (the typed number) is only known in live feedback",
                    "add `live: true` to the prediction",
                );
            }
        }
    }
}

/// Does the expression text mention the name `name` (as a word)?
fn mentions(expr: &str, name: &str) -> bool {
    expr.match_indices(name).any(|(i, _)| {
        let b = expr.as_bytes();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        (i == 0 || !word(b[i - 1])) && b.get(i + name.len()).is_none_or(|c| !word(*c))
    })
}

fn check_prediction(cx: &mut Ctx, part: &Part, p: &Prediction) {
    if let Some(n) = &p.numeric {
        check_numeric(cx, p, n);
    }
    if p.numeric.is_none() {
        if !p.keyed_by_claims() {
            check_choices(cx, &p.question, &p.options, "prediction");
        } else {
            option_ids_unique(cx.out, cx.file, &p.options);
        }
        unused_other_feedback(cx, &p.options, p.other_feedback.as_ref(), "prediction");
    } else if !p.options.is_empty() {
        cx.err(
            p.question.pos,
            "a prediction is either multiple choice (`options`) or `numeric`, not both",
            "remove one of them",
        );
    }
    for (k, v) in &p.scenario {
        if let Some(ctl) = part.controls.iter().find(|c| &c.id().value == k) {
            // The situation the question describes must be one the student can set: a
            // select by its label or value, a slider on its range and steps.
            if let Err(e) = (cx.accepts)(ctl, &v.value) {
                cx.err(
                    v.pos,
                    format!("scenario: {e}"),
                    "give a value the control can take (a select takes an option's label or value)",
                );
            }
        } else {
            let ids: Vec<&str> = part
                .controls
                .iter()
                .map(|c| c.id().value.as_str())
                .collect();
            cx.err(
                v.pos,
                format!(
                    "scenario sets `{k}`, which is not a control of part `{}`",
                    part.id.value
                ),
                did_you_mean(k, ids.iter().copied())
                    .unwrap_or_else(|| format!("controls: {}", ids.join(", "))),
            );
        }
    }
    let claims: Vec<&Spanned<Claim>> = p.options.iter().filter_map(|o| o.claim.as_ref()).collect();
    if !claims.is_empty() && p.claim.is_none() {
        cx.err(
            claims[0].pos,
            "options make claims but the prediction names no `claim:` output",
            "add `claim: OUTPUT` to the prediction",
        );
    }
    for c in claims {
        let v = &c.value;
        if v.approx.is_none() && v.min.is_none() && v.max.is_none() && v.is.is_none() {
            cx.err(
                c.pos,
                "a claim needs `approx`, `min`/`max` or `is`",
                "e.g. `claim: { approx: 25, tolerance: 0.2 }`",
            );
        }
        if let (Some(lo), Some(hi)) = (v.min, v.max) {
            if lo > hi {
                cx.err(
                    c.pos,
                    format!("claim min {lo} is above max {hi}"),
                    "swap them",
                );
            }
        }
    }
}

fn check_control(cx: &mut Ctx, ctl: &Control) {
    match ctl {
        Control::Slider(s) => {
            let d = s.default.value;
            if let Some(vals) = &s.values {
                if vals.value.is_empty() {
                    cx.err(
                        vals.pos,
                        "a slider over `values` needs at least one value",
                        "e.g. `values: [1, 2, 4, 8]`",
                    );
                } else if !vals
                    .value
                    .iter()
                    .any(|v| (v - d).abs() <= 1e-12 * v.abs().max(1.0))
                {
                    cx.err(
                        s.default.pos,
                        format!("default {d} is not one of the slider's values"),
                        format!("pick one of {:?}", vals.value),
                    );
                }
                return;
            }
            let (Some(min), Some(max)) = (&s.min, &s.max) else {
                cx.err(
                    s.id.pos,
                    format!(
                        "slider `{}` needs `min` and `max` (or `values`)",
                        s.id.value
                    ),
                    "e.g. `min: 0, max: 100, step: 5`",
                );
                return;
            };
            // Infinite or NaN bounds check nothing and break the page's slider (found by
            // tests/it/fuzz.rs: `min: -.inf` checked clean and the page failed to render).
            let step = s.step.as_ref().map(|st| (st.value, st.pos));
            let nums = [
                (min.value, min.pos),
                (max.value, max.pos),
                (d, s.default.pos),
            ];
            if let Some((x, pos)) = nums.into_iter().chain(step).find(|(x, _)| !x.is_finite()) {
                cx.err(
                    pos,
                    format!(
                        "slider `{}` has a bound that is not a finite number ({x})",
                        s.id.value
                    ),
                    "write finite numbers for `min`, `max`, `step` and `default`",
                );
                return;
            }
            if min.value >= max.value {
                cx.err(
                    max.pos,
                    format!("slider max {} is not above min {}", max.value, min.value),
                    "swap or fix the bounds",
                );
                return;
            }
            let (lo, hi) = match s.exponent_base {
                Some(b) => (b.powf(min.value), b.powf(max.value)),
                None => (min.value, max.value),
            };
            if d < lo.min(hi) - 1e-12 || d > hi.max(lo) + 1e-12 {
                cx.err(
                    s.default.pos,
                    format!("default {d} is outside the slider's range {lo}..{hi}"),
                    "move the default into the range or widen it",
                );
            }
            if let Some(step) = &s.step {
                if step.value <= 0.0 {
                    cx.err(step.pos, "slider step must be positive", "e.g. `step: 1`");
                } else if s.exponent_base.is_none() {
                    let k = (d - min.value) / step.value;
                    if (k - k.round()).abs() > 1e-6 {
                        cx.warn(s.default.pos, format!("default {d} is not on the slider's step grid ({} + k × {})", min.value, step.value), "the page snaps it to the nearest step; make the default a multiple of the step");
                    }
                }
            }
        }
        Control::Number(n) => {
            let d = n.default.value;
            if n.min.is_some_and(|m| d < m) || n.max.is_some_and(|m| d > m) {
                cx.err(
                    n.default.pos,
                    format!("default {d} is outside {:?}..{:?}", n.min, n.max),
                    "move the default into the range",
                );
            }
        }
        Control::Select(s) | Control::Radio(s) => {
            if s.options.value.is_empty() {
                cx.err(
                    s.options.pos,
                    "a select needs options",
                    "e.g. `options: { \"NFS (1 GB/s)\": 1, \"NVMe (100 GB/s)\": 100 }`",
                );
            } else if !s.options.value.contains_key(&s.default.value) {
                let labels: Vec<&str> = s.options.value.keys().map(|k| k.as_str()).collect();
                cx.err(
                    s.default.pos,
                    format!(
                        "default `{}` is not one of the option labels",
                        s.default.value
                    ),
                    did_you_mean(&s.default.value, labels.iter().copied())
                        .unwrap_or_else(|| format!("labels: {}", labels.join(", "))),
                );
            }
        }
        Control::Checkboxes(cb) => {
            for d in &cb.default {
                if !cb.options.contains_key(&d.value) {
                    let ids: Vec<&str> = cb.options.keys().map(|k| k.as_str()).collect();
                    cx.err(
                        d.pos,
                        format!("`{}` is not an option of `{}`", d.value, cb.id.value),
                        did_you_mean(&d.value, ids.iter().copied())
                            .unwrap_or_else(|| format!("options: {}", ids.join(", "))),
                    );
                }
            }
        }
        Control::Switch(_) => {}
    }
}
