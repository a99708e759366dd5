//! The renderers, over [`labforge_view`]: the page, the handouts, SVG charts and SCORM, each
//! with its templates and assets under the repository's `renderers/`. Pure: a compiled lab and
//! options in, files (bytes) out; reading overrides and writing files is the driver's.

pub use labforge_view::{
    course_file, diag, eval, formula, ledger, library, load, model, module, record, site, template,
    view,
};

pub mod render;
