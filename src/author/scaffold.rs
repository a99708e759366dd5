//! `labforge new NAME`: a small, complete, commented lab that passes `check` and `test` as
//! written, plus the JSON Schema next to it so editors complete and validate the file.
//!
//! The lab starts with a `# yaml-language-server: $schema=...` modeline naming a schema file
//! that exists offline, chosen in this order:
//! 1. `DIR/lab.schema.json` when it exists (labs in one directory share one schema);
//! 2. `DIR/../schemas/lab.schema.json` when it exists (a lab created in the labforge
//!    repository's `labs/`, whose labs all point there);
//! 3. otherwise `new` writes `DIR/lab.schema.json` (the output of `labforge schema`) and points
//!    at it. Rerun `labforge schema > lab.schema.json` after upgrading labforge.

use crate::diag::Diagnostic;
use crate::project::Failure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The embedded scaffold template (minijinja).
pub const TEMPLATE: &str = include_str!("../../renderers/new/lab.yaml.j2");
/// The schema file written next to a new lab and named by its modeline.
pub const SCHEMA_FILE: &str = "lab.schema.json";

/// What `new` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Scaffold {
    pub lab: PathBuf,
    /// The schema file, when `new` wrote it (None when one was already there).
    pub schema: Option<PathBuf>,
    /// The modeline's schema path, relative to the lab.
    pub modeline: String,
}

/// The modeline's schema path for a lab in `dir`, and whether `new` must write it.
fn schema_target(dir: &Path) -> (String, bool) {
    if crate::files::exists(&dir.join(SCHEMA_FILE)) {
        (format!("./{SCHEMA_FILE}"), false)
    } else if crate::files::exists(&dir.join("../schemas").join(SCHEMA_FILE)) {
        (format!("../schemas/{SCHEMA_FILE}"), false)
    } else {
        (format!("./{SCHEMA_FILE}"), true)
    }
}

/// The lab id for a name: lowercase, runs of anything but letters and digits become one dash.
pub fn lab_id(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_string()
}

/// A title for a name: `queue-wall` -> `Queue Wall`.
pub fn lab_title(name: &str) -> String {
    name.split(['-', '_', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lab text for `name` (the file stem), its modeline naming `schema`.
pub fn render_template(name: &str, schema: &str) -> Result<String, String> {
    let mut env = minijinja::Environment::new();
    env.set_keep_trailing_newline(true);
    env.add_template("lab.yaml.j2", TEMPLATE)
        .map_err(|e| format!("renderers/new/lab.yaml.j2: {e}"))?;
    let title = lab_title(name);
    let ctx = minijinja::context! {
        name => name,
        file => format!("{name}.yaml"),
        id_yaml => serde_json::to_string(&lab_id(name)).unwrap(),
        title => &title,
        title_yaml => serde_json::to_string(&title).unwrap(),
        schema => schema,
    };
    env.get_template("lab.yaml.j2")
        .and_then(|t| t.render(ctx))
        .map_err(|e| format!("renderers/new/lab.yaml.j2: {e}"))
}

fn check_name(name: &str) -> Result<&str, String> {
    let stem = name.strip_suffix(".yaml").unwrap_or(name);
    let ok = !stem.is_empty()
        && stem.starts_with(|c: char| c.is_ascii_alphabetic())
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(stem)
    } else {
        Err(format!(
            "`{name}` is not a lab name: use letters, digits, `-` and `_`, starting with a letter \
             (e.g. `labforge new queue-wall`)"
        ))
    }
}

/// Writes `DIR/NAME.yaml` (and `DIR/lab.schema.json` unless present). Never overwrites the lab.
/// A name that is no lab name is a message (it is what was typed, in no file); what the folder
/// refuses is a diagnostic of the file or folder, with a hint.
pub fn scaffold(name: &str, dir: &Path) -> Result<Scaffold, Failure> {
    let at = |p: &Path, message: String, hint: &str| -> Failure {
        Diagnostic::error(&p.display().to_string(), Default::default(), message)
            .with_hint(hint)
            .into()
    };
    let stem = check_name(name)?;
    let lab = dir.join(format!("{stem}.yaml"));
    if crate::files::exists(&lab) {
        return Err(at(
            &lab,
            "already exists; labforge new never overwrites a lab".into(),
            "choose another name, or delete the file first",
        ));
    }
    if crate::files::exists(dir) && !crate::files::is_dir(dir) {
        return Err(at(
            dir,
            "is not a directory (--dir names where the lab goes)".into(),
            "give --dir a folder (it is made if missing)",
        ));
    }
    const UNWRITTEN: &str =
        "labforge new writes the lab there: make the folder writable, or give another --dir";
    crate::files::make_dir(dir).map_err(|d| Failure::from(d.with_hint(UNWRITTEN)))?;
    let (modeline, write_schema) = schema_target(dir);
    let text = render_template(stem, &modeline)?;
    // `create_new` so a file appearing between the check and the write is not clobbered.
    crate::files::create_new(&lab, text.as_bytes())
        .map_err(|d| Failure::from(d.with_hint(UNWRITTEN)))?;
    let schema_path = dir.join(SCHEMA_FILE);
    let schema = if write_schema {
        crate::store::write_atomic(&schema_path, crate::cmd::schema_json().as_bytes())
            .map_err(|e| at(&schema_path, e.to_string(), UNWRITTEN))?;
        Some(schema_path)
    } else {
        None
    };
    Ok(Scaffold {
        lab,
        schema,
        modeline,
    })
}

/// `labforge new NAME [--dir DIR]`.
pub fn new_cmd(name: &str, dir: Option<&Path>) -> ExitCode {
    let dir = dir.unwrap_or(Path::new("."));
    match scaffold(name, dir) {
        Ok(s) => {
            eprintln!("wrote {}", s.lab.display());
            match &s.schema {
                Some(p) => eprintln!(
                    "wrote {} (the schema the lab's modeline names)",
                    p.display()
                ),
                None => eprintln!(
                    "the lab's modeline names the existing {} (refresh it with `labforge schema`)",
                    s.modeline
                ),
            }
            let lab = s.lab.display();
            eprintln!(
                "next: labforge check {lab} && labforge test {lab} && labforge preview {lab}"
            );
            ExitCode::SUCCESS
        }
        Err(f) => {
            crate::cmd::fail(&f);
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_titles_from_names() {
        assert_eq!(lab_id("Queue_Wall"), "queue-wall");
        assert_eq!(lab_id("a--b__c"), "a-b-c");
        assert_eq!(lab_title("queue-wall"), "Queue Wall");
        assert_eq!(lab_title("my_first_lab"), "My First Lab");
    }

    #[test]
    fn rejects_names_that_are_not_file_stems() {
        assert!(check_name("../x").is_err());
        assert!(check_name("9lives").is_err());
        assert!(check_name("").is_err());
        assert_eq!(check_name("wall.yaml"), Ok("wall"));
    }

    #[test]
    fn template_substitutes_name_and_keeps_placeholders() {
        let t = render_template("queue-wall", "./lab.schema.json").unwrap();
        assert!(t.starts_with("# yaml-language-server: $schema=./lab.schema.json\n"));
        assert!(t.contains("\nid: \"queue-wall\"\n"), "{t}");
        assert!(t.contains("\ntitle: \"Queue Wall\"\n"));
        assert!(t.contains("{{ fmt(wait_min, 0) }}"));
        assert!(t.ends_with('\n'));
        assert_eq!(
            t,
            render_template("queue-wall", "./lab.schema.json").unwrap()
        );
    }
}
