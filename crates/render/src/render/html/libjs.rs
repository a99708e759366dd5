//! Which parts of the built-in library a page carries: the scripts of the namespaces its
//! formulas call (`renderers/html/library/NS.js`), the devices `hw(id)` and the models
//! `model(id)` can return.
//! Everything else stays out of the page (its size budget is tight).

use serde_json::{json, Value as J};

/// The scripts of their own, in the order they are appended to `library.js`, each with the
/// call prefixes that need it: a namespace (`"llm::"`), or single functions of a namespace
/// whose rest is in `library.js` (`rel::`).
const TOPICS: &[(&[&str], &str)] = &[
    (
        &["collective::"],
        include_str!("../../../../../renderers/html/library/collective.js"),
    ),
    (
        &["roofline::"],
        include_str!("../../../../../renderers/html/library/roofline.js"),
    ),
    (
        &["energy::"],
        include_str!("../../../../../renderers/html/library/energy.js"),
    ),
    (
        &["llm::"],
        include_str!("../../../../../renderers/html/library/llm.js"),
    ),
    (
        &["carbon::"],
        include_str!("../../../../../renderers/html/library/carbon.js"),
    ),
    (
        &["perf::"],
        include_str!("../../../../../renderers/html/library/perf.js"),
    ),
    (
        &["train::"],
        include_str!("../../../../../renderers/html/library/train.js"),
    ),
    (
        &["privacy::"],
        include_str!("../../../../../renderers/html/library/privacy.js"),
    ),
    (
        &["stats::", "rand::", "sim::"],
        include_str!("../../../../../renderers/html/library/stats.js"),
    ),
    // sim.js draws with stats.js's generator (the entry above comes with it).
    (
        &["sim::"],
        include_str!("../../../../../renderers/html/library/sim.js"),
    ),
    (
        &["rel::ckpt_bytes_per_param\"", "rel::stacked_availability\""],
        include_str!("../../../../../renderers/html/library/reliability.js"),
    ),
];

/// Whether the page's translated script (every formula, series and placeholder, and whatever
/// else is translated into it) calls a library path starting with `prefix`: a call is written
/// `_fn(L,"path"` (crates/engine/src/formula/js.rs).
fn calls(script: &str, prefix: &str) -> bool {
    script.contains(&format!("_fn(L,\"{prefix}"))
}

