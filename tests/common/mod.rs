//! Helpers shared by integration tests (each test file includes this with `mod common;`).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `node` (or `$LABFORGE_NODE`) when it runs; `None` lets a test print SKIPPED (or fail under CI).
pub fn node_binary() -> Option<PathBuf> {
    let candidate = std::env::var_os("LABFORGE_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let ok = Command::new(&candidate)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then_some(candidate)
}

/// The page fixtures plus every shipped lab, in a fixed order.
pub fn html_test_labs() -> Vec<PathBuf> {
    let mut v = vec![
        root().join("tests/inputs/html_demo.yaml"),
        root().join("tests/inputs/html_formulas.yaml"),
    ];
    if let Ok(rd) = std::fs::read_dir(root().join("labs")) {
        let mut real: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        real.sort();
        v.extend(real);
    }
    v
}
