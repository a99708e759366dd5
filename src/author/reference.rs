//! `labforge lib [NAME]`: the library reference, or the part of it about NAME.
//!
//! The text is [`crate::library::reference_markdown`], the same function that generates
//! `docs/library.md`, so the terminal and the docs never disagree. A NAME selects sections of it:
//! a function (`queue::pk_wait`, or just `pk_wait`), a namespace (`queue`), a device (`H100`,
//! any case), a model (`bert-base`, any case), or `model` / `models` for the model table.

use crate::diag::did_you_mean;
use crate::library;
use std::process::ExitCode;

/// What a NAME matched.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    Function(&'static str),
    Namespace(String),
    Device(String),
    Model(String),
    /// The "Models" section: the model fields and every model.
    Models,
}

/// The entries NAME names, or an error message with a suggestion.
pub fn lookup(name: &str) -> Result<Vec<Entry>, String> {
    let name = name.trim();
    let fns = library::functions();
    match name {
        "model" => return Ok(vec![Entry::Function("model"), Entry::Models]),
        "models" => return Ok(vec![Entry::Models]),
        _ => {}
    }
    if let Some(f) = fns.iter().find(|f| f.path == name) {
        return Ok(vec![Entry::Function(f.path)]);
    }
    let ns = name.trim_end_matches("::");
    let prefix = format!("{ns}::");
    if fns.iter().any(|f| f.path.starts_with(&prefix)) {
        return Ok(vec![Entry::Namespace(ns.to_string())]);
    }
    if let Some(d) = library::hardware()
        .iter()
        .find(|d| d.id.eq_ignore_ascii_case(name))
    {
        return Ok(vec![Entry::Device(d.id.clone())]);
    }
    if let Some(m) = library::models()
        .iter()
        .find(|m| m.id.eq_ignore_ascii_case(name))
    {
        return Ok(vec![Entry::Model(m.id.clone())]);
    }
    let by_bare: Vec<Entry> = fns
        .iter()
        .filter(|f| f.path.rsplit("::").next() == Some(name))
        .map(|f| Entry::Function(f.path))
        .collect();
    if !by_bare.is_empty() {
        return Ok(by_bare);
    }
    let mut candidates: Vec<String> = Vec::new();
    for f in fns {
        candidates.push(f.path.to_string());
        if let Some((n, bare)) = f.path.split_once("::") {
            candidates.push(bare.to_string());
            candidates.push(n.to_string());
        }
    }
    candidates.extend(library::hardware().iter().map(|d| d.id.clone()));
    candidates.extend(library::models().iter().map(|m| m.id.clone()));
    candidates.push("models".to_string());
    candidates.sort();
    candidates.dedup();
    let hint = did_you_mean(name, candidates.iter().map(String::as_str))
        .map(|h| format!("\n  = hint: {h}"))
        .unwrap_or_else(|| {
            "\n  = hint: run `labforge lib` for every function, device and model".to_string()
        });
    Err(format!(
        "no library function, namespace, device or model `{name}`{hint}"
    ))
}

/// The `### ` sections (or a `## ` section) of the reference whose heading starts with `head`.
fn section(md: &str, level: &str, head: &str) -> Option<String> {
    let mut out = String::new();
    let mut inside = false;
    for line in md.split_inclusive('\n') {
        if line.starts_with('#') {
            let this_level = line.split(' ').next().unwrap_or("");
            if inside && this_level.len() <= level.len() {
                break;
            }
            if !inside && this_level == level && line[level.len()..].trim_start().starts_with(head)
            {
                inside = true;
            }
        }
        if inside {
            out.push_str(line);
        }
    }
    (!out.is_empty()).then(|| out.trim_end().to_string() + "\n")
}

/// The reference text of one entry.
pub fn entry_text(md: &str, e: &Entry) -> Option<String> {
    match e {
        Entry::Function(p) => section(md, "###", &format!("`{p}`")),
        Entry::Device(id) | Entry::Model(id) => section(md, "###", &format!("`{id}`:")),
        Entry::Models => section(md, "##", "Models (`model(id)`)"),
        Entry::Namespace(ns) => {
            let tag = format!("(`{ns}::`)");
            md.lines()
                .filter(|l| l.starts_with("## ") && l.contains(&tag))
                .find_map(|l| section(md, "##", l.trim_start_matches("## ")))
        }
    }
}

/// The modules of the course the working folder is in (its `course.yaml`, or the nearest
/// above), if any.
fn course_modules() -> Result<Vec<crate::module::Module>, String> {
    let Ok(cwd) = std::env::current_dir() else {
        return Ok(Vec::new());
    };
    let Some(path) = crate::course::find_for(&cwd.join("lab.yaml")) else {
        return Ok(Vec::new());
    };
    let course = crate::course::load(&path).map_err(|(_, d)| {
        d.iter()
            .map(|d| d.render(None))
            .collect::<Vec<_>>()
            .join("")
    })?;
    crate::module::load_all(&course.file.lib).map_err(|d| {
        d.iter()
            .map(|d| d.render(None))
            .collect::<Vec<_>>()
            .join("")
    })
}

