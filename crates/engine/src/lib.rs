//! labforge's engine, over [`labforge_core`]: [`formula`] (sandboxed Rhai and its JavaScript
//! translation), [`library`] (the hardware/physics library), [`eval`] (compiling and evaluating
//! a lab: parts, tests, claims, lints), [`ledger`] (a lab's progress record), [`record`] (the
//! course record and its merge) and [`module`] (a course's shared modules).
//!
//! The modules of the layer below are re-exported under their own names, so a path reads the
//! same in every crate (`crate::model::Lab`).

pub use labforge_core::{course_file, diag, load, model, template};

pub mod eval;
pub mod formula;
pub mod ledger;
pub mod library;
pub mod module;
pub mod record;
