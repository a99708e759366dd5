//! labforge: one YAML lab file to an offline HTML page, printable handouts and a terminal prompt.
//!
//! The layers are crates, each importing only those below it (`crates/`): `labforge-core`
//! (model, load, diagnostics) ← `labforge-engine` (formulas, library, eval, records) ←
//! `labforge-view` (the view, the course site) ← `labforge-render` (renderers) ←
//! `labforge-driver` (every disk access, the build pipeline) ← this crate (the commands, the
//! one printer, the terminal, authoring, grading). Their modules are re-exported here under
//! their own names (`labforge::eval`, `labforge::render`, ...).

// First, so its `print!`/`println!`/`eprint!`/`eprintln!` replace the standard ones in every
// module below: every terminal write is filtered (see `print.rs`).
#[macro_use]
pub mod print;

pub use labforge_driver::{
    build, course, course_file, diag, discover, eval, files, formula, lab, ledger, library, load,
    model, module, project, record, render, safe_fs, site, store, template, view,
};

pub mod author;
pub mod cmd;
pub mod grade;
pub mod run;
