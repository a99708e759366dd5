//! The Markdown handout and answer key as documents: golden snapshots, no answers in the
//! student handout, valid CommonMark (parsed back with pulldown-cmark), charts as valid SVG.

use labforge::eval::CompiledLab;
use labforge::model::Instrument;
use labforge::render::markdown::{md_to_html, view, HandoutHtmlRenderer, MarkdownRenderer};
use labforge::render::{OutFile, RenderOptions, Renderer};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};

const FIXTURE: &str = "tests/inputs/md_checkpoint.yaml";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(rel: &str) -> CompiledLab {
    match labforge::lab::load_lab(&root().join(rel)) {
        Ok(l) => l,
        Err((_, d)) => panic!("{rel} does not compile: {d:?}"),
    }
}

/// The labs the handout is checked on: the fixture and every shipped lab (`labs/*.yaml`).
fn labs() -> Vec<(String, CompiledLab)> {
    let mut v = vec![("md_checkpoint".to_string(), load(FIXTURE))];
    let mut names: Vec<String> = std::fs::read_dir(root().join("labs"))
        .unwrap()
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".yaml") && n != labforge::course::FILE_NAME)
        .collect();
    names.sort();
    for n in names {
        v.push((
            n.trim_end_matches(".yaml").into(),
            load(&format!("labs/{n}")),
        ));
    }
    v
}

fn render(r: &dyn Renderer, lab: &CompiledLab, stem: &str, key: bool) -> Vec<OutFile> {
    let opts = RenderOptions {
        answer_key: key,
        templates: None,
        ..RenderOptions::default()
    };
    r.render(lab, stem, &opts)
        .unwrap_or_else(|e| panic!("{stem}: {e}"))
}

fn text(files: &[OutFile], name: &str) -> String {
    let f = files
        .iter()
        .find(|f| f.path == Path::new(name))
        .unwrap_or_else(|| {
            panic!(
                "no {name} among {:?}",
                files.iter().map(|f| &f.path).collect::<Vec<_>>()
            )
        });
    String::from_utf8(f.bytes.clone()).unwrap()
}

fn md(lab: &CompiledLab, stem: &str, key: bool) -> (String, Vec<OutFile>) {
    let files = render(&MarkdownRenderer, lab, stem, key);
    let name = if key {
        format!("{stem}-key.md")
    } else {
        format!("{stem}.md")
    };
    (text(&files, &name), files)
}

#[test]
fn fixture_handout_and_key_match_the_golden_files() {
    let lab = load(FIXTURE);
    let (handout, _) = md(&lab, "md_checkpoint", false);
    let (key, _) = md(&lab, "md_checkpoint", true);
    insta::assert_snapshot!("md_checkpoint_handout", handout);
    insta::assert_snapshot!("md_checkpoint_key", key);
}

const SEEDS: [&str; 2] = ["fault-tolerance", "fleet-orchestration"];

#[test]
fn seed_labs_match_the_golden_files() {
    let all = labs();
    for seed in SEEDS {
        let (stem, lab) = all
            .iter()
            .find(|(s, _)| s == seed)
            .unwrap_or_else(|| panic!("labs/{seed}.yaml is missing"));
        let (handout, _) = md(lab, stem, false);
        let (key, _) = md(lab, stem, true);
        insta::assert_snapshot!(format!("{stem}_handout"), handout);
        insta::assert_snapshot!(format!("{stem}_key"), key);
    }
}

