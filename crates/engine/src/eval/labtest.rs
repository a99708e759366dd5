//! A lab's own tests (`labforge test`) and the checks that need evaluation (`labforge check`):
//! prediction claims against the formulas, and every part evaluating cleanly at its defaults.

use super::{compile::part_static_texts, value_to_dynamic, CompiledLab, EvalError};
use crate::diag::{did_you_mean, Diagnostic};
use crate::formula::{as_number, to_json};
use crate::load::check::option_id;
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;

/// The result of one lab test.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    pub name: String,
    pub part: String,
    /// Empty when the test passed.
    pub failures: Vec<Diagnostic>,
}

impl TestOutcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Does `value` satisfy `claim`?
pub fn claim_holds(claim: &Claim, value: &Dynamic) -> bool {
    match &claim.is {
        Some(ClaimIs::Bool(b)) => return value.as_bool().ok() == Some(*b),
        Some(ClaimIs::Text(t)) => {
            return value.clone().into_string().ok().as_deref().map(str::trim) == Some(t.trim())
        }
        None => {}
    }
    let Some(x) = as_number(value) else {
        return false;
    };
    if let Some(a) = claim.approx {
        let tol = claim.tolerance.unwrap_or(0.25);
        if (x - a).abs() > tol * a.abs() {
            return false;
        }
    }
    claim.min.is_none_or(|m| x >= m) && claim.max.is_none_or(|m| x <= m)
}

