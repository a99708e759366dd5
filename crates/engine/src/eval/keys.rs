//! A prediction's key from its claims (issue 25): when every option claims something about the
//! prediction's `claim:` output and none is marked `correct:`, the option whose claim holds at
//! the scenario is the key (on each track, at that track's values), so a text claim
//! (`claim: { is: Communication }`) picks the right option by itself. `check` reports a
//! prediction whose claims pick no option, or more than one ([`super::labtest`]).

use super::labtest::claim_holds;
use super::CompiledLab;

impl CompiledLab {
    /// Marks correct the one option whose claim holds at the scenario, for each prediction that
    /// leaves its key to its claims; one whose claims pick none or several stays unmarked.
    pub(super) fn key_from_claims(&mut self) {
        for i in 0..self.parts.len() {
            let model = &self.lab.parts[self.parts[i].index];
            let Some(p) = model.prediction.as_ref().filter(|p| p.keyed_by_claims()) else {
                continue;
            };
            let Some(out) = p.claim.as_ref().map(|c| c.value.clone()) else {
                continue;
            };
            let part = &self.parts[i];
            let Ok(ev) = self.evaluate(part, &self.scenario(part)) else {
                continue;
            };
            let Some(value) = ev.values.get(&out) else {
                continue;
            };
            let holding: Vec<usize> = p
                .options
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
                let index = self.parts[i].index;
                if let Some(p) = self.lab.parts[index].prediction.as_mut() {
                    p.options[j].correct = true;
                }
            }
        }
    }
}
