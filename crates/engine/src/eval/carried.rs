//! Numbers carried between the labs of a course. A lab's `reads:` names a number an earlier lab
//! keeps in the course record — a value it declares under `records:`, a control's setting, or
//! a numeric prediction — with a `default` and a `range`. Here it is a lab constant holding the
//! default (so `check` and `test` see the lab as a student who has not done the earlier lab
//! does, and [`super::CompiledLab::check_every_track`] proves it at both ends of the range
//! too); the page, the terminal and the handouts put in the record's number when it is one
//! inside the range ([`lookup`]), and say where each number came from. A lab formula reading a
//! carried number moves into the parts ([`super::shared`]), so nothing is computed from the
//! default once and kept.
//!
//! In the record an earlier lab's `records:` value `NAME` is kept beside the settings it was
//! computed at: the part's `controls` hold it as `@NAME` ([`crate::ledger`]). Everything read
//! from a record is the student's data: only a finite number inside the range counts.

use super::compile::Compiler;
use super::CompiledLab;
use crate::model::{Lab, Pos, Read};
use rhai::Dynamic;
use serde_json::Value as J;

/// Where a carried number came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// The course record's number.
    Record,
    /// The default: the record holds nothing for it (the earlier lab is not done yet).
    Missing,
    /// The default: what the record holds is not a number inside the range.
    Refused,
}

/// A carried number as a view shows it.
#[derive(Debug, Clone)]
pub struct Carried {
    pub name: String,
    pub label: String,
    pub unit: Option<String>,
    pub value: f64,
    pub origin: Origin,
    /// "from Fault Tolerance, your setting" / "default: Fault Tolerance not done yet" / …
    pub how: String,
}

/// What the record holds for `read` in the earlier lab's ledger `ledger` (`None`: nothing),
/// and whether it is a number inside the range. The page's `carried` (runtime.js) does the same.
pub fn lookup(ledger: Option<&J>, read: &Read) -> (Option<f64>, Origin) {
    let Some((kind, key)) = read.kind() else {
        return (None, Origin::Missing);
    };
    let parts = ledger.and_then(|l| l.get("parts")).and_then(J::as_object);
    let got: Option<&J> = parts.and_then(|parts| match kind {
        "record" => {
            // The part holding `@NAME`: the first by part id (the earlier lab keeps it in one).
            let mut ids: Vec<&String> = parts.keys().collect();
            ids.sort();
            ids.into_iter()
                .find_map(|p| parts[p].get("controls")?.get(format!("@{}", key.value)))
        }
        "control" => {
            let (p, c) = key.value.split_once('.')?;
            parts.get(p)?.get("controls")?.get(c)
        }
        _ => parts.get(&key.value)?.get("prediction"),
    });
    let Some(got) = got else {
        return (None, Origin::Missing);
    };
    let x = match got {
        J::Number(n) => n.as_f64(),
        J::String(s) if kind == "prediction" && is_plain_number(s) => s.parse::<f64>().ok(),
        _ => None,
    };
    let (lo, hi) = read.range.value;
    match x {
        Some(x) if x.is_finite() && x >= lo && x <= hi => (Some(x), Origin::Record),
        _ => (None, Origin::Refused),
    }
}

/// A number as a locked numeric prediction is kept (`-12.5`, `3e4`): the page accepts the same
/// (`/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/`).
fn is_plain_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (m, e) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mant = match m.split_once('.') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(m),
    };
    let exp = e.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mant && exp
}

/// What the student's setting is called by kind: "your setting", "your recorded value", …
pub fn kind_words(kind: &str) -> &'static str {
    match kind {
        "control" => "your setting",
        "prediction" => "your locked prediction",
        _ => "your recorded value",
    }
}

