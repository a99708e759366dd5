//! Lab-level formulas (`formulas:` beside `constants:`): computed once, when the lab is
//! compiled, from the constants and each other, then visible everywhere a constant is (every
//! part, all prose, the page, which receives their values). They cannot read controls: a
//! control belongs to one part and changes; a lab-level value is the same for all of them.

use super::compile::{compile_formula, topo_sort, CompiledFormula, Compiler};
use crate::model::Lab;
use indexmap::IndexMap;
use rhai::{Dynamic, Scope};
use std::collections::{BTreeSet, HashMap};

/// Compiles and evaluates the lab's formulas in dependency order, appending their values to
/// `consts`. A formula that fails still gets a name (unit), so parts do not cascade errors.
pub(super) fn compute(c: &mut Compiler, lab: &Lab, consts: &mut Vec<(String, Dynamic)>) {
    if lab.formulas.is_empty() {
        return;
    }
    let mut names: BTreeSet<String> = consts.iter().map(|(k, _)| k.clone()).collect();
    for (k, e) in &lab.formulas {
        if names.contains(k) {
            c.err(
                e.pos,
                format!("lab formula `{k}` has the name of a lab constant"),
            )
            .hint = Some("rename one of them".into());
        }
    }
    names.extend(lab.formulas.keys().cloned());
    let controls: HashMap<&str, &str> = lab
        .parts
        .iter()
        .flat_map(|p| {
            p.controls
                .iter()
                .map(move |ctl| (ctl.id().value.as_str(), p.id.value.as_str()))
        })
        .collect();
    let mut compiled: IndexMap<String, CompiledFormula> = IndexMap::new();
    for (name, e) in &lab.formulas {
        let before = c.diags.len();
        let what = format!("lab formula `{name}`");
        let f = compile_formula(c, name, e, &names, &what, &lab.formulas);
        // A control read here: say why it is not visible, and where the formula belongs.
        for d in &mut c.diags[before..] {
            let read = d
                .message
                .split("unknown name `")
                .nth(1)
                .and_then(|r| r.split('`').next());
            if let Some((n, pid)) = read.and_then(|n| controls.get(n).map(|p| (n, p))) {
                d.hint = Some(format!(
                    "`{n}` is a control of part `{pid}`; a lab-level formula is computed once, from the constants, before any control is set: move it into part `{pid}`'s `formulas:`"
                ));
            }
        }
        if let Some(f) = f {
            compiled.insert(name.clone(), f);
        }
    }
    let order = topo_sort(c, &lab.formulas, compiled);
    let mut scope = Scope::new();
    for (k, v) in consts.iter() {
        scope.push_dynamic(k.clone(), v.clone());
    }
    let mut done = BTreeSet::new();
    for f in order {
        let v = match c.engine.eval(&f.expr.ast, &mut scope) {
            Ok(v) => v,
            Err(e) => {
                let pos = f.expr.locate(&e);
                c.err(
                    pos,
                    format!("lab formula `{}` failed: {}", f.name, e.message),
                )
                .hint = e.hint;
                Dynamic::UNIT
            }
        };
        scope.push_dynamic(f.name.clone(), v.clone());
        consts.push((f.name.clone(), v));
        done.insert(f.name);
    }
    for k in lab.formulas.keys().filter(|k| !done.contains(*k)) {
        consts.push((k.clone(), Dynamic::UNIT));
    }
}
