//! Lab-level controls (`controls:` beside `formulas:`), shared by the parts that name them in
//! `lab_controls:`. Before anything else is compiled, each named control is copied to the front
//! of the part's own controls, and each lab formula that reads a lab control (itself, or through
//! another lab formula) moves into every part that shows all the lab controls it reads. From
//! there on a shared control is an ordinary control of each part: the part's evaluation, the
//! page, the terminal and the handouts need nothing new. What makes it one value is elsewhere:
//! the ledger keeps one value for it in every part ([`crate::ledger`]), the terminal writes a
//! move into every part that shows it, and the page moves it in the other parts (`shared` in
//! runtime.js).

use crate::diag::{did_you_mean, Diagnostic};
use crate::formula::references;
use crate::load::Source;
use crate::model::{Control, Expr, Lab};
use indexmap::IndexMap;
use std::collections::{BTreeMap, BTreeSet};

/// A lab formula that reads lab controls or carried numbers, with those it reads (through
/// other formulas).
pub type Live = BTreeMap<String, BTreeSet<String>>;

/// Copies the lab controls into the parts that name them and moves the lab formulas that read
/// them into the parts that show those controls. Returns the moved formulas (for the hint of
/// a part that reads one without showing its controls).
pub(super) fn expand(lab: &mut Lab, source: &Source, out: &mut Vec<Diagnostic>) -> Live {
    // Numbers carried from earlier labs (`reads:`) are inputs too, needing no part to show them.
    let carried: Vec<String> = lab.reads.iter().map(|r| r.name.value.clone()).collect();
    let mut err = |pos, msg: String, hint: String| {
        out.push(Diagnostic::error(&source.name, pos, msg).with_hint(hint));
    };
    let ids: Vec<String> = lab.controls.iter().map(|c| c.id().value.clone()).collect();
    for (i, c) in lab.controls.iter().enumerate() {
        let id = &c.id().value;
        if ids[..i].contains(id) {
            err(
                c.id().pos,
                format!("two lab controls are called `{id}`"),
                "rename one of them".into(),
            );
        } else if lab.constants.contains_key(id) || lab.formulas.contains_key(id) {
            err(
                c.id().pos,
                format!("lab control `{id}` has the name of a lab constant or formula"),
                "rename one of them".into(),
            );
        }
    }
    // Which lab controls each lab formula reads, through the others (a cycle is reported
    // later, where lab formulas are sorted). Parsed only (names are resolved later).
    let rhai = rhai::Engine::new_raw();
    let direct: IndexMap<String, Vec<String>> = lab
        .formulas
        .iter()
        .map(|(k, e)| {
            let reads = rhai
                .compile_expression(e.value.trim())
                .map(|ast| references(&ast))
                .unwrap_or_default();
            (k.clone(), reads)
        })
        .collect();
    let mut live: Live = BTreeMap::new();
    loop {
        let mut changed = false;
        for (k, reads) in &direct {
            let mut set: BTreeSet<String> = live.get(k).cloned().unwrap_or_default();
            let n = set.len();
            for r in reads {
                if ids.contains(r) || carried.contains(r) {
                    set.insert(r.clone());
                }
                if let Some(s) = live.get(r) {
                    set.extend(s.iter().cloned());
                }
            }
            if !set.is_empty() && (set.len() != n || !live.contains_key(k)) {
                live.insert(k.clone(), set);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let moved: Vec<(String, Expr)> = lab
        .formulas
        .iter()
        .filter(|(k, _)| live.contains_key(*k))
        .map(|(k, e)| (k.clone(), e.clone()))
        .collect();
    lab.formulas.retain(|k, _| !live.contains_key(k));

    let mut shown: BTreeSet<String> = BTreeSet::new();
    for part in &mut lab.parts {
        let pid = part.id.value.clone();
        let mut copies: Vec<Control> = Vec::new();
        for (i, want) in part.lab_controls.iter().enumerate() {
            let id = &want.value;
            if part.lab_controls[..i].iter().any(|w| w.value == *id) {
                err(
                    want.pos,
                    format!("part `{pid}` names lab control `{id}` twice"),
                    "name it once".into(),
                );
                continue;
            }
            let Some(c) = lab.controls.iter().find(|c| c.id().value == *id) else {
                let hint = did_you_mean(id, ids.iter().map(String::as_str)).unwrap_or_else(|| {
                    if ids.is_empty() {
                        "the lab has no `controls:` of its own: declare the control there, beside `formulas:`".into()
                    } else {
                        format!("the lab's controls are {}", ids.join(", "))
                    }
                });
                err(
                    want.pos,
                    format!(
                        "part `{pid}` shows lab control `{id}`, which the lab does not declare"
                    ),
                    hint,
                );
                continue;
            };
            shown.insert(id.clone());
            copies.push(c.clone());
        }
        for c in &part.controls {
            let id = &c.id().value;
            if ids.contains(id) {
                err(
                    c.id().pos,
                    format!("part `{pid}`'s control `{id}` has the id of a lab control"),
                    format!("to show the lab's `{id}` here, remove this one and write `lab_controls: [{id}]`; else rename it"),
                );
            }
        }
        let listed: BTreeSet<&String> = part.lab_controls.iter().map(|w| &w.value).collect();
        let mut formulas: IndexMap<String, Expr> = IndexMap::new();
        for (k, e) in &moved {
            if !live[k]
                .iter()
                .all(|c| listed.contains(c) || carried.contains(c))
            {
                continue;
            }
            if part.formulas.contains_key(k)
                || part.constants.contains_key(k)
                || part.controls.iter().any(|c| c.id().value == *k)
            {
                err(
                    e.pos,
                    format!("lab formula `{k}` has the name of a formula, constant or control of part `{pid}`"),
                    "rename one of them".into(),
                );
                continue;
            }
            formulas.insert(k.clone(), e.clone());
        }
        if !copies.is_empty() {
            copies.append(&mut part.controls);
            part.controls = copies;
        }
        if !formulas.is_empty() {
            formulas.extend(std::mem::take(&mut part.formulas));
            part.formulas = formulas;
        }
    }
    for c in lab
        .controls
        .iter()
        .filter(|c| !shown.contains(&c.id().value))
    {
        out.push(
            Diagnostic::warning(
                &source.name,
                c.id().pos,
                format!("lab control `{}` is shown in no part", c.id().value),
            )
            .with_hint(format!(
                "name it in the `lab_controls:` of the parts it drives: `lab_controls: [{}]`",
                c.id().value
            )),
        );
    }
    live
}

/// A hint for a part that reads a moved lab formula, or a lab control, it does not show.
pub(super) fn hint_unknown(live: &Live, lab: &Lab, diags: &mut [Diagnostic]) {
    if live.is_empty() && lab.controls.is_empty() {
        return;
    }
    for d in diags.iter_mut() {
        let Some(n) = d
            .message
            .split("unknown name `")
            .nth(1)
            .and_then(|r| r.split('`').next())
        else {
            continue;
        };
        let need: Vec<String> = match live.get(n) {
            Some(cs) => cs
                .iter()
                .filter(|c| lab.controls.iter().any(|x| x.id().value == **c))
                .cloned()
                .collect(),
            None if lab.controls.iter().any(|c| c.id().value == n) => vec![n.to_string()],
            None => continue,
        };
        let list = need.join(", ");
        d.hint = Some(if live.contains_key(n) {
            format!("`{n}` is a lab formula reading lab controls ({list}): it is computed only in a part that shows them; add `lab_controls: [{list}]` to this part")
        } else {
            format!("`{n}` is a lab control: a part reads it where it shows it; add `lab_controls: [{n}]` to this part")
        });
    }
}
