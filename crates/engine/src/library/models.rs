//! The built-in model table (`models.yaml`) and `model(id)`: the models the course's labs and
//! tracks name, each figure with its paper or model card (conventions at the top of the YAML).
//!
//! Sizes are left to formulas on purpose: `llm::weight_gb(model("llama-2-70b").params, "fp16")`
//! already gives the bytes at each precision (with the same Rust/JS parity), so the table holds
//! only what the sources print.

use std::sync::OnceLock;

use indexmap::IndexMap;
use rhai::{Engine, EvalAltResult, Map};
use serde::Deserialize;

use super::hardware::{entry_json, entry_map};
use super::runtime_error;

/// One model of the built-in table (or of a course module's `models:`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Short id used in formulas: `model("bert-base")`.
    pub id: String,
    /// Full name, e.g. "BERT-Base (uncased/cased, 12 layers)".
    pub name: String,
    /// `cnn`, `encoder` (transformer encoder) or `decoder` (decoder-only language model).
    pub kind: String,
    /// Numeric figures; names and units are listed in [`MODEL_FIELD_DOCS`]. A figure the
    /// source does not give is absent.
    pub fields: IndexMap<String, f64>,
    /// Where each figure comes from (paper and table, model card, what was derived).
    pub source: String,
    /// `YYYY-MM` of the sources used.
    pub as_of: String,
}

/// Every field a model may carry, with its meaning and unit.
pub(crate) const MODEL_FIELD_DOCS: &[(&str, &str)] = &[
    ("params", "parameters, count"),
    (
        "layers",
        "weighted layers (CNNs, the depth in the name) or transformer blocks, count",
    ),
    ("hidden", "hidden size d_model, elements"),
    ("heads", "attention (query) heads, count"),
    (
        "kv_heads",
        "key/value heads where grouped-query attention shares them, count",
    ),
    ("context", "maximum sequence length, tokens"),
    ("input_px", "side of the square input image the counts are for, pixels"),
    (
        "macs",
        "multiply-accumulates per inference at the standard input, batch 1 (1 MAC = 2 FLOPs)",
    ),
    ("flops", "floating-point operations per inference = 2 × macs, FLOPs"),
    (
        "flops_per_token",
        "forward FLOPs per token of a decoder LLM = 2 × params (Kaplan et al. 2020, no attention term)",
    ),
    ("train_flops", "total training compute as the paper states it, FLOPs"),
];

/// The kinds a model may have.
pub(crate) const KINDS: &[&str] = &["cnn", "encoder", "decoder"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelsFile {
    models: Vec<Model>,
}

/// The built-in models, in table order (parsed once from the embedded `models.yaml`).
pub fn models() -> &'static [Model] {
    static MODELS: OnceLock<Vec<Model>> = OnceLock::new();
    MODELS.get_or_init(|| {
        let file: ModelsFile = serde_saphyr::from_str(include_str!("models.yaml")).expect(
            "the embedded crates/engine/src/library/models.yaml is valid (checked by unit tests)",
        );
        file.models
    })
}

/// Models as JSON for the page: `{"bert-base": {"name": …, "kind": …, <numeric fields>…,
/// "source": …, "as_of": …}, …}`, in the given order. `renderers/html/library.js` takes this
/// object (trimmed by `crates/render/src/render/html/libjs.rs`) as its `models` argument.
pub fn models_json<'a>(models: impl IntoIterator<Item = &'a Model>) -> serde_json::Value {
    let mut all = serde_json::Map::new();
    for m in models {
        let texts = [("name", &m.name), ("kind", &m.kind)];
        all.insert(
            m.id.clone(),
            entry_json(&texts, &m.fields, &m.source, &m.as_of),
        );
    }
    serde_json::Value::Object(all)
}

/// What `model(id)` returns for `m`: its numeric fields plus `name`.
pub(crate) fn model_map(m: &Model) -> Map {
    entry_map(&m.name, &m.fields)
}

/// `model(id)` over `extra` (a course's models, found first) and the built-in table.
pub(crate) fn model_in(extra: &[Model], id: &str) -> Result<Map, Box<EvalAltResult>> {
    match extra.iter().chain(models()).find(|m| m.id == id) {
        Some(m) => Ok(model_map(m)),
        None => {
            let known: Vec<&str> = extra
                .iter()
                .chain(models())
                .map(|m| m.id.as_str())
                .collect();
            Err(runtime_error(format!(
                "model: unknown model id '{id}'; known ids: {}",
                known.join(", ")
            )))
        }
    }
}

