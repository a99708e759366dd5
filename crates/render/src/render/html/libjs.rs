//! Which parts of the built-in library a page carries: the scripts of the namespaces its
//! formulas call (`renderers/html/library/NS.js`), the devices `hw(id)` and the models
//! `model(id)` can return.
//! Everything else stays out of the page (its size budget is tight).

use super::data::{InOrder, LibEntry, LibTable};
use crate::library::{Device, Model};

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

/// The ids of every `name("ID")` call (`hw`, `model`) when all of them name an entry `known`
/// accepts by a literal; `None` when an id is computed (or unknown), so the page needs the
/// whole table.
fn literal_ids(script: &str, name: &str, known: impl Fn(&str) -> bool) -> Option<Vec<String>> {
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
        if !known(id) {
            return None;
        }
        if !ids.iter().any(|x| x == id) {
            ids.push(id.to_string());
        }
    }
    Some(ids)
}

/// The device table handed to `labforgeLibrary` in the page: only what `hw(id)` returns (the
/// name and the numbers; sources and notes stay in the docs), only when the page's script looks
/// a device up, and only the devices named when every lookup names its device literally.
/// `modules`: the devices of the lab's course modules.
pub(super) fn hardware_for<'a>(
    script: &str,
    modules: impl IntoIterator<Item = &'a Device>,
) -> LibTable<'a> {
    let entry = |d: &'a Device| (d.id.as_str(), LibEntry::new(&d.name, &d.fields));
    table_for(
        script,
        "hw",
        crate::library::hardware().iter().map(entry),
        modules.into_iter().map(entry),
    )
}

/// The model table handed to `labforgeLibrary` in the page, chosen as [`hardware_for`] chooses
/// devices: empty unless a formula calls `model`, and only the models named literally.
/// `modules`: the models of the lab's course modules.
pub(super) fn models_for<'a>(
    script: &str,
    modules: impl IntoIterator<Item = &'a Model>,
) -> LibTable<'a> {
    let entry = |m: &'a Model| (m.id.as_str(), LibEntry::new(&m.name, &m.fields));
    table_for(
        script,
        "model",
        crate::library::models().iter().map(entry),
        modules.into_iter().map(entry),
    )
}

/// Sets `id` to `e` as a JSON object does: a new id goes last, a known one keeps its place.
fn insert<'a>(table: &mut Vec<(&'a str, LibEntry<'a>)>, id: &'a str, e: LibEntry<'a>) {
    match table.iter_mut().find(|(k, _)| *k == id) {
        Some(slot) => slot.1 = e,
        None => table.push((id, e)),
    }
}

