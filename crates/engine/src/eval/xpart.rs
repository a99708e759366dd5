//! A later part reads an earlier part's locked prediction: `prediction.a` is the option id part
//! `a`'s student locked in (`"B"`), or the number typed for a numeric prediction. It is visible
//! where `answer` is (prose, banners, instruments; never formulas), and `answer` in part `x` is
//! `prediction.x`. Until part `a` is answered `prediction.a` is `""` (a number: NaN), so a banner
//! reading it does not show, and a `{{ }}` placeholder reading an unanswered prediction shows
//! "(Part A not answered yet)" instead of its value — in the page, the terminal and handouts.

use super::compile::{CompiledExpr, CompiledPart, Compiler};
use super::Evaluation;
use crate::diag::did_you_mean;
use crate::formula::{references, FormulaError};
use crate::model::Part;
use indexmap::IndexMap;
use rhai::{ASTNode, Dynamic, Expr, Map, Position, AST};

/// The name bound to the predictions of the lab's parts.
pub const NAME: &str = "prediction";

/// A read of `prediction`: `prediction.x` (the part `x`), or the bare record (`None`).
struct Ref {
    part: Option<String>,
    pos: Position,
}

fn refs(ast: &AST) -> Vec<Ref> {
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let Some(ASTNode::Expr(var @ Expr::Variable(v, _, pos))) = path.last() else {
            return true;
        };
        if v.1 != NAME || !v.2.is_empty() {
            return true;
        }
        let part = match path.len().checked_sub(2).map(|i| &path[i]) {
            Some(ASTNode::Expr(Expr::Dot(b, _, _))) if std::ptr::eq(&b.lhs, *var) => prop(&b.rhs),
            _ => None,
        };
        out.push(Ref { part, pos: *pos });
        true
    });
    out
}

/// The property a dot chain starts with (`a` of `.a` or `.a.len()`).
fn prop(e: &Expr) -> Option<String> {
    match e {
        Expr::Property(p, _) => Some(p.2.to_string()),
        Expr::Dot(b, _, _) => prop(&b.lhs),
        _ => None,
    }
}

/// The value of an unanswered prediction: `""` for options, NaN for a number.
fn unset(part: &Part) -> Option<Dynamic> {
    let p = part.prediction.as_ref()?;
    Some(match p.numeric {
        Some(_) => Dynamic::from_float(f64::NAN),
        None => Dynamic::from(""),
    })
}

/// A locked answer as the part's `prediction.x` reads it (text, or the typed number).
pub(super) fn answer_value(unset: &Dynamic, answer: &str) -> Dynamic {
    if unset.is_float() {
        Dynamic::from_float(answer.trim().parse::<f64>().unwrap_or(f64::NAN))
    } else {
        Dynamic::from(answer.to_string())
    }
}

/// `prediction` before anything is answered: every part with a prediction, unset.
pub(super) fn unset_record(lab_parts: &[Part]) -> Dynamic {
    let m: Map = lab_parts
        .iter()
        .filter_map(|p| Some((p.id.value.as_str().into(), unset(p)?)))
        .collect();
    Dynamic::from_map(m)
}

/// `unset` (a part's record of predictions) with the locked answers `answers` (part id →
/// option id or typed number, as the ledger keeps them).
pub(super) fn record_with(unset: &Dynamic, answers: &IndexMap<String, String>) -> Dynamic {
    let mut m = unset
        .read_lock::<Map>()
        .map(|m| m.clone())
        .unwrap_or_default();
    for (pid, a) in answers {
        if let Some(v) = m.get_mut(pid.as_str()) {
            *v = answer_value(v, a);
        }
    }
    Dynamic::from_map(m)
}

/// Whether a value is an unanswered prediction (`""`, NaN, or absent).
fn is_unset(v: Option<&Dynamic>) -> bool {
    match v {
        None => true,
        Some(v) => {
            v.is_unit()
                || v.read_lock::<rhai::ImmutableString>()
                    .is_some_and(|s| s.is_empty())
                || v.as_float().is_ok_and(f64::is_nan)
        }
    }
}

