//! Evaluation: a compiled part at given control values gives every named value, the outputs as
//! shown, the active feedback banners and the chart data.

mod answer_test;
mod balance;
pub mod carried;
pub mod chart;
pub mod compile;
mod display;
mod earlier;
mod feedback_numbers;
pub mod functions;
mod giveaway;
pub mod keys;
mod lab_formulas;
pub mod labtest;
pub mod lint;
mod numbers;
pub mod quantity;
pub mod scale;
mod shared;
pub use crate::template;
mod textwords;
mod tracks;
mod words;
mod worked;
pub mod xpart;

pub use compile::{compile, CompiledLab, CompiledPart};

pub use display::{format_output, shown, Shown};

use crate::diag::Diagnostic;
use crate::formula::{as_number, messages, to_json};
use crate::library::format;
use crate::load::{self, Source};
use crate::model::*;
use indexmap::IndexMap;
use rhai::{Dynamic, Scope};
use serde::Serialize;

/// Converts a literal from the lab file to a formula value.
pub fn value_to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Number(n) => Dynamic::from_float(*n),
        Value::Text(s) => Dynamic::from(s.clone()),
        Value::List(l) => Dynamic::from_array(l.iter().map(value_to_dynamic).collect()),
        Value::Record(m) => Dynamic::from_map(
            m.iter()
                .map(|(k, v)| (k.as_str().into(), value_to_dynamic(v)))
                .collect(),
        ),
    }
}

/// Parses and compiles lab text.
pub fn load_source(source: Source) -> Result<CompiledLab, (Option<Source>, Vec<Diagnostic>)> {
    let lab = match load::parse(&source) {
        Ok(l) => l,
        Err(d) => return Err((Some(source), vec![d])),
    };
    compile(lab, &source).map_err(|d| (Some(source), d))
}

/// A run-time failure, located at the expression that failed.
#[derive(Debug, Clone)]
pub struct EvalError(pub Diagnostic);

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.render(None).trim_end())
    }
}

/// Every named value of a part at some control values.
#[derive(Clone)]
pub struct Evaluation {
    pub part: usize,
    /// Constants, controls and formulas by name, in that order.
    pub values: IndexMap<String, Dynamic>,
}

/// An output as shown: value, formatted text and colour level.
#[derive(Debug, Clone, Serialize)]
pub struct OutputView {
    pub name: String,
    pub label: String,
    pub unit: String,
    pub value: serde_json::Value,
    pub display: String,
    pub level: Option<String>,
}

/// A piece of rendered template text: literal text and placeholder values (`output: None`), or
/// an output shown by `{{ @name }}` with its level (`None` when the output has no bands or
/// `level:`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    pub text: String,
    pub level: Option<String>,
    pub output: Option<String>,
}

/// The words beside a levelled value (colour is never the only signal), as the page's metric
/// cards show them: `✓ good`, `⚠ warning`, `✗ bad`, else the level itself.
pub fn level_words(level: &str) -> &str {
    match level {
        "good" => "✓ good",
        "warn" => "⚠ warning",
        "bad" => "✗ bad",
        other => other,
    }
}

/// A banner whose condition holds.
#[derive(Debug, Clone, Serialize)]
pub struct ActiveCallout {
    pub kind: &'static str,
    pub title: Option<String>,
    pub text: String,
}

impl CompiledLab {
    /// The same lab compiled for track `id` (of its course's tracks, or its own).
    pub fn on_track(&self, id: &str) -> Result<CompiledLab, Vec<Diagnostic>> {
        let lab = load::parse(&self.source).map_err(|d| vec![d])?;
        let course = if self.lab.tracks.is_empty() {
            self.tracks.clone()
        } else {
            Default::default()
        };
        compile::compile_on(lab, &self.source, self.modules.clone(), &course, Some(id))
    }

    fn expr_error(
        &self,
        ce: &compile::CompiledExpr,
        e: &crate::formula::FormulaError,
        message: String,
    ) -> EvalError {
        EvalError(
            Diagnostic::error(&self.source.name, ce.locate(e), message).maybe_hint(e.hint.clone()),
        )
    }