/// `labforge lib [NAME]`: inside a course, its modules are listed after the built-ins, and a
/// NAME may be one of theirs (`comm::ring_allreduce_s`, `comm`, a module device).
pub fn lib_cmd(name: Option<&str>) -> ExitCode {
    let modules = match course_modules() {
        Ok(m) => m,
        Err(e) => {
            eprint!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let own = crate::module::reference_markdown(&modules);
    let md = library::reference_markdown();
    let Some(name) = name else {
        print!("{md}{own}");
        return ExitCode::SUCCESS;
    };
    let name = name.trim();
    let in_modules = section(&own, "###", &format!("`{name}`"))
        .or_else(|| section(&own, "###", &format!("`{name}`:")))
        .or_else(|| {
            let tag = format!("(`{}::`)", name.trim_end_matches("::"));
            own.lines()
                .filter(|l| l.starts_with("## ") && l.contains(&tag))
                .find_map(|l| section(&own, "##", l.trim_start_matches("## ")))
        });
    if let Some(t) = in_modules {
        print!("{t}");
        return ExitCode::SUCCESS;
    }
    match lookup(name) {
        Ok(entries) => {
            let texts: Vec<String> = entries.iter().filter_map(|e| entry_text(&md, e)).collect();
            if texts.is_empty() {
                crate::cmd::error(format_args!(
                    "`{name}` is in the library but not in its reference"
                ));
                return ExitCode::FAILURE;
            }
            print!("{}", texts.join("\n"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            crate::cmd::error(format_args!("{e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_functions_namespaces_and_devices() {
        assert_eq!(
            lookup("queue::pk_wait"),
            Ok(vec![Entry::Function("queue::pk_wait")])
        );
        assert_eq!(
            lookup("pk_wait"),
            Ok(vec![Entry::Function("queue::pk_wait")])
        );
        assert_eq!(lookup("queue"), Ok(vec![Entry::Namespace("queue".into())]));
        assert_eq!(lookup("h100"), Ok(vec![Entry::Device("H100".into())]));
        assert_eq!(
            lookup("BERT-base"),
            Ok(vec![Entry::Model("bert-base".into())])
        );
        assert_eq!(
            lookup("model"),
            Ok(vec![Entry::Function("model"), Entry::Models])
        );
        assert_eq!(lookup("models"), Ok(vec![Entry::Models]));
        let e = lookup("bert-bse").unwrap_err();
        assert!(e.contains("did you mean `bert-base`?"), "{e}");
        let e = lookup("queue::pk_wiat").unwrap_err();
        assert!(e.contains("did you mean `queue::pk_wait`?"), "{e}");
        let e = lookup("zzzzzzzzzzzz").unwrap_err();
        assert!(e.contains("labforge lib"), "{e}");
    }

    #[test]
    fn entry_text_is_the_reference_section() {
        let md = library::reference_markdown();
        let t = entry_text(&md, &Entry::Function("queue::pk_wait")).unwrap();
        assert!(t.starts_with("### `queue::pk_wait`\n"), "{t}");
        assert!(t.contains("Pollaczek"));
        assert!(!t.contains("### `queue::pk_amplification`"));
        assert!(md.contains(&t));
        let t = entry_text(&md, &Entry::Namespace("queue".into())).unwrap();
        assert!(t.starts_with("## ") && t.contains("### `queue::mm1_wait`"));
        assert!(!t.contains("### `rel::"));
        let t = entry_text(&md, &Entry::Device("H100".into())).unwrap();
        assert!(
            t.starts_with("### `H100`:") && t.contains("| `mem_gb` |"),
            "{t}"
        );
        assert!(!t.contains("### `H200`"));
        let t = entry_text(&md, &Entry::Model("gpt-3".into())).unwrap();
        assert!(
            t.starts_with("### `gpt-3`: GPT-3 175B\n") && t.contains("| `layers` | 96 |"),
            "{t}"
        );
        assert!(
            t.contains("Brown et al.") && !t.contains("### `llama"),
            "{t}"
        );
        let t = entry_text(&md, &Entry::Models).unwrap();
        assert!(t.starts_with("## Models (`model(id)`)\n"), "{t}");
        assert!(t.contains("| `flops_per_token` |") && t.contains("1 multiply-accumulate"));
        for m in library::models() {
            assert!(t.contains(&format!("### `{}`: ", m.id)), "{}", m.id);
        }
        assert!(!t.contains("### `H100`"));
    }
}
