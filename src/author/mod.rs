//! Authoring without Rust: `labforge new` (a complete starter lab), `labforge lib` (the library
//! reference) and `labforge preview` (a local server that re-renders the page on every save).

pub mod preview;
pub mod scaffold;

pub use preview::{preview, PreviewOptions};
pub use scaffold::{new_cmd, scaffold, Scaffold};
