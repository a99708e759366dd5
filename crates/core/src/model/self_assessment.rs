//! A self-assessment item: a question as plain text (the original form), or
//! `{ question, answer }` with the answer a grader reads in the answer key.

use super::{Spanned, Text};
use schemars::JsonSchema;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// One self-assessment item.
#[derive(Debug, Clone, Serialize)]
pub struct SelfAssessmentItem {
    /// The question (Markdown).
    pub question: Text,
    /// The answer, shown only in the answer key (Markdown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Text>,
}

/// A self-assessment question with its answer.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SelfAssessmentAnswered")]
struct Full {
    /// The question (Markdown).
    question: Text,
    /// What a good answer says (Markdown); shown only in the answer key.
    #[serde(default)]
    answer: Option<Text>,
}

/// What the node holds: a string (its position is the node's) or the full form.
enum Raw {
    Plain(String),
    Full(Full),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a question, or { question: ..., answer: ... }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
                Ok(Raw::Plain(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Raw, E> {
                Ok(Raw::Plain(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Raw, A::Error> {
                Full::deserialize(de::value::MapAccessDeserializer::new(map)).map(Raw::Full)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for SelfAssessmentItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let node = Spanned::<Raw>::deserialize(d)?;
        Ok(match node.value {
            Raw::Plain(q) => SelfAssessmentItem {
                question: Spanned::new(q, node.pos),
                answer: None,
            },
            Raw::Full(f) => SelfAssessmentItem {
                question: f.question,
                answer: f.answer,
            },
        })
    }
}

/// A self-assessment item: a question, or `{ question, answer }` (the answer is printed only in
/// the answer key).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ItemSchema {
    /// The question (Markdown).
    Question(String),
    WithAnswer(Full),
}

impl JsonSchema for SelfAssessmentItem {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SelfAssessmentItem".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        ItemSchema::json_schema(g)
    }
}