/// The sources of the namespace scripts the page's script calls, concatenated (empty when none).
pub fn topic_scripts(script: &str) -> String {
    TOPICS
        .iter()
        .filter(|(prefixes, _)| prefixes.iter().any(|p| calls(script, p)))
        .map(|(_, src)| *src)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ids of every `name("ID")` call (`hw`, `model`) when all of them name an entry of
/// `known` by a literal; `None` when an id is computed (or unknown), so the page needs the
/// whole table.
fn literal_ids(script: &str, name: &str, known: &J) -> Option<Vec<String>> {
    let call = format!("_fn(L,\"{name}\",\"s\")(");
    let mut ids = Vec::new();
    for (at, _) in script.match_indices(&call) {
        let rest = script[at + call.len()..].strip_prefix('"')?;
        let end = rest.find('"')?;
        let id = &rest[..end];
        let simple = id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !simple || !rest[end + 1..].starts_with(')') {
            return None;
        }
        // An unknown id (an error at run time) keeps the whole table.
        known.get(id)?;
        if !ids.iter().any(|x| x == id) {
            ids.push(id.to_string());
        }
    }
    Some(ids)
}

/// The device table handed to `labforgeLibrary` in the page: only what `hw(id)` returns (the
/// name and the numbers; sources and notes stay in the docs), only when the page's script looks
/// a device up, and only the devices named when every lookup names its device literally.
/// `modules`: the devices of the lab's course modules (`library::devices_json`).
pub fn hardware_for(script: &str, modules: J) -> J {
    table_for(script, "hw", crate::library::hardware_json(), modules)
}

/// The model table handed to `labforgeLibrary` in the page, chosen as [`hardware_for`] chooses
/// devices: empty unless a formula calls `model`, and only the models named literally.
/// `modules`: the models of the lab's course modules (`library::models_json`).
pub fn models_for(script: &str, modules: J) -> J {
    table_for(
        script,
        "model",
        crate::library::models_json(crate::library::models()),
        modules,
    )
}

/// What `name(id)` can return in the page: `builtin` after `modules`, trimmed to the ids the
/// script names literally, each entry to its name and numbers.
fn table_for(script: &str, name: &str, builtin: J, modules: J) -> J {
    if !calls(script, &format!("{name}\"")) {
        return json!({});
    }
    let mut h = builtin;
    // A course module's entries, which `name` finds first (as in Rust).
    if let (J::Object(all), J::Object(extra)) = (&mut h, modules) {
        let mut merged = extra;
        for (k, v) in std::mem::take(all) {
            merged.entry(k).or_insert(v);
        }
        *all = merged;
    }
    let keep = literal_ids(script, name, &h);
    if let J::Object(devices) = &mut h {
        if let Some(keep) = &keep {
            devices.retain(|id, _| keep.contains(id));
        }
        for d in devices.values_mut() {
            if let J::Object(fields) = d {
                fields.retain(|k, v| k == "name" || v.is_number());
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(xs: &[&str]) -> String {
        xs.join("\n")
    }

    #[test]
    fn only_called_namespaces() {
        assert_eq!(topic_scripts(&bodies(&["return 1;"])), "");
        let one = topic_scripts(&bodies(&["return _fn(L,\"roofline::ridge\")(S.a,S.b);"]));
        assert!(one.contains("labforgeTopics.roofline"));
        assert!(!one.contains("labforgeTopics.collective"));
        let two = topic_scripts(&bodies(&[
            "_fn(L,\"collective::p2p_s\")(1,2,3)",
            "_fn(L,\"carbon::embodied_t\")(1,2,3)",
        ]));
        assert!(two.contains("labforgeTopics.collective") && two.contains("labforgeTopics.carbon"));
        assert!(!two.contains("labforgeTopics.llm"));
        // rel:: is in library.js but for two functions, whose script comes only with them.
        let rel = topic_scripts("_fn(L,\"rel::availability\")(1,2)");
        assert_eq!(rel, "");
        let rel = topic_scripts("_fn(L,\"rel::stacked_availability\")(0.9,2)");
        assert!(rel.contains("labforgeTopics.reliability"), "{rel}");
        let both = topic_scripts("_fn(L,\"rand::normal\")(1,2,3,4)");
        assert!(both.contains("labforgeTopics.stats") && !both.contains("labforgeTopics.train"));
    }

    #[test]
    fn devices_named_literally_are_the_only_ones_embedded() {
        assert_eq!(hardware_for(&bodies(&["return 1;"]), json!({})), json!({}));
        let h = hardware_for(&bodies(&[
            "_prop(_fn(L,\"hw\",\"s\")(\"H100\"),\"price_hr\")",
            "_prop(_fn(L,\"hw\",\"s\")(\"T4\"),\"price_hr\")+_prop(_fn(L,\"hw\",\"s\")(\"H100\"),\"x\")",
        ]), json!({}));
        let ids: Vec<&String> = h.as_object().unwrap().keys().collect();
        assert_eq!(ids, ["H100", "T4"]);
        assert!(h["H100"].get("source").is_none());
        assert_eq!(h["H100"]["name"], "NVIDIA H100 SXM5 80GB");
        let all = crate::library::hardware().len();
        // A computed id, or an unknown one, needs the whole table.
        for b in [
            "_fn(L,\"hw\",\"s\")(S.device)",
            "_fn(L,\"hw\",\"s\")(\"H999\")",
            "_fn(L,\"hw\",\"s\")(\"H1\"+\"00\")",
        ] {
            let h = hardware_for(&bodies(&["_fn(L,\"hw\",\"s\")(\"H100\")", b]), json!({}));
            assert_eq!(h.as_object().unwrap().len(), all, "{b}");
        }
    }

    #[test]
    fn models_named_literally_are_the_only_ones_embedded() {
        // No model call, or only hw calls: no model in the page.
        assert_eq!(models_for("return 1;", json!({})), json!({}));
        assert_eq!(
            models_for("_fn(L,\"hw\",\"s\")(\"H100\")", json!({})),
            json!({})
        );
        let m = models_for(
            &bodies(&[
                "_prop(_fn(L,\"model\",\"s\")(\"bert-base\"),\"params\")",
                "_prop(_fn(L,\"model\",\"s\")(\"gpt-3\"),\"layers\")",
            ]),
            json!({}),
        );
        let ids: Vec<&String> = m.as_object().unwrap().keys().collect();
        assert_eq!(ids, ["bert-base", "gpt-3"]);
        assert!(m["gpt-3"].get("source").is_none() && m["gpt-3"].get("kind").is_none());
        assert_eq!(m["gpt-3"]["params"], 175e9);
        // A module's model comes first and is kept when named; a computed id keeps all.
        let extra = json!({"kws-tiny": {"name": "Tiny", "params": 2e4, "source": "s"}});
        let m = models_for("_fn(L,\"model\",\"s\")(\"kws-tiny\")", extra.clone());
        assert_eq!(m, json!({"kws-tiny": {"name": "Tiny", "params": 2e4}}));
        let all = models_for("_fn(L,\"model\",\"s\")(S.m)", extra);
        let all = all.as_object().unwrap();
        assert_eq!(all.len(), crate::library::models().len() + 1);
        assert_eq!(all.keys().next().unwrap(), "kws-tiny");
    }
}
