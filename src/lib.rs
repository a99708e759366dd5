//! labforge: one YAML lab file to an offline HTML page, printable handouts and a terminal prompt.
//!
//! Layers, in dependency order: [`model`] (the lab format) → [`load`] (YAML with spans, checks) →
//! [`formula`] (sandboxed Rhai, JS translation) → [`eval`] (evaluating parts, tests, claims) →
//! renderers → the CLI in `main.rs`.

// First, so its `print!`/`println!`/`eprint!`/`eprintln!` replace the standard ones in every
// module below: every terminal write is filtered (see `print.rs`).
#[macro_use]
pub mod print;

pub mod author;
pub mod cli;
pub mod course;
pub mod diag;
pub mod eval;
pub mod formula;
pub mod grade;
pub mod ledger;
pub mod library;
pub mod load;
pub mod model;
pub mod render;
pub mod run;
pub mod safe_fs;
pub mod view;
