//! Tracks and variants: one lab, several worlds.
//!
//! A course (or a lab on its own) declares `tracks:`, the worlds a student picks one of and
//! keeps (a phone, a ring, a car, a data centre). A lab's `variants:` gives, per track, the
//! values it reads as `variant.NAME`; every expression also sees the track itself as `track`.
//! A few numeric fields (a slider's `default`, `min`, `max`, `step`, a number input's, a
//! choice's `correct`) may be written as a Rhai expression string and are computed once per
//! track, before anything else reads them ([`Tracked`]).

use super::*;

/// A track as written: a record with at least `id` and `label` (`icon`, `summary`, `device`,
/// `model` and any further fields are optional), checked by `load::tracks`.
pub type TrackSpec = Spanned<IndexMap<String, Spanned<Value>>>;

/// A lab's `variants:`: `default` or a track id -> the values `variant.NAME` reads.
pub type Variants = IndexMap<String, Spanned<IndexMap<String, Spanned<Value>>>>;

/// The key of the variant values every track shares.
pub const SHARED_VARIANT: &str = "default";

/// A number field that may be a Rhai expression computed per track (`default: variant.batch`).
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum NumOrExpr {
    /// A number.
    Num(f64),
    /// A Rhai expression over the lab's constants, `track` and `variant`, e.g. `variant.batch`.
    Expr(String),
}

// By hand rather than `untagged`: a plain `f64` reads `.inf` (the structure check then says
// it is not finite, in the author's words), and a wrong kind says what is expected.
impl<'de> Deserialize<'de> for NumOrExpr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = NumOrExpr;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, or an expression such as `variant.start_batch`")
            }
            fn visit_f64<E>(self, v: f64) -> Result<NumOrExpr, E> {
                Ok(NumOrExpr::Num(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<NumOrExpr, E> {
                Ok(NumOrExpr::Num(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<NumOrExpr, E> {
                Ok(NumOrExpr::Num(v as f64))
            }
            fn visit_str<E>(self, v: &str) -> Result<NumOrExpr, E> {
                Ok(NumOrExpr::Expr(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A yes/no field that may be a Rhai expression computed per track
/// (`correct: "track.id == 'robotaxi'"`).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub enum BoolOrExpr {
    /// `true` or `false`.
    Bool(bool),
    /// A Rhai expression over the lab's constants, `track` and `variant`.
    Expr(String),
}

/// `impl JsonSchema for $t` as the raw form it is read from (`#[serde(from = $raw)]`): editors
/// see the fields as written, expressions allowed.
macro_rules! schema_as_written {
    ($t:ident, $raw:ident) => {
        impl JsonSchema for $t {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($t).into()
            }
            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $raw::json_schema(g)
            }
        }
    };
}
pub(crate) use schema_as_written;

/// The expressions of a control or choice that wait to be computed for a track: field name ->
/// expression, in the order written. Empty once resolved (and for a field written as a value).
pub type Tracked = Vec<(&'static str, Expr)>;

/// `value` of a number field, or NaN with the expression queued in `tracked` under `field`.
pub(crate) fn num(
    v: Spanned<NumOrExpr>,
    field: &'static str,
    tracked: &mut Tracked,
) -> Spanned<f64> {
    match v.value {
        NumOrExpr::Num(n) => Spanned::new(n, v.pos),
        NumOrExpr::Expr(e) => {
            tracked.push((field, Spanned::new(e, v.pos)));
            Spanned::new(f64::NAN, v.pos)
        }
    }
}

/// One track, checked: its id, what the picker shows, and the record `track` reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    pub id: String,
    pub label: String,
    pub icon: Option<String>,
    /// Markdown inline.
    pub summary: Option<String>,
    /// Every field as written (`id`, `label`, ... and the course's own), read as `track.NAME`.
    pub fields: IndexMap<String, Value>,
}

/// The tracks a lab plays out on, in the order declared, and the one shown before a choice.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrackSet {
    pub tracks: Vec<Track>,
    /// Index into `tracks`.
    pub default: usize,
}

impl TrackSet {
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }
    pub fn get(&self, id: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.id == id)
    }
    pub fn default_track(&self) -> Option<&Track> {
        self.tracks.get(self.default)
    }
    pub fn ids(&self) -> Vec<&str> {
        self.tracks.iter().map(|t| t.id.as_str()).collect()
    }
}
