//! The lab report's plan as the page carries it (`D.report`): the plan of
//! [`crate::view::report`], which `renderers/html/report.js` fills from the record into the
//! Markdown file, plus the lab's own paragraphs (the intro, each prediction's, reflection's and
//! question's prompt) as sanitised HTML (`introh`, `h`) for the report's print view, which
//! typesets what the Markdown says. The student's words are never HTML: the script sets them
//! as text.

use super::data::{ReportAsk, ReportData, ReportPart};
use super::md::md_block;
use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::view::report::{PlanAsk, PlanPart, ReportPlan};

/// The plan of `lab`'s report with its paragraphs' HTML beside their Markdown.
pub fn plan(lab: &CompiledLab) -> Result<ReportData, Diagnostic> {
    // Whole, so that a field the plan gains is a compile error here.
    let ReportPlan {
        title,
        intro,
        id: _,
        version: _,
        track,
        parts,
        log,
    } = crate::view::report::plan(lab, None)?;
    let ask = |ask: PlanAsk| ReportAsk {
        h: md_block(&ask.ask),
        ask,
    };
    let parts = parts
        .into_iter()
        .map(|p| {
            let PlanPart {
                id,
                head,
                ctl,
                out,
                pred,
                refl,
                qs,
            } = p;
            ReportPart {
                id,
                head,
                ctl,
                out,
                pred: pred.map(ask),
                refl: refl.map(ask),
                qs: qs.into_iter().map(ask).collect(),
            }
        })
        .collect();
    Ok(ReportData {
        introh: intro.as_deref().map(md_block),
        title,
        intro,
        track,
        parts,
        log,
    })
}

#[cfg(test)]
mod tests {
    /// The page's plan is the view's plan plus the HTML of its paragraphs: taken out, the two
    /// are the same JSON (the copy misses no key).
    #[test]
    fn the_page_plan_is_the_plan_plus_its_html() {
        let src = include_str!("../../../../../tests/inputs/ok_report.yaml");
        let lab = crate::eval::load_source(crate::load::Source::new("ok_report.yaml", src))
            .unwrap_or_else(|(_, d)| panic!("{d:?}"));
        let mut page = serde_json::to_value(super::plan(&lab).unwrap()).unwrap();
        let intro = page["introh"].take();
        assert!(intro
            .as_str()
            .unwrap()
            .contains("<strong>scheduler team</strong>"));
        let o = page.as_object_mut().unwrap();
        o.remove("introh");
        let mut asks = 0;
        for p in o["parts"].as_array_mut().unwrap() {
            for k in ["pred", "refl"] {
                if let Some(a) = p.get_mut(k) {
                    assert!(a.as_object_mut().unwrap().remove("h").is_some());
                    asks += 1;
                }
            }
            for q in p["qs"].as_array_mut().unwrap() {
                assert!(q.as_object_mut().unwrap().remove("h").is_some());
                asks += 1;
            }
        }
        assert!(asks > 0);
        let plan = crate::view::report::plan(&lab, None).unwrap();
        assert_eq!(page, serde_json::to_value(&plan).unwrap());
    }
}
