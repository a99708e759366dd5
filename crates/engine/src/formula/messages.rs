//! The words of the errors a lab raises at live values, one table for the CLI, the terminal and
//! the page: Rust fills these templates ([`fill`]) and the page receives the same table
//! ([`table`], the page data's `msg`), which `renderers/html/rhai.js` fills with `msg(key, ...)`.
//! A template's `{0}`, `{1}`, … are its arguments in order.

/// A formula of a part failed: its name, then the error.
pub const FORMULA: &str = "formula";
/// Any other expression (a banner's condition, a placeholder, a chart's series) failed.
pub const EXPRESSION: &str = "expression";
/// An error inside a lab function's body: the function's path, the line in its body, the error.
pub const IN_FUNCTION: &str = "in_function";
/// A `log: true` sweep whose bounds are not both positive and finite.
pub const LOG_SWEEP: &str = "log_sweep";
/// A chart's `when:` that is not a boolean: the value as shown.
pub const WHEN: &str = "when";
/// A histogram's `counts` that is not a non-empty list of numbers: the value as shown.
pub const BINS_LIST: &str = "bins_list";
/// A histogram count that is negative or not a number: the bin (from 1) and the count.
pub const BINS_COUNT: &str = "bins_count";
/// A histogram's `from` not below its `to` (or one not finite): both as shown.
pub const BINS_RANGE: &str = "bins_range";

/// Every template by key.
pub const TEMPLATES: &[(&str, &str)] = &[
    (FORMULA, "formula `{0}` failed: {1}"),
    (EXPRESSION, "expression failed: {0}"),
    (IN_FUNCTION, "in `{0}` (line {1} of its body): {2}"),
    (
        LOG_SWEEP,
        "a `log: true` sweep needs a positive `from` and `to`, not {0} and {1}",
    ),
    (WHEN, "`when` must be true or false, not `{0}`"),
    (
        BINS_LIST,
        "a histogram's `counts` must be a list of numbers, one per bin, not `{0}`",
    ),
    (
        BINS_COUNT,
        "bin {0} of the histogram counts {1}: a count must be a number, 0 or more",
    ),
    (
        BINS_RANGE,
        "a histogram's bins need `from` below `to`, both finite, not {0} and {1}",
    ),
];

/// The template `key` with its arguments put in.
pub fn fill(key: &str, args: &[&dyn std::fmt::Display]) -> String {
    let t = TEMPLATES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, t)| *t)
        .unwrap_or_else(|| panic!("no message template `{key}`"));
    // One pass, as the page's `msg` does: an argument's own text is never filled in.
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match (
            after.chars().next().and_then(|c| c.to_digit(10)),
            after.get(1..2),
        ) {
            (Some(i), Some("}")) => {
                if let Some(a) = args.get(i as usize) {
                    out.push_str(&a.to_string());
                }
                rest = &after[2..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The templates as the page's data carries them (`D.msg`: key → template).
pub fn table() -> serde_json::Value {
    table_for(|_| true)
        .into_iter()
        .map(|(k, t)| (k.to_string(), serde_json::Value::from(t)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The templates whose key `keep` accepts (those a page can raise), `(key, template)` in
/// table order: the page's `D.msg`.
pub fn table_for(keep: impl Fn(&str) -> bool) -> Vec<(&'static str, &'static str)> {
    TEMPLATES.iter().filter(|(k, _)| keep(k)).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_puts_the_arguments_in_order() {
        assert_eq!(
            fill(IN_FUNCTION, &[&"comm::f", &2, &"boom"]),
            "in `comm::f` (line 2 of its body): boom"
        );
        // An argument holding `{1}` is left as it is.
        assert_eq!(
            fill(FORMULA, &[&"f", &"bad {0} {1}"]),
            "formula `f` failed: bad {0} {1}"
        );
        assert_eq!(
            fill(WHEN, &[&"{1}"]),
            "`when` must be true or false, not `{1}`"
        );
        assert_eq!(
            fill(LOG_SWEEP, &[&"0", &"10"]),
            "a `log: true` sweep needs a positive `from` and `to`, not 0 and 10"
        );
    }

    /// The page fills the same table: every key it asks for is one of these.
    #[test]
    fn the_runtime_asks_only_for_known_templates() {
        let rt = [
            include_str!("../../../../renderers/html/rhai.js"),
            include_str!("../../../../renderers/html/runtime.js"),
            include_str!("../../../../renderers/html/chart-model.js"),
        ]
        .concat();
        let mut asked = 0;
        for piece in rt.split("msg(\"").skip(1) {
            let key = &piece[..piece.find('"').expect("a closing quote")];
            assert!(
                TEMPLATES.iter().any(|(k, _)| *k == key),
                "the page asks for `{key}`"
            );
            asked += 1;
        }
        assert!(asked >= TEMPLATES.len(), "the page uses the table");
    }
}
