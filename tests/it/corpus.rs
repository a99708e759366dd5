//! The lab corpus under tests/inputs: every `err_*` lab must produce located diagnostics with a
//! hint (snapshotted exactly), every `ok_*` lab must check clean and pass its own tests, and
//! nothing may panic.

use labforge::lab::diagnose;
use std::path::Path;

fn rendered(path: &Path) -> (String, usize, bool) {
    let rel = Path::new("tests/inputs").join(path.file_name().unwrap());
    let (src, diags, _) = diagnose(&rel);
    let text: String = diags
        .iter()
        .map(|d| d.render(src.as_ref().map(|s| s.text.as_str())))
        .collect();
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let first_has_hint = diags
        .first()
        .is_some_and(|d| d.hint.is_some() && d.line > 0);
    (text, errors, first_has_hint)
}

#[test]
fn error_cases_are_located_with_hints() {
    insta::glob!("../inputs", "err_*.yaml", |path| {
        let (text, _errors, hinted) = rendered(path);
        assert!(
            !text.is_empty(),
            "{} produced no diagnostic",
            path.display()
        );
        assert!(
            hinted,
            "{}: the first diagnostic needs a position and a hint:\n{text}",
            path.display()
        );
        insta::assert_snapshot!(text);
    });
}

#[test]
fn corpus_has_the_typical_mistakes() {
    let n = std::fs::read_dir("tests/inputs")
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("err_")
        })
        .count();
    assert!(n >= 25, "only {n} error cases");
}

#[test]
fn ok_cases_check_clean_and_pass_their_tests() {
    insta::glob!("../inputs", "ok_*.yaml", |path| {
        let (text, errors, _) = rendered(path);
        assert_eq!(errors, 0, "{}:\n{text}", path.display());
        let Ok(lab) = labforge::lab::load_lab(path) else {
            panic!("{} does not compile", path.display())
        };
        let outcomes = lab.run_tests();
        assert!(!outcomes.is_empty());
        for o in outcomes {
            assert!(o.passed(), "{}: {:?}", o.name, o.failures);
        }
    });
}

/// Labs that state their answers only after the questions (in options, feedback and the explore
/// section, with defaults other than the scenarios, since the handout prints the instruments at the
/// defaults) check without a single warning: the four labs, and the give-away lint's ok case.
/// And words a lab proves (issue 25): a badge stating the lab's own `duration:`, a banner quoting
/// the option it follows, a contrast clearly apart from its sentence's value, a correct option
/// and its feedback stating one number, worked examples whose answers use their questions'
/// inputs, a text output's words as ordinary words, in a rule, a list or beside its value.
#[test]
fn answers_after_the_question_check_without_warnings() {
    for p in [
        "tests/inputs/ok_giveaway_in_feedback.yaml",
        "tests/inputs/ok_giveaway_precision.yaml",
        "tests/inputs/ok_words_declared.yaml",
        "tests/inputs/ok_text_output_word.yaml",
        "labs/fault-tolerance.yaml",
        "labs/fleet-orchestration.yaml",
        "labs/compute-infrastructure.yaml",
        "labs/distributed-training.yaml",
    ] {
        let (src, diags, _) = diagnose(Path::new(p));
        let text: String = diags
            .iter()
            .map(|d| d.render(src.as_ref().map(|s| s.text.as_str())))
            .collect();
        assert!(diags.is_empty(), "{p}:\n{text}");
    }
}

/// The typed-number hint and the give-away warning agree (issue 25 item 3): where a number
/// gives away a prediction's answer before the question, no diagnostic at that place tells the
/// author to interpolate it (a placeholder would print the answer as surely).
#[test]
fn a_give_away_is_never_suggested_as_a_placeholder() {
    let mut found = Vec::new();
    for e in std::fs::read_dir("tests/inputs").unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "yaml") {
            continue;
        }
        let (_, diags, _) = diagnose(&path);
        let carets: Vec<(u32, u32)> = diags
            .iter()
            .filter(|d| {
                d.message.contains("gives away") && d.message.contains("before it is asked")
            })
            .map(|d| (d.line, d.col))
            .collect();
        for d in &diags {
            let hint = d.hint.as_deref().unwrap_or_default();
            if carets.contains(&(d.line, d.col)) && hint.contains("{{ fmt(") {
                found.push(format!("{}:{}:{}: {hint}", path.display(), d.line, d.col));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// No parser or serde term reaches an author (issue 25): every `err_*` case's diagnostics are
/// free of Rust type names and YAML parser vocabulary.
#[test]
fn no_parser_jargon_reaches_an_author() {
    let jargon = [
        "untagged enum",
        "scalar",
        "sequence start",
        "mapping start",
        "invalid u32",
        "invalid type:",
        "unknown variant",
        "struct ",
        "mapping values",
        "did not find expected",
        // serde's words for a key (issue 25): the author's are "`titel` is not a key ...".
        "unknown field",
        "missing field",
        "expected one of",
        "did not match any variant",
        "invalid value",
        "invalid length",
        "duplicate mapping key",
        "DuplicateKeyPolicy",
        "tuple",
    ];
    let mut found = Vec::new();
    for e in std::fs::read_dir("tests/inputs").unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.starts_with("err_") && name.ends_with(".yaml")) {
            continue;
        }
        let (_, diags, _) = diagnose(&path);
        for d in diags {
            let text = format!("{} {}", d.message, d.hint.unwrap_or_default());
            for j in jargon.iter().filter(|j| text.contains(*j)) {
                found.push(format!("{name}: `{j}` in {text}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
