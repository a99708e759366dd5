//! A lab compiled for one track: `track` and `variant` bound as lab constants, and the fields
//! written as expressions ([`crate::model::track`]: a slider's `default`/`min`/`max`/`step`, a
//! number input's, a choice's `correct`, a select's `default` with `{{ }}`) computed from the
//! constants and lab formulas, before the lab's structure is checked. Every later step (checks,
//! evaluation, the page, handouts, the terminal) sees plain values: a page or handout is
//! always one track's.

use super::compile::Compiler;
use super::template::{segments, Segment};
use super::value_to_dynamic;
use crate::diag::Diagnostic;
use crate::load::tracks::{variant_record, TRACK, VARIANT};
use crate::model::track::{Track, TrackSet};
use crate::model::*;
use rhai::{Dynamic, Scope};
use std::collections::BTreeSet;

/// The `track` and `variant` constants of `track`.
pub(super) fn bindings(lab: &Lab, track: &Track) -> Vec<(String, Dynamic)> {
    let record = |m: indexmap::IndexMap<String, Value>| value_to_dynamic(&Value::Record(m));
    vec![
        (TRACK.to_string(), record(track.fields.clone())),
        (
            VARIANT.to_string(),
            record(variant_record(&lab.variants, &track.id)),
        ),
    ]
}

/// The track to compile for: `want`, or the set's default. `Err` names the tracks.
pub(super) fn pick<'a>(set: &'a TrackSet, want: Option<&str>) -> Result<Option<&'a Track>, String> {
    match want {
        None => Ok(set.default_track()),
        Some(id) => match set.get(id) {
            Some(t) => Ok(Some(t)),
            None if set.is_empty() => Err(format!("the lab has no tracks (asked for `{id}`)")),
            None => {
                let ids = set.ids();
                let also = crate::diag::did_you_mean(id, ids.iter().copied())
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default();
                Err(format!(
                    "no track `{id}` (tracks: {}){also}",
                    ids.join(", ")
                ))
            }
        },
    }
}

/// Errors for a name of the lab that hides `track` or `variant`.
pub(super) fn reserved_names(c: &mut Compiler, lab: &Lab) {
    let mut names: Vec<(&str, Pos)> = lab
        .constants
        .iter()
        .map(|(k, v)| (k.as_str(), v.pos))
        .chain(lab.formulas.iter().map(|(k, v)| (k.as_str(), v.pos)))
        .collect();
    for p in &lab.parts {
        names.extend(
            p.controls
                .iter()
                .map(|c| (c.id().value.as_str(), c.id().pos)),
        );
        names.extend(p.formulas.iter().map(|(k, v)| (k.as_str(), v.pos)));
    }
    for (n, pos) in names {
        if n == TRACK || n == VARIANT {
            c.err(
                pos,
                format!("`{n}` is the student's track here; the lab has tracks"),
            )
            .hint = Some(format!(
                "rename it: every expression of a lab with tracks reads `{n}.NAME`"
            ));
        }
    }
}

/// Whether the lab plays out differently per track: it has `variants:`, a field written as an
/// expression (`tracked` of them were computed), or an expression reading `track` or
/// `variant` (a formula, lab formula, condition, chart expression or placeholder). A lab of a
/// course with tracks that does none of these is the same on every track: it is checked,
/// tested and rendered once, as before the course had tracks.
pub(super) fn varies(
    c: &Compiler,
    lab: &Lab,
    tracked: usize,
    parts: &[super::CompiledPart],
    lab_exprs: &std::collections::HashMap<String, super::compile::CompiledExpr>,
    lab_names: &BTreeSet<String>,
) -> bool {
    let reads = |refs: Vec<String>| refs.iter().any(|r| r == TRACK || r == VARIANT);
    if tracked > 0 || !lab.variants.is_empty() {
        return true;
    }
    // Lab formulas are compiled and evaluated, not kept: compiled again here, knowing the names
    // they were compiled with (a lab formula reads constants and other lab formulas too).
    let lab_formula_reads = lab.formulas.values().any(|e| {
        c.engine
            .compile(&e.value, lab_names)
            .is_ok_and(|ast| reads(crate::formula::references(&ast)))
    });
    lab_formula_reads
        || lab_exprs
            .values()
            .any(|e| reads(crate::formula::references(&e.ast)))
        || parts.iter().any(|p| {
            p.formulas
                .iter()
                .any(|f| reads(crate::formula::references(&f.expr.ast)))
                || p.exprs
                    .values()
                    .any(|e| reads(crate::formula::references(&e.ast)))
        })
}

