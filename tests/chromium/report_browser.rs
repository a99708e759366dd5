//! The lab report, page against CLI (issue 23.2): tests/browser/report.mjs answers a lab from
//! `file://` (every kind of question, hostile written answers and decision log, a slider moved
//! in each part), downloads the report and the record; `labforge render --to report --record`
//! on the downloaded record must give the downloaded report byte for byte. Labs: one with
//! written questions and its own `report:`, one with every kind of question, one with tracks on
//! a non-default track page, and a shipped lab with a decision log.

use crate::common;
use common::pdf::{norm, page_count, pages, poppler_ready, wrong_paper};
use common::{browser_ready, node, render_html, root};
use serde_json::Value as J;
use std::path::{Path, PathBuf};
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
    differential("labs/fault-tolerance.yaml", "fault-tolerance.html", &["## Decision log\n\n> Decide: \\<b\\>this\\</b\\> \\& \\*that\\*\n> \\> not a quote\n> 1\\) not a list \u{fffd}\\]52;c;QQ==\u{fffd} \u{fffd}end\n"]);
}

/// What a student writes in the print test: two paragraphs, the second with a line break.
const WRITTEN: &str = "The binding term is the queueing delay: once utilization passes about 80 percent, the wait grows much faster than the load, because every arrival that finds the server busy waits for the whole backlog ahead of it.\n\nI underestimated how quickly the tail moves. At 0.9 the wait was ten times what it was at 0.5, not twice.\nSo the lever is headroom, not a faster server.";
const DECISION: &str =
    "Keep utilization under 75% on the scheduler.\n\nResidual risk: a burst of long jobs still queues for minutes.";

/// Every failure of one report printed to one paper, as `file p.N: what`.
fn printed_report_faults(
    pdf: &Path,
    paper: &str,
    max_pages: usize,
    written: bool,
    seen: &J,
) -> Vec<String> {
    let name = pdf.file_name().unwrap().to_string_lossy().to_string();
    let mut bad = Vec::new();
    bad.extend(wrong_paper(pdf, paper));
    let pages = pages(pdf);
    let n = page_count(pdf);
    if n != pages.len() || n == 0 || n > max_pages {
        bad.push(format!(
            "{name}: {n} pages ({} read), want 1 to {max_pages}",
            pages.len()
        ));
    }
    let strings = |k: &str| -> Vec<String> {
        seen[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| norm(s.as_str().unwrap()))
            .collect()
    };
    let headings = strings("headings");
    let words: Vec<std::collections::HashSet<&str>> = pages
        .iter()
        .map(|p| p.iter().flat_map(|l| l.split(' ')).collect())
        .collect();
    let all = pages
        .iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    for (i, lines) in pages.iter().enumerate() {
        let p = i + 1;
        // The foot is the page number, `p / n`; above it the page's last lines.
        let foot = format!("{p}/{n}");
        if lines.last().map(|l| l.replace(' ', "")) != Some(foot.clone()) {
            bad.push(format!(
                "{name} p.{p}: foot {:?}, want `{foot}`",
                lines.last()
            ));
        }
        let body = &lines[..lines.len().saturating_sub(1)];
        for k in 1..=2.min(body.len()) {
            let tail = body[body.len() - k..].join(" ");
            if headings.contains(&tail) && p < n {
                bad.push(format!("{name} p.{p}: ends with the heading `{tail}`"));
            }
        }
    }
    // Each table row whole on one page: every word of its label and value on one page (the
    // settings and the outputs print side by side, so rows are not in page order).
    for row in seen["rows"].as_array().unwrap() {
        let text = format!("{} {}", row[0].as_str().unwrap(), row[1].as_str().unwrap());
        let need: Vec<String> = norm(&text).split(' ').map(str::to_string).collect();
        if !words
            .iter()
            .any(|w| need.iter().all(|x| w.contains(x.as_str())))
        {
            bad.push(format!("{name}: the row `{text}` is not whole on a page"));
        }
    }
    // The student's words, the sections, and none of the page's buttons, HUD or summaries.
    let mut want = vec!["Student Ada Lovelace (s1234567)".to_string()];
    want.extend(headings.iter().cloned());
    if written {
        want.extend(WRITTEN.split("\n\n").map(norm));
    }
    if !headings.contains(&"Decision log".to_string()) {
        bad.push(format!("{name}: no decision log"));
    }
    want.extend(DECISION.split("\n\n").map(norm));
    for w in &want {
        if !all.contains(w.as_str()) {
            bad.push(format!("{name}: `{w}` is not in the printed text"));
        }
    }
    for ui in strings("ui") {
        if all.contains(ui.as_str()) {
            bad.push(format!("{name}: the page's `{ui}` is printed"));
        }
    }
    bad
}

