//! The lab report's plan as the page carries it (`D.report`): the plan of
//! [`crate::view::report`], which `renderers/html/report.js` fills from the record into the
//! Markdown file, plus the lab's own paragraphs (the intro, each prediction's, reflection's and
//! question's prompt) as sanitised HTML (`introh`, `h`) for the report's print view, which
//! typesets what the Markdown says. The student's words are never HTML: the script sets them
//! as text.

use super::md::md_block;
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use serde_json::Value as J;

/// The plan of `lab`'s report with its paragraphs' HTML beside their Markdown.
pub fn plan(lab: &CompiledLab) -> Result<J, Diagnostic> {
    let plan = crate::view::report::plan(lab, None)?;
    let mut j = serde_json::to_value(&plan).map_err(|e| Diagnostic::from(e.to_string()))?;
    if let Some(i) = &plan.intro {
        j["introh"] = md_block(i).into();
    }
    let parts = j["parts"].as_array_mut().into_iter().flatten();
    for (jp, p) in parts.zip(&plan.parts) {
        for (key, ask) in [("pred", &p.pred), ("refl", &p.refl)] {
            if let Some(a) = ask {
                jp[key]["h"] = md_block(&a.ask).into();
            }
        }
        let qs = jp["qs"].as_array_mut().into_iter().flatten();
        for (jq, q) in qs.zip(&p.qs) {
            jq["h"] = md_block(&q.ask).into();
        }
    }
    Ok(j)
}
