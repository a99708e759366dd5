//! Printed PDFs read back as a reader sees them: `pdftotext -layout` page by page and
//! `pdfinfo`'s paper and page count (poppler-utils), for the print tests of both binaries.

use std::path::Path;
use std::process::Command;

/// `pdftotext` and `pdfinfo` when installed; otherwise SKIPPED (or a failure under CI).
pub fn poppler_ready() -> bool {
    let ok = ["pdftotext", "pdfinfo"].iter().all(|t| {
        Command::new(t)
            .arg("-v")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    });
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!("print tests cannot run under CI: pdftotext/pdfinfo (poppler-utils) missing");
        }
        println!("SKIPPED: print tests: pdftotext/pdfinfo (poppler-utils) not installed");
    }
    ok
}

/// Whitespace collapsed, typographic ligatures undone (as a PDF's text may hold them).
pub fn norm(s: &str) -> String {
    s.replace('\u{fb01}', "fi")
        .replace('\u{fb02}', "fl")
        .replace('\u{fb00}', "ff")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The PDF's pages as their non-empty lines.
pub fn pages(pdf: &Path) -> Vec<Vec<String>> {
    let o = Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let mut pages: Vec<Vec<String>> = text
        .split('\u{c}')
        .map(|p| {
            p.lines()
                .map(norm)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    // pdftotext ends every page with a form feed: the piece after the last one is empty.
    if pages.last().is_some_and(|p| p.is_empty()) {
        pages.pop();
    }
    pages
}

/// The line of `pdfinfo` that starts with `field` (`Page size:`, `Pages:`).
pub fn pdfinfo(pdf: &Path, field: &str) -> String {
    let o = Command::new("pdfinfo").arg(pdf).output().unwrap();
    let info = String::from_utf8_lossy(&o.stdout).to_string();
    info.lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no `{field}` in pdfinfo: {info}"))
        .to_string()
}

pub fn paper_of(pdf: &Path) -> String {
    pdfinfo(pdf, "Page size:")
}

/// `NAME: paper is ..., not PAPER` when `pdf` is not on `paper` (`letter` or `a4`).
pub fn wrong_paper(pdf: &Path, paper: &str) -> Option<String> {
    let size = paper_of(pdf);
    let want = if paper == "letter" {
        "612 x 792 pts (letter)"
    } else {
        "(A4)"
    };
    let name = pdf.file_name().unwrap().to_string_lossy();
    (!size.contains(want)).then(|| format!("{name}: paper is `{size}`, not {paper}"))
}

/// The page count `pdfinfo` reads.
pub fn page_count(pdf: &Path) -> usize {
    let line = pdfinfo(pdf, "Pages:");
    line["Pages:".len()..].trim().parse().unwrap()
}