/// Markdown text as a reader sees it: emphasis and code marks dropped, whitespace collapsed.
fn plain(s: &str) -> String {
    s.replace(['*', '`', '\\'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// HTML as a reader sees it: tags dropped, entities decoded, whitespace collapsed.
fn html_plain(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if in_tag => {}
            c => out.push(c),
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every feedback text of the lab (rendered), from the answer key's context.
fn feedback_texts(lab: &CompiledLab, stem: &str) -> Vec<String> {
    let doc = view::build(lab, stem, true, &|_, _| String::new()).unwrap();
    let mut v = Vec::new();
    let mut push = |x: &serde_json::Value| {
        if let Some(s) = x.as_str() {
            v.push(s.to_string());
        }
    };
    let context = serde_json::to_value(&doc.context).unwrap();
    for p in context["parts"].as_array().unwrap() {
        for q in [&p["prediction"], &p["reflection"]] {
            if q.is_null() {
                continue;
            }
            for o in q["options"].as_array().unwrap() {
                push(&o["feedback"]);
            }
            push(&q["other_feedback"]);
            push(&q["numeric"]["correct_feedback"]);
            push(&q["numeric"]["other_feedback"]);
        }
    }
    v
}

#[test]
fn student_handout_holds_no_answers_and_the_key_holds_them_all() {
    for (stem, lab) in labs() {
        let feedback = feedback_texts(&lab, &stem);
        // Every option of every question has feedback in the fixture; the seeds have some.
        assert!(!feedback.is_empty(), "{stem}: no feedback to check");
        let (handout, _) = md(&lab, &stem, false);
        let (key, _) = md(&lab, &stem, true);
        let html = text(
            &render(&HandoutHtmlRenderer, &lab, &stem, false),
            &format!("{stem}.html"),
        );
        let html_key = text(
            &render(&HandoutHtmlRenderer, &lab, &stem, true),
            &format!("{stem}-key.html"),
        );
        let (ph, pk) = (plain(&handout), plain(&key));
        let (phtml, phtml_key) = (html_plain(&html), html_plain(&html_key));
        for f in &feedback {
            let (fm, fh) = (plain(f), html_plain(&md_to_html(f)));
            assert!(!ph.contains(&fm), "{stem}: handout shows feedback `{fm}`");
            assert!(
                !phtml.contains(&fh),
                "{stem}: HTML handout shows feedback `{fh}`"
            );
            assert!(
                pk.contains(&fm),
                "{stem}: the answer key lacks feedback `{fm}`"
            );
            assert!(
                phtml_key.contains(&fh),
                "{stem}: HTML key lacks feedback `{fh}`"
            );
        }
        for marker in [
            "[x]",
            "(correct)",
            "Answer key",
            "Expected answer",
            "Feedback:",
        ] {
            assert!(
                !handout.contains(marker),
                "{stem}: handout contains `{marker}`"
            );
            assert!(
                !html.contains(marker),
                "{stem}: HTML handout contains `{marker}`"
            );
        }
        assert!(!html.contains("class=\"correct\""), "{stem}");
        // Self-assessment answers: in both keys, in neither handout.
        let items = lab.lab.synthesis.iter().flat_map(|s| &s.self_assessment);
        for a in items.filter_map(|i| i.answer.as_ref()) {
            let a = lab.render_text(None, None, &a.value, &[]).unwrap();
            let (am, ah) = (plain(&a), html_plain(&md_to_html(&a)));
            assert!(pk.contains(&am), "{stem}: the key lacks the answer `{am}`");
            assert!(phtml_key.contains(&ah), "{stem}: the HTML key lacks `{ah}`");
            assert!(!ph.contains(&am), "{stem}: the handout shows `{am}`");
            assert!(
                !phtml.contains(&ah),
                "{stem}: the HTML handout shows `{ah}`"
            );
        }
        assert!(key.contains("[x]") && key.contains("(correct)"), "{stem}");
        // The student view and context have no answer fields, whatever a template might ask for.
        let doc = view::build(&lab, &stem, false, &|_, _| String::new()).unwrap();
        let json = format!(
            "{}{}",
            serde_json::to_string(&doc.context).unwrap(),
            serde_json::to_string(&labforge::view::lab(&lab, false).unwrap()).unwrap()
        );
        for field in [
            "\"correct\"",
            "\"feedback\"",
            "\"other_feedback\"",
            "\"answer\"",
            "\"worked\"",
            "\"self_assessment_answers\"",
            "\"tests\"",
        ] {
            assert!(!json.contains(field), "{stem}: student model has {field}");
        }
    }
}

#[test]
fn the_key_marks_exactly_the_correct_options() {
    for (stem, lab) in labs() {
        let (key, _) = md(&lab, &stem, true);
        for (pi, part) in lab.lab.parts.iter().enumerate() {
            let questions = part
                .prediction
                .iter()
                .map(|p| &p.options)
                .chain(part.reflection.iter().map(|r| &r.options));
            for opts in questions {
                for (i, o) in opts.iter().enumerate() {
                    let id =
                        o.id.as_ref()
                            .map(|x| x.value.clone())
                            .unwrap_or_else(|| ((b'A' + i as u8) as char).to_string());
                    let box_ = if o.correct { "[x]" } else { "[ ]" };
                    let first = o.text.value.lines().next().unwrap_or("");
                    // Options with placeholders are checked by their id and box only.
                    let needle = if first.contains("{{") {
                        format!("- {box_} {id}) ")
                    } else {
                        format!("- {box_} {id}) {first}")
                    };
                    assert!(
                        key.contains(&needle),
                        "{stem} part {pi}: `{needle}` not in key"
                    );
                }
            }
        }
    }
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS
}

struct Shape {
    h1: Vec<String>,
    h2: Vec<String>,
    tasks: usize,
    checked: usize,
    /// First header cell of every table.
    tables: Vec<String>,
    images: Vec<String>,
    html: Vec<String>,
}

fn shape(md: &str) -> Shape {
    let mut s = Shape {
        h1: vec![],
        h2: vec![],
        tasks: 0,
        checked: 0,
        tables: vec![],
        images: vec![],
        html: vec![],
    };
    let mut heading: Option<(HeadingLevel, String)> = None;
    // The first header cell of the table being read.
    let mut head_cell: Option<String> = None;
    for ev in Parser::new_ext(md, options()) {
        match ev {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, h)) = heading.as_mut() {
                    h.push_str(&t);
                }
                if let Some(c) = head_cell.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::TableCell) => s.tables.extend(head_cell.take()),
            Event::End(TagEnd::Heading(_)) => match heading.take() {
                Some((HeadingLevel::H1, h)) => s.h1.push(h),
                Some((HeadingLevel::H2, h)) => s.h2.push(h),
                _ => {}
            },
            Event::TaskListMarker(c) => {
                s.tasks += 1;
                s.checked += usize::from(c);
            }
            Event::Start(Tag::Table(_)) => head_cell = Some(String::new()),
            Event::Start(Tag::Image { dest_url, .. }) => s.images.push(dest_url.to_string()),
            Event::Html(h) | Event::InlineHtml(h) => s.html.push(h.trim().to_string()),
            _ => {}
        }
    }
    s
}

#[test]
fn handouts_parse_back_as_the_document_they_describe() {
    for (stem, lab) in labs() {
        for key in [false, true] {
            let (text, files) = md(&lab, &stem, key);
            let s = shape(&text);
            let l = &lab.lab;
            assert_eq!(s.h1.len(), 1, "{stem}: one title");
            assert!(s.h1[0].starts_with(&plain(
                &lab.render_text(None, None, &l.title.value, &[]).unwrap()
            )));
            // One H2 per part, in order, then the synthesis (and the key's test points).
            let parts: Vec<&String> = s.h2.iter().filter(|h| h.starts_with("Part ")).collect();
            assert_eq!(parts.len(), l.parts.len(), "{stem}: {:?}", s.h2);
            for (i, h) in parts.iter().enumerate() {
                assert!(
                    h.starts_with(&format!("Part {} — ", (b'A' + i as u8) as char)),
                    "{h}"
                );
            }
            assert_eq!(
                s.h2.contains(&"Synthesis".to_string()),
                l.synthesis.is_some()
            );
            // The lab's own tests are fixtures for `labforge test`, not for a grader.
            assert!(
                !s.h2.iter().any(|h| h.contains("test point")),
                "{stem}: {:?}",
                s.h2
            );
            // The key works out each prediction about an output at its scenario; the handout never.
            let worked = l
                .parts
                .iter()
                .filter_map(|p| p.prediction.as_ref())
                .filter(|pr| pr.claim.is_some() || pr.numeric.is_some())
                .count();
            assert_eq!(
                text.matches("**Worked answer:**").count(),
                if key { worked } else { 0 },
                "{stem} key={key}"
            );
            // Every option is a task-list item; the key checks one per question.
            let mut options = 0;
            let mut questions = 0;
            for p in &l.parts {
                if let Some(pr) = &p.prediction {
                    options += pr.options.len();
                    questions += usize::from(!pr.options.is_empty());
                }
                if let Some(r) = &p.reflection {
                    options += r.options.len();
                    questions += 1;
                }
            }
            assert_eq!(s.tasks, options, "{stem} key={key}");
            assert_eq!(
                s.checked,
                if key { questions } else { 0 },
                "{stem} key={key}"
            );
            // Output tables: one per metrics row or output table (or one per part showing
            // outputs without them). Prose may add its own.
            let mut tables = 0;
            for p in &l.parts {
                let n = p
                    .instruments
                    .iter()
                    .filter(|i| matches!(i, Instrument::Metrics(_) | Instrument::Table(_)))
                    .count();
                tables += if n == 0 && !p.outputs.is_empty() {
                    1
                } else {
                    n
                };
            }
            let outputs = s.tables.iter().filter(|h| *h == "Output").count();
            assert_eq!(outputs, tables, "{stem} key={key}: {:?}", s.tables);
            // Images are the charts, as relative links to files rendered alongside.
            let charts: usize = l
                .parts
                .iter()
                .map(|p| {
                    p.instruments
                        .iter()
                        .filter(|i| matches!(i, Instrument::Chart(_)))
                        .count()
                })
                .sum();
            assert_eq!(s.images.len(), charts, "{stem}");
            for img in &s.images {
                assert!(
                    img.starts_with(&format!("{stem}-charts/")) && img.ends_with(".svg"),
                    "{img}"
                );
                assert!(
                    files.iter().any(|f| f.path == Path::new(img)),
                    "{img} not rendered"
                );
            }
            // Answer lines stay literal underscores (not emphasis, not a thematic break).
            let html = labforge::render::markdown::md_to_html(&text);
            assert!(!html.contains("<hr"), "{stem}");
            if !key && l.parts.iter().any(|p| p.prediction.is_some()) {
                assert!(html.contains("<strong>Why?</strong> ______"), "{stem}");
            }
            // No template syntax leaks, no placeholder left unevaluated.
            for bad in ["{{", "}}", "{%", "%}", "undefined"] {
                assert!(!text.contains(bad), "{stem}: `{bad}` in the handout");
            }
        }
    }
}

/// A Markdown handout is Markdown: no raw HTML block or inline tag (there were page breaks as
/// `<div style="page-break-after…">` lines) in any shipped lab's handout or key, parsed or as
/// text (a tag in a code span or block counts too); lab text's `<` is inert (`&lt;`).
#[test]
fn markdown_handouts_and_keys_carry_no_html() {
    for (stem, lab) in labs() {
        for key in [false, true] {
            let (text, _) = md(&lab, &stem, key);
            let s = shape(&text);
            assert!(s.html.is_empty(), "{stem} key={key}: raw HTML {:?}", s.html);
            let tag = text.match_indices('<').map(|(i, _)| &text[i..]).find(|t| {
                t[1..].starts_with(|c: char| c.is_ascii_alphabetic() || "/!?".contains(c))
            });
            assert!(
                tag.is_none(),
                "{stem} key={key}: a tag: {:.40}",
                tag.unwrap()
            );
        }
    }
}

#[test]
fn charts_are_valid_svg_with_labels_legend_and_the_declared_markers() {
    for (stem, lab) in labs() {
        let files = render(&MarkdownRenderer, &lab, &stem, false);
        for cp in &lab.parts {
            let part = &lab.lab.parts[cp.index];
            let ev = lab
                .evaluate(cp, &lab.inputs(cp, &Default::default()).unwrap())
                .unwrap();
            let data = lab.charts(&ev).unwrap();
            let decls: Vec<_> = part
                .instruments
                .iter()
                .filter_map(|i| match i {
                    Instrument::Chart(c) => Some(c),
                    _ => None,
                })
                .collect();
            for (decl, d) in decls.iter().zip(&data) {
                let name = format!("{stem}-charts/{}-{}.svg", part.id.value, d.id);
                let svg = text(&files, &name);
                let doc = roxmltree::Document::parse(&svg)
                    .unwrap_or_else(|e| panic!("{name} is not XML: {e}"));
                let root = doc.root_element();
                assert_eq!(root.tag_name().name(), "svg", "{name}");
                assert_eq!(
                    root.tag_name().namespace(),
                    Some("http://www.w3.org/2000/svg")
                );
                let texts: Vec<String> = root
                    .descendants()
                    .filter(|n| n.has_tag_name("text"))
                    .map(|n| n.text().unwrap_or("").to_string())
                    .collect();
                for label in d
                    .x_label
                    .iter()
                    .chain(d.y_label.iter())
                    .chain(d.title.iter())
                {
                    assert!(texts.contains(label), "{name}: no `{label}` in {texts:?}");
                }
                for axis in &d.axes {
                    assert!(texts.contains(axis), "{name}: radar axis `{axis}`");
                }
                if d.legend != labforge::model::LegendPos::None {
                    for s in d.series.iter().filter(|s| !s.name.is_empty()) {
                        assert!(texts.contains(&s.name), "{name}: legend `{}`", s.name);
                    }
                }
                // One drawn marker per declared marker (a `mk` shape whose tooltip names it;
                // legend symbols have no tooltip), in declaration order.
                let markers: Vec<String> = root
                    .descendants()
                    .filter(|n| {
                        n.attribute("class")
                            .is_some_and(|c| c.split(' ').any(|c| c == "mk"))
                    })
                    .filter_map(|n| n.children().find(|c| c.has_tag_name("title")))
                    .filter_map(|t| t.text())
                    .filter_map(|t| t.split_once(": (").map(|(name, _)| name.to_string()))
                    .collect();
                let declared: Vec<String> = decl
                    .markers
                    .iter()
                    .map(|m| {
                        lab.render_text(Some(cp), Some(&ev), &m.name.value, &[])
                            .unwrap()
                    })
                    .collect();
                assert_eq!(markers, declared, "{name}");
                if d.legend != labforge::model::LegendPos::None {
                    for m in &declared {
                        assert!(texts.contains(m), "{name}: marker `{m}` not in the legend");
                    }
                }
                for l in d.hlines.iter().chain(&d.vlines) {
                    if let Some(t) = &l.label {
                        assert!(texts.contains(t), "{name}: reference line `{t}`");
                    }
                }
                // The same chart draws to the same bytes.
                let uid = format!("{}-{}", part.id.value, d.id);
                assert_eq!(svg, labforge::render::markdown::chart_svg(d, &uid));
            }
        }
    }
}

#[test]
fn log_axes_get_decade_ticks() {
    let lab = load(FIXTURE);
    let files = render(&MarkdownRenderer, &lab, "md_checkpoint", false);
    let svg = text(&files, "md_checkpoint-charts/a-ucurve.svg");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // Tick labels, y axis first (linear, with its `%` suffix), then the log x axis.
    let ticks: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some("fi-muted"))
        .filter_map(|n| n.text())
        .collect();
    assert!(ticks.ends_with(&["1", "10", "100", "1000"]), "{ticks:?}");
    assert!(ticks.starts_with(&["0%", "20%"]), "{ticks:?}");
}