/// What `name(id)` can return in the page: the `modules`' entries, which `name` finds first
/// (as in Rust), then the `builtin` ones, trimmed to the ids the script names literally (an
/// empty table when it calls no `name`).
fn table_for<'a>(
    script: &str,
    name: &str,
    builtin: impl Iterator<Item = (&'a str, LibEntry<'a>)>,
    modules: impl Iterator<Item = (&'a str, LibEntry<'a>)>,
) -> LibTable<'a> {
    if !calls(script, &format!("{name}\"")) {
        return InOrder(Vec::new());
    }
    // A module's id defined again (a warning of `check`) is not read: the first one is `name`'s.
    let mut all: Vec<(&str, LibEntry)> = Vec::new();
    for (id, e) in modules {
        if !all.iter().any(|(k, _)| *k == id) {
            all.push((id, e));
        }
    }
    let mut own = Vec::new();
    for (id, e) in builtin {
        insert(&mut own, id, e);
    }
    let ours = all.len();
    for (id, e) in own {
        if !all[..ours].iter().any(|(k, _)| *k == id) {
            all.push((id, e));
        }
    }
    if let Some(keep) = literal_ids(script, name, |id| all.iter().any(|(k, _)| *k == id)) {
        all.retain(|(id, _)| keep.iter().any(|k| k == id));
    }
    InOrder(all)
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

    /// The ids of a table, in order.
    fn ids<'a>(t: &'a LibTable) -> Vec<&'a str> {
        t.0.iter().map(|(id, _)| *id).collect()
    }

    fn none() -> std::iter::Empty<&'static Device> {
        std::iter::empty()
    }

    #[test]
    fn devices_named_literally_are_the_only_ones_embedded() {
        assert!(hardware_for(&bodies(&["return 1;"]), none()).0.is_empty());
        let h = hardware_for(&bodies(&[
            "_prop(_fn(L,\"hw\",\"s\")(\"H100\"),\"price_hr\")",
            "_prop(_fn(L,\"hw\",\"s\")(\"T4\"),\"price_hr\")+_prop(_fn(L,\"hw\",\"s\")(\"H100\"),\"x\")",
        ]), none());
        assert_eq!(ids(&h), ["H100", "T4"]);
        // An entry is its name and numbers: no source, vendor or class.
        let j = serde_json::to_value(&h).unwrap();
        assert!(j["H100"].get("source").is_none() && j["H100"].get("vendor").is_none());
        assert_eq!(j["H100"]["name"], "NVIDIA H100 SXM5 80GB");
        assert!(j["H100"]["price_hr"].is_number());
        let all = crate::library::hardware().len();
        // A computed id, or an unknown one, needs the whole table.
        for b in [
            "_fn(L,\"hw\",\"s\")(S.device)",
            "_fn(L,\"hw\",\"s\")(\"H999\")",
            "_fn(L,\"hw\",\"s\")(\"H1\"+\"00\")",
        ] {
            let h = hardware_for(&bodies(&["_fn(L,\"hw\",\"s\")(\"H100\")", b]), none());
            assert_eq!(h.0.len(), all, "{b}");
        }
    }

    /// Two module devices with one id (a warning of `check`): the page's `hw` returns the first,
    /// as Rust's does (it kept the last in the first's place).
    #[test]
    fn a_module_device_defined_twice_is_the_first_as_in_rust() {
        let one = |name: &str, tops: u32| {
            format!(
                r#"{{"id":"X1","name":"{name}","vendor":"v","class":"edge","fields":{{"int8_tops":{tops}}},"source":"s","as_of":"2024-01"}}"#
            )
        };
        let devs: Vec<Device> =
            serde_json::from_str(&format!("[{},{}]", one("First", 35), one("Second", 36))).unwrap();
        let h = hardware_for(&bodies(&["_fn(L,\"hw\",\"s\")(\"X1\")"]), devs.iter());
        let j = serde_json::to_value(&h).unwrap();
        assert_eq!(j["X1"]["name"], "First");
        assert_eq!(j["X1"]["int8_tops"], 35.0);
    }

    #[test]
    fn models_named_literally_are_the_only_ones_embedded() {
        let none = std::iter::empty::<&Model>;
        // No model call, or only hw calls: no model in the page.
        assert!(models_for("return 1;", none()).0.is_empty());
        assert!(models_for("_fn(L,\"hw\",\"s\")(\"H100\")", none())
            .0
            .is_empty());
        let m = models_for(
            &bodies(&[
                "_prop(_fn(L,\"model\",\"s\")(\"bert-base\"),\"params\")",
                "_prop(_fn(L,\"model\",\"s\")(\"gpt-3\"),\"layers\")",
            ]),
            none(),
        );
        assert_eq!(ids(&m), ["bert-base", "gpt-3"]);
        let j = serde_json::to_value(&m).unwrap();
        assert!(j["gpt-3"].get("source").is_none() && j["gpt-3"].get("kind").is_none());
        assert_eq!(j["gpt-3"]["params"], 175e9);
        // A module's model comes first and is kept when named; a computed id keeps all.
        let tiny = Model {
            id: "kws-tiny".into(),
            name: "Tiny".into(),
            kind: "cnn".into(),
            fields: [("params".to_string(), 2e4)].into_iter().collect(),
            source: "s".into(),
            as_of: "2024-01".into(),
        };
        let m = models_for("_fn(L,\"model\",\"s\")(\"kws-tiny\")", [&tiny]);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"kws-tiny":{"name":"Tiny","params":20000.0}}"#
        );
        let all = models_for("_fn(L,\"model\",\"s\")(S.m)", [&tiny]);
        assert_eq!(all.0.len(), crate::library::models().len() + 1);
        assert_eq!(ids(&all)[0], "kws-tiny");
        // A module's model of a built-in id is the one found, in the module's place.
        let own = Model {
            id: "gpt-3".into(),
            ..tiny.clone()
        };
        let m = models_for("_fn(L,\"model\",\"s\")(S.m)", [&own]);
        assert_eq!(ids(&m)[0], "gpt-3");
        assert_eq!(m.0.iter().filter(|(id, _)| *id == "gpt-3").count(), 1);
        assert_eq!(m.0[0].1.name, "Tiny");
    }
}
