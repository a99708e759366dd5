//! The `labforge` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "labforge", version, about = "Interactive course labs from one YAML file")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate lab files or directories (default: labs/).
    Check {
        paths: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { paths } => labforge::cli::check(&paths),
    }
}
