//! Words a text output can be (issue 25): a formula that returns a string (`bottleneck:
//! if comm_s > compute_s { "Communication" } else { "Compute" }`) has a few possible values,
//! its string literals in value position. A sentence a student reads that is about the output
//! (it names its label or its name) and types one of those words where the formula gives
//! another at the text's scenario contradicts the formulas, as a typed number does: a warning
//! in prose and feedback, an error in an option marked correct. Ordinary words are never
//! judged: only an output's possible values, only where the sentence names the output, and not
//! when the sentence also says the value it has ("Compute, not Communication") or lists
//! several ("ties go to Data, then Algorithm").

use super::numbers::sentence_bounds;
use super::{CompiledLab, CompiledPart, Evaluation};
use crate::diag::Diagnostic;
use crate::model::*;

/// A text output of a part: its name, how a sentence names it, its value at the scenario and
/// the values it can take.
struct TextOutput {
    name: String,
    names: Vec<String>,
    value: String,
    values: Vec<String>,
}

/// The string literals of `src` that can be its value: in a branch (`{ "A" }`), a switch arm
/// (`=> "A"`) or the whole formula; not one compared with (`x == "A"`), passed to a call
/// (`hw("H100")`) or joined (`"x" + y`).
fn value_literals(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if q != b'"' && q != b'\'' {
            i += 1;
            continue;
        }
        let Some(len) = src[i + 1..].find(q as char) else {
            break;
        };
        let lit = &src[i + 1..i + 1 + len];
        let before = src[..i].trim_end();
        let after = src[i + 2 + len..].trim_start();
        let opens = before.is_empty() || before.ends_with('{') || before.ends_with("=>");
        let closes = after.is_empty() || after.starts_with('}') || after.starts_with(',');
        if opens && closes && !lit.trim().is_empty() && !out.iter().any(|x| x == lit) {
            out.push(lit.to_string());
        }
        i += len + 2;
    }
    out
}

/// Is `word` in `text` at byte `at` a whole word?
fn whole(text: &str, at: usize, len: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + len..].chars().next();
    before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
}

/// Where `word` stands whole in `text` (case-insensitive; `lower` is `text` in lower case).
fn find_words<'a>(lower: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    lower
        .match_indices(word)
        .map(|(i, _)| i)
        .filter(move |&i| whole(lower, i, word.len()))
}

impl CompiledLab {
    fn text_outputs(&self, model: &Part, ev: &Evaluation) -> Vec<TextOutput> {
        let mut out = Vec::new();
        for (name, f) in &model.formulas {
            let Some(value) = ev
                .values
                .get(name)
                .and_then(|v| v.clone().into_string().ok())
            else {
                continue;
            };
            let mut values = value_literals(&f.value);
            // And the values of the lab functions it calls (`weakest(...)` gives an axis name).
            for func in &self.lab.functions {
                if f.value.contains(&format!("{}(", func.name.value)) {
                    values.extend(value_literals(&func.body.value));
                }
            }
            values.sort();
            values.dedup();
            if values.len() < 2 || !values.contains(&value) {
                continue;
            }
            let mut names = vec![name.replace('_', " ")];
            if let Some(l) = model.outputs.get(name).and_then(|o| o.label.as_ref()) {
                if l.len() >= 4 {
                    names.push(l.to_lowercase());
                }
            }
            out.push(TextOutput {
                name: name.clone(),
                names,
                value,
                values,
            });
        }
        out
    }

