//! Course modules: `lib/<namespace>.yaml` files that add functions, constants, hardware
//! devices and models (with their provenance) under a namespace, for every lab of the course, without
//! Rust or JavaScript.
//!
//! ```yaml
//! namespace: comm
//! title: Collective communication
//! doc: The alpha-beta cost model of collectives.
//! source: "Thakur, Rabenseifner & Gropp (2005)"
//! constants:
//!   ALPHA_S: { value: 5.0e-6, unit: s, source: "..." }
//! functions:
//!   - { name: ring_allreduce_s, args: [n, bytes, bw], unit: s, body: "..." }
//! devices:
//!   - { id: A17Pro, name: Apple A17 Pro, vendor: Apple, class: edge, fields: {...}, source: ..., as_of: "2023-09" }
//! models:
//!   - { id: kws-tiny, name: ..., kind: cnn, fields: { params: 20e3 }, source: ..., as_of: "2024-01" }
//! ```
//!
//! A formula calls `comm::ring_allreduce_s(...)` and reads `comm::ALPHA_S`; `hw("A17Pro")`
//! finds a module device as it finds a built-in one, and `model("kws-tiny")` a module model.

use crate::diag::Diagnostic;
use crate::library::{Device, Model};
use crate::load::Source;
use crate::model::{Constant, Function, Spanned};
use indexmap::IndexMap;
use serde::Deserialize;
use std::path::Path;

/// One module file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleFile {
    /// The prefix its names are called by: `comm` in `comm::ring_allreduce_s`.
    pub namespace: Spanned<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// What the module covers (Markdown).
    #[serde(default)]
    pub doc: Option<String>,
    /// Where its models come from.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub constants: IndexMap<String, Spanned<Constant>>,
    #[serde(default)]
    pub functions: Vec<Function>,
    #[serde(default)]
    pub devices: Vec<Device>,
    #[serde(default)]
    pub models: Vec<Model>,
}

/// A loaded module and its text (diagnostics point into it).
#[derive(Debug, Clone)]
pub struct Module {
    pub file: ModuleFile,
    pub source: Source,
    /// What `check` says of the module without refusing it (a device id an earlier module
    /// defines): every lab compiled with the module carries these among its warnings.
    pub warnings: Vec<Diagnostic>,
}

/// Whether the built-in library uses the namespace `ns` (or `global`): a module may not take it.
/// Read from the library's own function list, so a new built-in namespace is reserved too.
pub(crate) fn reserved(ns: &str) -> bool {
    ns == "global"
        || crate::library::functions()
            .iter()
            .any(|d| d.path.split_once("::").is_some_and(|(n, _)| n == ns))
}

/// Reads the module files; problems are located in them.
pub fn load_all(paths: &[std::path::PathBuf]) -> Result<Vec<Module>, Vec<Diagnostic>> {
    let mut out: Vec<Module> = Vec::new();
    let mut diags = Vec::new();
    for p in paths {
        match load(p) {
            Ok(mut m) => {
                let ns = &m.file.namespace;
                if let Some(other) = out.iter().find(|o| o.file.namespace.value == ns.value) {
                    diags.push(
                        Diagnostic::error(
                            &m.source.name,
                            ns.pos,
                            format!(
                                "namespace `{}` is already taken by {}",
                                ns.value, other.source.name
                            ),
                        )
                        .with_hint("give each module its own namespace"),
                    );
                    continue;
                }
                m.warnings = taken_ids(&out, &m);
                out.push(m);
            }
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// A device or model id `m` defines that an earlier module, or `m` itself earlier, already
/// defines: `hw(id)` and `model(id)` return the first one, in the CLI and the page alike, so the
/// later one is never read. A warning, not an error: courses written before it still load.
fn taken_ids(before: &[Module], m: &Module) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let devices = |x: &Module| {
        x.file
            .devices
            .iter()
            .map(|d| d.id.clone())
            .collect::<Vec<_>>()
    };
    let models = |x: &Module| {
        x.file
            .models
            .iter()
            .map(|d| d.id.clone())
            .collect::<Vec<_>>()
    };
    for (what, ids, of) in [
        (
            "device",
            devices(m),
            before.iter().map(devices).collect::<Vec<_>>(),
        ),
        ("model", models(m), before.iter().map(models).collect()),
    ] {
        for (i, id) in ids.iter().enumerate() {
            let nth = ids[..i].iter().filter(|x| *x == id).count();
            let other = before.iter().zip(&of).find(|(_, o)| o.contains(id));
            let place = match (nth, other) {
                (0, None) => continue,
                (0, Some((o, _))) => format!("in {}", o.source.name),
                _ => "above".to_string(),
            };
            diags.push(
                Diagnostic::warning(
                    &m.source.name,
                    id_pos(&m.source, id, nth),
                    format!("{what} `{id}` is already defined {place}: this one is never read"),
                )
                .with_hint(format!(
                    "give each {what} its own id: `{}(\"{id}\")` returns the first",
                    if what == "device" { "hw" } else { "model" }
                )),
            );
        }
    }
    diags
}

/// The position of the `n`-th (from 0) `id: ID` line of the file (entries carry no positions).
fn id_pos(source: &Source, id: &str, n: usize) -> crate::model::Pos {
    let is_id = |v: &str| v.trim().trim_matches(|c| c == '"' || c == '\'') == id;
    source
        .text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let at = line.find("id:")?;
            let before = &line[..at];
            let word_start = before.is_empty() || before.ends_with([' ', '-', '{', ',']);
            let rest = line[at + 3..].split([',', '}', '#']).next()?;
            (word_start && is_id(rest)).then(|| crate::model::Pos::new(i as u32 + 1, at as u32 + 1))
        })
        .nth(n)
        .unwrap_or(crate::model::Pos::UNKNOWN)
}

