//! `labforge render`: the options checked, then the driver's build with its events printed.

use super::{fail, report};
use crate::build::Event;
use crate::store::RecordFile as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `labforge render` as typed.
pub struct RenderArgs<'a> {
    pub paths: &'a [PathBuf],
    pub to: &'a str,
    pub out: Option<&'a Path>,
    pub answer_key: bool,
    pub templates: Option<PathBuf>,
    /// Only for the print handout (default letter).
    pub paper: Option<&'a str>,
    pub record: Option<&'a Path>,
    pub track: Option<&'a str>,
}

/// `labforge render` as typed: `--paper` (default letter) only for the print handout.
pub fn render_cmd(a: RenderArgs) -> ExitCode {
    let RenderArgs {
        paths,
        to,
        out,
        answer_key,
        templates,
        paper,
        record,
        track,
    } = a;
    let paper = match paper {
        None => crate::render::Paper::default(),
        Some(_) if to != "handout-html" => {
            crate::cmd::error(format_args!(
                "--paper sets the page size of the print handout; use it with --to handout-html"
            ));
            return ExitCode::FAILURE;
        }
        Some(p) => match crate::render::Paper::parse(p) {
            Some(p) => p,
            None => {
                crate::cmd::error(format_args!("unknown paper `{p}` (papers: letter, a4)"));
                return ExitCode::FAILURE;
            }
        },
    };
    if to == "report" {
        return report_cmd(
            paths,
            record,
            out,
            answer_key || templates.is_some() || track.is_some(),
        );
    }
    let record = match record {
        None => None,
        Some(_) if !matches!(to, "markdown" | "handout-html") => {
            crate::cmd::error(format_args!("--record prints carried-forward decisions in the handouts; use it with --to markdown or --to handout-html"));
            return ExitCode::FAILURE;
        }
        Some(p) => match crate::record::CourseRecord::read(p) {
            Ok(r) => Some(r),
            Err(d) => {
                super::report(&[d], None);
                return ExitCode::FAILURE;
            }
        },
    };
    // A student's handout is on the student's track: the record's, unless --track says.
    let record_track = record.as_ref().and_then(|r| r.track.clone());
    let track = track.or(record_track.as_deref());
    let opts = crate::render::RenderOptions {
        answer_key,
        templates: templates.map(crate::safe_fs::template_overrides),
        paper,
        course: None,
        record,
        one_track: track.is_some(),
    };
    render(paths, to, out, &opts, track)
}

/// `labforge render` with its options parsed: the driver's build ([`crate::build::render`]),
/// its events printed as they come.
pub fn render(
    paths: &[PathBuf],
    to: &str,
    out: Option<&Path>,
    opts: &crate::render::RenderOptions,
    track: Option<&str>,
) -> ExitCode {
    let mut on = |e: Event| match e {
        Event::Rendering { index, count, file } => {
            eprintln!("[{index}/{count}] {} -> {to}", file.display())
        }
        Event::Diagnostics(src, d) => {
            report(d, src);
        }
    };
    match crate::build::render(paths, to, out, opts, track, &mut on) {
        Err(f) => {
            fail(&f);
            ExitCode::FAILURE
        }
        Ok(s) => {
            eprintln!(
                "rendered {} lab(s) to {} in {} ms",
                s.rendered,
                s.out.display(),
                s.millis
            );
            if s.failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// `labforge render LAB --to report --record RECORD`: one lab, one record; the report written
/// into `-o` (default `build/report`).
fn report_cmd(
    paths: &[PathBuf],
    record: Option<&Path>,
    out: Option<&Path>,
    other: bool,
) -> ExitCode {
    if other {
        crate::cmd::error(format_args!(
            "--to report takes a lab, --record and -o only (the report is on the record's track)"
        ));
        return ExitCode::FAILURE;
    }
    let (Some(record), [lab]) = (record, paths) else {
        crate::cmd::error(format_args!("--to report makes one student's report: give one lab file and --record RECORD (the ledger the page downloads or the terminal saves)"));
        return ExitCode::FAILURE;
    };
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| crate::build::default_out("report", false));
    match crate::build::report::render(lab, record, &out) {
        Ok(file) => {
            eprintln!("wrote {}", file.display());
            ExitCode::SUCCESS
        }
        Err(f) => {
            fail(&f);
            ExitCode::FAILURE
        }
    }
}
