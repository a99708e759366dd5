//! `check` against deliberately broken copies of the shipped labs (issue 25): every typed number
//! with a unit in the prose (self-assessment answers too) and in the feedback tripled, a correct
//! option's text altered, a unit label altered. Each copy is checked in
//! a copy of the course (its modules and tracks); a mutant is caught when a diagnostic lands on
//! the line that was changed. The unaltered labs check with no diagnostic at all.
//!
//! `cargo test --test it check_mutants -- --nocapture` prints the counts the README quotes.

use labforge::lab::diagnose;
use std::path::{Path, PathBuf};

const LABS: [&str; 5] = [
    "compute-infrastructure.yaml",
    "distributed-training.yaml",
    "fault-tolerance.yaml",
    "fleet-orchestration.yaml",
    "ml-intro.yaml",
];

/// Units a mutated prose number carries (what `check` reads as a measured quantity).
const UNITS: [&str; 14] = [
    "GB", "TB", "MB", "ms", "µs", "minutes", "hours", "seconds", "%", "×", "kW", "W", "h", "s",
];

/// The library's namespaces (a course module's function documents no unit).
const LIBRARY: [&str; 10] = [
    "queue::",
    "rel::",
    "fleet::",
    "collective::",
    "roofline::",
    "energy::",
    "llm::",
    "carbon::",
    "perf::",
    "train::",
];

struct Mutant {
    class: &'static str,
    lab: &'static str,
    /// 1-based line changed.
    line: usize,
    text: String,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Byte ranges of `{{ ... }}` in a line.
fn placeholders(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(s) = line[from..].find("{{") {
        let s = from + s;
        let Some(e) = line[s..].find("}}") else { break };
        out.push((s, s + e + 2));
        from = s + e + 2;
    }
    out
}

/// Typed numbers followed by a unit, outside placeholders: (start, end of the number).
fn typed_measures(line: &str) -> Vec<(usize, usize)> {
    let ph = placeholders(line);
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let prev_ok = i == 0
            || !(b[i - 1].is_ascii_alphanumeric()
                || b[i - 1] == b'.'
                || b[i - 1] == b'_'
                || b[i - 1] == b',');
        if b[i].is_ascii_digit() && prev_ok {
            let s = i;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            let rest = &line[i..];
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            let unit = UNITS.iter().any(|u| {
                rest.starts_with(u) && !rest[u.len()..].starts_with(|c: char| c.is_alphanumeric())
            });
            let inside = ph.iter().any(|(a, z)| s >= *a && s < *z);
            let value: f64 = line[s..i].parse().unwrap_or(0.0);
            // Ranges (`35–40`) and bounds are not single values; small counts are not judged.
            let range = line[i..].starts_with(['–', '-']) || line[..s].ends_with(['–', '-']);
            if unit && !inside && !range && value >= 10.0 {
                out.push((s, i));
            }
        } else {
            i += 1;
        }
    }
    out
}

fn times3(number: &str) -> String {
    let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
    let v: f64 = number.parse().unwrap();
    format!("{:.*}", decimals, v * 3.0)
}

/// The prose lines of a lab file: block scalars' lines and quoted or plain values of the keys a
/// student reads (not formulas, ids or claims).
fn prose_lines(text: &str) -> Vec<usize> {
    keyed_lines(text, &PROSE, true)
}

/// The lines of the feedback a student reads after answering (an option's, a question's).
fn feedback_lines(text: &str) -> Vec<usize> {
    keyed_lines(text, &["feedback:", "other_feedback:"], false)
}

const PROSE: [&str; 13] = [
    "concept:",
    "warn:",
    "answer:",
    "message:",
    "question:",
    "body:",
    "info:",
    "warning:",
    "success:",
    "danger:",
    "caption:",
    "subtitle:",
    "core_question:",
];