    /// Control values at the defaults, overridden by `set` (validated).
    pub fn inputs(
        &self,
        part: &CompiledPart,
        set: &IndexMap<String, Dynamic>,
    ) -> Result<IndexMap<String, Dynamic>, String> {
        let model = &self.lab.parts[part.index];
        let mut v: IndexMap<String, Dynamic> = part
            .controls
            .iter()
            .map(|c| (c.id.clone(), c.default.clone()))
            .collect();
        for (k, x) in set {
            let Some(ctl) = model.controls.iter().find(|c| &c.id().value == k) else {
                let ids: Vec<&str> = part.controls.iter().map(|c| c.id.as_str()).collect();
                return Err(format!(
                    "`{k}` is not a control of part `{}` (controls: {})",
                    part.id,
                    ids.join(", ")
                ));
            };
            v.insert(k.clone(), validate_control(ctl, x)?);
        }
        Ok(v)
    }

    /// Starts a new total budget (`formula::budget::LAB_BUDGET`) for the evaluations that follow:
    /// a command's evaluations share one, and a long session (`labforge run`) starts one per
    /// view, as the page does per update.
    pub fn start_update(&self) {
        self.engine
            .meter()
            .reset_total(crate::formula::budget::LAB_BUDGET);
    }

    /// Evaluates a part at the given control values (all controls present: see [`Self::inputs`]).
    pub fn evaluate(
        &self,
        part: &CompiledPart,
        inputs: &IndexMap<String, Dynamic>,
    ) -> Result<Evaluation, EvalError> {
        self.evaluate_only(part, inputs, None)
    }

    /// As [`Self::evaluate`], computing only the formulas in `only` (when given; they must
    /// include their dependencies, see [`CompiledPart::needed_by`]).
    pub fn evaluate_only(
        &self,
        part: &CompiledPart,
        inputs: &IndexMap<String, Dynamic>,
        only: Option<&std::collections::BTreeSet<String>>,
    ) -> Result<Evaluation, EvalError> {
        self.evaluate_for(part, inputs, only, true)
    }

    /// [`Self::evaluate_only`]; without `record`, `prediction` (every part's entry) is `()`, for
    /// what never reads it (copying it per banner sample made `check` superlinear in the parts).
    pub(crate) fn evaluate_for(
        &self,
        part: &CompiledPart,
        inputs: &IndexMap<String, Dynamic>,
        only: Option<&std::collections::BTreeSet<String>>,
        record: bool,
    ) -> Result<Evaluation, EvalError> {
        let mut scope = Scope::new();
        for (k, v) in self.constants.iter().chain(part.constants.iter()) {
            scope.push_dynamic(k.as_str(), v.clone());
        }
        for c in &part.controls {
            let v = inputs
                .get(&c.id)
                .cloned()
                .unwrap_or_else(|| c.default.clone());
            scope.push_dynamic(c.id.as_str(), v);
        }
        if !part.reads_parts.is_empty() {
            scope.push_dynamic(earlier::NAME, self.earlier_values(part)?);
        }
        for f in &part.formulas {
            if only.is_some_and(|o| !o.contains(&f.name)) {
                continue;
            }
            let v = self.engine.eval(&f.expr.ast, &mut scope).map_err(|e| {
                let m = messages::fill(messages::FORMULA, &[&f.name, &e.message]);
                self.expr_error(&f.expr, &e, m)
            })?;
            scope.push_dynamic(f.name.as_str(), v);
        }
        // Moved, not copied, in definition order: constants, controls, formulas; then the
        // locked-in answer (`inputs["answer"]`, see [`Self::with_answer`]) and the predictions,
        // which formulas never see (compile binds them only when no other name is theirs).
        let mut values: IndexMap<String, Dynamic> =
            scope.into_iter().map(|(k, v, _)| (k, v)).collect();
        if let Some(unset) = &part.answer {
            let v = inputs
                .get("answer")
                .cloned()
                .unwrap_or_else(|| unset.clone());
            values.insert("answer".to_string(), v);
        }
        if let Some(unset) = &part.predictions {
            let v = inputs.get(xpart::NAME).unwrap_or(unset);
            let v = if record { v.clone() } else { Dynamic::UNIT };
            values.insert(xpart::NAME.to_string(), v);
        }
        Ok(Evaluation {
            part: part.index,
            values,
        })
    }

