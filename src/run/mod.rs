//! `labforge run`: the lab as an interactive terminal prompt (not written yet).

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `labforge run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub lab: PathBuf,
    pub ledger: Option<PathBuf>,
    pub answers: Option<PathBuf>,
    pub restart: bool,
}

pub fn run(_opts: &RunOptions) -> ExitCode {
    eprintln!("error: `labforge run` is not written yet");
    ExitCode::FAILURE
}
