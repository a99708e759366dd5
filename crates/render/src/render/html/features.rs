//! Optional pieces of the page's scripts and style: code between `/*[NAME*/` and `/*NAME]*/`
//! (anywhere, also inside a line) stays in the page only when the lab uses the feature `NAME`,
//! so a page carries no code for features its lab does not use (the page budget). Unmarked,
//! the scripts are complete (the marks are comments): tests load them whole. Features: chart
//! pieces (`band`, `stack`, `radar`, `log`, `logsweep`, `legend`, `shape`, from
//! `chart::features_used`), controls and predictions (`radio`, `bands` of numeric predictions,
//! `answer`, `xpart`: an earlier part's locked prediction read as `prediction.a`, or a
//! placeholder that says a prediction is not answered yet), badges
//! (`badge-danger`, `badge-success`) and library functions (`sci`, `logspace`, `log2`, `model`; `rand`, `stats` and `sim`, whose charges
//! are in rhai.js).

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
        ("model", "_fn(L,\"model\""),
        ("rand", "_fn(L,\"rand::"),
        ("stats", "_fn(L,\"stats::"),
        ("sim", "_fn(L,\"sim::"),
        ("answer", "S.answer"),
    ] {
        if any(needle) {
            on.insert(name);
        }
    }
    on
}

/// `src` without the blocks of features not in `on` (an unclosed mark is left as it is).
pub(super) fn strip(src: &str, on: &BTreeSet<&'static str>) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(at) = rest.find("/*[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let Some(name_end) = after.find("*/") else {
            out.push_str(&rest[at..]);
            return out;
        };
        let name = &after[..name_end];
        let close = format!("/*{name}]*/");
        let body = &after[name_end + 2..];
        let Some(end) = body.find(&close) else {
            out.push_str(&rest[at..]);
            return out;
        };
        if on.contains(name) {
            out.push_str(&body[..end]);
        }
        rest = &body[end + close.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_unused_features_are_dropped() {
        let src = "a/*[band*/B/*band]*/c/*[stack*/S/*stack]*/d";
        let set = |xs: &[&'static str]| xs.iter().copied().collect::<BTreeSet<_>>();
        assert_eq!(strip(src, &set(&[])), "acd");
        assert_eq!(strip(src, &set(&["band"])), "aBcd");
        assert_eq!(strip(src, &set(&["band", "stack"])), "aBcSd");
        assert_eq!(strip("x/*[open*/y", &set(&[])), "x/*[open*/y");
        let lines = "a\n/*[x*/\nb\n/*x]*/\nd\n";
        assert_eq!(strip(lines, &set(&[])), "a\n\nd\n");
    }

    #[test]
    fn features_are_found_in_the_translated_calls() {
        let bodies = vec!["return _fn(L,\"fmt\",\"nns\")(x,2,\"sci\")".to_string()];
        let on = used(&bodies, &["radio"]);
        assert!(on.contains("sci") && on.contains("radio") && !on.contains("log2"));
        assert!(!on.contains("model"));
        let on = used(
            &["_prop(_fn(L,\"model\",\"s\")(S.m),\"params\")".to_string()],
            &[],
        );
        assert!(on.contains("model") && !on.contains("sci"));
    }
}
