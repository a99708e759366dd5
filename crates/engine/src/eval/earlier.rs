//! A later part reads an earlier part's values: `parts.a.wait_min` is part `a`'s formula (or
//! control) `wait_min` at the settings part `a` is left at (its defaults in `check`, `test`,
//! `eval` and the handouts; the student's in the terminal, [`CompiledLab::set_settings`], and on
//! the page, `parts` in runtime.js). Only earlier parts can be read, so the parts stay in an
//! order without cycles: `check` refuses a read of this part, a later part, an unknown part or a
//! name the part does not have, located at the read.

use super::compile::{CompiledExpr, Compiler};
use crate::diag::did_you_mean;
use crate::formula::FormulaError;
use crate::model::Part;
use indexmap::IndexMap;
use rhai::{ASTNode, Dynamic, Expr, Position, AST};

/// The name bound to the earlier parts' values.
pub const NAME: &str = "parts";

/// A read `parts.x.y` (`None` where the chain stops early).
struct Ref {
    part: Option<String>,
    name: Option<String>,
    pos: Position,
}

fn props(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Property(p, _) => out.push(p.2.to_string()),
        Expr::Dot(b, _, _) => {
            props(&b.lhs, out);
            props(&b.rhs, out);
        }
        _ => {}
    }
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
        let mut chain = Vec::new();
        if let Some(ASTNode::Expr(Expr::Dot(b, _, _))) = path.len().checked_sub(2).map(|i| &path[i])
        {
            if std::ptr::eq(&b.lhs, *var) {
                props(&b.rhs, &mut chain);
            }
        }
        let mut it = chain.into_iter();
        out.push(Ref {
            part: it.next(),
            name: it.next(),
            pos: *pos,
        });
        true
    });
    out
}

/// Checks every `parts.x.y` the expressions `exprs` of part `index` read and returns the
/// earlier parts read, in the lab's order.
pub(super) fn check(
    c: &mut Compiler,
    all: &[Part],
    index: usize,
    exprs: &[&CompiledExpr],
) -> Vec<String> {
    let own = &all[index].id.value;
    let mut read: Vec<usize> = Vec::new();
    for ce in exprs {
        for r in refs(&ce.ast) {
            let pos = ce.locate(&FormulaError::at(r.pos, String::new()));
            let earlier = || {
                let ids: Vec<&str> = all[..index].iter().map(|p| p.id.value.as_str()).collect();
                if ids.is_empty() {
                    " (this is the first part)".to_string()
                } else {
                    format!(": {}", ids.join(", "))
                }
            };
            let (Some(pid), Some(name)) = (r.part, r.name) else {
                c.err(pos, "`parts` is read without a part and a name").hint = Some(format!(
                    "write `parts.PART.NAME`, PART an earlier part{}",
                    earlier()
                ));
                continue;
            };
            let Some(at) = all.iter().position(|p| p.id.value == pid) else {
                let ids = all[..index].iter().map(|p| p.id.value.as_str());
                c.err(pos, format!("`parts.{pid}`: the lab has no part `{pid}`"))
                    .hint = did_you_mean(&pid, ids)
                    .or_else(|| Some(format!("read an earlier part{}", earlier())));
                continue;
            };
            if at == index {
                c.err(
                    pos,
                    format!("`parts.{pid}.{name}` is this part's own value"),
                )
                .hint = Some(format!(
                    "write `{name}`: part `{own}` sees its own names directly"
                ));
                continue;
            }
            if at > index {
                c.err(
                    pos,
                    format!("`parts.{pid}.{name}` reads a later part: part `{pid}` comes after part `{own}`"),
                )
                .hint = Some(format!(
                    "a part reads only the parts before it (so no two parts read each other); read an earlier part{}, or move this into a part after `{pid}`",
                    earlier()
                ));
                continue;
            }
            let p = &all[at];
            let has =
                p.formulas.contains_key(&name) || p.controls.iter().any(|x| x.id().value == name);
            if !has {
                let names: Vec<&str> = p
                    .formulas
                    .keys()
                    .map(String::as_str)
                    .chain(p.controls.iter().map(|x| x.id().value.as_str()))
                    .collect();
                c.err(
                    pos,
                    format!(
                        "`parts.{pid}.{name}`: part `{pid}` has no formula or control `{name}`"
                    ),
                )
                .hint = did_you_mean(&name, names.iter().copied())
                    .or_else(|| Some(format!("its formulas and controls: {}", names.join(", "))));
                continue;
            }
            if !read.contains(&at) {
                read.push(at);
            }
        }
    }
    read.sort();
    read.into_iter().map(|i| all[i].id.value.clone()).collect()
}

impl super::CompiledLab {
    /// The settings part `pid` is read at by later parts (`parts.pid.x`): the student's, in a
    /// session that has them (the terminal); the defaults until then.
    pub fn set_settings(&self, pid: &str, set: IndexMap<String, Dynamic>) {
        self.settings.borrow_mut().insert(pid.to_string(), set);
    }

    /// `parts`: each part `cp` reads, evaluated at its settings, as a record of its values.
    pub(super) fn earlier_values(
        &self,
        cp: &super::CompiledPart,
    ) -> Result<Dynamic, super::EvalError> {
        let mut m = rhai::Map::new();
        for pid in &cp.reads_parts {
            let Some(xp) = self.part(pid) else { continue };
            let set = self.settings.borrow().get(pid).cloned().unwrap_or_default();
            let inputs = self
                .inputs(xp, &set)
                .or_else(|_| self.inputs(xp, &IndexMap::new()))
                .unwrap_or_default();
            let ev = self.evaluate(xp, &inputs)?;
            let vals: rhai::Map = ev
                .values
                .into_iter()
                .map(|(k, v)| (k.as_str().into(), v))
                .collect();
            m.insert(pid.as_str().into(), Dynamic::from_map(vals));
        }
        Ok(Dynamic::from_map(m))
    }
}
