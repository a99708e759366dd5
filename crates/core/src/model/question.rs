//! A part's `questions:`, asked after its prediction: a choice (one correct option, none for
//! an opinion question, or a key left to its options' claims), a select-all (graded as a set),
//! a number (graded with a tolerance, as numeric predictions are) or a written answer (never
//! graded right or wrong: answered, or shorter than its `min_words`). Each has an id (default
//! `q1`, `q2`, ... by position), the key of its answer in the student's record. A bare string
//! is a text question: `questions: ["Name the binding term."]`.

use super::*;

/// What a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    Choice,
    SelectAll,
    Numeric,
    Text,
}

impl QuestionKind {
    /// The key that names the kind in YAML.
    pub fn key(self) -> &'static str {
        match self {
            QuestionKind::Choice => "choice",
            QuestionKind::SelectAll => "select_all",
            QuestionKind::Numeric => "numeric",
            QuestionKind::Text => "text",
        }
    }
}

/// The most a written answer keeps, in characters (the page, the terminal and a record read
/// back all cut it here).
pub const MAX_TEXT_ANSWER: usize = 10_000;

/// A question as written: exactly one of `choice`, `select_all`, `numeric` or `text` gives
/// its kind and its prompt; `labforge check` says which other fields each kind takes.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPartQuestion {
    /// Saved in the student's record (default `q1`, `q2`, ... by position in the part).
    /// Letters, digits and `_`, a letter first; unique in the part.
    #[serde(default)]
    pub id: Option<Spanned<String>>,
    /// A multiple-choice question (Markdown): one option `correct`, or none for an opinion
    /// question (recorded, never graded). With a `claim:` output and a `claim` on every option,
    /// `correct` may be left out: the option whose claim holds at the scenario is then the key,
    /// on each track (the question is graded, not an opinion).
    #[serde(default)]
    pub choice: Option<Text>,
    /// A select-all question (Markdown): the options marked `correct` are the right set.
    #[serde(default)]
    pub select_all: Option<Text>,
    /// A numeric question (Markdown): the student types a number, graded against `output`.
    #[serde(default)]
    pub numeric: Option<Text>,
    /// A written answer (Markdown prompt), e.g. `Name the binding term.`
    #[serde(default)]
    pub text: Option<Text>,
    /// The options of a choice or select-all question. Ids default to A, B, C, ...
    #[serde(default)]
    pub options: Vec<Choice>,
    /// Grey text in an empty answer box, e.g. `The term that grows fastest is ...`.
    #[serde(default)]
    pub placeholder: Option<Spanned<String>>,
    /// Fewest words a written answer should have; shorter is recorded and flagged too short.
    #[serde(default)]
    pub min_words: Option<Spanned<u32>>,
    /// A model answer (Markdown), printed in the answer key only.
    #[serde(default)]
    pub answer: Option<Text>,
    /// Shown once the question is answered (Markdown).
    #[serde(default)]
    pub feedback: Option<Text>,
    /// Gates that must be passed before the question opens: `prediction` (this part's), or
    /// the id of an earlier question of this part.
    #[serde(default)]
    pub requires: Vec<Spanned<String>>,
    /// Not a field: a text question is never graded; a choice marks its correct options.
    #[serde(default)]
    #[schemars(skip)]
    pub correct: Option<Spanned<Value>>,
    /// Choice or select-all: the output the options' `claim`s are about, at the prediction's
    /// scenario (checked by `labforge check`, as a prediction's). A choice whose options all
    /// claim and none is marked `correct` takes its key from the claims.
    #[serde(default)]
    pub claim: Option<Spanned<String>>,
    /// Numeric: the output the answer is compared with, at the prediction's scenario.
    #[serde(default)]
    pub output: Option<Spanned<String>>,
    /// Numeric: relative tolerance (default 0.1). Also written `tol`.
    #[serde(default, alias = "tol")]
    pub tolerance: Option<Spanned<f64>>,
    /// Numeric: absolute tolerance in the output's unit, instead of `tolerance`.
    #[serde(default)]
    pub abs_tol: Option<Spanned<f64>>,
    /// Numeric: the smallest answer the box takes.
    #[serde(default)]
    pub min: Option<Spanned<f64>>,
    /// Numeric: the largest answer the box takes.
    #[serde(default)]
    pub max: Option<Spanned<f64>>,
    /// Numeric: the unit shown next to the box.
    #[serde(default)]
    pub unit: Option<String>,
}

/// A question of a part: as written, its id resolved ([`fill_ids`]).
#[derive(Debug, Clone, Serialize)]
pub struct PartQuestion {
    pub id: Spanned<String>,
    /// Where the question starts in the file.
    #[serde(skip)]
    pub pos: Pos,
    #[serde(flatten)]
    pub spec: RawPartQuestion,
}

