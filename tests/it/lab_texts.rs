//! The texts of the two labs written for labforge, as a student reads them: an em dash where the
//! ported text had ` -- `, and a pipeline bubble over 100% never called a share "of the step".

use crate::common;
use std::path::Path;
use std::process::Command;

const LABS: [&str; 2] = [
    "labs/compute-infrastructure.yaml",
    "labs/distributed-training.yaml",
];

fn labforge(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn handouts_and_keys_use_an_em_dash_not_a_double_hyphen() {
    let dir = tempfile::tempdir().unwrap();
    for lab in LABS {
        for key in [false, true] {
            let out = dir.path().join(if key { "key" } else { "student" });
            let o = out.to_str().unwrap();
            let mut args = vec!["render", lab, "--to", "markdown", "-o", o];
            if key {
                args.push("--answer-key");
            }
            labforge(&args);
            let stem = Path::new(lab).file_stem().unwrap().to_str().unwrap();
            let md = common::files_under(&out)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .find(|p| p.file_name().unwrap().to_str().unwrap().starts_with(stem))
                .map(|p| std::fs::read_to_string(p).unwrap())
                .unwrap();
            for line in md.lines() {
                assert!(!line.contains(" -- "), "{lab} (key: {key}): {line}");
            }
        }
    }
}

#[test]
fn a_bubble_over_100_percent_is_a_share_of_the_ideal_step_time() {
    let text = labforge(&[
        "eval",
        "labs/distributed-training.yaml",
        "--part",
        "c",
        "--set",
        "pp=32",
        "--set",
        "microbatches=1",
    ]);
    assert!(text.contains("3,100"), "{text}");
    for line in text.lines().filter(|l| l.contains("3,100")) {
        assert!(line.contains("ideal step time"), "{line}");
        assert!(!line.contains("3,100% of the step"), "{line}");
    }
}
