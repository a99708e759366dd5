//! What every front end shows, over [`labforge_engine`]: [`view`] (a lab's header, parts,
//! controls, outputs and feedback, built once for the page, the handouts and the terminal) and
//! [`site`] (what every page of a course knows about the course).

pub use labforge_engine::{
    course_file, diag, eval, formula, ledger, library, load, model, module, record, template,
};

pub mod site;
pub mod view;