    /// The typed words of `t` (rendered at `ev`) that name another value of a text output
    /// than the one it has, in a sentence about it (or, with `about`, in any sentence: an
    /// option whose question names the output).
    fn contradicted_words(
        &self,
        part: &CompiledPart,
        ev: &Evaluation,
        t: &Text,
        outputs: &[TextOutput],
        about: &[bool],
    ) -> Vec<(usize, String, usize)> {
        let Some((text, map)) = self.render_mapped(Some(part), Some(ev), &t.value) else {
            return Vec::new();
        };
        let lower = text.to_lowercase();
        if lower.len() != text.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (k, o) in outputs.iter().enumerate() {
            let value = o.value.to_lowercase();
            for w in o.values.iter().filter(|w| **w != o.value) {
                let word = w.to_lowercase();
                for at in find_words(&lower, &word) {
                    let Some(&(r, off, true)) = map.iter().rev().find(|(r, _, _)| *r <= at) else {
                        continue; // a placeholder's value
                    };
                    let (s, e) = sentence_bounds(&lower, at);
                    let sentence = &lower[s..e];
                    let named = about[k] || o.names.iter().any(|n| sentence.contains(n.as_str()));
                    // A sentence that names the value it has, or lists several ("ties: Data,
                    // then Algorithm"), is not stating another.
                    let listed = o
                        .values
                        .iter()
                        .filter(|v| find_words(sentence, &v.to_lowercase()).next().is_some())
                        .count();
                    // A rule is not a statement about this scenario ("Compute binds when ...").
                    let conditional = ["when", "if", "whenever", "unless", "until"]
                        .iter()
                        .any(|c| find_words(sentence, c).next().is_some());
                    let says_value =
                        listed > 1 || conditional || find_words(sentence, &value).next().is_some();
                    let before = lower[s..at].trim_end();
                    let negated = ["not", "no longer", "rather than", "instead of"]
                        .iter()
                        .any(|n| before.ends_with(n));
                    if named && !says_value && !negated {
                        out.push((k, text[at..at + word.len()].to_string(), off + (at - r)));
                    }
                }
            }
        }
        out
    }

    fn word_pos(&self, t: &Text, at: usize, word: &str) -> Pos {
        let nth = t.value[..at].matches(word).count();
        super::lint::locate_in_file(&self.source, t.pos, word, nth).unwrap_or_else(|| {
            let (l, c) = crate::template::line_col(&t.value, at);
            super::compile::Origin::of(&self.source, t.pos).locate(l, c)
        })
    }

    /// The text outputs' words in a part's prose, its correct options and their feedback, at
    /// the part's scenario.
    pub(super) fn check_text_words(
        &self,
        part: &CompiledPart,
        sev: &Evaluation,
        prose: &[&Text],
        out: &mut Vec<Diagnostic>,
    ) {
        let model = &self.lab.parts[part.index];
        let outputs = self.text_outputs(model, sev);
        if outputs.is_empty() {
            return;
        }
        let none = vec![false; outputs.len()];
        let mut texts: Vec<(&Text, Option<String>, Vec<bool>)> =
            prose.iter().map(|t| (*t, None, none.clone())).collect();
        let mut questions: Vec<(&Text, &[Choice])> = Vec::new();
        if let Some(p) = model.prediction.as_ref().filter(|p| !p.live) {
            questions.push((&p.question, &p.options));
        }
        if let Some(r) = &model.reflection {
            questions.push((&r.question, &r.options));
        }
        for (question, options) in questions {
            let q = question.value.to_lowercase();
            let about: Vec<bool> = outputs
                .iter()
                .map(|o| o.names.iter().any(|n| q.contains(n.as_str())))
                .collect();
            for (i, o) in options.iter().enumerate().filter(|(_, o)| o.correct) {
                let id = crate::load::check::option_id(i, o);
                texts.push((&o.text, Some(id), about.clone()));
                texts.extend(o.feedback.iter().map(|f| (f, None, none.clone())));
            }
        }
        for (t, correct, about) in texts {
            for (k, word, at) in self.contradicted_words(part, sev, t, &outputs, &about) {
                let o = &outputs[k];
                let pos = self.word_pos(t, at, &word);
                let message = if let Some(id) = &correct {
                    format!("option {id} is marked correct, but its text says `{word}` where `{}` is `{}` at the question's scenario", o.name, o.value)
                } else {
                    format!(
                        "`{word}` contradicts the value it names: `{}` is `{}` at this text's scenario",
                        o.name, o.value
                    )
                };
                let d = if correct.is_some() {
                    Diagnostic::error(&self.source.name, pos, message)
                } else {
                    Diagnostic::warning(&self.source.name, pos, message)
                };
                out.push(d.with_hint(format!("the formulas win: write `{{{{ {} }}}}` to show the value it has (unless the text comes before a question that asks for it), or fix the formula or the scenario; `{}` can be {}", o.name, o.name, o.values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "))));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::value_literals;

    #[test]
    fn possible_values_are_the_literals_a_formula_returns() {
        let f = r#"if comm_s > compute_s { "Communication" } else if x == "fast" { "Compute" } else { hw("H100").name + "!" }"#;
        assert_eq!(value_literals(f), ["Communication", "Compute"]);
        assert_eq!(value_literals(r#""healthy""#), ["healthy"]);
        let sw = r#"switch n { 1 => "one", _ => "many" }"#;
        assert_eq!(value_literals(sw), ["one", "many"]);
    }
}