#[test]
fn print_html_inlines_the_charts_and_keeps_blocks_together_with_css() {
    for (stem, lab) in labs() {
        let html = text(
            &render(&HandoutHtmlRenderer, &lab, &stem, false),
            &format!("{stem}.html"),
        );
        let charts: usize = lab
            .lab
            .parts
            .iter()
            .map(|p| {
                p.instruments
                    .iter()
                    .filter(|i| matches!(i, Instrument::Chart(_)))
                    .count()
            })
            .sum();
        assert_eq!(html.matches("<svg xmlns=").count(), charts, "{stem}");
        assert!(!html.contains("<img"), "{stem}: charts must be inline");
        assert!(html.contains("@media print") && html.contains("break-inside: avoid"));
        assert_eq!(
            html.matches("<section class=\"part\"").count(),
            lab.lab.parts.len(),
            "{stem}"
        );
        assert!(!html.contains("page-break-after: always; break-after: page;\"></div>"));
        for bad in ["{{", "{%", "undefined"] {
            assert!(!html.contains(bad), "{stem}: `{bad}`");
        }
    }
}

#[test]
fn rendering_is_deterministic() {
    for (stem, lab) in labs() {
        for key in [false, true] {
            assert_eq!(
                render(&MarkdownRenderer, &lab, &stem, key),
                render(&MarkdownRenderer, &lab, &stem, key)
            );
            assert_eq!(
                render(&HandoutHtmlRenderer, &lab, &stem, key),
                render(&HandoutHtmlRenderer, &lab, &stem, key)
            );
        }
    }
}

