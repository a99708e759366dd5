//! labforge's lowest layer: the lab format and how a lab file becomes one.
//!
//! [`model`] (the format, with positions) ← [`load`] (YAML with spans, the structural checks,
//! text filters) and [`diag`] (diagnostics as data), [`template`] (prose placeholders). Reads
//! one named file at a time; never walks folders; knows nothing of Rhai, rendering or disks
//! beyond that file.

pub mod course_file;
pub mod diag;
pub mod load;
pub mod model;
pub mod template;