    /// `inputs` with the student's locked-in answers (part id → option id, or typed number as
    /// text, e.g. from the ledger): the part's own as `answer`, every part's as `prediction.x`
    /// ([`xpart`]). A part not in `answers` stays unanswered.
    pub fn with_answers(
        &self,
        part: &CompiledPart,
        mut inputs: IndexMap<String, Dynamic>,
        answers: &IndexMap<String, String>,
    ) -> IndexMap<String, Dynamic> {
        if let (Some(unset), Some(a)) = (&part.answer, answers.get(&part.id)) {
            inputs.insert("answer".to_string(), xpart::answer_value(unset, a));
        }
        if let Some(unset) = &part.predictions {
            inputs.insert(xpart::NAME.to_string(), xpart::record_with(unset, answers));
        }
        inputs
    }

    /// Evaluates at the defaults overridden by `set`.
    pub fn evaluate_with(
        &self,
        part_id: &str,
        set: &IndexMap<String, Dynamic>,
    ) -> Result<Evaluation, String> {
        let part = self
            .part(part_id)
            .ok_or_else(|| format!("no part `{part_id}`"))?;
        let inputs = self.inputs(part, set)?;
        self.evaluate(part, &inputs).map_err(|e| e.to_string())
    }

    /// The scenario of a part's prediction (defaults where it says nothing).
    pub fn scenario(&self, part: &CompiledPart) -> IndexMap<String, Dynamic> {
        let model = &self.lab.parts[part.index];
        let mut v: IndexMap<String, Dynamic> = part
            .controls
            .iter()
            .map(|c| (c.id.clone(), c.default.clone()))
            .collect();
        if let Some(p) = &model.prediction {
            for (k, x) in &p.scenario {
                let Some(ctl) = model.controls.iter().find(|c| &c.id().value == k) else {
                    continue;
                };
                // A select's label means its value, as in `eval --set` and `tests:`.
                let d = value_to_dynamic(&x.value);
                v.insert(k.clone(), validate_control(ctl, &d).unwrap_or(d));
            }
        }
        v
    }

