//! Authoring without Rust: `labforge new` (a complete starter lab), `labforge lib` (the library
//! reference) and `labforge preview` (a local server that re-renders the page on every save).

pub mod preview;
pub mod reference;
pub mod scaffold;

pub use preview::{preview, PreviewOptions};
pub use reference::{lib_cmd, lookup, Entry};
pub use scaffold::{new_cmd, scaffold, Scaffold};