/// The parts whose predictions an expression of `cp` reads: `prediction.x`, and `answer` (the
/// part's own) where the part binds it.
pub fn reads(cp: &CompiledPart, ast: &AST) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if cp.answer.is_some() && references(ast).iter().any(|r| r == "answer") {
        out.push(cp.id.clone());
    }
    if cp.predictions.is_some() {
        for r in refs(ast) {
            if let Some(p) = r.part {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// What a placeholder reading the predictions of `parts` shows at `ev` when one of them is not
/// answered yet: "(Part A not answered yet)".
pub fn unanswered(cp: &CompiledPart, ev: &Evaluation, parts: &[String]) -> Option<String> {
    parts.iter().find_map(|pid| {
        let v = if *pid == cp.id && cp.answer.is_some() {
            ev.values.get("answer").cloned()
        } else {
            ev.values.get(NAME).and_then(|m| {
                m.read_lock::<Map>()
                    .and_then(|m| m.get(pid.as_str()).cloned())
            })
        };
        is_unset(v.as_ref()).then(|| not_answered_text(pid))
    })
}

/// "(Part A not answered yet)": the page's runtime writes the same (`xpart` in runtime.js).
pub fn not_answered_text(pid: &str) -> String {
    format!("({} not answered yet)", crate::model::part_label(pid))
}

/// Checks every `prediction` an expression of part `index` reads: an earlier part's, with a
/// prediction. Located at the expression, with a hint.
pub(super) fn check(c: &mut Compiler, parts: &[Part], index: usize, ce: &CompiledExpr) {
    let own = &parts[index].id.value;
    for r in refs(&ce.ast) {
        let pos = ce.locate(&FormulaError::at(r.pos, String::new()));
        let Some(pid) = r.part else {
            c.err(pos, "`prediction` is read without a part").hint = Some(
                "name the earlier part whose locked prediction you mean: `prediction.a`".into(),
            );
            continue;
        };
        let with_prediction = || {
            parts[..index]
                .iter()
                .filter(|p| p.prediction.is_some())
                .map(|p| format!("`prediction.{}`", p.id.value))
                .collect::<Vec<_>>()
        };
        // ", or read an earlier one: `prediction.a`" (nothing when no earlier part asks one).
        let earlier = |c: &Vec<String>| {
            if c.is_empty() {
                " (no earlier part asks one)".to_string()
            } else {
                format!(", or read an earlier one: {}", c.join(", "))
            }
        };
        let Some(at) = parts.iter().position(|p| p.id.value == pid) else {
            let ids = parts.iter().map(|p| p.id.value.as_str());
            c.err(
                pos,
                format!("`prediction.{pid}`: the lab has no part `{pid}`"),
            )
            .hint = did_you_mean(&pid, ids).or_else(|| {
                Some(format!(
                    "name an earlier part{}",
                    earlier(&with_prediction())
                ))
            });
            continue;
        };
        if at == index {
            c.err(
                pos,
                format!("`prediction.{pid}` is this part's own prediction"),
            )
            .hint = Some(format!(
                "write `answer`: in part `{own}` it is the option (or number) the student locked in"
            ));
        } else if at > index {
            c.err(
                pos,
                format!("`prediction.{pid}` reads a later part: part `{pid}` comes after part `{own}`, so its prediction is not answered yet here"),
            )
            .hint = Some(format!(
                "move this text to a part after `{pid}`{}",
                earlier(&with_prediction())
            ));
        } else if parts[at].prediction.is_none() {
            c.err(
                pos,
                format!("`prediction.{pid}`: part `{pid}` asks no prediction"),
            )
            .hint = Some(format!(
                "add a `prediction:` to part `{pid}`{}",
                earlier(&with_prediction())
            ));
        }
    }
}

/// Values a banner's condition is tried at (`check` warns when none shows it): unset, then each
/// answer of the parts it reads (`answer`'s own part included) in turn, as `extra` bindings.
pub(super) fn samples(
    cp: &CompiledPart,
    parts: &[Part],
    ast: &AST,
    answer_samples: &dyn Fn(&Part) -> Vec<Dynamic>,
) -> Vec<Vec<(&'static str, Dynamic)>> {
    let read = reads(cp, ast);
    let mut out = vec![Vec::new()];
    for pid in read {
        let Some(part) = parts.iter().find(|p| p.id.value == pid) else {
            continue;
        };
        let vals = answer_samples(part);
        let mut next = Vec::new();
        for base in &out {
            for v in std::iter::once(None).chain(vals.iter().map(Some)) {
                let mut b: Vec<(&'static str, Dynamic)> = base.clone();
                if let Some(v) = v {
                    if pid == cp.id && cp.answer.is_some() {
                        b.push(("answer", v.clone()));
                    } else if let Some(unset) = &cp.predictions {
                        let prev = b.iter().position(|(k, _)| *k == NAME);
                        let rec = prev.map(|i| b.remove(i).1).unwrap_or_else(|| unset.clone());
                        let mut m = rec
                            .read_lock::<Map>()
                            .map(|m| m.clone())
                            .unwrap_or_default();
                        m.insert(pid.as_str().into(), v.clone());
                        b.push((NAME, Dynamic::from_map(m)));
                    }
                }
                next.push(b);
            }
        }
        // A bound on the combinations tried.
        next.truncate(256);
        out = next;
    }
    out
}

impl super::CompiledLab {
    /// The answer key's locked-in answers, at which the key shows banners and prose reading
    /// `answer` and `prediction.a`: each prediction's first correct option, or the number a
    /// numeric one asks for, worked out at its scenario.
    pub fn key_answers(&self) -> IndexMap<String, String> {
        let mut out = IndexMap::new();
        for (cp, part) in self.parts.iter().zip(&self.lab.parts) {
            let Some(pr) = &part.prediction else { continue };
            let key = match &pr.numeric {
                None => pr
                    .options
                    .iter()
                    .enumerate()
                    .find(|(_, o)| o.correct)
                    .map(|(i, o)| crate::load::check::option_id(i, o)),
                Some(n) => self
                    .evaluate(cp, &self.scenario(cp))
                    .ok()
                    .and_then(|ev| {
                        ev.values
                            .get(&n.output.value)
                            .and_then(crate::formula::as_number)
                    })
                    .map(|x| x.to_string()),
            };
            if let Some(k) = key {
                out.insert(part.id.value.clone(), k);
            }
        }
        out
    }
}