    /// A scope holding the evaluation's values (or, without one, the lab's constants).
    pub fn base_scope(&self, ev: Option<&Evaluation>) -> Scope<'static> {
        let mut scope = Scope::new();
        let values: Box<dyn Iterator<Item = (&String, &Dynamic)>> = match ev {
            Some(ev) => Box::new(ev.values.iter()),
            None => Box::new(self.constants.iter().map(|(k, v)| (k, v))),
        };
        for (k, v) in values {
            scope.push_dynamic(k.clone(), v.clone());
        }
        scope
    }

    /// Evaluates an expression of `part` (by its text) with the evaluation's values plus `extra`.
    pub fn eval_expr(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        src: &str,
        extra: &[(&str, Dynamic)],
    ) -> Result<Dynamic, EvalError> {
        self.eval_expr_in(part, &mut self.base_scope(ev), src, extra)
    }

    /// Evaluates an expression in a prepared scope (see [`Self::base_scope`]) plus `extra`; the
    /// scope is left as it was, so one scope serves many evaluations (chart points).
    pub fn eval_expr_in(
        &self,
        part: Option<&CompiledPart>,
        scope: &mut Scope,
        src: &str,
        extra: &[(&str, Dynamic)],
    ) -> Result<Dynamic, EvalError> {
        let src = src.trim();
        let ce = part
            .and_then(|p| p.exprs.get(src))
            .or_else(|| self.exprs.get(src))
            .ok_or_else(|| {
                EvalError(Diagnostic::error(
                    &self.source.name,
                    Pos::UNKNOWN,
                    format!("internal: expression `{src}` was not compiled"),
                ))
            })?;
        let len = scope.len();
        for (k, v) in extra {
            scope.push_dynamic(*k, v.clone());
        }
        let r = self.engine.eval(&ce.ast, scope);
        scope.rewind(len);
        r.map_err(|e| {
            let m = messages::fill(messages::EXPRESSION, &[&e.message]);
            self.expr_error(ce, &e, m)
        })
    }

    /// Renders a template: placeholders replaced by their values (numbers via `fmt(x)`), and
    /// `{{ @name }}` by the output's text as shown (see [`Self::render_spans`] for its level).
    pub fn render_text(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        text: &str,
        extra: &[(&str, Dynamic)],
    ) -> Result<String, EvalError> {
        Ok(self
            .render_spans(part, ev, text, extra)?
            .into_iter()
            .map(|s| s.text)
            .collect())
    }

    /// Renders a template as pieces: literal text and placeholder values (no level), and each
    /// `{{ @name }}` as the output's text with its level (when it has bands or `level:`).
    pub fn render_spans(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        text: &str,
        extra: &[(&str, Dynamic)],
    ) -> Result<Vec<Span>, EvalError> {
        let fail = |msg: String| EvalError(Diagnostic::error(&self.source.name, Pos::UNKNOWN, msg));
        let segs = template::segments(text).map_err(|_| fail("unclosed placeholder".into()))?;
        let mut out: Vec<Span> = Vec::new();
        let plain = |out: &mut Vec<Span>, t: &str| match out.last_mut() {
            Some(s) if s.output.is_none() => s.text.push_str(t),
            _ => out.push(Span {
                text: t.to_string(),
                level: None,
                output: None,
            }),
        };
        for s in segs {
            match s {
                template::Segment::Lit(l) => plain(&mut out, l),
                template::Segment::Expr(e, _) => {
                    // A placeholder reading a prediction not answered yet says so.
                    let held = match (part, ev) {
                        (Some(cp), Some(ev)) => cp
                            .exprs
                            .get(e.trim())
                            .and_then(|ce| xpart::unanswered(cp, ev, &xpart::reads(cp, &ce.ast))),
                        _ => None,
                    };
                    match held {
                        Some(t) => plain(&mut out, &t),
                        None => plain(&mut out, &display(&self.eval_expr(part, ev, e, extra)?)),
                    }
                }
                template::Segment::Output(name, _) => {
                    let Some(ev) = ev else {
                        return Err(fail(format!(
                            "`@{name}` shows an output, but this text belongs to no part"
                        )));
                    };
                    let view = self.output_view(ev, name)?;
                    out.push(Span {
                        text: view.display,
                        level: view.level,
                        output: Some(view.name),
                    });
                }
            }
        }
        Ok(out)
    }

    /// Renders a template with each levelled `{{ @name }}` written by `mark(text, level)` (other
    /// pieces as [`Self::render_text`] writes them).
    pub fn render_marked(
        &self,
        part: Option<&CompiledPart>,
        ev: Option<&Evaluation>,
        text: &str,
        mark: &dyn Fn(&str, &str) -> String,
    ) -> Result<String, EvalError> {
        Ok(self
            .render_spans(part, ev, text, &[])?
            .into_iter()
            .map(|s| match (&s.output, &s.level) {
                (Some(_), Some(l)) => mark(&s.text, l),
                _ => s.text,
            })
            .collect())
    }

    /// The level of output `o` at value `v` (its `level:`, else its bands; none without
    /// either): what its card shows, and the colour of a chart's bar showing it.
    pub fn output_level(
        &self,
        ev: &Evaluation,
        o: &Output,
        v: &Dynamic,
    ) -> Result<Option<String>, EvalError> {
        Ok(match (&o.level, &o.bands) {
            (Some(l), _) => Some(
                self.eval_expr(
                    Some(&self.parts[ev.part]),
                    Some(ev),
                    &l.value,
                    &[("value", v.clone())],
                )?
                .to_string(),
            ),
            (None, Some(b)) => as_number(v).map(|x| band_level(b, x).to_string()),
            _ => None,
        })
    }

    /// One output of the evaluated part as shown.
    pub fn output_view(&self, ev: &Evaluation, name: &str) -> Result<OutputView, EvalError> {
        let part = &self.parts[ev.part];
        let model = &self.lab.parts[ev.part];
        let Some(o) = model.outputs.get(name) else {
            return Err(EvalError(Diagnostic::error(
                &self.source.name,
                Pos::UNKNOWN,
                format!("`{name}` is not an output of part `{}`", part.id),
            )));
        };
        let v = ev.values.get(name).cloned().unwrap_or(Dynamic::UNIT);
        let level = self.output_level(ev, o, &v)?;
        Ok(OutputView {
            name: name.to_string(),
            label: o.label.clone().unwrap_or_else(|| name.to_string()),
            unit: o.unit.clone().unwrap_or_default(),
            value: to_json(&v),
            display: format_output(o, &v),
            level,
        })
    }

    /// Outputs of the evaluated part as shown.
    pub fn outputs(&self, ev: &Evaluation) -> Result<Vec<OutputView>, EvalError> {
        self.lab.parts[ev.part]
            .outputs
            .keys()
            .map(|name| self.output_view(ev, name))
            .collect()
    }

    /// Banners whose conditions hold.
    pub fn callouts(&self, ev: &Evaluation) -> Result<Vec<ActiveCallout>, EvalError> {
        let part = &self.parts[ev.part];
        let mut out = Vec::new();
        for rule in &self.lab.parts[ev.part].feedback {
            let on = self.eval_expr(Some(part), Some(ev), &rule.when.value, &[])?;
            if on.as_bool().unwrap_or(false) {
                if let Some((kind, text)) = rule.callout() {
                    let title = rule
                        .title
                        .as_ref()
                        .map(|t| self.render_text(Some(part), Some(ev), &t.value, &[]))
                        .transpose()?;
                    out.push(ActiveCallout {
                        kind: kind.as_str(),
                        title,
                        text: self.render_text(Some(part), Some(ev), &text.value, &[])?,
                    });
                }
            }
        }
        Ok(out)
    }
}