#[test]
fn an_override_can_restyle_one_block_of_the_key() {
    let lab = load(FIXTURE);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("key.md.j2"),
        "{% extends \"handout.md.j2\" %}{% block name_line %}\n## Custom: {{ parts | length }} parts\n{% endblock %}",
    )
    .unwrap();
    let opts = RenderOptions {
        answer_key: true,
        templates: Some(labforge::safe_fs::template_overrides(
            dir.path().to_path_buf(),
        )),
        ..RenderOptions::default()
    };
    let files = MarkdownRenderer
        .render(&lab, "md_checkpoint", &opts)
        .unwrap();
    let key = text(&files, "md_checkpoint-key.md");
    // The embedded handout around it, the overridden block under the title.
    assert!(key.starts_with("# Checkpoint | Restart\n"), "{key}");
    assert!(key.contains("\n## Custom: 2 parts\n"), "{key}");
    assert!(!key.contains("**Name:**"));
}

#[test]
fn a_misspelt_field_in_an_override_is_an_error_naming_the_template() {
    let lab = load(FIXTURE);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("handout.md.j2"),
        "# {{ header.title }}\n\n{{ header.titel }}\n",
    )
    .unwrap();
    let opts = RenderOptions {
        answer_key: false,
        templates: Some(labforge::safe_fs::template_overrides(
            dir.path().to_path_buf(),
        )),
        ..RenderOptions::default()
    };
    let err = MarkdownRenderer
        .render(&lab, "md_checkpoint", &opts)
        .unwrap_err();
    // Located in the instructor's template, at the line with the unknown name.
    let file = dir.path().join("handout.md.j2").display().to_string();
    assert_eq!((err.file.as_str(), err.line), (file.as_str(), 3), "{err}");
    assert!(err.message.contains("undefined"), "{err}");
}