/// The lines of the values of `keys` (and, with `texts`, of a `text:` that is not an option's).
fn keyed_lines(text: &str, keys: &[&str], texts: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut block: Option<usize> = None;
    let mut fenced = false;
    for (n, l) in text.lines().enumerate() {
        // A fenced block in a math peek is formulas written out, not numbers stated.
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        if let Some(b) = block {
            if l.trim().is_empty() || indent > b {
                out.push(n);
                continue;
            }
            block = None;
        }
        let t = l.trim_start().trim_start_matches("- ");
        // `text:` of a badge, objective, takeaway or card; an option's text (followed by its
        // `correct:`, `claim:` or `feedback:`) is the other class.
        let option = || {
            l.contains("claim:")
                || l.contains("correct:")
                || l.contains("feedback:")
                || text.lines().skip(n + 1).take(8).any(|x| {
                    let xi = x.len() - x.trim_start().len();
                    xi == indent + 2
                        && ["correct:", "claim:", "feedback:"]
                            .iter()
                            .any(|k| x.trim_start().starts_with(k))
                })
        };
        let prose_key =
            keys.iter().any(|k| t.starts_with(k)) || (texts && t.starts_with("text:") && !option());
        if prose_key && (t.ends_with(">-") || t.ends_with('>') || t.ends_with('|')) {
            block = Some(indent);
        } else if prose_key {
            out.push(n);
        }
    }
    out
}

fn mutants(lab: &'static str, text: &str) -> Vec<Mutant> {
    let lines: Vec<&str> = text.lines().collect();
    let with = |n: usize, new_line: String| -> String {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v[n] = new_line;
        v.join("\n") + "\n"
    };
    let mut out = Vec::new();
    // Every typed number with a unit in the prose, and in the feedback, tripled.
    for (class, of) in [
        ("prose number", prose_lines(text)),
        ("feedback number", feedback_lines(text)),
    ] {
        for n in of {
            for (s, e) in typed_measures(lines[n]) {
                let l = lines[n];
                let new = format!("{}{}{}", &l[..s], times3(&l[s..e]), &l[e..]);
                out.push(Mutant {
                    class,
                    lab,
                    line: n + 1,
                    text: with(n, new),
                });
            }
        }
    }
    // A correct option's text: its placeholder shows three times the value, or its typed number
    // is tripled.
    for (c, l) in lines.iter().enumerate() {
        if !l.contains("correct: true") {
            continue;
        }
        // The option's text: from its `- text:` line (this one, or the nearest above) on.
        let Some(first) = (0..=c).rev().take(8).find(|&i| lines[i].contains("text:")) else {
            continue;
        };
        for (n, l) in lines.iter().enumerate().take(c + 1).skip(first) {
            let new = if let Some(i) = l.find("{{ fmt(") {
                let start = i + "{{ fmt(".len();
                let Some(close) = l[start..].find(") }}").map(|e| start + e) else {
                    continue;
                };
                let Some(comma) = l[start..close].rfind(", ").map(|e| start + e) else {
                    continue;
                };
                format!("{}({}) * 3{}", &l[..start], &l[start..comma], &l[comma..])
            } else if let Some((s, e)) = typed_measures(l).first().copied() {
                format!("{}{}{}", &l[..s], times3(&l[s..e]), &l[e..])
            } else {
                continue;
            };
            out.push(Mutant {
                class: "correct option text",
                lab,
                line: n + 1,
                text: with(n, new),
            });
            break;
        }
    }
    // A unit label: an output whose formula is one library call, relabelled in another unit of
    // the same kind.
    let swaps = [
        ("s", "ms"),
        ("ms", "s"),
        ("GB", "GiB"),
        ("h", "min"),
        ("min", "h"),
    ];
    for l in &lines {
        let t = l.trim();
        let Some((name, f)) = t.split_once(": ") else {
            continue;
        };
        if !LIBRARY.iter().any(|ns| f.starts_with(ns))
            || !f.ends_with(')')
            || f.matches('(').count() != 1
        {
            continue;
        }
        let call = &f[..f.find('(').unwrap_or(0)];
        let fixed = labforge::library::functions().iter().any(|d| {
            d.path == call
                && d.units.rsplit_once("result: ").is_some_and(|(_, r)| {
                    ["seconds", "GB", "milliseconds", "hours", "minutes"]
                        .iter()
                        .any(|u| r.starts_with(u))
                })
        });
        if !fixed {
            continue; // "same unit as its input": nothing to compare a label with
        }
        let key = format!("{name}: {{");
        let Some(n) = lines
            .iter()
            .position(|o| o.trim_start().starts_with(&key) && o.contains("unit:"))
        else {
            continue;
        };
        let o = lines[n];
        for (from, to) in swaps {
            let pat = format!("unit: {from},");
            let pat2 = format!("unit: {from} ");
            let p = if o.contains(&pat) {
                pat
            } else if o.contains(&pat2) {
                pat2
            } else {
                continue;
            };
            let new = o.replacen(&p, &p.replacen(from, to, 1), 1);
            if out
                .iter()
                .any(|m: &Mutant| m.class == "unit label" && m.line == n + 1)
            {
                break;
            }
            out.push(Mutant {
                class: "unit label",
                lab,
                line: n + 1,
                text: with(n, new),
            });
            break;
        }
    }
    out
}

