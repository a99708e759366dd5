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
    Check {
        paths: Vec<PathBuf>,
        /// Every number a student reads must be proven: a placeholder, a value of the lab at
        /// the text's scenario, or a declared given; each other one is a warning.
        #[arg(long)]
        strict: bool,
    },
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
        /// The track to evaluate on, for a lab with tracks (default: the default track).
        #[arg(long)]
        track: Option<String>,
    },
    /// Run the labs' own tests (default: labs/); ends with `N passed, N failed`.
    Test { paths: Vec<PathBuf> },
    /// Print the JSON Schema of the lab format.
    Schema,
    /// Render labs to a static HTML page, a Markdown handout, a print-ready handout page, or a
    /// SCORM 1.2 package per lab (plus `course.zip` for several) to upload to an LMS.
    Render {
        /// Lab files or directories (default: labs/).
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, default_value = "html", value_parser = ["html", "markdown", "handout-html", "scorm", "report"])]
        to: String,
        /// Output directory (default: build/FORMAT).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Render the answer key instead of the student handout.
        #[arg(long)]
        answer_key: bool,
        /// Directory of templates/assets overriding the embedded ones (same file names).
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Paper size of the print handouts (`--to handout-html`).
        #[arg(long, value_parser = ["letter", "a4"])]
        paper: Option<String>,
        /// A student's course record (the course page's export, or the terminal's): the
        /// handouts (`--to markdown`, `--to handout-html`) print the decisions carried forward
        /// from it. With `--to report` (one lab): the record the student handed in (the
        /// page's download, the terminal's ledger, or a course record), whose lab report is
        /// written as `LAB_ID-report.md`.
        #[arg(long)]
        record: Option<PathBuf>,
        /// For labs with tracks: render this track only, under the lab's plain file name
        /// (default: every track, each file named with its track).
        #[arg(long)]
        track: Option<String>,
    },
    /// Grade a class: read handed-in progress records (page downloads, terminal ledgers and
    /// course records, any mix) against the lab files; write a CSV per lab and a class report
    /// page.
    Grade {
        /// A lab file, or a folder of them (a course).
        labs: PathBuf,
        /// Record files or folders (searched recursively for *.json; a folder per student
        /// names the student, else the file name does).
        #[arg(required = true)]
        records: Vec<PathBuf>,
        /// Output directory.
        #[arg(short, long, default_value = "build/grades")]
        out: PathBuf,
        /// Directory whose report.html.j2 replaces the embedded class report template.
        #[arg(long)]
        templates: Option<PathBuf>,
    },
    /// Write NAME.yaml: a small, complete, commented lab to start from (never overwrites).
    New {
        name: String,
        /// Directory to write into (default: the current one).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Print the library reference: every function and device, or the ones NAME names
    /// (`queue::pk_wait`, `pk_wait`, `queue`, `H100`).
    Lib { name: Option<String> },
    /// Serve a lab's page on 127.0.0.1, re-rendered and reloaded whenever the file changes.
    Preview {
        lab: PathBuf,
        /// Port (0: any free port; the URL is printed).
        #[arg(long, default_value_t = 8765)]
        port: u16,
        /// Directory of templates/assets overriding the embedded ones (as for `render`).
        #[arg(long)]
        templates: Option<PathBuf>,
        /// For a lab with tracks: the track to show (default: the default track).
        #[arg(long)]
        track: Option<String>,
    },
    /// Walk through a lab in the terminal; progress is saved after every answer. Given a course
    /// folder (with course.yaml), list its labs with progress.
    Run {
        lab: PathBuf,
        /// Ledger file (default: under the user's data directory).
        #[arg(long)]
        ledger: Option<PathBuf>,
        /// Answers file (YAML/JSON) to run the whole lab non-interactively.
        #[arg(long)]
        answers: Option<PathBuf>,
        /// Start over, discarding saved progress.
        #[arg(long)]
        restart: bool,
        /// With a course folder: merge this course record (a page's export) into the terminal's.
        #[arg(long)]
        import: Option<PathBuf>,
        /// With --import: take imported answers that differ from yours without asking (a
        /// locked prediction is never replaced).
        #[arg(long, requires = "import")]
        replace: bool,
        /// The track to run on, for a course (or lab) with tracks: saved for the whole course,
        /// or changed (a locked prediction keeps the track it was answered on).
        #[arg(long)]
        track: Option<String>,
        /// Your name or student id, shown in the lab report (optional; kept in the course
        /// record, or with a lab on its own in its record; sent nowhere): given once, it stays.
        #[arg(long)]
        student: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Usage errors quote what was typed (a file name, a value), help and --version not:
        // either way through the one terminal filter, as everything the library prints.
        Err(e) => {
            let text = e.render().to_string();
            if e.use_stderr() {
                labforge::print::err(&text);
            } else {
                labforge::print::out(&text);
            }
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match cli.command {
        Command::Check { paths, strict } => labforge::cmd::check(&paths, strict),
        Command::Eval {
            lab,
            part,
            set,
            format,
            track,
        } => labforge::cmd::eval_cmd(
            &lab,
            part.as_deref(),
            &set,
            format == "json",
            track.as_deref(),
        ),
        Command::Test { paths } => labforge::cmd::test(&paths),
        Command::Render {
            paths,
            to,
            out,
            answer_key,
            templates,
            paper,
            record,
            track,
        } => labforge::cmd::render_cmd(labforge::cmd::RenderArgs {
            paths: &paths,
            to: &to,
            out: out.as_deref(),
            answer_key,
            templates,
            paper: paper.as_deref(),
            record: record.as_deref(),
            track: track.as_deref(),
        }),
        Command::Run {
            lab,
            ledger,
            answers,
            restart,
            import,
            replace,
            track,
            student,
        } => labforge::run::run(&labforge::run::RunOptions {
            lab,
            ledger,
            answers,
            restart,
            import,
            replace,
            track,
            student,
        }),
        Command::Grade {
            labs,
            records,
            out,
            templates,
        } => labforge::grade::grade_cmd(&labs, &records, &out, templates.as_deref()),
        Command::Lib { name } => labforge::author::lib_cmd(name.as_deref()),
        Command::New { name, dir } => labforge::author::new_cmd(&name, dir.as_deref()),
        Command::Preview {
            lab,
            port,
            templates,
            track,
        } => labforge::author::preview(labforge::author::PreviewOptions {
            lab,
            port,
            templates,
            track,
        }),
        Command::Schema => {
            labforge::print::out(&labforge::cmd::schema_json());
            ExitCode::SUCCESS
        }
    }
}
