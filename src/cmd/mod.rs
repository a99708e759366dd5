//! The commands behind `main.rs`, one file each, thin over the driver (`labforge_driver`):
//! they parse what was typed, call the driver, and print what it returns through the one
//! printer here ([`report`], [`fail`]). Kept in the library so tests can call them.

mod check;
mod eval;
mod render;
mod test;

pub use check::check;
pub use eval::eval_cmd;
pub use render::{render, render_cmd, RenderArgs};
pub use test::test;

use crate::diag::Diagnostic;
use crate::eval::CompiledLab;
use crate::load::Source;
use crate::project::Failure;
use std::path::Path;

/// The longest source line a diagnostic shows.
const MAX_SHOWN: usize = 300;

/// Prints diagnostics to stderr with their source lines ([`rendered`]). Returns the number of
/// errors.
pub fn report(diags: &[Diagnostic], source: Option<&Source>) -> usize {
    for d in diags {
        eprint!("{}", rendered(d, source));
    }
    diags.iter().filter(|d| d.is_error()).count()
}

/// One diagnostic as the printer writes it (to the terminal, or on the preview's error page):
/// with its source line from `source` when it is that file's, else from its own file.
pub fn rendered(d: &Diagnostic, source: Option<&Source>) -> String {
    match source {
        Some(s) if s.name == d.file => d.render(Some(&s.text)),
        // A diagnostic of a whole file (a record, a package, an output folder): no line to
        // show, nothing to read.
        _ if d.line == 0 => d.render(None),
        // A diagnostic in another file (a course module, a template, a record): its own lines,
        // unless the line is too long to show (a page's download is one line of megabytes).
        _ => {
            let text = crate::project::text_of(Path::new(&d.file)).filter(|t| {
                t.lines()
                    .nth(d.line as usize - 1)
                    .is_some_and(|l| l.chars().count() <= MAX_SHOWN)
            });
            d.render(text.as_deref())
        }
    }
}

/// Prints why a command cannot go on.
pub fn fail(f: &Failure) {
    match f {
        Failure::Diagnostics(src, d) => {
            report(d, src.as_ref());
        }
        Failure::Message(m) => error(m),
    }
}

/// Prints an error that has no place in a file (a command line's mistake, a server that cannot
/// listen): `error: MESSAGE`, the one form every command uses for it.
pub fn error(message: impl std::fmt::Display) {
    eprintln!("error: {message}");
}

/// Loads a lab for a command that needs a valid one; diagnostics printed on failure.
pub fn load_or_report(path: &Path) -> Option<CompiledLab> {
    match crate::lab::load_lab(path) {
        Ok(l) => Some(l),
        Err((src, d)) => {
            report(&d, src.as_ref());
            None
        }
    }
}

/// The JSON Schema of the lab format.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(crate::model::Lab);
    serde_json::to_string_pretty(&schema).unwrap() + "\n"
}
