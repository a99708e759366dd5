//! Optional pieces of the page's scripts: code between a line `/*@if NAME*/` and a line
//! `/*@end NAME*/` stays in the page only when the lab uses the feature `NAME`, so a page
//! carries no code for features its lab does not use (the page budget). Unmarked, the scripts
//! are complete (the marks are comments): tests load them whole.

use std::collections::BTreeSet;

/// The features a lab's page needs, from its translated expressions (`bodies`) and the
/// features its parts name (`extra`).
pub(super) fn used(bodies: &[String], extra: &[&'static str]) -> BTreeSet<&'static str> {
    let mut on: BTreeSet<&'static str> = extra.iter().copied().collect();
    let any = |needle: &str| bodies.iter().any(|b| b.contains(needle));
    for (name, needle) in [
        ("sci", "_fn(L,\"fmt\",\"nns\")"),
        ("logspace", "_fn(L,\"logspace\""),
        ("log2", "_fn(L,\"log2\""),
        ("answer", "S.answer"),
    ] {
        if any(needle) {
            on.insert(name);
        }
    }
    on
}

/// `src` without the blocks of features not in `on`.
pub(super) fn strip(src: &str, on: &BTreeSet<&'static str>) -> String {
    let mut out = String::with_capacity(src.len());
    let mut skipping: Option<String> = None;
    for line in src.split_inclusive('\n') {
        let t = line.trim();
        if let Some(name) = &skipping {
            if t == format!("/*@end {name}*/") {
                skipping = None;
            }
            continue;
        }
        if let Some(name) = t.strip_prefix("/*@if ").and_then(|r| r.strip_suffix("*/")) {
            if !on.contains(name) {
                skipping = Some(name.to_string());
            }
            continue;
        }
        if t.starts_with("/*@end ") {
            continue;
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_unused_features_are_dropped() {
        let src = "a\n/*@if x*/\nb\n/*@end x*/\n/*@if y*/\nc\n/*@end y*/\nd\n";
        let on: BTreeSet<&'static str> = ["y"].into_iter().collect();
        assert_eq!(strip(src, &on), "a\nc\nd\n");
        assert_eq!(strip(src, &BTreeSet::new()), "a\nd\n");
    }

    #[test]
    fn features_are_found_in_the_translated_calls() {
        let bodies = vec!["return _fn(L,\"fmt\",\"nns\")(x,2,\"sci\")".to_string()];
        let on = used(&bodies, &["radio"]);
        assert!(on.contains("sci") && on.contains("radio") && !on.contains("log2"));
    }
}
