//! Every YAML example in the guides (docs/authoring.md, docs/questions.md, docs/courses.md,
//! docs/tools.md, docs/tracks.md, docs/report.md) is a lab that checks clean, without errors or warnings, and passes its own
//! tests.
//!
//! Examples are fenced blocks tagged ```` ```yaml lab ```` (a complete lab) or
//! ```` ```yaml part ```` (one part, wrapped here in a minimal lab). Any other `yaml` block is an
//! error, so no example escapes the check.

use labforge::eval::load_source;
use labforge::load::Source;

/// The guides, in reading order: a course module shown in one is known to the examples after it.
const GUIDES: &[(&str, &str)] = &[
    ("docs/authoring.md", include_str!("../../docs/authoring.md")),
    ("docs/questions.md", include_str!("../../docs/questions.md")),
    ("docs/courses.md", include_str!("../../docs/courses.md")),
    ("docs/tools.md", include_str!("../../docs/tools.md")),
    ("docs/tracks.md", include_str!("../../docs/tracks.md")),
    ("docs/report.md", include_str!("../../docs/report.md")),
];

/// (line of the opening fence, kind, body).
fn examples(md: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut lines = md.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let kind = words.next().unwrap_or("").to_string();
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        if lang == "yaml" {
            out.push((i + 1, kind, body));
        }
    }
    out
}

/// A part snippet as a lab. Blank lines before the wrapper keep line numbers those of the guide
/// when the fence is at `line` (columns of the part are 4 more than in the guide).
fn wrap_part(n: usize, line: usize, body: &str) -> String {
    let mut s = "\n".repeat(line.saturating_sub(4));
    s.push_str(&format!(
        "id: doc-example-{n}\ntitle: Example {n}\nparts:\n  -\n"
    ));
    for l in body.lines() {
        if l.is_empty() {
            s.push('\n');
        } else {
            s.push_str("    ");
            s.push_str(l);
            s.push('\n');
        }
    }
    s
}

#[test]
fn guide_examples_check_and_pass_their_tests() {
    let mut failures = Vec::new();
    // Course modules shown so far: every later lab example is compiled with them.
    let mut modules = Vec::new();
    let dir = std::env::temp_dir().join(format!("labforge-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let found: Vec<(&str, (usize, String, String))> = GUIDES
        .iter()
        .flat_map(|(doc, text)| examples(text).into_iter().map(move |e| (*doc, e)))
        .collect();
    for (doc, _) in GUIDES {
        let n = found.iter().filter(|(d, _)| d == doc).count();
        assert!(n >= 1, "no example found in {doc}");
    }
    assert!(found.len() >= 10, "only {} examples found", found.len());
    for (n, (doc, (line, kind, body))) in found.iter().enumerate() {
        let text = match kind.as_str() {
            "module" => {
                let p = dir.join(format!("module-{n}.yaml"));
                std::fs::write(&p, format!("{}{body}", "\n".repeat(*line))).unwrap();
                match labforge::module::load(&p) {
                    Ok(m) => modules.push(m),
                    Err(d) => failures.push(format!(
                        "{doc}:{line}: the module does not load: {}",
                        d.iter().map(|d| d.render(None)).collect::<String>()
                    )),
                }
                continue;
            }
            // Blank lines first, so diagnostics give the guide's line numbers.
            "lab" => format!("{}{body}", "\n".repeat(*line)),
            "part" => wrap_part(n, *line, body),
            other => {
                failures.push(format!(
                    "{doc}:{line}: a yaml block must be tagged `yaml lab`, `yaml part` or `yaml module`, not `{other}`"
                ));
                continue;
            }
        };
        let name = format!("{doc}:{line} ({kind} example)");
        let source = Source::new(*doc, text.clone());
        let compiled = match labforge::load::parse(&source) {
            Ok(lab) => labforge::eval::compile::compile_with(lab, &source, modules.clone())
                .map_err(|d| (Some(source.clone()), d)),
            Err(d) => Err((Some(source.clone()), vec![d])),
        };
        let lab = match compiled {
            Ok(l) => l,
            Err((src, d)) => {
                let t = src.map(|s| s.text).unwrap_or_default();
                let msgs: String = d.iter().map(|d| d.render(Some(&t))).collect();
                failures.push(format!("{name} does not compile:\n{msgs}"));
                continue;
            }
        };
        // Examples teach: they must be free of warnings too.
        // ... on every track of a lab with tracks.
        let diags = lab.check_every_track();
        let msgs: String = diags.iter().map(|d| d.render(Some(&text))).collect();
        if !msgs.is_empty() {
            failures.push(format!(
                "{name} is not clean under `labforge check`:\n{msgs}"
            ));
        }
        let mut outcomes = lab.run_tests();
        for t in lab.other_tracks() {
            match lab.on_track(&t) {
                Ok(l) => outcomes.extend(l.run_tests()),
                Err(d) => failures.push(format!("{name} does not compile on track {t}: {d:?}")),
            }
        }
        for o in outcomes {
            if !o.passed() {
                let msgs: String = o.failures.iter().map(|d| d.render(Some(&text))).collect();
                failures.push(format!("{name}: test `{}` fails:\n{msgs}", o.name));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!modules.is_empty(), "the guide shows a course module");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The finding docs/tracks.md quotes is what `check` says of its example with "Yes" marked
/// correct on every track and "No" wrong.
#[test]
fn the_tracks_guide_shows_a_real_finding() {
    let md = include_str!("../../docs/tracks.md");
    let (_, _, body) = examples(md).into_iter().find(|e| e.1 == "lab").unwrap();
    let shown = md[md.find("for the phone only:").unwrap()..]
        .split("```text\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    let wrong = body
        .replace(r#"correct: 'track.id == "cloud"'"#, "correct: true")
        .replace(r#", correct: 'track.id != "cloud"'"#, "");
    assert_ne!(wrong, body);
    let lab = load_source(Source::new("tracks.yaml", wrong)).unwrap_or_else(|_| panic!("compiles"));
    let found: Vec<String> = lab
        .check_every_track()
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert!(
        found.iter().any(|m| m == shown),
        "{shown}\nnot among\n{found:#?}"
    );
}

#[test]
fn a_broken_example_would_be_caught() {
    let md =
        "x\n```yaml part\nid: a\ntitle: T\nformulas:\n  y: nope + 1\n```\n```yaml\nid: z\n```\n";
    let ex = examples(md);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].0, 2);
    assert_eq!(ex[1].1, "");
    let lab = wrap_part(0, 2, &ex[0].2);
    assert!(load_source(Source::new("t", lab)).is_err());
}

/// The diagnostic shown under "Reading diagnostics" is what `check` prints for the scaffold
/// with `pk_wait` misspelt.
#[test]
fn the_guide_shows_a_real_diagnostic() {
    let tools = GUIDES[3].1;
    let section = &tools[tools.find("## Reading diagnostics").unwrap()..];
    let start = section.find("```text\n").unwrap() + "```text\n".len();
    let shown = &section[start..start + section[start..].find("```").unwrap()];
    let lab = labforge::author::scaffold::render_template("queue-wall", "./lab.schema.json")
        .unwrap()
        .replace("wait_min: queue::pk_wait(", "wait_min: queue::pk_wiat(");
    let Err((src, diags)) = load_source(Source::new("queue-wall.yaml", lab)) else {
        panic!("the misspelt lab compiled");
    };
    let text = src.unwrap().text;
    let printed: String = diags.iter().map(|d| d.render(Some(&text))).collect();
    assert_eq!(shown, printed);
}