/// A part is named the same on paper as on the page and in the terminal: `Part A` for id `a`,
/// `Part queue` for id `queue` (not a letter by position that no other view shows).
#[test]
fn handout_names_parts_as_the_page_and_terminal_do() {
    let text = std::fs::read_to_string(root().join("tests/inputs/run_fixture.yaml"))
        .unwrap()
        .replace("  - id: a\n", "  - id: queue\n")
        .replace("  - id: b\n", "  - id: batch\n")
        .replace("[a.reflection]", "[queue.reflection]")
        .replace("parts: [a, b]", "parts: [queue, batch]")
        .replace("part: a\n", "part: queue\n")
        .replace("part: b\n", "part: batch\n");
    let dir = std::env::temp_dir().join(format!("labforge-md-ids-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("ids.yaml");
    std::fs::write(&f, text).unwrap();
    let lab = match labforge::lab::load_lab(&f) {
        Ok(l) => l,
        Err((_, d)) => panic!("{d:?}"),
    };
    let doc = view::build(&lab, "ids", true, &|_, _| String::new()).unwrap();
    let context = serde_json::to_value(&doc.context).unwrap();
    let letters: Vec<&str> = context["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["letter"].as_str().unwrap())
        .collect();
    assert_eq!(letters, ["queue", "batch"]);
    let md = String::from_utf8(
        render(&MarkdownRenderer, &lab, "ids", false)[0]
            .bytes
            .clone(),
    )
    .unwrap();
    assert!(md.contains("## Part queue — The Queuing Wall"), "{md}");
}

/// A chart's link works whatever the lab file is called: the Markdown image destination is
/// percent-encoded (`#`, spaces, brackets, non-ASCII), and parses back to the SVG file's path.
#[test]
fn chart_links_survive_any_file_name() {
    let lab = load(FIXTURE);
    let stem = "lab #2 (draft) ü<x>";
    let files = render(&MarkdownRenderer, &lab, stem, false);
    let md = String::from_utf8(files[0].bytes.clone()).unwrap();
    let svgs: Vec<String> = files[1..]
        .iter()
        .map(|f| f.path.to_string_lossy().into_owned())
        .collect();
    assert!(!svgs.is_empty());
    let mut seen = Vec::new();
    for ev in Parser::new_ext(&md, Options::all()) {
        if let Event::Start(Tag::Image { dest_url, .. }) = ev {
            seen.push(dest_url.to_string());
        }
    }
    assert_eq!(seen.len(), svgs.len(), "{md}");
    for (url, file) in seen.iter().zip(&svgs) {
        assert!(!url.contains(' ') && !url.contains('#'), "{url}");
        // Decoding the URL gives the file written.
        let mut bytes = Vec::new();
        let b = url.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                bytes.push(u8::from_str_radix(&url[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                bytes.push(b[i]);
                i += 1;
            }
        }
        assert_eq!(&String::from_utf8(bytes).unwrap(), file);
    }
}

/// A numeric prediction has no options: its key shows the expected number, not an empty
/// `Answer:` line or an empty option list.
#[test]
fn numeric_predictions_have_no_empty_answer_or_option_list() {
    let lab = load("tests/inputs/run_fixture.yaml");
    let md =
        String::from_utf8(render(&MarkdownRenderer, &lab, "f", true)[0].bytes.clone()).unwrap();
    assert!(md.contains("**Expected answer:** 25.0 h"), "{md}");
    for line in md.lines() {
        assert_ne!(line.trim_end(), "**Answer:**", "{md}");
    }
    for key in [false, true] {
        let html = String::from_utf8(
            render(&HandoutHtmlRenderer, &lab, "f", key)[0]
                .bytes
                .clone(),
        )
        .unwrap();
        assert!(!html.contains("<ul class=\"options\">\n</ul>"), "{html}");
    }
}

#[test]
fn self_assessment_answers_reach_only_the_keys() {
    // The fixture mixes both forms: a plain question and `{ question, answer }`.
    let lab = load(FIXTURE);
    let items = &lab.lab.synthesis.as_ref().unwrap().self_assessment;
    assert!(items[0].answer.is_none() && items[1].answer.is_some());
    let answer = "the cluster checkpoints more than it computes";
    let page = render(
        &labforge::render::html::HtmlRenderer,
        &lab,
        "md_checkpoint",
        false,
    );
    let (handout, _) = md(&lab, "md_checkpoint", false);
    let (key, _) = md(&lab, "md_checkpoint", true);
    assert!(!String::from_utf8_lossy(&page[0].bytes).contains(answer));
    assert!(!handout.contains(answer) && key.contains(answer));
    // The handout leaves room to write under every item; the key answers each one.
    assert_eq!(
        handout.matches("   ```text\n\n\n\n   ```").count(),
        2,
        "{handout}"
    );
    assert_eq!(key.matches("   **Answer:** ").count(), 2, "{key}");
    let html = text(
        &render(&HandoutHtmlRenderer, &lab, "md_checkpoint", false),
        "md_checkpoint.html",
    );
    assert_eq!(html.matches("<div class=\"write-lines\">").count(), 2);
}
