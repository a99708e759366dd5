//! Lab functions (`functions:`): named Rhai bodies with documented arguments, callable from any
//! formula, condition, chart expression or placeholder of the lab.

use super::{Expr, Spanned};
use schemars::JsonSchema;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// A function a lab (or a course module) defines: `name(args) -> unit`, computed by `body`.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Function {
    /// The name formulas call it by (letters, digits, `_`; not a built-in's name).
    pub name: Spanned<String>,
    /// The arguments, in order: a plain name, or `{ name, unit, doc }`.
    #[serde(default)]
    #[schemars(example = serde_json::json!(["n", {"name": "bytes", "unit": "B", "doc": "message size"}]))]
    pub args: Vec<FnArg>,
    /// Unit of the result.
    #[serde(default)]
    pub unit: Option<String>,
    /// One line: what it computes.
    #[serde(default)]
    pub doc: Option<String>,
    /// Where the model comes from (a citation).
    #[serde(default)]
    pub source: Option<String>,
    /// The body (Rhai): sees only its arguments (and module constants); the last expression
    /// is the value.
    pub body: Expr,
}

/// One argument of a [`Function`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum FnArg {
    /// Just the name.
    Name(String),
    /// The name with its unit and a description.
    Documented(DocumentedArg),
}

/// An argument with its unit and a description.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentedArg {
    /// The name the body reads it by.
    pub name: String,
    /// Its unit.
    #[serde(default)]
    pub unit: Option<String>,
    /// What it is (one line).
    #[serde(default)]
    pub doc: Option<String>,
}

impl FnArg {
    pub fn name(&self) -> &str {
        match self {
            FnArg::Name(n) => n,
            FnArg::Documented(d) => &d.name,
        }
    }
    pub fn unit(&self) -> Option<&str> {
        match self {
            FnArg::Name(_) => None,
            FnArg::Documented(d) => d.unit.as_deref(),
        }
    }
}

impl Function {
    /// `name(a: unit, b) -> unit`, as `labforge lib` shows it.
    pub fn signature(&self, path: &str) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match a.unit() {
                Some(u) => format!("{}: {u}", a.name()),
                None => a.name().to_string(),
            })
            .collect();
        match &self.unit {
            Some(u) => format!("{path}({}) -> {u}", args.join(", ")),
            None => format!("{path}({})", args.join(", ")),
        }
    }
}

impl<'de> Deserialize<'de> for FnArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FnArg;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an argument name, or { name: ..., unit: ..., doc: ... }")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FnArg, E> {
                Ok(FnArg::Name(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<FnArg, E> {
                Ok(FnArg::Name(v))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<FnArg, E> {
                Err(E::custom(format!(
                    "this argument name reads as the boolean {v} in YAML (`n`, `y`, `no`, `on`, ...); quote it, e.g. \"n\""
                )))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FnArg, A::Error> {
                DocumentedArg::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(FnArg::Documented)
            }
        }
        d.deserialize_any(V)
    }
}