/// Computes every field written as an expression, in place; how many there were.
pub(super) fn resolve(c: &mut Compiler, lab: &mut Lab, consts: &[(String, Dynamic)]) -> usize {
    let mut count = 0;
    let names: BTreeSet<String> = consts.iter().map(|(k, _)| k.clone()).collect();
    let mut scope = Scope::new();
    for (k, v) in consts {
        scope.push_dynamic(k.clone(), v.clone());
    }
    let mut cx = Cx {
        c,
        names: &names,
        scope,
    };
    for part in &mut lab.parts {
        for ctl in &mut part.controls {
            match ctl {
                Control::Slider(s) => {
                    count += s.tracked.len();
                    for (field, e) in std::mem::take(&mut s.tracked) {
                        let Some(n) = cx.number(&e, field, &s.id.value) else {
                            continue;
                        };
                        let slot = match field {
                            "default" => Some(&mut s.default),
                            "min" => s.min.as_mut(),
                            "max" => s.max.as_mut(),
                            _ => s.step.as_mut(),
                        };
                        if let Some(slot) = slot {
                            slot.value = n;
                        }
                    }
                }
                Control::Number(s) => {
                    count += s.tracked.len();
                    for (field, e) in std::mem::take(&mut s.tracked) {
                        let Some(n) = cx.number(&e, field, &s.id.value) else {
                            continue;
                        };
                        match field {
                            "default" => s.default.value = n,
                            "min" => s.min = Some(n),
                            "max" => s.max = Some(n),
                            _ => s.step = Some(n),
                        }
                    }
                }
                Control::Select(s) | Control::Radio(s) if s.default.value.contains("{{") => {
                    count += 1;
                    if let Some(t) = cx.text(&s.default) {
                        s.default.value = t;
                    }
                }
                _ => {}
            }
        }
        // A scenario value written `{{ expr }}` takes the expression's value on this track
        // (`batch: "{{ variant.question_batch }}"`); other text with `{{ }}` is rendered (a
        // select's label).
        if let Some(p) = &mut part.prediction {
            for v in p.scenario.values_mut() {
                let Value::Text(t) = &v.value else { continue };
                if !t.contains("{{") {
                    continue;
                }
                count += 1;
                let whole = t.trim();
                let single = whole
                    .strip_prefix("{{")
                    .and_then(|r| r.strip_suffix("}}"))
                    .filter(|inner| !inner.contains("{{") && !inner.contains("}}"));
                let new = match single {
                    Some(inner) => cx
                        .eval(
                            &Spanned::new(inner.trim().to_string(), v.pos),
                            "a scenario value",
                        )
                        .and_then(|d| {
                            serde_json::from_value::<Value>(crate::formula::to_json(&d)).ok()
                        }),
                    None => cx.text(&Spanned::new(t.clone(), v.pos)).map(Value::Text),
                };
                if let Some(n) = new {
                    v.value = n;
                }
            }
        }
        let questions = part
            .prediction
            .iter_mut()
            .map(|p| &mut p.options)
            .chain(part.reflection.iter_mut().map(|q| &mut q.options))
            .chain(part.questions.iter_mut().map(|q| &mut q.spec.options));
        for options in questions {
            for o in options {
                count += o.tracked.len();
                for (_, e) in std::mem::take(&mut o.tracked) {
                    if let Some(b) = cx.boolean(&e) {
                        o.correct = b;
                    }
                }
            }
        }
    }
    count
}

struct Cx<'a, 'b, 'c> {
    c: &'a mut Compiler<'b>,
    names: &'c BTreeSet<String>,
    scope: Scope<'static>,
}

