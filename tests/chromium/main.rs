//! The tests that drive the page through the browser harness (tests/browser/*.mjs,
//! playwright-core and headless Chromium), a binary of their own beside `tests/it/`. Run one
//! with `cargo test --test chromium html_browser::`.

#[path = "../common/mod.rs"]
mod common;

mod author_preview_browser;
mod carried_browser;
mod charts_browser;
mod compat_browser;
mod course_browser;
mod earlier_browser;
mod html_browser;
mod injection_browser;
mod load_browser;
mod predict_browser;
mod questions_browser;
mod random_browser;
mod records_browser;
mod report_browser;
mod shared_browser;
mod sim_browser;
mod speed_browser;
mod student_browser;
mod tracks_browser;
mod viewport_browser;
mod xpart_browser;