/// A claim of the wrong kind for its output: words (`is: Communication`) about a number or a
/// yes/no, a number or yes/no about a text output, or words the output's formula never gives
/// (`"Comunication"`, when the formula reads `"Communication"` or `"Compute"`).
fn claim_kind(
    file: &str,
    model: &Part,
    output: &str,
    value: &Dynamic,
    id: &str,
    c: &Spanned<Claim>,
) -> Option<Diagnostic> {
    let text = value.clone().into_string().ok();
    let err = |m: String, h: String| Some(Diagnostic::error(file, c.pos, m).with_hint(h));
    match (&c.value.is, &text) {
        (Some(ClaimIs::Text(t)), None) => err(
            format!(
                "option {id} claims `{output}` reads \"{t}\", but `{output}` is {}, not words",
                value_str(value)
            ),
            if value.as_bool().is_ok() {
                "a yes/no output is claimed with `is: true` or `is: false`".into()
            } else {
                "a number is claimed with `approx`, `min` or `max` (`claim: { approx: 25 }`)".into()
            },
        ),
        (Some(ClaimIs::Text(t)), Some(_)) => {
            let words = model
                .formulas
                .get(output)
                .map(|f| quoted_words(&f.value))
                .unwrap_or_default();
            (!words.is_empty() && !words.iter().any(|w| w.trim() == t.trim())).then(|| {
                Diagnostic::error(file, c.pos, format!("option {id} claims `{output}` reads \"{t}\", which its formula never gives"))
                    .with_hint(format!("`{output}` reads one of {}: claim one of them, spelled as the formula spells it", words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")))
            })
        }
        (_, Some(t)) => err(
            format!(
                "`{output}` is a text output (\"{t}\" here), but option {id} claims {}",
                describe(&c.value)
            ),
            format!("claim the words it reads: `claim: {{ is: {t} }}`"),
        ),
        _ => None,
    }
}

/// The quoted texts in a formula (`if a { "Communication" } else { "Compute" }`).
fn quoted_words(formula: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = formula;
    while let Some(i) = rest.find('"') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('"') else { break };
        out.push(after[..j].to_string());
        rest = &after[j + 1..];
    }
    out
}

pub(super) fn describe(claim: &Claim) -> String {
    let mut parts = Vec::new();
    if let Some(a) = claim.approx {
        parts.push(format!(
            "≈ {a} (±{}%)",
            claim.tolerance.unwrap_or(0.25) * 100.0
        ));
    }
    if let Some(m) = claim.min {
        parts.push(format!("≥ {m}"));
    }
    if let Some(m) = claim.max {
        parts.push(format!("≤ {m}"));
    }
    if let Some(b) = &claim.is {
        parts.push(format!("is {b}"));
    }
    parts.join(" and ")
}

pub(super) fn value_str(v: &Dynamic) -> String {
    match as_number(v) {
        Some(x) => format!("{x}"),
        None => v.to_string(),
    }
}

impl CompiledLab {
    /// Runs the lab's tests.
    /// The lab's tests that run on the track this lab is compiled for (every test when the lab
    /// has no tracks or is the same on every track; a test without `track:` runs on every
    /// track). The name of each says the track (`… [iphone]`).
    pub fn run_tests(&self) -> Vec<TestOutcome> {
        // A test's `track:` names one of the lab's tracks (compiling refuses any other). A lab
        // the same on every track (`track` is `None`) runs it once, like any test.
        self.lab
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| match (&t.track, &self.track) {
                (Some(want), Some(this)) => want.value == *this,
                _ => true,
            })
            .map(|(i, t)| {
                let mut name = t
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("test {} (part {})", i + 1, t.part.value));
                if let Some(this) = &self.track {
                    name = format!("{name} [{this}]");
                }
                let failures = self.run_test(t);
                TestOutcome {
                    name,
                    part: t.part.value.clone(),
                    failures,
                }
            })
            .collect()
    }

    fn run_test(&self, t: &LabTest) -> Vec<Diagnostic> {
        let file = &self.source.name;
        let Some(part) = self.part(&t.part.value) else {
            return vec![Diagnostic::error(
                file,
                t.part.pos,
                format!("no part `{}`", t.part.value),
            )];
        };
        let set: IndexMap<String, Dynamic> = t
            .set
            .iter()
            .map(|(k, v)| (k.clone(), value_to_dynamic(&v.value)))
            .collect();
        let inputs = match self.inputs(part, &set) {
            Ok(i) => i,
            Err(m) => {
                let pos = t.set.values().next().map(|v| v.pos).unwrap_or(t.part.pos);
                return vec![Diagnostic::error(file, pos, m)];
            }
        };
        let ev = match self.evaluate(part, &inputs) {
            Ok(ev) => ev,
            Err(EvalError(d)) => return vec![d],
        };
        let tol = t.tolerance.unwrap_or(1e-9);
        let (mut out, answered) = self.test_answers(t, part);
        for (k, want) in t.expect.iter().filter(|(k, _)| !answered.contains(k)) {
            let Some(got) = ev.values.get(k) else {
                out.push(
                    Diagnostic::error(
                        file,
                        want.pos,
                        format!(
                            "test expects `{k}`, which part `{}` does not compute",
                            part.id
                        ),
                    )
                    .maybe_hint(did_you_mean(k, ev.values.keys().map(|s| s.as_str()))),
                );
                continue;
            };
            let ok = match (&want.value, as_number(got)) {
                (Value::Number(w), Some(g)) => {
                    (g - w).abs() <= tol * w.abs().max(1e-300) || g == *w
                }
                (Value::Bool(w), _) => got.as_bool().ok() == Some(*w),
                (Value::Text(w), _) => got.is_string() && &got.to_string() == w,
                (w, _) => to_json(got) == to_json(&value_to_dynamic(w)),
            };
            if !ok {
                out.push(
                    Diagnostic::error(
                        file,
                        want.pos,
                        format!(
                            "`{k}` is {} but the test expects {}",
                            value_str(got),
                            value_str(&value_to_dynamic(&want.value))
                        ),
                    )
                    .with_hint(format!(
                        "relative tolerance {tol}; fix the formula or the expected value"
                    )),
                );
            }
        }
        out
    }

    /// Checks that need evaluation: every part evaluates (with its prose, outputs, banners and
    /// charts) at its defaults and at its scenario, and prediction claims agree with the formulas.
    pub fn check_semantics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (pi, part) in self.parts.iter().enumerate() {
            if self.lab_budget_spent() {
                break;
            }
            let model = &self.lab.parts[pi];
            let defaults = self.inputs(part, &IndexMap::new()).unwrap_or_default();
            let ev = match self.evaluate(part, &defaults) {
                Ok(ev) => ev,
                Err(EvalError(d)) => {
                    out.push(d);
                    continue;
                }
            };
            let live = self
                .outputs(&ev)
                .and_then(|_| self.callouts(&ev))
                .and_then(|_| self.charts(&ev))
                .and_then(|_| {
                    model
                        .instruments
                        .iter()
                        .try_for_each(|inst| -> Result<(), EvalError> {
                            let texts: Vec<&Text> = match inst {
                                Instrument::Panel(p) => {
                                    std::iter::once(&p.title).chain(p.lines.iter()).collect()
                                }
                                Instrument::Metrics(cs) => cs
                                    .iter()
                                    .flat_map(|c| c.label.iter().chain(c.caption.iter()))
                                    .collect(),
                                Instrument::Table(t) => t.title.iter().collect(),
                                Instrument::Chart(_) => vec![],
                            };
                            texts.into_iter().try_for_each(|t| {
                                self.render_text(Some(part), Some(&ev), &t.value, &[])
                                    .map(|_| ())
                            })
                        })
                });
            if let Err(EvalError(d)) = live {
                out.push(d);
            }
            let scen = self.scenario(part);
            let sev = match self.evaluate(part, &scen) {
                Ok(ev) => ev,
                Err(EvalError(d)) => {
                    out.push(d);
                    continue;
                }
            };
            for t in part_static_texts(model) {
                if let Err(EvalError(d)) = self.render_text(Some(part), Some(&sev), &t.value, &[]) {
                    out.push(d);
                    break;
                }
            }
            if let Some(p) = &model.prediction {
                self.check_claims(part, p, &sev, false, &mut out);
            }
            // A question's claims and numeric output are checked as a prediction's, at the
            // part's scenario (a choice keyed by its claims is graded, so checked too).
            for q in model.questions.iter().filter(|q| q.is_graded()) {
                let as_prediction = Prediction {
                    question: q.prompt(),
                    scenario: model
                        .prediction
                        .as_ref()
                        .map(|p| p.scenario.clone())
                        .unwrap_or_default(),
                    claim: q.spec.claim.clone(),
                    options: q.spec.options.clone(),
                    numeric: q.numeric(),
                    other_feedback: None,
                    live: false,
                    lock_text: None,
                };
                self.check_claims(part, &as_prediction, &sev, true, &mut out);
            }
        }
        self.check_test_values(&mut out);
        out.extend(super::balance::check(&self.lab, &self.source.name));
        self.lint_library_units(&mut out);
        if !self.lab_budget_spent() {
            out.extend(self.check_numbers(false));
        }
        if !self.lab_budget_spent() {
            out.extend(self.lint());
        }
        self.keep_first_budget_error(&mut out);
        out
    }

    /// Every value a test sets must be one its control takes (the answer key runs the tests).
    fn check_test_values(&self, out: &mut Vec<Diagnostic>) {
        for t in &self.lab.tests {
            let Some(model) = self.model_part(&t.part.value) else {
                continue;
            };
            for (k, v) in &t.set {
                let Some(ctl) = model.controls.iter().find(|c| &c.id().value == k) else {
                    continue;
                };
                if let Err(m) = super::validate_control(ctl, &super::value_to_dynamic(&v.value)) {
                    out.push(
                        Diagnostic::error(&self.source.name, v.pos, format!("a test sets a value its control does not take: {m}"))
                            .with_hint("a test sets controls to values a student can choose; use one of the control's values"),
                    );
                }
            }
        }
    }

    /// Whether the evaluations so far spent the lab's whole budget (`formula::budget`).
    pub fn lab_budget_spent(&self) -> bool {
        self.engine.meter().overrun() == Some(crate::formula::budget::Overrun::Lab)
    }

    /// Once the lab's budget is spent every later evaluation fails the same way: keep the first
    /// such failure (where the budget ran out), as an error.
    fn keep_first_budget_error(&self, out: &mut Vec<Diagnostic>) {
        if !self.lab_budget_spent() {
            return;
        }
        let marker = crate::formula::budget::LAB_OVERRUN;
        let first = out.iter().position(|d| d.message.contains(marker));
        let mut first = first.map(|i| out[i].clone());
        out.retain(|d| !d.message.contains(marker));
        if let Some(d) = &mut first {
            d.severity = crate::diag::Severity::Error;
            out.push(d.clone());
        }
    }

    fn check_claims(
        &self,
        part: &super::CompiledPart,
        p: &Prediction,
        sev: &super::Evaluation,
        question: bool,
        out: &mut Vec<Diagnostic>,
    ) {
        let file = &self.source.name;
        if let Some(n) = &p.numeric {
            match sev.values.get(&n.output.value) {
                None => out.push(
                    Diagnostic::error(file, n.output.pos, format!("numeric prediction grades against `{}`, which part `{}` does not compute", n.output.value, part.id))
                        .maybe_hint(did_you_mean(&n.output.value, sev.values.keys().map(|s| s.as_str()))),
                ),
                Some(v) if as_number(v).is_none_or(|x| !x.is_finite()) => out.push(Diagnostic::error(
                    file,
                    n.output.pos,
                    format!("`{}` is {} at the prediction's scenario: a numeric answer cannot be graded against it", n.output.value, value_str(v)),
                )),
                Some(v) => {
                    let x = as_number(v).unwrap_or(f64::NAN);
                    let lo = n.min.as_ref().map(|m| m.value);
                    let hi = n.max.as_ref().map(|m| m.value);
                    if lo.is_some_and(|l| x < l) || hi.is_some_and(|h| x > h) {
                        let word = |b: Option<f64>| b.map_or("…".to_string(), crate::library::format::auto);
                        out.push(
                            Diagnostic::error(file, n.output.pos, format!("the key is outside the answer box: `{}` is {} at the prediction's scenario, but the box takes {} to {}", n.output.value, value_str(v), word(lo), word(hi)))
                                .with_hint("widen `min`/`max` so the right answer can be typed, or check the scenario"),
                        );
                    }
                }
            }
        }
        // A qualitative prediction (no `claim`) has nothing to verify.
        let Some(claim_out) = &p.claim else {
            return;
        };
        let Some(value) = sev.values.get(&claim_out.value) else {
            out.push(
                Diagnostic::error(
                    file,
                    claim_out.pos,
                    format!(
                        "the claim is about `{}`, which part `{}` does not compute",
                        claim_out.value, part.id
                    ),
                )
                .maybe_hint(did_you_mean(
                    &claim_out.value,
                    sev.values.keys().map(|s| s.as_str()),
                )),
            );
            return;
        };
        let scenario: Vec<String> = p
            .scenario
            .iter()
            .map(|(k, v)| format!("{k} = {}", value_str(&value_to_dynamic(&v.value))))
            .collect();
        let at = if scenario.is_empty() {
            "at the defaults".to_string()
        } else {
            format!("at {}", scenario.join(", "))
        };
        let correct_has_claim = p.options.iter().any(|o| o.correct && o.claim.is_some());
        if !correct_has_claim && !p.keyed_by_claims() {
            let pos = p
                .options
                .iter()
                .find(|o| o.correct)
                .map(|o| o.text.pos)
                .unwrap_or(claim_out.pos);
            out.push(
                Diagnostic::warning(
                    file,
                    pos,
                    "the correct option makes no claim, so `check` cannot verify it",
                )
                .with_hint("add `claim: { approx: ... }` to the correct option"),
            );
        }
        let model = &self.lab.parts[part.index];
        // The options whose claims hold at the scenario: when the one marked correct is not
        // among them and exactly one is, the claims pick that option, and both diagnostics say
        // so (a swapped key reads as one mistake, not two).
        let holding: Vec<String> = p
            .options
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.claim.as_ref().is_some_and(|c| {
                    claim_kind(file, model, &claim_out.value, value, "", c).is_none()
                        && claim_holds(&c.value, value)
                })
            })
            .map(|(i, o)| option_id(i, o))
            .collect();
        let marked = p
            .options
            .iter()
            .enumerate()
            .find(|(_, o)| o.correct)
            .map(|(i, o)| option_id(i, o));
        let picked = match (&holding[..], &marked) {
            ([one], Some(m)) if one != m => Some((one.clone(), m.clone())),
            _ => None,
        };
        // A key left to the claims (no option marked correct): they pick none, or several. A
        // question may have been meant as an opinion, which claims nothing.
        if p.keyed_by_claims() {
            let opinion = if question {
                "; or, for an opinion question (never graded), remove the claims"
            } else {
                ""
            };
            let (message, hint) = if holding.is_empty() {
                (
                    format!("no option's claim holds: `{}` is {} {at}, so the claims pick no key", claim_out.value, value_str(value)),
                    format!("one option's claim must hold at the scenario: fix the claims (or the scenario), or mark the right option `correct: true`{opinion}"),
                )
            } else {
                (
                    format!("the claims of options {} all hold: `{}` is {} {at}, so they pick no single key", holding.join(", "), claim_out.value, value_str(value)),
                    format!("exactly one option's claim may hold: make the distractors' claims false (narrow `tolerance`, `min`/`max`), or mark the right option `correct: true`{opinion}"),
                )
            };
            out.push(Diagnostic::error(file, claim_out.pos, message).with_hint(hint));
            return;
        }
        // On one track of several the key is an expression of the track.
        let on_track = |pick: &str| match &self.track {
            Some(t) => format!(
                "mark option {pick} correct on track `{t}` (`correct: 'track.id == \"{t}\"'`)"
            ),
            None => format!("mark option {pick} correct"),
        };
        for (i, o) in p.options.iter().enumerate() {
            let Some(c) = &o.claim else { continue };
            let id = option_id(i, o);
            if let Some(d) = claim_kind(file, model, &claim_out.value, value, &id, c) {
                out.push(d);
                continue;
            }
            let holds = claim_holds(&c.value, value);
            if o.correct && !holds {
                let hint = match &picked {
                    Some((pick, _)) => format!("the claims pick option {pick}, the only one whose claim holds: if it is the answer, {} instead of option {id}; if option {id} is, the formulas win: fix them or the scenario", on_track(pick)),
                    None => "the formulas win: fix the option's claim and text (interpolate the value), or the scenario".to_string(),
                };
                out.push(
                    Diagnostic::error(file, c.pos, format!("option {id} is marked correct, but `{}` is {} {at}, which does not satisfy its claim ({})", claim_out.value, value_str(value), describe(&c.value)))
                        .with_hint(hint),
                );
            } else if !o.correct && holds {
                let hint = match &picked {
                    Some((_, m)) => format!("its claim is the only one that holds, so the claims pick it: if it is the answer, {} instead of option {m}; if not, make its claim false", on_track(&id)),
                    None => "two options cannot both be right; make the distractor's claim false or mark the right option correct".to_string(),
                };
                out.push(
                    Diagnostic::error(file, c.pos, format!("option {id} is marked wrong, but its claim ({}) holds: `{}` is {} {at}", describe(&c.value), claim_out.value, value_str(value)))
                        .with_hint(hint),
                );
            }
        }
        self.check_option_texts(part, p, &claim_out.value, sev, out);
    }
}