/// A question as written: a record, or a bare string (a text question).
#[derive(Debug, Clone, JsonSchema)]
#[serde(untagged)]
pub enum QuestionInput {
    /// A text question in one line: its prompt.
    Text(String),
    /// A question of any kind.
    Full(Box<RawPartQuestion>),
}

impl<'de> Deserialize<'de> for QuestionInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = QuestionInput;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a question (a record with `choice`, `select_all`, `numeric` or `text`), or a text question's prompt")
            }
            fn visit_str<E>(self, v: &str) -> Result<QuestionInput, E> {
                Ok(QuestionInput::Text(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<QuestionInput, A::Error> {
                RawPartQuestion::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|q| QuestionInput::Full(Box::new(q)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for PartQuestion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Spanned::<QuestionInput>::deserialize(d)?;
        let spec = match s.value {
            QuestionInput::Text(t) => RawPartQuestion {
                text: Some(Spanned::new(t, s.pos)),
                ..Default::default()
            },
            QuestionInput::Full(q) => *q,
        };
        Ok(PartQuestion {
            id: spec
                .id
                .clone()
                .unwrap_or_else(|| Spanned::new(String::new(), s.pos)),
            pos: s.pos,
            spec,
        })
    }
}

impl JsonSchema for PartQuestion {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PartQuestion".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        QuestionInput::json_schema(g)
    }
}

impl PartQuestion {
    /// The kinds named (one, in a well-formed question), with their prompts.
    pub fn kinds(&self) -> Vec<(QuestionKind, &Text)> {
        let s = &self.spec;
        [
            (QuestionKind::Choice, &s.choice),
            (QuestionKind::SelectAll, &s.select_all),
            (QuestionKind::Numeric, &s.numeric),
            (QuestionKind::Text, &s.text),
        ]
        .into_iter()
        .filter_map(|(k, t)| t.as_ref().map(|t| (k, t)))
        .collect()
    }

    /// The question's kind (the first named; `check` refuses more than one).
    pub fn kind(&self) -> QuestionKind {
        self.kinds().first().map_or(QuestionKind::Text, |k| k.0)
    }

    /// The prompt (Markdown).
    pub fn prompt(&self) -> Text {
        self.kinds()
            .first()
            .map_or_else(|| Spanned::new(String::new(), self.pos), |k| k.1.clone())
    }

    /// A choice question with no correct option, and no key left to its claims
    /// ([`Self::keyed_by_claims`]): an opinion, recorded and never graded.
    pub fn is_opinion(&self) -> bool {
        self.kind() == QuestionKind::Choice
            && self
                .spec
                .options
                .iter()
                .all(|o| !o.correct && o.tracked.is_empty())
            && !self.keyed_by_claims()
    }

    /// Does the choice question leave its key to its claims (issue 25), as a prediction may
    /// ([`Prediction::keyed_by_claims`]): a `claim:` output, each option with a claim, none
    /// marked correct (by `true` or a track expression)? Then the option whose claim holds at
    /// the part's scenario is the key, on each track (the engine marks it; `labforge check`
    /// reports claims that pick none or several), and the question is graded, never an opinion.
    pub fn keyed_by_claims(&self) -> bool {
        let s = &self.spec;
        self.kind() == QuestionKind::Choice
            && s.claim.is_some()
            && !s.options.is_empty()
            && s.options
                .iter()
                .all(|o| o.claim.is_some() && !o.correct && o.tracked.is_empty())
    }

    /// Is the question graded right or wrong (a choice with a correct option, a select-all, a
    /// number)?
    pub fn is_graded(&self) -> bool {
        match self.kind() {
            QuestionKind::Text => false,
            QuestionKind::Choice => !self.is_opinion(),
            _ => true,
        }
    }

    /// The numeric question's grading, as a numeric prediction's.
    pub fn numeric(&self) -> Option<NumericAnswer> {
        let s = &self.spec;
        if self.kind() != QuestionKind::Numeric {
            return None;
        }
        Some(NumericAnswer {
            output: s.output.clone()?,
            tolerance: s.tolerance.clone(),
            abs_tol: s.abs_tol.clone(),
            min: s.min.clone(),
            max: s.max.clone(),
            step: None,
            default: None,
            unit: s.unit.clone(),
            correct_feedback: None,
            other_feedback: None,
            bands: Vec::new(),
        })
    }

    /// Its prose: prompt, options and their feedback, feedback, model answer.
    pub fn texts(&self) -> Vec<&Text> {
        let s = &self.spec;
        let mut v: Vec<&Text> = self.kinds().into_iter().map(|k| k.1).collect();
        for o in &s.options {
            v.push(&o.text);
            v.extend(o.feedback.iter());
        }
        v.extend(s.feedback.iter());
        v.extend(s.answer.iter());
        v
    }

    /// The minimum words of a text question (0 without one).
    pub fn min_words(&self) -> u32 {
        self.spec.min_words.as_ref().map_or(0, |m| m.value)
    }
}

/// Gives every question without an `id` its position's: `q1`, `q2`, ...
pub fn fill_ids(lab: &mut Lab) {
    for p in &mut lab.parts {
        for (i, q) in p.questions.iter_mut().enumerate() {
            if q.id.value.is_empty() && q.spec.id.is_none() {
                q.id.value = format!("q{}", i + 1);
            }
        }
    }
}

/// Words in a written answer: runs of characters other than space, tab, line feed and
/// carriage return (the page counts them the same way, `questions.js`).
pub fn word_count(s: &str) -> usize {
    s.split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
        .count()
}

/// A written answer as kept: its first [`MAX_TEXT_ANSWER`] characters (Unicode scalar values,
/// as the page's `Array.from` counts them).
pub fn bound_text(s: &str) -> String {
    s.chars().take(MAX_TEXT_ANSWER).collect()
}

/// The select-all rule: each correct option picked counts +1, each wrong one -1, out of the
/// number of correct options, never below 0. `(score, all right)`.
pub fn select_score(correct: &[String], picked: &[String]) -> (f64, bool) {
    let n = correct.len().max(1) as f64;
    let right = picked.iter().filter(|p| correct.contains(p)).count() as f64;
    let wrong = picked.len() as f64 - right;
    let exact = right as usize == correct.len() && wrong == 0.0;
    (((right - wrong) / n).max(0.0), exact)
}

/// The select-all rule in words, for the answer key and the docs.
pub const SELECT_RULE: &str = "each correct option picked counts +1 and each wrong one −1, out of the number of correct options (never below 0); full credit only for exactly the correct set";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_all_partial_credit() {
        let c = vec!["A".to_string(), "C".to_string()];
        let s = |p: &[&str]| select_score(&c, &p.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&["A", "C"]), (1.0, true));
        assert_eq!(s(&["A"]), (0.5, false));
        assert_eq!(s(&["A", "B"]), (0.0, false));
        assert_eq!(s(&["B", "D"]), (0.0, false));
        assert_eq!(s(&["A", "C", "B"]), (0.5, false));
        assert_eq!(s(&[]), (0.0, false));
    }

    #[test]
    fn a_bare_string_is_a_text_question() {
        let qs: Vec<PartQuestion> = serde_saphyr::from_str(
            "- Name the binding term.\n- { id: pick, choice: Which?, options: [ { text: x } ] }\n",
        )
        .unwrap();
        assert_eq!(qs[0].kind(), QuestionKind::Text);
        assert_eq!(qs[0].prompt().value, "Name the binding term.");
        assert_eq!(qs[0].pos.line, 1);
        assert_eq!(qs[1].kind(), QuestionKind::Choice);
        assert_eq!(qs[1].id.value, "pick");
        assert!(qs[1].is_opinion());
        let bad = serde_saphyr::from_str::<Vec<PartQuestion>>("- { id: x, txt: y }\n");
        assert!(bad.unwrap_err().to_string().contains("txt"));
    }

    #[test]
    fn a_choice_whose_options_all_claim_is_keyed_by_its_claims_not_an_opinion() {
        let qs: Vec<PartQuestion> = serde_saphyr::from_str(concat!(
            "- { choice: Which?, claim: fits, options: [ { text: y, claim: { is: true } }, { text: n, claim: { is: false } } ] }\n",
            "- { choice: Which?, options: [ { text: y, claim: { is: true } }, { text: n, claim: { is: false } } ] }\n",
            "- { choice: Which?, claim: fits, options: [ { text: y, claim: { is: true } }, { text: n } ] }\n",
            "- { select_all: Which?, claim: fits, options: [ { text: y, claim: { is: true } }, { text: n, claim: { is: false } } ] }\n",
        ))
        .unwrap();
        let got: Vec<(bool, bool, bool)> = qs
            .iter()
            .map(|q| (q.keyed_by_claims(), q.is_opinion(), q.is_graded()))
            .collect();
        // Keyed and graded; no `claim:` output, or an option without a claim: an opinion; a
        // select-all is never keyed by its claims (it marks its set).
        assert_eq!(
            got,
            [
                (true, false, true),
                (false, true, false),
                (false, true, false),
                (false, false, true)
            ]
        );
    }
}
