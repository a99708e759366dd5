//! The integration tests, one binary: each module is one area (the CLI, the terminal,
//! the renderers, the library, docs and formats); `tests/chromium/` holds the ones that drive
//! headless Chromium. Run one area with `cargo test --test it grade::`.

#[path = "../common/mod.rs"]
mod common;

mod author_docs;
mod author_library;
mod author_new;
mod author_preview;
mod capped_display;
mod carried;
mod chart_levels;
mod charts_js;
mod check_mutants;
mod check_scale;
mod compat;
mod compat_terminal;
mod corpus;
mod course_modules;
mod course_records;
mod course_run;
mod display_js;
mod docs_ui;
mod errors_js;
mod formats_docs;
mod formula_js;
mod fuzz;
mod fuzz_links;
mod grade;
mod grade_tracks;
mod handout_carry;
mod hostile_files;
mod hostile_labs;
mod hostile_terminal;
mod html_render;
mod html_tracks;
mod hud_standing;
mod js_twins;
mod lab_texts;
mod layering;
mod ledger_hostile;
mod library_js;
mod library_js_syntax;
mod library_models;
mod markdown_cli;
mod markdown_handout;
mod print_pdf;
mod questions;
mod record_merge;
mod render_diagnostics;
mod report;
mod run_answers;
mod run_durability;
mod run_hangup;
mod run_keys;
mod run_lines;
mod run_pty;
mod run_pty_student;
mod run_record;
mod run_tracks;
mod schema;
mod scorm;
mod seed_labs;
mod shared_controls;
mod terminal_text;
mod tracks;