/// Reads one module file.
pub fn load(path: &Path) -> Result<Module, Vec<Diagnostic>> {
    // Named as the user would write it: relative to the working folder when inside it.
    let shown = std::env::current_dir()
        .ok()
        .and_then(|d| path.strip_prefix(d).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    let source = Source::read(&shown).map_err(|d| vec![d])?;
    let file: ModuleFile = serde_saphyr::from_str(&source.text)
        .map_err(|e| vec![crate::load::yaml_diagnostic(&source, &e)])?;
    let ns = &file.namespace;
    let ident = ns.value.starts_with(|c: char| c.is_ascii_lowercase())
        && ns
            .value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ident || reserved(&ns.value) {
        let d = Diagnostic::error(
            &source.name,
            ns.pos,
            format!("`{}` cannot be a module namespace", ns.value),
        )
        .with_hint(if ident {
            "the built-in library uses it; choose another (`labforge lib` lists them)"
        } else {
            "use lowercase letters, digits and `_`, starting with a letter, e.g. `comm`"
        });
        return Err(vec![d]);
    }
    for d in &file.devices {
        if let Some(k) = d
            .fields
            .keys()
            .find(|k| !crate::library::FIELD_DOCS.iter().any(|(f, _)| f == k))
        {
            let known = crate::library::FIELD_DOCS.iter().map(|(f, _)| *f);
            let pos = field_pos(&source, k);
            return Err(vec![Diagnostic::error(
                &source.name,
                pos,
                format!("device `{}`: `{k}` is not a field a device has", d.id),
            )
            .maybe_hint(crate::diag::did_you_mean(k, known).or(Some(
                "the fields are those of the built-in table (`labforge lib`)".into(),
            )))]);
        }
        if let Some(e) = d.estimates.iter().find(|e| !d.fields.contains_key(*e)) {
            return Err(vec![Diagnostic::error(
                &source.name,
                field_pos(&source, "estimates"),
                format!(
                    "device `{}`: `estimates` names `{e}`, which is not one of its fields",
                    d.id
                ),
            )
            .with_hint(
                "list the fields whose values are estimates, e.g. `estimates: [tdp_w]`",
            )]);
        }
    }
    for m in &file.models {
        let known = crate::library::MODEL_FIELD_DOCS.iter().map(|(f, _)| *f);
        let field = crate::library::models_unknown_field(m);
        let kind_ok = crate::library::MODEL_KINDS.contains(&m.kind.as_str());
        let (key, message, hint) = match field {
            Some(k) => (
                k.to_string(),
                format!("model `{}`: `{k}` is not a field a model has", m.id),
                crate::diag::did_you_mean(k, known).unwrap_or_else(|| {
                    "the fields are those of the built-in models (`labforge lib model`)".into()
                }),
            ),
            None if !kind_ok => (
                "kind".to_string(),
                format!("model `{}`: unknown kind `{}`", m.id, m.kind),
                format!("the kinds are {}", crate::library::MODEL_KINDS.join(", ")),
            ),
            None => continue,
        };
        let pos = field_pos(&source, &key);
        return Err(vec![
            Diagnostic::error(&source.name, pos, message).with_hint(hint)
        ]);
    }
    Ok(Module {
        file,
        source,
        warnings: Vec::new(),
    })
}

/// The first position of `key:` in the file (devices carry no positions of their own).
fn field_pos(source: &Source, key: &str) -> crate::model::Pos {
    let needle = format!("{key}:");
    for (i, line) in source.text.lines().enumerate() {
        if let Some(c) = line.find(&needle) {
            return crate::model::Pos::new(i as u32 + 1, c as u32 + 1);
        }
    }
    crate::model::Pos::UNKNOWN
}

/// The modules' reference, in the shape of `docs/library.md` (`labforge lib` appends it when
/// run inside a course): per module a `## ` section (`(`ns::`)`), each function and device a
/// `### ` one with units and sources, the constants in a table.
pub fn reference_markdown(modules: &[Module]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if modules.is_empty() {
        return out;
    }
    out.push_str("\n# Course modules\n\nDefined in the course's `lib/` folder, callable from the labs of this course.\n");
    let text = |s: &Option<String>| s.as_deref().unwrap_or("").trim().to_string();
    for m in modules {
        let f = &m.file;
        let ns = &f.namespace.value;
        let title = f.title.clone().unwrap_or_else(|| ns.clone());
        let _ = writeln!(out, "\n## {title} (`{ns}::`)\n\nFile: `{}`.", m.source.name);
        for (label, v) in [("", &f.doc), ("Source: ", &f.source)] {
            if !text(v).is_empty() {
                let _ = writeln!(out, "\n{label}{}", text(v));
            }
        }
        if !f.constants.is_empty() {
            out.push_str("\n| constant | value | unit | source |\n|---|---|---|---|\n");
            for (k, c) in &f.constants {
                let (unit, source) = match &c.value {
                    Constant::Documented(d) => (
                        d.unit.clone().unwrap_or_default(),
                        d.source.clone().unwrap_or_default(),
                    ),
                    Constant::Bare(_) => (String::new(), String::new()),
                };
                let value =
                    crate::formula::to_json(&crate::eval::value_to_dynamic(c.value.value()));
                let _ = writeln!(out, "| `{ns}::{k}` | {value} | {unit} | {source} |");
            }
        }
        for func in &f.functions {
            let path = format!("{ns}::{}", func.name.value);
            let _ = writeln!(out, "\n### `{path}`\n\n```\n{}\n```", func.signature(&path));
            if !text(&func.doc).is_empty() {
                let _ = writeln!(out, "\n{}", text(&func.doc));
            }
            let args: Vec<String> = func
                .args
                .iter()
                .map(|a| match a {
                    crate::model::FnArg::Name(n) => format!("`{n}`"),
                    crate::model::FnArg::Documented(d) => format!(
                        "`{}`{}{}",
                        d.name,
                        d.unit
                            .as_deref()
                            .map(|u| format!(" ({u})"))
                            .unwrap_or_default(),
                        d.doc
                            .as_deref()
                            .map(|x| format!(": {x}"))
                            .unwrap_or_default()
                    ),
                })
                .collect();
            if !args.is_empty() {
                let _ = writeln!(out, "\nArguments: {}.", args.join("; "));
            }
            if let Some(u) = &func.unit {
                let _ = writeln!(out, "\nResult unit: {u}.");
            }
            if !text(&func.source).is_empty() {
                let _ = writeln!(out, "\nSource: {}", text(&func.source));
            }
        }
        for d in &f.devices {
            let _ = writeln!(
                out,
                "\n### `{}`: {} ({}, {})\n",
                d.id, d.name, d.vendor, d.class
            );
            out.push_str("| field | value |\n|---|---|\n");
            for (k, v) in &d.fields {
                let mark = if d.estimates.contains(k) {
                    " (estimate)"
                } else {
                    ""
                };
                let _ = writeln!(out, "| `{k}` | {v}{mark} |");
            }
            let _ = writeln!(out, "\nSource ({}): {}", d.as_of, d.source.trim());
        }
        for m in &f.models {
            let _ = writeln!(out, "\n### `{}`: {} ({})\n", m.id, m.name, m.kind);
            out.push_str("| field | value |\n|---|---|\n");
            for (k, v) in &m.fields {
                let _ = writeln!(out, "| `{k}` | {v} |");
            }
            let _ = writeln!(out, "\nSource ({}): {}", m.as_of, m.source.trim());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in namespace is closed to modules, the ones added with the course's topics
    /// included (a module `roofline` used to load and shadow the built-in one).
    #[test]
    fn built_in_namespaces_are_reserved() {
        let d = tempfile::tempdir().unwrap();
        for ns in [
            "queue",
            "rel",
            "units",
            "collective",
            "roofline",
            "energy",
            "llm",
            "carbon",
            "global",
        ] {
            let p = d.path().join(format!("{ns}.yaml"));
            std::fs::write(&p, format!("namespace: {ns}\ntitle: T\n")).unwrap();
            let err = load(&p).expect_err(ns);
            assert!(
                err[0].message.contains("cannot be a module namespace"),
                "{ns}: {}",
                err[0].message
            );
        }
        // A course's own namespace, e.g. the issue's `comm`, is free.
        let p = d.path().join("comm.yaml");
        std::fs::write(&p, "namespace: comm\ntitle: T\n").unwrap();
        assert!(load(&p).is_ok());
    }
}
