//! The driver, over [`labforge_render`]: it owns every disk access — finding a course and its
//! modules, loading labs with them, the build pipeline into output folders, saving progress —
//! and prints nothing: it returns diagnostics and results to the commands in the `labforge`
//! crate, whose printer is the only one.

pub use labforge_render::{
    course_file, diag, eval, formula, ledger, library, load, model, module, record, render, site,
    template, view,
};

pub mod build;
pub mod course;
pub mod discover;
pub mod files;
pub mod lab;
pub mod project;
pub mod safe_fs;
pub mod store;
