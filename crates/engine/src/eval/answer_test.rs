//! A lab test that answers the part's questions: `answers: { QID: answer }` with the verdict
//! expected under the same id in `expect:` — `true`/`false` for a graded question (right or
//! not), a number for a select-all's credit (0 to 1) or a written answer's words, `recorded`
//! for an opinion. Graded as the page, the terminal and `grade` grade them (a numeric question
//! at the part's scenario).

use super::labtest::value_str;
use super::{CompiledLab, CompiledPart};
use crate::diag::{did_you_mean, Diagnostic};
use crate::model::question::{select_score, word_count};
use crate::model::*;
use rhai::Dynamic;

impl CompiledLab {
    /// The failures of `t`'s answers, and the `expect` keys they answer for.
    pub(super) fn test_answers(
        &self,
        t: &LabTest,
        part: &CompiledPart,
    ) -> (Vec<Diagnostic>, Vec<String>) {
        let file = &self.source.name;
        let mut out = Vec::new();
        let mut keys = Vec::new();
        let Some(model) = self.model_part(&part.id) else {
            return (out, keys);
        };
        for (qid, ans) in &t.answers {
            let Some(q) = model.questions.iter().find(|q| &q.id.value == qid) else {
                let ids = model.questions.iter().map(|q| q.id.value.as_str());
                out.push(
                    Diagnostic::error(
                        file,
                        ans.pos,
                        format!("part `{}` asks no question `{qid}`", part.id),
                    )
                    .maybe_hint(did_you_mean(qid, ids)),
                );
                continue;
            };
            let ids: Vec<String> = q
                .spec
                .options
                .iter()
                .enumerate()
                .map(|(i, o)| crate::load::check::option_id(i, o))
                .collect();
            let right: Vec<String> = ids
                .iter()
                .zip(&q.spec.options)
                .filter(|(_, o)| o.correct)
                .map(|(i, _)| i.clone())
                .collect();
            let text = |v: &Value| match v {
                Value::Text(s) => Some(s.clone()),
                Value::Number(n) => Some(crate::library::format::auto(*n)),
                _ => None,
            };
            let got: Result<Dynamic, String> = match (q.kind(), &ans.value) {
                (QuestionKind::Choice, v) => match text(v).filter(|s| ids.contains(s)) {
                    None => Err(format!(
                        "is not an option of question `{qid}` (options: {})",
                        ids.join(", ")
                    )),
                    Some(_) if q.is_opinion() => Ok(Dynamic::from("recorded".to_string())),
                    Some(s) => Ok(Dynamic::from_bool(right.contains(&s))),
                },
                (QuestionKind::SelectAll, Value::List(vs)) => {
                    let picked: Vec<String> = vs.iter().filter_map(text).collect();
                    match picked.iter().find(|p| !ids.contains(p)) {
                        Some(p) => Err(format!("`{p}` is not an option of question `{qid}`")),
                        None => Ok(Dynamic::from_float(select_score(&right, &picked).0)),
                    }
                }
                (QuestionKind::SelectAll, _) => {
                    Err("a select-all is answered with a list of option ids, e.g. `[A, C]`".into())
                }
                (QuestionKind::Numeric, Value::Number(x)) => {
                    let want = q.numeric().and_then(|n| {
                        let ev = self.evaluate(part, &self.scenario(part)).ok()?;
                        let w = ev
                            .values
                            .get(&n.output.value)
                            .and_then(crate::formula::as_number)?;
                        Some(n.accepts(*x, w))
                    });
                    want.map(Dynamic::from_bool).ok_or_else(|| {
                        "its output could not be worked out at the scenario".to_string()
                    })
                }
                (QuestionKind::Numeric, _) => {
                    Err("a numeric question is answered with a number".into())
                }
                (QuestionKind::Text, Value::Text(s)) => {
                    Ok(Dynamic::from_float(word_count(s) as f64))
                }
                (QuestionKind::Text, _) => Err("a written answer is text".into()),
            };
            let got = match got {
                Ok(g) => g,
                Err(m) => {
                    out.push(Diagnostic::error(
                        file,
                        ans.pos,
                        format!("the test's answer to `{qid}` {m}"),
                    ));
                    continue;
                }
            };
            let Some(want) = t.expect.get(qid) else {
                out.push(
                    Diagnostic::error(
                        file,
                        ans.pos,
                        format!("the test answers `{qid}` but expects nothing of it"),
                    )
                    .with_hint(format!("add `{qid}: {}` to `expect:`", value_str(&got))),
                );
                continue;
            };
            keys.push(qid.clone());
            let ok = match (&want.value, got.as_float().ok(), got.as_bool().ok()) {
                (Value::Bool(w), _, Some(g)) => *w == g,
                (Value::Number(w), Some(g), _) => (g - w).abs() <= 1e-9,
                (Value::Text(w), _, _) => got.is_string() && &got.to_string() == w,
                _ => false,
            };
            if !ok {
                out.push(Diagnostic::error(
                    file,
                    want.pos,
                    format!(
                        "question `{qid}` answered `{}` gives {} but the test expects {}",
                        match &ans.value {
                            Value::List(v) =>
                                v.iter().filter_map(text).collect::<Vec<_>>().join(", "),
                            v => text(v).unwrap_or_default(),
                        },
                        value_str(&got),
                        value_str(&super::value_to_dynamic(&want.value))
                    ),
                ));
            }
        }
        (out, keys)
    }
}
