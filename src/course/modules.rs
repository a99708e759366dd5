//! Course modules: `lib/<namespace>.yaml` files that add functions, constants and hardware
//! devices (with their provenance) under a namespace, for every lab of the course, without
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
//! ```
//!
//! A formula calls `comm::ring_allreduce_s(...)` and reads `comm::ALPHA_S`; `hw("A17Pro")`
//! finds a module device as it finds a built-in one.

use crate::diag::Diagnostic;
use crate::library::Device;
use crate::load::Source;
use crate::model::{Constant, Function, Pos, Spanned};
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
}

/// A loaded module and its text (diagnostics point into it).
#[derive(Debug, Clone)]
pub struct Module {
    pub file: ModuleFile,
    pub source: Source,
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
            Ok(m) => {
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

/// Reads one module file.
pub fn load(path: &Path) -> Result<Module, Vec<Diagnostic>> {
    let source = Source::read(path).map_err(|d| vec![d])?;
    let file: ModuleFile = serde_saphyr::from_str(&source.text).map_err(|e| {
        let pos = e
            .location()
            .map(|l| Pos::new(l.line() as u32, l.column() as u32))
            .unwrap_or(Pos::UNKNOWN);
        vec![Diagnostic::error(
            &source.name,
            pos,
            e.without_snippet().to_string(),
        )
        .with_hint(
            "a module has `namespace:`, and optionally `title:`, `doc:`, `source:`, `constants:`, `functions:` and `devices:`",
        )]
    })?;
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
    Ok(Module { file, source })
}

/// The modules of the course the lab at `lab_path` belongs to (none outside a course).
pub fn for_lab(lab_path: &Path) -> Result<Vec<Module>, Vec<Diagnostic>> {
    match super::for_lab(lab_path) {
        Ok(Some(course)) => load_all(&course.file.lib),
        Ok(None) => Ok(Vec::new()),
        Err((_, d)) => Err(d),
    }
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
