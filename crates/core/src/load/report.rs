//! Structural checks of a lab's `report:` (`model::report`): every key output names a part and
//! one of its outputs, every section is one the report knows, the heading is one line.

use crate::diag::{did_you_mean, Diagnostic};
use crate::model::report::SECTIONS;
use crate::model::*;

/// Appends the problems of `lab`'s `report:` to `out`.
pub(super) fn check(out: &mut Vec<Diagnostic>, file: &str, lab: &Lab) {
    let Some(r) = &lab.report else {
        return;
    };
    let mut err = |pos: Pos, msg: String, hint: String| {
        out.push(Diagnostic::error(file, pos, msg).with_hint(hint));
    };
    if let Some(t) = &r.title {
        if t.value.trim().is_empty() || t.value.contains('\n') {
            err(
                t.pos,
                "the report's `title` must be one line of text".into(),
                "e.g. `title: Triad diagnosis memo`".into(),
            );
        }
    }
    for t in r.title.iter().chain(r.intro.iter()) {
        if t.value.contains("{{") {
            err(
                t.pos,
                "the report's text takes no `{{ }}` placeholders".into(),
                "the report prints the student's own settings and outputs below it; write the text plainly".into(),
            );
        }
    }
    for o in r.outputs.iter().flatten() {
        let Some((pid, name)) = o.value.split_once('.') else {
            err(
                o.pos,
                format!("report output `{}` names no part", o.value),
                "write `PART.OUTPUT`, e.g. `a.wait_min`".into(),
            );
            continue;
        };
        let Some(part) = lab.parts.iter().find(|p| p.id.value == pid) else {
            let hint = did_you_mean(pid, lab.parts.iter().map(|p| p.id.value.as_str()))
                .unwrap_or_else(|| {
                    let ids: Vec<&str> = lab.parts.iter().map(|p| p.id.value.as_str()).collect();
                    format!("the lab's parts: {}", ids.join(", "))
                });
            err(
                o.pos,
                format!("report output `{}`: the lab has no part `{pid}`", o.value),
                hint,
            );
            continue;
        };
        if !part.outputs.contains_key(name) {
            let hint =
                did_you_mean(name, part.outputs.keys().map(String::as_str)).unwrap_or_else(|| {
                    let ids: Vec<&str> = part.outputs.keys().map(String::as_str).collect();
                    format!("part `{pid}` shows: {}", ids.join(", "))
                });
            err(
                o.pos,
                format!(
                    "report output `{}`: part `{pid}` has no output `{name}`",
                    o.value
                ),
                hint,
            );
        }
    }
    for s in r.sections.iter().flatten() {
        if !SECTIONS.contains(&s.value.as_str()) {
            let hint = did_you_mean(&s.value, SECTIONS.iter().copied())
                .unwrap_or_else(|| format!("a part's sections: {}", SECTIONS.join(", ")));
            err(
                s.pos,
                format!("the report has no section `{}`", s.value),
                hint,
            );
        }
    }
}
