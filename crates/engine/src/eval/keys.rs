//! A key from the claims (issue 25): when every option of a prediction, or of a part's choice
//! question, claims something about its `claim:` output and none is marked `correct:`, the
//! option whose claim holds at the part's scenario is the key (on each track, at that track's
//! values), so a text claim (`claim: { is: Communication }`) picks the right option by itself.
//! `check` reports claims that pick no option, or more than one ([`super::labtest`]).

use super::labtest::claim_holds;
use super::CompiledLab;
use crate::model::Choice;

impl CompiledLab {
    /// Marks correct the one option whose claim holds at the scenario, for each prediction and
    /// choice question that leaves its key to its claims; one whose claims pick none or several
    /// stays unmarked.
    pub(super) fn key_from_claims(&mut self) {
        for i in 0..self.parts.len() {
            let index = self.parts[i].index;
            let model = &self.lab.parts[index];
            // What to key: the prediction (`None`), the questions by position; each with its
            // claimed output.
            let mut keyed: Vec<(Option<usize>, String)> = Vec::new();
            if let Some(p) = model.prediction.as_ref().filter(|p| p.keyed_by_claims()) {
                keyed.extend(p.claim.as_ref().map(|c| (None, c.value.clone())));
            }
            for (j, q) in model.questions.iter().enumerate() {
                if q.keyed_by_claims() {
                    keyed.extend(q.spec.claim.as_ref().map(|c| (Some(j), c.value.clone())));
                }
            }
            if keyed.is_empty() {
                continue;
            }
            let part = &self.parts[i];
            let Ok(ev) = self.evaluate(part, &self.scenario(part)) else {
                continue;
            };
            for (which, out) in keyed {
                let Some(value) = ev.values.get(&out) else {
                    continue;
                };
                let model = &mut self.lab.parts[index];
                let options = match which {
                    None => model.prediction.as_mut().map(|p| &mut p.options),
                    Some(j) => model.questions.get_mut(j).map(|q| &mut q.spec.options),
                };
                if let Some(options) = options {
                    mark_the_one_holding(options, value);
                }
            }
        }
    }
}

/// Marks correct the option whose claim holds for `value`, when exactly one does.
fn mark_the_one_holding(options: &mut [Choice], value: &rhai::Dynamic) {
    let holding: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            o.claim
                .as_ref()
                .is_some_and(|c| claim_holds(&c.value, value))
        })
        .map(|(j, _)| j)
        .collect();
    if let [j] = holding[..] {
        options[j].correct = true;
    }
}