/// The three texts a carried number may show with: from the record, not done yet, refused.
pub fn how_texts(read: &Read, title: &str) -> [String; 3] {
    let kind = read.kind().map_or("record", |k| k.0);
    let (lo, hi) = read.range.value;
    [
        format!("from “{title}”, {}", kind_words(kind)),
        format!("default: “{title}” not done yet"),
        format!("default: the record of “{title}” holds no number from {lo} to {hi} for it"),
    ]
}

impl CompiledLab {
    /// Sets the carried number `name` (a lab constant) to `v`.
    pub fn set_carried(&mut self, name: &str, v: f64) {
        if let Some(c) = self.constants.iter_mut().find(|(k, _)| k == name) {
            c.1 = Dynamic::from_float(v);
        }
    }

    /// Fills every carried number from the course record's ledgers (`ledger_of(lab id)`), with
    /// `title_of(lab id)` naming the earlier lab; returns each as the views show it.
    pub fn carry_from(
        &mut self,
        ledger_of: &dyn Fn(&str) -> Option<J>,
        title_of: &dyn Fn(&str) -> String,
    ) -> Vec<Carried> {
        let mut out = Vec::new();
        for r in self.lab.reads.clone() {
            let l = ledger_of(&r.from.value);
            let (x, origin) = lookup(l.as_ref(), &r);
            let value = x.unwrap_or(r.default.value);
            self.set_carried(&r.name.value, value);
            let [rec, missing, refused] = how_texts(&r, &title_of(&r.from.value));
            out.push(Carried {
                name: r.name.value.clone(),
                label: r.label.clone().unwrap_or_else(|| r.name.value.clone()),
                unit: r.unit.clone(),
                value,
                how: match origin {
                    Origin::Record => rec,
                    Origin::Missing => missing,
                    Origin::Refused => refused,
                },
                origin,
            });
        }
        out
    }
}

/// Checks the shape of each read (exactly one kind, a range holding the default, a name of its
/// own) and returns the carried names with their defaults, which become lab constants.
pub(super) fn constants(c: &mut Compiler, lab: &Lab) -> Vec<(String, Dynamic)> {
    let mut out: Vec<(String, Dynamic)> = Vec::new();
    for r in &lab.reads {
        let name = &r.name.value;
        if r.kind().is_none() {
            c.err(r.from.pos, format!("the read of `{name}` must name exactly one of `record`, `control` and `prediction`"))
                .hint = Some("e.g. `record: cluster_gpus` (a value the earlier lab lists under `records:`), `control: a.nodes` or `prediction: b`".into());
        }
        let (lo, hi) = r.range.value;
        if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
            c.err(
                r.range.pos,
                format!("the range of `{name}` is not `[lo, hi]` with lo ≤ hi"),
            )
            .hint = Some("write two finite numbers, the smaller first: `range: [1, 100]`".into());
        } else if !(r.default.value >= lo && r.default.value <= hi) {
            c.err(
                r.default.pos,
                format!("the default of `{name}` ({}) is outside its range [{lo}, {hi}]", r.default.value),
            )
            .hint = Some("the default must be a number the lab accepts: widen the range or change the default".into());
        }
        if !crate::load::check::is_identifier(name) {
            c.err(r.name.pos, format!("`as: {name}` is not a valid name"))
                .hint =
                Some("letters, digits and `_`, not starting with a digit: `as: fleet_gpus`".into());
        }
        let taken = lab.constants.contains_key(name)
            || lab.formulas.contains_key(name)
            || lab.controls.iter().any(|x| x.id().value == *name)
            || out.iter().any(|(k, _)| k == name);
        if taken {
            c.err(r.name.pos, format!("`{name}` (read from `{}`) has the name of another lab constant, formula, control or read", r.from.value))
                .hint = Some("give it a name of its own with `as:`".into());
        }
        out.push((name.clone(), Dynamic::from_float(r.default.value)));
    }
    out
}