/// Registers `model(id)` on `engine`, finding `extra` (a course module's models) first.
pub fn register_models(engine: &mut Engine, extra: Vec<Model>) {
    engine.register_fn(
        "model",
        move |id: rhai::ImmutableString| -> Result<Map, Box<EvalAltResult>> {
            model_in(&extra, id.as_str())
        },
    );
}

/// The unknown field of `m`, if any (a course module's model is checked with this).
pub(crate) fn unknown_field(m: &Model) -> Option<&str> {
    m.fields
        .keys()
        .map(String::as_str)
        .find(|k| !MODEL_FIELD_DOCS.iter().any(|(f, _)| f == k))
}

/// The reference's "Models" section: the field table, then one `### ` entry per model.
pub(crate) fn reference_section(out: &mut String) {
    use std::fmt::Write as _;
    out.push_str("## Models (`model(id)`)\n\n");
    out.push_str(
        "`model(id)` returns a record of the model's numeric fields plus `name`. Figures a \
         source does not give are absent, not zero. 1 multiply-accumulate (MAC) = 2 FLOPs: \
         `macs` and `flops` count one inference at the standard input; `flops_per_token` is \
         2 × params, the forward cost per token of a decoder language model. Sizes are a \
         formula away: `llm::weight_gb(model(\"llama-2-70b\").params, \"fp16\")`.\n\n",
    );
    out.push_str("| field | meaning |\n| --- | --- |\n");
    for (field, meaning) in MODEL_FIELD_DOCS {
        let _ = writeln!(out, "| `{field}` | {meaning} |");
    }
    out.push('\n');
    for m in models() {
        let _ = write!(out, "### `{}`: {}\n\n", m.id, m.name);
        let _ = write!(out, "Kind: {}. As of: {}.\n\n", m.kind, m.as_of);
        out.push_str("| field | value |\n| --- | --- |\n");
        for (k, v) in &m.fields {
            let _ = writeln!(out, "| `{k}` | {v} |");
        }
        let _ = write!(out, "\nSource: {}\n\n", m.source);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(id: &str) -> &'static Model {
        models().iter().find(|m| m.id == id).unwrap()
    }

    #[test]
    fn table_parses_and_is_well_formed() {
        let mut ids = std::collections::BTreeSet::new();
        for m in models() {
            assert!(ids.insert(m.id.as_str()), "duplicate id {}", m.id);
            assert!(
                m.id.starts_with(|c: char| c.is_ascii_lowercase())
                    && m.id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                // A leading letter also keeps JS object key order = table order.
                "id {:?} should be lowercase letters, digits and dashes after a letter",
                m.id
            );
            assert!(
                KINDS.contains(&m.kind.as_str()),
                "{}: kind {}",
                m.id,
                m.kind
            );
            assert!(!m.name.is_empty(), "{}", m.id);
            assert!(m.source.len() > 80, "{}: source too short", m.id);
            assert!(
                super::super::hardware::is_year_month(&m.as_of),
                "{}: as_of {:?} is not YYYY-MM",
                m.id,
                m.as_of
            );
            assert_eq!(unknown_field(m), None, "{}", m.id);
            assert!(m.fields.contains_key("params"), "{}: no params", m.id);
            for (k, v) in &m.fields {
                assert!(v.is_finite() && *v > 0.0, "{}: {k} = {v}", m.id);
            }
        }
        for want in [
            "mobilenet-v2",
            "ds-cnn",
            "yolov8-nano",
            "bert-base",
            "resnet-50",
            "resnet-18",
            "vit-b-16",
            "gpt-2",
            "llama-3-8b",
            "llama-2-70b",
            "gpt-3",
        ] {
            assert!(ids.contains(want), "missing {want}");
        }
    }

    /// The file's conventions: flops = 2 × macs wherever both are given; a decoder's
    /// flops_per_token = 2 × params; per-inference counts come with the input they are for
    /// (CNNs); transformers carry their shape.
    #[test]
    fn conventions_hold() {
        for m in models() {
            let f = |k: &str| m.fields.get(k).copied();
            if let (Some(macs), Some(flops)) = (f("macs"), f("flops")) {
                assert_eq!(flops, 2.0 * macs, "{}: flops = 2 × macs", m.id);
            }
            match m.kind.as_str() {
                "decoder" => {
                    assert_eq!(
                        f("flops_per_token"),
                        Some(2.0 * f("params").unwrap()),
                        "{}",
                        m.id
                    );
                    for k in ["layers", "hidden", "heads", "context"] {
                        assert!(f(k).is_some(), "{}: decoder without {k}", m.id);
                    }
                    assert!(f("macs").is_none() && f("flops").is_none(), "{}", m.id);
                }
                _ => assert!(f("flops_per_token").is_none(), "{}", m.id),
            }
            if f("macs").is_some() {
                assert!(f("input_px").is_some(), "{}: macs without input_px", m.id);
            }
            if let (Some(h), Some(kv)) = (f("heads"), f("kv_heads")) {
                assert!(
                    kv <= h && h % kv == 0.0,
                    "{}: heads {h}, kv_heads {kv}",
                    m.id
                );
            }
        }
    }

    #[test]
    fn figures_the_course_relies_on() {
        let f = |id: &str, k: &str| m(id).fields[k];
        // The tracks' models (labs/course.yaml `model:` ids).
        assert_eq!(f("mobilenet-v2", "params"), 3.4e6);
        assert_eq!(f("mobilenet-v2", "macs"), 300e6);
        assert_eq!(f("yolov8-nano", "flops"), 8.7e9);
        assert_eq!(f("yolov8-nano", "input_px"), 640.0);
        assert_eq!(f("bert-base", "hidden"), 768.0);
        assert_eq!(f("ds-cnn", "params"), 200e3);
        // compute-infrastructure's Llama 2 70B: 80 layers, 8 KV heads, head_dim 8,192 / 64 = 128.
        assert_eq!(f("llama-2-70b", "layers"), 80.0);
        assert_eq!(f("llama-2-70b", "kv_heads"), 8.0);
        assert_eq!(
            f("llama-2-70b", "hidden") / f("llama-2-70b", "heads"),
            128.0
        );
        // GPT-3: d_head 128 and 3.64e3 petaflop/s-days ≈ 3.14e23 FLOPs.
        assert_eq!(f("gpt-3", "hidden") / f("gpt-3", "heads"), 128.0);
        let pf_days = 3.64e3 * 1e15 * 86400.0;
        assert!((pf_days / f("gpt-3", "train_flops") - 1.0).abs() < 2e-3);
        assert_eq!(f("resnet-50", "macs"), 4.09e9);
    }

    #[test]
    fn model_map_and_errors() {
        let r = model_in(&[], "bert-base").unwrap();
        assert_eq!(
            r["name"].clone().into_string().unwrap(),
            "BERT-Base (uncased/cased, 12 layers)"
        );
        assert_eq!(r["params"].as_float().unwrap(), 110e6);
        assert!(!r.contains_key("flops") && !r.contains_key("kind"));
        let err = model_in(&[], "bert").unwrap_err().to_string();
        assert!(
            err.contains("model: unknown model id 'bert'; known ids: mobilenet-v2, ds-cnn, yolov8-nano, bert-base, resnet-50"),
            "{err}"
        );
        // A course's model is found first and listed first.
        let mut mine = m("bert-base").clone();
        mine.id = "tiny".into();
        mine.fields = IndexMap::from([("params".to_string(), 1e3)]);
        assert_eq!(
            model_in(&[mine.clone()], "tiny").unwrap()["params"]
                .as_float()
                .unwrap(),
            1e3
        );
        let err = model_in(&[mine], "x").unwrap_err().to_string();
        assert!(err.contains("known ids: tiny, mobilenet-v2,"), "{err}");
    }

    #[test]
    fn json_matches_table() {
        let j = models_json(models());
        let o = j.as_object().unwrap();
        let ids: Vec<&String> = o.keys().collect();
        let want: Vec<&String> = models().iter().map(|m| &m.id).collect();
        assert_eq!(ids, want, "table order is kept");
        assert_eq!(o["gpt-3"]["params"].as_f64(), Some(175e9));
        assert_eq!(o["gpt-3"]["kind"].as_str(), Some("decoder"));
        assert!(o["bert-base"].get("flops").is_none());
    }
}