/// The level of `x` under `bands`.
pub fn band_level(b: &Bands, x: f64) -> &'static str {
    if let Some(g) = b.good_below {
        if x < g {
            return "good";
        }
        return match b.warn_below {
            Some(w) if x < w => "warn",
            _ => "bad",
        };
    }
    if let Some(g) = b.good_above {
        if x > g {
            return "good";
        }
        return match b.warn_above {
            Some(w) if x > w => "warn",
            _ => "bad",
        };
    }
    "good"
}

/// How a placeholder's value reads in prose.
pub fn display(v: &Dynamic) -> String {
    match as_number(v) {
        Some(x) => format::auto(x),
        None => v.to_string(),
    }
}

/// Checks a value for a control and normalises it (numbers to floats; selects by value or label).
pub fn validate_control(ctl: &Control, x: &Dynamic) -> Result<Dynamic, String> {
    let id = &ctl.id().value;
    let num = || as_number(x).ok_or_else(|| format!("`{id}` takes a number, not `{x}`"));
    match ctl {
        Control::Slider(s) => {
            let v = num()?;
            if let Some(vals) = &s.values {
                if !vals
                    .value
                    .iter()
                    .any(|a| (a - v).abs() <= 1e-9 * a.abs().max(1.0))
                {
                    return Err(format!("`{id}` must be one of {:?}, not {v}", vals.value));
                }
                return Ok(Dynamic::from_float(v));
            }
            let (min, max) = (
                s.min.as_ref().map(|m| m.value).unwrap_or(f64::MIN),
                s.max.as_ref().map(|m| m.value).unwrap_or(f64::MAX),
            );
            let (lo, hi, pos) = match s.exponent_base {
                Some(b) => (b.powf(min), b.powf(max), v.log(b)),
                None => (min, max, v),
            };
            if v < lo.min(hi) - 1e-9 * lo.abs().max(1.0)
                || v > hi.max(lo) + 1e-9 * hi.abs().max(1.0)
            {
                return Err(format!(
                    "`{id}` must be between {} and {}, not {v}",
                    format::auto(lo),
                    format::auto(hi)
                ));
            }
            // The page's range input moves by `step`, 1 when none is given (in the exponent for
            // a power slider): a value between its positions is one the page cannot have.
            let step = s.step.as_ref().map_or(1.0, |st| st.value);
            let k = (pos - min) / step;
            if step > 0.0 && (k - k.round()).abs() > 1e-6 {
                let at = |k: f64| {
                    let p = min + k * step;
                    format::auto(s.exponent_base.map_or(p, |b| b.powf(p)))
                };
                let (below, above) = (at(k.floor()), at(k.ceil()));
                let moves = match s.exponent_base {
                    Some(b) if step == 1.0 => format!("in powers of {}", format::auto(b)),
                    Some(b) => format!("×{} per step", format::auto(b.powf(step))),
                    None => format!(
                        "in steps of {} from {}",
                        format::auto(step),
                        format::auto(min)
                    ),
                };
                return Err(format!(
                    "`{id}` moves {moves}: {} is not one of its values; the nearest are {below} and {above}",
                    format::auto(v)
                ));
            }
            Ok(Dynamic::from_float(v))
        }
        Control::Number(n) => {
            let v = num()?;
            if n.min.is_some_and(|m| v < m) || n.max.is_some_and(|m| v > m) {
                return Err(format!(
                    "`{id}` must be between {:?} and {:?}, not {v}",
                    n.min, n.max
                ));
            }
            Ok(Dynamic::from_float(v))
        }
        Control::Switch(_) => x
            .as_bool()
            .map(Dynamic::from_bool)
            .map_err(|_| format!("`{id}` is a switch: true or false, not `{x}`")),
        Control::Select(s) | Control::Radio(s) => {
            // By label, or by value.
            if x.is_string() {
                if let Some(v) = s.options.value.get(&x.to_string()) {
                    return Ok(value_to_dynamic(v));
                }
            }
            for v in s.options.value.values() {
                let d = value_to_dynamic(v);
                let same = match (as_number(&d), as_number(x)) {
                    (Some(a), Some(b)) => a == b,
                    _ => d.to_string() == x.to_string() && d.type_name() == x.type_name(),
                };
                if same {
                    return Ok(d);
                }
            }
            let labels: Vec<String> = s
                .options
                .value
                .iter()
                .map(|(k, v)| format!("{k} = {}", value_display(v)))
                .collect();
            Err(format!(
                "`{id}` has no option `{x}` (options: {})",
                labels.join("; ")
            ))
        }
        Control::Checkboxes(cb) => {
            let Some(m) = x.read_lock::<rhai::Map>() else {
                return Err(format!("`{id}` takes a record of option: true/false"));
            };
            let mut out = rhai::Map::new();
            for k in cb.options.keys() {
                let on = m
                    .get(k.as_str())
                    .map(|v| v.as_bool().unwrap_or(false))
                    .unwrap_or(false);
                out.insert(k.as_str().into(), Dynamic::from_bool(on));
            }
            for k in m.keys() {
                if !cb.options.contains_key(k.as_str()) {
                    return Err(format!("`{id}` has no option `{k}`"));
                }
            }
            Ok(Dynamic::from_map(out))
        }
    }
}