impl Cx<'_, '_, '_> {
    fn eval(&mut self, e: &Expr, what: &str) -> Option<Dynamic> {
        let mut one = std::collections::HashMap::new();
        let before = self.c.diags.len();
        self.c.expr(e, self.names, what, &mut one);
        for d in &mut self.c.diags[before..] {
            if d.message.contains("unknown name") {
                d.hint = Some(
                    "write a number here, or an expression over the lab's constants, its lab-level formulas, `track` and `variant` (it is computed before any control is set)"
                        .into(),
                );
            }
        }
        let ce = one.into_values().next()?;
        match self.c.engine.eval(&ce.ast, &mut self.scope) {
            Ok(v) => Some(v),
            Err(err) => {
                let pos = ce.locate(&err);
                self.c
                    .err(pos, format!("{what} failed: {}", err.message))
                    .hint = err.hint;
                None
            }
        }
    }

    fn number(&mut self, e: &Expr, field: &str, id: &str) -> Option<f64> {
        let what = format!("`{field}` of control `{id}`");
        let v = self.eval(e, &what)?;
        match crate::formula::as_number(&v) {
            Some(n) if n.is_finite() => Some(n),
            _ => {
                self.c.err(e.pos, format!("{what} is `{}`, not a number", super::display(&v)))
                    .hint = Some("the expression must give a finite number on every track, e.g. `variant.start_batch`".into());
                None
            }
        }
    }

    fn boolean(&mut self, e: &Expr) -> Option<bool> {
        let v = self.eval(e, "`correct:`")?;
        match v.as_bool() {
            Ok(b) => Some(b),
            Err(_) => {
                self.c
                    .err(
                        e.pos,
                        format!("`correct:` is `{}`, not true or false", super::display(&v)),
                    )
                    .hint =
                    Some("write a condition, e.g. `\"track.id == 'robotaxi'\"`, or `true`".into());
                None
            }
        }
    }

    fn text(&mut self, t: &Text) -> Option<String> {
        let Ok(segs) = segments(&t.value) else {
            self.c.err(t.pos, "unclosed `{{` placeholder").hint = Some("close it with `}}`".into());
            return None;
        };
        let mut out = String::new();
        for s in segs {
            match s {
                Segment::Lit(l) => out.push_str(l),
                Segment::Expr(src, _) | Segment::Output(src, _) => {
                    let e = Spanned::new(src.to_string(), t.pos);
                    let v = self.eval(&e, "a select's `default:`")?;
                    out.push_str(&super::display(&v));
                }
            }
        }
        Some(out)
    }
}

impl super::CompiledLab {
    /// The lab compiled for track `id` ([`Self::on_track`]), or why not as one diagnostic for a
    /// place that needs every track (a course's site, a ledger's shape): the first error, where
    /// it is in the lab's file, saying which track, with a hint.
    pub fn on_track_or_first(&self, id: &str) -> Result<super::CompiledLab, Diagnostic> {
        self.on_track(id).map_err(|d| {
            let first = d
                .iter()
                .find(|d| d.is_error())
                .or(d.first())
                .cloned()
                .unwrap_or_else(|| Diagnostic::from("it does not compile"))
                .in_file(&self.source.name);
            let hint = first.hint.clone().unwrap_or_else(|| {
                format!(
                    "`labforge check {}` lists the lab's errors on each of its tracks",
                    self.source.name
                )
            });
            Diagnostic {
                message: format!(
                    "the lab does not compile on track `{id}`: {}",
                    first.message
                ),
                hint: Some(hint),
                ..first
            }
        })
    }

    /// The tracks other than this one the lab must also be checked, tested and rendered on
    /// (none when the lab is the same on every track, see `varies`).
    pub fn other_tracks(&self) -> Vec<String> {
        match &self.track {
            None => Vec::new(),
            Some(this) => self
                .tracks
                .tracks
                .iter()
                .filter(|t| &t.id != this)
                .map(|t| t.id.clone())
                .collect(),
        }
    }

    /// The compile warnings and [`Self::check_semantics`] of the lab under every track (itself
    /// alone without tracks). A finding on every track is given once; one on some tracks only
    /// says which (`… (on track `oura`)`), and a track that does not compile gives its errors
    /// the same way.
    pub fn check_every_track(&self) -> Vec<Diagnostic> {
        let own = |l: &super::CompiledLab| {
            let mut d = l.warnings.clone();
            d.extend(l.check_semantics());
            let ends = l.check_carried(&d);
            d.extend(ends);
            d
        };
        let Some(this) = self.track.clone() else {
            return own(self);
        };
        let mut per: Vec<(String, Vec<Diagnostic>)> = Vec::new();
        for t in &self.tracks.tracks {
            if t.id == this {
                per.push((t.id.clone(), own(self)));
                continue;
            }
            let d = match self.on_track(&t.id) {
                Ok(l) => own(&l),
                Err(d) => d,
            };
            per.push((t.id.clone(), d));
        }
        merge_by_track(per)
    }
}

/// One list of diagnostics from each track's: those found on every track once, as they are;
/// the others with the tracks they were found on.
pub fn merge_by_track(per: Vec<(String, Vec<Diagnostic>)>) -> Vec<Diagnostic> {
    let n = per.len();
    let mut seen: Vec<(Diagnostic, Vec<String>)> = Vec::new();
    for (track, diags) in per {
        for d in diags {
            match seen.iter_mut().find(|(s, _)| *s == d) {
                Some((_, on)) if !on.contains(&track) => on.push(track.clone()),
                Some(_) => {}
                None => seen.push((d, vec![track.clone()])),
            }
        }
    }
    seen.into_iter()
        .map(|(mut d, on)| {
            if on.len() < n {
                let names: Vec<String> = on.iter().map(|t| format!("`{t}`")).collect();
                let word = if on.len() == 1 { "track" } else { "tracks" };
                d.message = format!("{} (on {word} {})", d.message, names.join(", "));
            }
            d
        })
        .collect()
}
