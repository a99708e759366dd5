//! The model table (`model(id)`, crates/engine/src/library/models.yaml) as authors meet it: in a lab's formulas
//! and prose, in the page (only the models a lab names, none when it names none), in a course
//! module's `models:` (found first, mistakes located in the module file), and the ids the shipped
//! course's tracks name. Rust-vs-JS parity of `model` itself is tests/it/library_js.rs.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-models-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The page's embedded data (`<script id="lf-data">`).
fn page_data(page: &Path) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let start = html.find("id=\"lf-data\"").expect("lf-data");
    let open = start + html[start..].find('>').unwrap() + 1;
    let end = open + html[open..].find("</script>").unwrap();
    serde_json::from_str(&html[open..end]).expect("lf-data is JSON")
}

fn render(lab: &Path, out: &Path) -> PathBuf {
    let (ok, _, err) = run(
        &root(),
        &[
            "render",
            lab.to_str().unwrap(),
            "--to",
            "html",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    out.join(lab.file_name().unwrap()).with_extension("html")
}

#[test]
fn a_lab_reads_models_in_formulas_and_prose_and_its_tests_pass() {
    let lab = root().join("tests/inputs/ok_models.yaml");
    let (ok, out, err) = run(&root(), &["test", lab.to_str().unwrap()]);
    assert!(ok && out.contains("3 passed, 0 failed"), "{out}{err}");
    let (ok, _, err) = run(&root(), &["check", lab.to_str().unwrap()]);
    assert!(ok && err.contains("0 error(s), 0 warning(s)"), "{err}");
    let (ok, out, err) = run(
        &root(),
        &[
            "eval",
            lab.to_str().unwrap(),
            "--part",
            "a",
            "--set",
            "which=gpt-3",
            "--format",
            "json",
        ],
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // GPT-3 at FP16: 175e9 × 2 B = 350 GB, in 96 layers.
    assert_eq!(v["weights_gb"].as_f64(), Some(350.0), "{out}");
    assert_eq!(v["layers"].as_f64(), Some(96.0), "{out}");
}

#[test]
fn an_unknown_model_is_an_error_listing_the_known_ids() {
    let dir = tmp("unknown");
    let lab = std::fs::read_to_string(root().join("tests/inputs/ok_models.yaml"))
        .unwrap()
        .replace("model(\"resnet-50\")", "model(\"resnet50\")");
    std::fs::write(dir.join("lab.yaml"), lab).unwrap();
    let (ok, out, err) = run(&dir, &["test", "lab.yaml"]);
    assert!(!ok);
    let text = format!("{out}{err}");
    assert!(
        text.contains("model: unknown model id 'resnet50'; known ids: mobilenet-v2, ds-cnn"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_page_carries_only_the_models_its_formulas_name() {
    let out = tmp("page");
    // A computed id (a control chooses it): the whole table, names and numbers only.
    let data = page_data(&render(&root().join("tests/inputs/ok_models.yaml"), &out));
    let models = data["models"].as_object().expect("models embedded");
    let want: Vec<&str> = labforge::library::models()
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(models.keys().map(String::as_str).collect::<Vec<_>>(), want);
    assert_eq!(models["gpt-3"]["params"].as_f64(), Some(175e9));
    assert!(
        models["gpt-3"].get("source").is_none(),
        "sources stay in the docs"
    );

    // Literal ids only: just those models.
    let dir = tmp("literal");
    let lab = std::fs::read_to_string(root().join("tests/inputs/ok_models.yaml"))
        .unwrap()
        .replace("model(which)", "model(\"bert-base\")");
    std::fs::write(dir.join("literal.yaml"), &lab).unwrap();
    let data = page_data(&render(&dir.join("literal.yaml"), &out));
    let ids: Vec<&String> = data["models"].as_object().unwrap().keys().collect();
    // In table order.
    assert_eq!(ids, ["yolov8-nano", "bert-base", "resnet-50"]);

    // No model named: no model table at all, and no code for `model` (the page budget): the
    // minified library object has no `model:` key.
    let demo = render(&root().join("tests/inputs/html_demo.yaml"), &out);
    let data = page_data(&demo);
    assert!(data.get("models").is_none(), "{:?}", data.get("models"));
    let code = |page: &Path| {
        crate::common::unpacked(&std::fs::read_to_string(page).unwrap()).contains(",model:")
    };
    assert!(!code(&demo), "a page that calls no model carries its code");
    assert!(
        code(&out.join("literal.html")),
        "a page that calls model carries its code"
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_course_tracks_name_models_of_the_table() {
    let course = std::fs::read_to_string(root().join("labs/course.yaml")).unwrap();
    let named: Vec<&str> = course
        .lines()
        .filter_map(|l| l.trim().strip_prefix("model: "))
        .map(str::trim)
        .collect();
    assert!(named.len() >= 4, "{named:?}");
    for id in named {
        assert!(
            labforge::library::models().iter().any(|m| m.id == id),
            "track model `{id}` is not in crates/engine/src/library/models.yaml"
        );
    }
}

const MODULE: &str = r#"namespace: zoo
title: The course's models
models:
  - id: kws-course
    name: The course's keyword spotter
    kind: cnn
    fields: { params: 24000, flops: 5.6e6 }
    source: "the keyword spotter trained in this course (its own count)"
    as_of: "2025-01"
  - id: bert-base
    name: BERT-Base as this course prunes it
    kind: encoder
    fields: { params: 66e6, layers: 6 }
    source: "the course's pruned BERT"
    as_of: "2025-01"
"#;

const LAB: &str = r#"id: zoo-lab
title: Course models
core_question: How large is the course's keyword spotter?
parts:
  - id: a
    title: Sizes
    controls:
      - slider: { id: k, label: Copies, min: 1, max: 4, step: 1, default: 1 }
    formulas:
      kws_params: model("kws-course").params * k
      bert_layers: model("bert-base").layers
      gpt_layers: model("gpt-3").layers
    outputs:
      kws_params: { label: KWS, digits: 0 }
      bert_layers: { label: BERT layers, digits: 0 }
      gpt_layers: { label: GPT-3 layers, digits: 0 }
    instruments:
      - metrics: [ { output: kws_params }, { output: bert_layers }, { output: gpt_layers } ]
tests:
  - part: a
    expect: { kws_params: 24000, bert_layers: 6, gpt_layers: 96 }
"#;

fn course(name: &str, module: &str) -> PathBuf {
    let dir = tmp(name);
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::create_dir_all(dir.join("labs")).unwrap();
    std::fs::write(
        dir.join("course.yaml"),
        "title: Zoo\nlabs:\n  - labs/zoo.yaml\n",
    )
    .unwrap();
    std::fs::write(dir.join("labs/zoo.yaml"), LAB).unwrap();
    std::fs::write(dir.join("lib/zoo.yaml"), module).unwrap();
    dir
}

#[test]
fn a_course_module_adds_models_found_before_the_built_in_ones() {
    let dir = course("module", MODULE);
    let (ok, out, err) = run(&dir, &["test", "labs/zoo.yaml"]);
    assert!(ok && out.contains("1 passed, 0 failed"), "{out}{err}");
    // The page carries the module's models (the named ones) and the built-in GPT-3.
    let (ok, _, err) = run(
        &dir,
        &["render", "labs/zoo.yaml", "--to", "html", "-o", "out"],
    );
    assert!(ok, "{err}");
    let data = page_data(&dir.join("out/zoo.html"));
    let ids: Vec<&String> = data["models"].as_object().unwrap().keys().collect();
    assert_eq!(ids, ["kws-course", "bert-base", "gpt-3"]);
    assert_eq!(data["models"]["bert-base"]["layers"].as_f64(), Some(6.0));
    // `labforge lib` inside the course lists them after the built-ins.
    let (ok, all, _) = run(&dir, &["lib"]);
    assert!(ok);
    let builtin = all
        .find("### `bert-base`: BERT-Base (")
        .expect("built-in listed");
    let module = all
        .find("### `kws-course`: The course's keyword spotter (cnn)")
        .expect("module model listed");
    assert!(builtin < module, "modules come after the built-ins");
    let (ok, one, _) = run(&dir, &["lib", "kws-course"]);
    assert!(ok && one.contains("| `params` | 24000 |"), "{one}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_in_a_module_model_are_located_with_a_hint() {
    for (i, (bad, want, hint)) in [
        (
            MODULE.replace("params: 24000", "param: 24000"),
            "lib/zoo.yaml:7:15: error: model `kws-course`: `param` is not a field a model has",
            "did you mean `params`?",
        ),
        (
            MODULE.replace("kind: cnn", "kind: rnn"),
            "lib/zoo.yaml:6:5: error: model `kws-course`: unknown kind `rnn`",
            "the kinds are cnn, encoder, decoder",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = course(&format!("bad{i}"), &bad);
        let (ok, _, err) = run(&dir, &["check", "labs/zoo.yaml"]);
        assert!(!ok, "{err}");
        assert!(err.contains(want), "{err}");
        assert!(err.contains(hint), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