fn value_display(v: &Value) -> String {
    match v {
        Value::Number(n) => format::auto(*n),
        other => to_json(&value_to_dynamic(other)).to_string(),
    }
}

/// Parses a command-line value: number, true/false, a YAML flow list or record as the lab file
/// writes them (`{hier: true, n: 2}`; JSON is a special case), or a bare string.
pub fn parse_cli_value(s: &str) -> Dynamic {
    let t = s.trim();
    if let Ok(x) = t.parse::<f64>() {
        return Dynamic::from_float(x);
    }
    match t {
        "true" => return Dynamic::from_bool(true),
        "false" => return Dynamic::from_bool(false),
        _ => {}
    }
    if t.starts_with('{') || t.starts_with('[') {
        // Read as plain YAML data first: serde-saphyr does not match a flow mapping against
        // the untagged `Value` directly.
        if let Some(v) = serde_saphyr::from_str::<serde_json::Value>(t)
            .ok()
            .and_then(|j| serde_json::from_value::<Value>(j).ok())
        {
            return value_to_dynamic(&v);
        }
    }
    Dynamic::from(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_values_take_the_lab_files_flow_syntax() {
        for (yaml, json) in [
            ("{hier: true, n: 2}", r#"{"hier":true,"n":2.0}"#),
            (r#"{"hier": true}"#, r#"{"hier":true}"#),
            ("[1, 2.5, x]", r#"[1.0,2.5,"x"]"#),
        ] {
            assert_eq!(to_json(&parse_cli_value(yaml)).to_string(), json, "{yaml}");
        }
        assert_eq!(parse_cli_value("{broken").into_string().unwrap(), "{broken");
    }

    const LAB: &str = r#"
id: t
title: "T {{ n }}"
constants:
  n: { value: 2 }
parts:
  - id: a
    title: A
    controls:
      - slider: { id: u, label: U, min: 0.1, max: 0.9, step: 0.1, default: 0.5 }
    formulas:
      waste: u * 40
      ok: u < 0.6
    outputs:
      waste: { label: Waste, unit: "%", digits: 1, bands: { good_below: 15, warn_below: 30 } }
      ok: { label: OK, words: [fine, broken] }
    instruments:
      - panel:
          title: P
          lines: ["= **{{ @waste }} waste**, {{ @ok }} at {{ u }}"]
"#;

    fn lab(text: &str) -> Result<CompiledLab, Vec<Diagnostic>> {
        load_source(Source::new("t.yaml", text)).map_err(|(_, d)| d)
    }

    #[test]
    fn output_placeholders_render_as_shown_with_their_level() {
        let lab = lab(LAB).unwrap();
        let ev = lab.evaluate_with("a", &IndexMap::new()).unwrap();
        let cp = lab.part("a");
        let line = "= **{{ @waste }} waste**, {{ @ok }} at {{ u }}";
        let spans = lab.render_spans(cp, Some(&ev), line, &[]).unwrap();
        let s = |text: &str, level: Option<&str>, output: Option<&str>| Span {
            text: text.into(),
            level: level.map(Into::into),
            output: output.map(Into::into),
        };
        assert_eq!(
            spans,
            vec![
                s("= **", None, None),
                s("20.0%", Some("warn"), Some("waste")),
                s(" waste**, ", None, None),
                s("fine", None, Some("ok")),
                s(" at 0.50", None, None),
            ]
        );
        assert_eq!(
            lab.render_text(cp, Some(&ev), line, &[]).unwrap(),
            "= **20.0% waste**, fine at 0.50"
        );
        let marked = lab
            .render_marked(cp, Some(&ev), line, &|t, l| format!("<{t}|{l}>"))
            .unwrap();
        assert_eq!(marked, "= **<20.0%|warn> waste**, fine at 0.50");
    }

    #[test]
    fn output_placeholders_outside_a_part_or_unknown_are_check_errors() {
        let bad = LAB.replace("title: \"T {{ n }}\"", "title: \"T {{ @waste }}\"");
        let d = lab(&bad).err().unwrap();
        assert!(
            d[0].message.contains("belongs to no part"),
            "{:?}",
            d[0].message
        );
        assert_eq!((d[0].line, d[0].col), (3, 14));
        let typo = LAB.replace("{{ @ok }}", "{{ @okk }}");
        let d = lab(&typo).err().unwrap();
        assert_eq!(d[0].message, "`@okk` is not an output of part `a`");
        assert_eq!(d[0].hint.as_deref(), Some("did you mean `ok`?"));
    }
}