fn caught(dir: &Path, m: &Mutant) -> bool {
    let path: PathBuf = dir.join(m.lab);
    std::fs::write(&path, &m.text).unwrap();
    let (_, diags, _) = diagnose(&path);
    diags.iter().any(|d| d.line as usize == m.line)
}

#[test]
fn broken_copies_of_the_shipped_labs_are_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("labs");
    copy_dir(Path::new("labs"), &dir);
    for lab in LABS {
        let (_, diags, _) = diagnose(&dir.join(lab));
        assert!(diags.is_empty(), "{lab} checks with diagnostics: {diags:?}");
    }
    let mut all = Vec::new();
    for lab in LABS {
        let original = std::fs::read_to_string(dir.join(lab)).unwrap();
        for m in mutants(lab, &original) {
            let c = caught(&dir, &m);
            all.push((m.class, m.lab, m.line, c));
        }
        std::fs::write(dir.join(lab), &original).unwrap();
    }
    let mut missed = Vec::new();
    for class in [
        "prose number",
        "feedback number",
        "correct option text",
        "unit label",
    ] {
        let of: Vec<_> = all.iter().filter(|m| m.0 == class).collect();
        let n = of.iter().filter(|m| m.3).count();
        println!("{class}: {n} of {} caught", of.len());
        missed.extend(
            of.iter()
                .filter(|m| !m.3)
                .map(|m| format!("{}: {} line {}", m.0, m.1, m.2)),
        );
        assert!(!of.is_empty(), "no `{class}` mutant was made");
    }
    println!("missed: {missed:?}");
    let caught = all.iter().filter(|m| m.3).count();
    println!("total: {caught} of {} caught", all.len());
    // What the README states; a drop is a regression: every altered number (in the prose and in
    // the feedback), every correct option's text and unit label. A feedback's number is judged
    // against the values its part reads (not a lab-level value only another part reads: the
    // tripled "30%" of fleet-orchestration's part A is its part B's 90% target), a coefficient
    // in its own unit is not a fraction shown as a percentage (1.5 C_s is not "150%"), and a
    // bound in a feedback ("under 20%") is read as the number it quotes.
    assert!(
        missed.is_empty(),
        "{caught} of {} caught; missed {missed:?}",
        all.len()
    );
}

/// `check --strict` reads every number: the ok case's typed "7 more GPUs" in a feedback is proven by
/// nothing, so strict warns where the plain check is silent; numbers the case declares (a
/// constant, a control, a quoted given) stay proven.
#[test]
fn strict_reads_every_number() {
    let p = Path::new("tests/inputs/ok_numbers_in_words.yaml");
    let unproven = |d: &[labforge::diag::Diagnostic]| {
        d.iter()
            .filter(|x| x.message.contains("matches no value"))
            .map(|x| x.line)
            .collect::<Vec<_>>()
    };
    let (_, plain, _) = diagnose(p);
    assert_eq!(unproven(&plain), Vec::<u32>::new());
    let (_, strict, _) = labforge::lab::diagnose_strict(p);
    let lines = unproven(&strict);
    assert!(!lines.is_empty(), "strict found nothing: {strict:?}");
    let text = std::fs::read_to_string(p).unwrap();
    for l in &lines {
        let line = text.lines().nth(*l as usize - 1).unwrap();
        assert!(
            line.contains("feedback"),
            "strict flagged a proven number: {line}"
        );
    }
}

/// The shipped labs prove every number a student reads, even under `check --strict`: the
/// self-checks' givens are constants with their source, a device's figures come from the library
/// (`hw("A100")`), a model's from the registry (`model("gpt-3")`). Seven numbers were typed and
/// unproven before (an A100's 312 TFLOP/s and 2,039 GB/s, "175B model", a PUE of 1.6, ...).
#[test]
fn the_shipped_labs_prove_every_number_under_strict() {
    for lab in LABS {
        let (_, diags, _) = labforge::lab::diagnose_strict(&Path::new("labs").join(lab));
        let lines: Vec<String> = diags
            .iter()
            .map(|d| format!("{lab}:{}: {}", d.line, d.message))
            .collect();
        assert!(lines.is_empty(), "{lines:#?}");
    }
}
