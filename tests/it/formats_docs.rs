//! docs/formats.md says true things: its list of template fields is exactly the fields that
//! evaluate `{{ }}` (found by probing every text field of a lab that uses every feature), its
//! answers file runs a seed lab, and its record example has the shape a real run writes.

use crate::common;

use common::json_strings as strings;
use common::root;
use labforge::eval::load_source;
use labforge::load::Source;
use serde_json::Value as J;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const DOC: &str = include_str!("../../docs/formats.md");

/// The body of the fenced block whose info string is `info`.
fn block(info: &str) -> String {
    let fence = format!("```{info}\n");
    let start = DOC
        .find(&fence)
        .unwrap_or_else(|| panic!("no ```{info} block in docs/formats.md"))
        + fence.len();
    let len = DOC[start..].find("```").unwrap();
    DOC[start..start + len].to_string()
}

/// A JSON pointer as the docs write a field: `parts[].prediction.options[].feedback`; keys that
/// are the lab's own names (an output's id, a badge's position) become `*`.
fn generic(pointer: &str, base: &J) -> String {
    let mut out = String::new();
    let mut v = base;
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        match v {
            J::Array(a) => {
                out.push_str("[]");
                v = &a[seg.parse::<usize>().unwrap()];
            }
            J::Object(m) => {
                let named = matches!(
                    out.rsplit('.').next(),
                    Some("outputs" | "constants" | "formulas" | "options" | "design")
                ) && !out.ends_with("[]");
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(if named { "*" } else { &seg });
                v = &m[&seg];
            }
            _ => unreachable!(),
        }
    }
    out
}

/// The fields of `lab` (a lab file) that are templates: a placeholder naming nothing there is
/// an error of `check` (in any other text it is just text).
fn template_fields(lab: &Path) -> BTreeSet<String> {
    let source = Source::read(lab).unwrap();
    let base = serde_json::to_value(labforge::load::parse(&source).unwrap()).unwrap();
    let mut all = Vec::new();
    strings(&base, String::new(), &mut all);
    let is_template = |f: &String| {
        let mut v = base.clone();
        *v.pointer_mut(f).unwrap() = J::String("{{ qz_nothing }}".into());
        let text = serde_json::to_string_pretty(&v).unwrap();
        match load_source(Source::new("probe.yaml", &text)) {
            Ok(_) => false,
            Err((_, diags)) => diags
                .iter()
                .any(|d| d.message.contains("placeholder: unknown name `qz_nothing`")),
        }
    };
    // Two threads: the machine's cores.
    let (one, two) = all.split_at(all.len() / 2);
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            one.iter()
                .filter(|f| is_template(f))
                .cloned()
                .collect::<Vec<_>>()
        });
        let mut found: Vec<String> = two.iter().filter(|f| is_template(f)).cloned().collect();
        found.extend(h.join().unwrap());
        found.iter().map(|f| generic(f, &base)).collect()
    })
}

#[test]
fn the_documented_template_fields_are_the_ones_that_evaluate_placeholders() {
    let documented: BTreeSet<String> = block("text templates")
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let mut probed = BTreeSet::new();
    for lab in [
        "tests/inputs/html_demo.yaml",
        "tests/inputs/md_checkpoint.yaml",
        "tests/inputs/ok_questions.yaml",
    ] {
        probed.extend(template_fields(&root().join(lab)));
    }
    let missing: Vec<_> = probed.difference(&documented).collect();
    let wrong: Vec<_> = documented.difference(&probed).collect();
    assert!(
        missing.is_empty() && wrong.is_empty(),
        "template fields not in docs/formats.md: {missing:#?}\ndocumented but not templates: {wrong:#?}"
    );
}

fn run_with_answers(answers: &str, dir: &Path) -> J {
    let a = dir.join("answers.yaml");
    std::fs::write(&a, answers).unwrap();
    let ledger = dir.join("record.json");
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .arg("run")
        .arg(root().join("labs/fault-tolerance.yaml"))
        .arg("--answers")
        .arg(&a)
        .arg("--ledger")
        .arg(&ledger)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(&ledger).unwrap()).unwrap()
}

#[test]
fn the_documented_answers_file_runs_and_the_record_has_the_documented_shape() {
    let d = tempfile::tempdir().unwrap();
    let record = run_with_answers(&block("yaml answers"), d.path());
    assert_eq!(record["parts"]["a"]["prediction"], "C");
    assert_eq!(record["parts"]["a"]["controls"]["interval_s"], 1800);
    assert_eq!(record["complete"], true);
    assert!(record["decision_log"]
        .as_str()
        .unwrap()
        .starts_with("I would checkpoint"));

    // The documented record has the real one's shape: the same keys at every level, a part's
    // id (and its `partA_` key) standing for any part's, a control's for any control's; `prediction_attempts` is there only
    // when the student looked at other options after locking in.
    let doc: J = serde_json::from_str(&block("json record")).unwrap();
    fn keys(v: &J, at: &str, out: &mut BTreeSet<String>) {
        if let J::Object(m) = v {
            for (k, x) in m {
                let any = at == "/parts" || at == "/hud/parts" || at.ends_with("/controls");
                let k = if any {
                    "*"
                } else if at == "/design" && k.starts_with("part") && k.contains('_') {
                    &format!("partX_{}", k.split_once('_').unwrap().1)
                } else {
                    k
                };
                let p = format!("{at}/{k}");
                out.insert(p.clone());
                keys(x, &p, out);
            }
        }
    }
    let (mut documented, mut real) = (BTreeSet::new(), BTreeSet::new());
    keys(&doc, "", &mut documented);
    keys(&record, "", &mut real);
    let optional = BTreeSet::from(["/parts/*/prediction_attempts".to_string()]);
    let extra: BTreeSet<_> = documented.difference(&real).cloned().collect();
    assert!(
        real.is_subset(&documented) && extra.is_subset(&optional),
        "documented record vs a real one: missing {:?}, extra {:?}",
        real.difference(&documented).collect::<Vec<_>>(),
        extra
    );
}