/// A lab-level text (header, synthesis) reading a carried number: it is written once, before
/// the record is read, so it is refused there (a part's prose follows the number).
pub(super) fn lab_text_reads(
    c: &mut Compiler,
    lab: &Lab,
    exprs: &std::collections::HashMap<String, super::compile::CompiledExpr>,
) {
    let names: Vec<&str> = lab.reads.iter().map(|r| r.name.value.as_str()).collect();
    if names.is_empty() {
        return;
    }
    let mut hits: Vec<(Pos, String)> = exprs
        .values()
        .flat_map(|ce| {
            crate::formula::references(&ce.ast)
                .into_iter()
                .filter(|n| names.contains(&n.as_str()))
                .map(|n| (ce.origin.locate(ce.inner.0, ce.inner.1), n))
                .collect::<Vec<_>>()
        })
        .collect();
    hits.sort_by_key(|(p, n)| (p.line, p.col, n.clone()));
    for (pos, n) in hits {
        c.err(
            pos,
            format!(
                "the lab's header or synthesis reads `{n}`, a number carried from an earlier lab"
            ),
        )
        .hint = Some(
            "it is known only once the course record is read: show it in a part's prose instead"
                .into(),
        );
    }
}

/// Checks `records:` (each `PART.NAME` a formula or control of that part) once the parts are
/// compiled.
pub(super) fn check_records(c: &mut Compiler, lab: &Lab, parts: &[super::CompiledPart]) {
    for (name, at) in &lab.records {
        if !crate::load::check::is_identifier(name) {
            c.err(
                at.pos,
                format!("`records:` name `{name}` is not a valid name"),
            )
            .hint = Some("letters, digits and `_`, not starting with a digit".into());
        }
        let ok = at.value.split_once('.').and_then(|(p, n)| {
            let cp = parts.iter().find(|cp| cp.id == p)?;
            let has =
                cp.formulas.iter().any(|f| f.name == n) || cp.controls.iter().any(|x| x.id == n);
            Some(has)
        });
        match ok {
            Some(true) => {}
            Some(false) | None => {
                c.err(at.pos, format!("`records: {name}` names `{}`, which is not a formula or control of a part", at.value))
                    .hint = Some("write `PART.NAME`: a part's id, a dot, and one of its formulas or controls (`a.cluster_gpus`)".into());
            }
        }
    }
}

impl CompiledLab {
    /// [`Self::check_semantics`] with each carried number at either end of its range (the
    /// default is the compiled lab's own): what is found there and not at the default, said
    /// with the number (`… (with `fleet_gpus` = 8, read from `fault-tolerance`)`).
    pub fn check_carried(
        &self,
        at_default: &[crate::diag::Diagnostic],
    ) -> Vec<crate::diag::Diagnostic> {
        let mut out = Vec::new();
        for r in &self.lab.reads {
            let (lo, hi) = r.range.value;
            for v in [lo, hi] {
                if v == r.default.value {
                    continue;
                }
                let again = crate::load::parse(&self.source)
                    .map_err(|d| vec![d])
                    .and_then(|lab| {
                        let course = if self.lab.tracks.is_empty() {
                            self.tracks.clone()
                        } else {
                            Default::default()
                        };
                        super::compile::compile_on(
                            lab,
                            &self.source,
                            self.modules.clone(),
                            &course,
                            self.track.as_deref(),
                        )
                    });
                let Ok(mut l) = again else { continue };
                l.set_carried(&r.name.value, v);
                for mut d in l.check_semantics() {
                    let seen =
                        at_default
                            .iter()
                            .chain(out.iter())
                            .any(|x: &crate::diag::Diagnostic| {
                                x.line == d.line
                                    && x.col == d.col
                                    && x.message.starts_with(&d.message)
                            });
                    if !seen {
                        d.message = format!(
                            "{} (with `{}` = {v}, read from `{}`)",
                            d.message, r.name.value, r.from.value
                        );
                        out.push(d);
                    }
                }
            }
        }
        out
    }
}