/// "Print the report" prints the report alone, typeset (issue 23.2): on Letter and on A4, as
/// the PDF reads back, it holds the sections, the student's name and written answers, every
/// table row whole on one page, no page ending in a heading, no button, HUD or summary of the
/// page, a page number on every page, and at most the pages stated.
#[test]
fn printing_the_report_prints_one_typeset_document_on_letter_and_a4() {
    if !browser_ready() || !poppler_ready() {
        return;
    }
    let mut bad = Vec::new();
    // (lab, page, most pages, asks a written answer, a text of the lab in the print)
    for (lab, page, max_pages, written, want) in [
        (
            "tests/inputs/ok_report.yaml",
            "ok_report.html",
            2,
            true,
            "Hand this memo to the scheduler team",
        ),
        (
            "labs/fault-tolerance.yaml",
            "fault-tolerance.html",
            4,
            false,
            "What is the optimal checkpoint interval?",
        ),
    ] {
        let out = std::env::temp_dir().join(format!(
            "labforge-report-print-{}-{}",
            std::process::id(),
            page.trim_end_matches(".html")
        ));
        let _ = std::fs::remove_dir_all(&out);
        render_html(&root().join(lab), &out);
        let (ok, text) = node(
            "report-print.mjs",
            &[
                out.join(page).as_os_str(),
                out.as_os_str(),
                WRITTEN.as_ref(),
                DECISION.as_ref(),
            ],
        );
        assert!(ok, "{lab}: {text}");
        let json = text.lines().rev().find(|l| l.starts_with('{')).unwrap();
        let seen: J = serde_json::from_str(json).unwrap();
        assert_eq!(
            seen["shown"],
            serde_json::json!([]),
            "{lab}: more than the report prints"
        );
        assert_eq!(
            seen["errors"],
            serde_json::json!([]),
            "{lab}: console errors"
        );
        assert_eq!(seen["requests"], serde_json::json!([]), "{lab}: requests");
        for (key, paper) in [("letter", "letter"), ("a4", "a4")] {
            let pdf = PathBuf::from(seen[key].as_str().unwrap());
            let faults = printed_report_faults(&pdf, paper, max_pages, written, &seen);
            println!(
                "{lab} {paper}: {} pages, {} faults",
                page_count(&pdf),
                faults.len()
            );
            bad.extend(faults);
            let all = pages(&pdf).concat().join(" ");
            if !all.contains(want) {
                bad.push(format!("{lab} {paper}: no `{want}`"));
            }
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(bad.is_empty(), "the printed report:\n{}", bad.join("\n"));
}

/// The reading view of `grade`'s report.html at 1366 px (issue 23.3, looked at in a
/// screenshot): in every table of answers the answer takes the most room (at least 40% of the
/// table; it had a quarter, and three-line answers in a narrow column), every column has a head
/// (the verdict's had none), a student's name reads as a name (not in the column heads'
/// small capitals), and nothing runs off the page.
#[test]
fn the_reading_view_gives_the_written_answer_the_room() {
    if !browser_ready() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("labforge-reading-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("records")).unwrap();
    let lab = "tests/inputs/ok_questions.yaml";
    for (who, answers) in [
        ("alice", "predictions: { a: B }\nquestions: { a: { lever: A, levers: [A, B], amp: 5, worry: A, why: \"The utilization term binds: rho/(1-rho) grows without bound as the cluster nears full, whatever the variance.\", q6: \"Keep the cluster below 70% busy.\" } }\n"),
        ("bob", "predictions: { a: A }\nquestions: { a: { lever: B, levers: [A, C], amp: 12, worry: B, why: \"Variance, mostly.\", q6: \"Buy GPUs.\" } }\n"),
    ] {
        let a = dir.join(format!("{who}.yaml"));
        std::fs::write(&a, answers).unwrap();
        let o = common::run::run_answers(lab, &dir.join("records").join(format!("{who}.json")), &a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["grade", lab])
        .arg(dir.join("records"))
        .arg("-o")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ok, text) = node(
        "grade-view.mjs",
        &[dir.join("out/report.html").as_os_str(), "1366".as_ref()],
    );
    assert!(ok, "{text}");
    let tables: J =
        serde_json::from_str(text.lines().rev().find(|l| l.starts_with('[')).unwrap()).unwrap();
    let tables = tables.as_array().unwrap();
    assert_eq!(tables.len(), 6, "a table of answers per question: {text}");
    for t in tables {
        let heads: Vec<&str> = t["heads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        let share: Vec<f64> = t["share"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_f64().unwrap())
            .collect();
        let ans = heads
            .iter()
            .position(|h| h.eq_ignore_ascii_case("answer"))
            .expect("an Answer column");
        assert!(
            heads.iter().all(|h| !h.is_empty()),
            "a column with no head: {heads:?}"
        );
        assert!(
            share[ans] >= 0.4 && share.iter().all(|&s| s <= share[ans]),
            "the answer has {:.0}% of the table: {heads:?} {share:?}",
            share[ans] * 100.0
        );
        let name = &t["name"];
        assert_eq!(
            name["transform"], "none",
            "a student's name is set as a column head: {name}"
        );
        assert!(
            name["size"].as_f64() >= name["body"].as_f64(),
            "a student's name in small type: {name}"
        );
        assert_eq!(t["overflow"], false, "the report runs off a 1366 px window");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
