//! The `labforge` command line: a thin layer over the library.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "labforge",
    version,
    about = "Interactive course labs from one YAML file"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate lab files or directories (default: labs/); exits 1 on any error.
    Check { paths: Vec<PathBuf> },
    /// Evaluate a part at its defaults plus overrides.
    Eval {
        lab: PathBuf,
        /// Part id (default: the first part).
        #[arg(long)]
        part: Option<String>,
        /// Override a control: NAME=VALUE (a select takes the option's value or label).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Output format.
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
    },
    /// Run the labs' own tests (default: labs/); ends with `N passed, N failed`.
    Test { paths: Vec<PathBuf> },
    /// Print the JSON Schema of the lab format.
    Schema,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { paths } => labforge::cli::check(&paths),
        Command::Eval {
            lab,
            part,
            set,
            format,
        } => labforge::cli::eval_cmd(&lab, part.as_deref(), &set, format == "json"),
        Command::Test { paths } => labforge::cli::test(&paths),
        Command::Schema => {
            print!("{}", labforge::cli::schema_json());
            ExitCode::SUCCESS
        }
    }
}
