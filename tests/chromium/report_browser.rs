//! The lab report, page against CLI (issue 23.2): tests/browser/report.mjs answers a lab from
//! `file://` (every kind of question, hostile written answers and decision log, a slider moved
//! in each part), downloads the report and the record; `labforge render --to report --record`
//! on the downloaded record must give the downloaded report byte for byte. Labs: one with
//! written questions and its own `report:`, one with every kind of question, one with tracks on
//! a non-default track page, and a shipped lab with a decision log.

use crate::common;
use common::{browser_ready, node, render_html, root};
use std::process::Command;

fn differential(lab: &str, page: &str, want: &[&str]) {
    let path = root().join(lab);
    let stem = page.trim_end_matches(".html").replace('.', "-");
    let out = std::env::temp_dir().join(format!("labforge-report-{}-{stem}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    let (ok, text) = node("report.mjs", &[out.join(page), out.clone()]);
    println!("{lab}: {text}");
    assert!(ok && text.contains(" 0 failed"), "{lab}: {text}");
    let cli_out = out.join("cli");
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "render",
            path.to_str().unwrap(),
            "--to",
            "report",
            "--record",
        ])
        .arg(out.join("ledger.json"))
        .arg("-o")
        .arg(&cli_out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page_md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let file = std::fs::read_dir(&cli_out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let cli_md = std::fs::read_to_string(file).unwrap();
    if page_md != cli_md {
        let diff: Vec<String> = page_md
            .lines()
            .zip(cli_md.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .take(8)
            .map(|(i, (a, b))| format!("line {}:\n  page: {a}\n  cli:  {b}", i + 1))
            .collect();
        panic!(
            "{lab}: the page's report differs from the CLI's\n{}\n--- page:\n{page_md}",
            diff.join("\n")
        );
    }
    for w in want.iter().chain(&["- Student: Ada \\<i\\>L.\\</i\\>\n"]) {
        assert!(cli_md.contains(w), "{lab}: no `{w}` in\n{cli_md}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_pages_report_is_the_clis_report_of_the_downloaded_record() {
    if !browser_ready() {
        return;
    }
    let hostile = "> \\# Heading\n> \\<img src=x onerror=\"window.\\_\\_xss=1\"\\> \\*bold\\* \\[x\\](javascript:window.\\_\\_xss=2)\n> \\- item\n> 12\\. twelve\n> indented\n";
    differential(
        "tests/inputs/ok_report.yaml",
        "ok_report.html",
        &[
            "# Queue diagnosis memo\n",
            hostile,
            "- Complete: yes\n",
            "### Question `levers`",
        ],
    );
    differential(
        "tests/inputs/ok_questions.yaml",
        "ok_questions.html",
        &[hostile, "### Question `amp`\n"],
    );
    differential(
        "tests/inputs/ok_questions_tracks.yaml",
        "ok_questions_tracks.phone.html",
        &["# A budget on Phone — report\n", "- Track: Phone\n"],
    );
    differential("labs/fault-tolerance.yaml", "fault-tolerance.html", &["## Decision log\n\n> Decide: \\<b\\>this\\</b\\> \\& \\*that\\*\n> \\> not a quote\n> 1\\) not a list\n"]);
}
