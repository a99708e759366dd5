//! The YAML parser's and serde's messages said in an author's words: no Rust type (`u32`,
//! `untagged enum`, `struct`), no parser term (`scalar`, `sequence start`), and a hint for each.

/// What a serde type name means to an author.
fn kind(original: &str) -> String {
    let t = original.trim();
    let t = t
        .strip_prefix("a ")
        .or_else(|| t.strip_prefix("an "))
        .unwrap_or(t);
    let t = t.split_once(' ').map_or(t, |(head, rest)| {
        if matches!(head, "string" | "floating" | "integer" | "boolean") {
            head
        } else if head == "struct" || head == "map" {
            "map"
        } else {
            let _ = rest;
            t
        }
    });
    match t {
        "sequence" | "seq" => "a list".into(),
        "map" | "mapping" => "a mapping (`key: value` pairs)".into(),
        "string" | "str" => "text".into(),
        "floating" | "f64" | "f32" => "a number".into(),
        "integer" | "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number".into(),
        "i8" | "i16" | "i32" | "i64" => "a whole number".into(),
        "boolean" | "bool" => "`true` or `false`".into(),
        "unit" | "unit value" | "null" | "option" => "an empty value".into(),
        "char" => "a single character".into(),
        _ => original.trim().to_string(),
    }
}

/// The message in plain words and, when the parser's own gives none, a hint.
pub(super) fn plain(message: &str) -> Option<(String, Option<String>)> {
    plain_static(message)
        .map(|(m, h)| (m, h.map(String::from)))
        .or_else(|| {
            let (found, expected) = message
                .strip_prefix("invalid type: ")
                .or_else(|| message.strip_prefix("invalid value: "))?
                .split_once(", expected ")?;
            Some((
                format!("this is {}, where {} goes", kind(found), kind(expected)),
                Some(format!("write {} here", kind(expected))),
            ))
        })
}

fn plain_static(message: &str) -> Option<(String, Option<&'static str>)> {
    let whole = "write a whole number, without a decimal point or a sign (`digits: 1`)";
    for t in ["u8", "u16", "u32", "u64", "usize", "i32", "i64"] {
        if message == format!("invalid {t}") || message.starts_with(&format!("invalid {t} ")) {
            return Some(("this must be a whole number".into(), Some(whole)));
        }
    }
    if message.contains("mapping values are not allowed") {
        return Some((
            "a `: ` inside unquoted text: YAML reads what comes before it as a key".into(),
            None,
        ));
    }
    if message.contains("did not find expected") {
        return Some((
            "YAML expected this line to continue the one before: a bracket, a quote or the indentation does not match".into(),
            None,
        ));
    }
    if message.contains("found a tab") {
        return Some((
            "a tab character here: YAML indents with spaces only".into(),
            None,
        ));
    }
    if message.starts_with("invalid floating point") {
        return Some(("this must be a number".into(), None));
    }
    if message.starts_with("invalid integer") {
        return Some(("this must be a whole number".into(), None));
    }
    if message.starts_with("invalid boolean") {
        return Some((
            "this must be `true` or `false`".into(),
            Some("write `true` or `false` (YAML also reads `yes`/`no` only when quoted as text)"),
        ));
    }
    if message.starts_with("expected string scalar") {
        return Some((
            "this must be text, but YAML read something else here (a list, a mapping, or a value it treats specially)".into(),
            None,
        ));
    }
    if message.starts_with("expected sequence start") {
        return Some((
            "this must be a list".into(),
            Some("write a list: `[a, b]` on one line, or one `- item` a line below the key (one item is a list too: `[a.reflection]`)"),
        ));
    }
    if message.starts_with("expected mapping start") {
        return Some((
            "this must be a mapping of `key: value` pairs".into(),
            Some("write `{ key: value, ... }` on one line, or indented `key: value` lines below the key"),
        ));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let name = rest.split('`').nth(1)?;
        let allowed: Vec<&str> = rest
            .split_once("expected one of ")
            .or_else(|| rest.split_once("expected "))
            .map(|(_, l)| l.split(", ").map(|x| x.trim_matches('`')).collect())
            .unwrap_or_default();
        if allowed.contains(&"good_below") {
            return Some((format!("`{name}` is not a band name"), None));
        }
        return Some(if allowed.is_empty() {
            (
                format!("`{name}` is not a key: this mapping takes none"),
                None,
            )
        } else {
            (format!("`{name}` is not a key this mapping takes"), None)
        });
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        let name = rest.split('`').nth(1)?;
        return Some((format!("this mapping needs a `{name}:` key"), None));
    }
    if let Some(rest) = message.strip_prefix("duplicate mapping key: ") {
        let name = rest.split_once(", set ").map_or(rest, |(n, _)| n).trim();
        return Some((
            format!("`{name}` is written twice in this mapping"),
            Some("keep one: a key appears once in a mapping (YAML would not say which of the two counts)"),
        ));
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        let (n, expected) = rest.split_once(", expected ")?;
        let want = expected
            .rsplit_once("size ")
            .map(|(_, k)| k.to_string())
            .unwrap_or_else(|| kind(expected));
        return Some((
            format!("this list has {n} item(s), where {want} go"),
            Some("write exactly that many items: `words: [when true, when false]` takes two"),
        ));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let name = rest.split('`').nth(1)?;
        let allowed = rest.split_once("expected one of ").map(|(_, l)| l);
        let allowed = allowed.or_else(|| rest.split_once("expected ").map(|(_, l)| l))?;
        return Some((
            format!(
                "`{name}` is not one of the values this takes: {}",
                allowed.replace('`', "")
            ),
            None,
        ));
    }
    if message.contains("did not match any variant of untagged enum") {
        return Some((
            "this value has a shape this field does not take".into(),
            Some("compare it with the field's examples in docs/authoring.md: a number, text, a list or a mapping each go only where the format expects them"),
        ));
    }
    None
}

/// The band a misnamed band key means: `bad_below: 5` says values under 5 are bad, so higher is
/// better, which is what `good_above`/`warn_above` say (edit distance would offer `good_below`,
/// the opposite).
pub(super) fn band_meaning(name: &str) -> Option<String> {
    let (level, side) = name.split_once('_')?;
    let side = match side {
        "below" | "under" | "lt" | "less" => "below",
        "above" | "over" | "gt" | "more" => "above",
        _ => return None,
    };
    let opposite = if side == "below" { "above" } else { "below" };
    match level {
        "bad" | "red" | "danger" | "poor" => Some(format!(
            "bands name the good and the warning side: values {side} it being bad means {} is better, so write `good_{opposite}:` (and `warn_{opposite}:` for a middle band)",
            if side == "below" { "higher" } else { "lower" }
        )),
        "ok" | "fine" | "green" | "great" => Some(format!("did you mean `good_{side}`?")),
        "caution" | "yellow" | "amber" | "warning" => Some(format!("did you mean `warn_{side}`?")),
        "good" | "warn" if side != name.split_once('_')?.1 => {
            Some(format!("did you mean `{level}_{side}`?"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_below_means_higher_is_better() {
        assert!(band_meaning("bad_below").unwrap().contains("`good_above:`"));
        assert!(band_meaning("bad_above").unwrap().contains("`good_below:`"));
        assert_eq!(
            band_meaning("ok_below").unwrap(),
            "did you mean `good_below`?"
        );
        assert_eq!(
            band_meaning("good_under").unwrap(),
            "did you mean `good_below`?"
        );
        assert_eq!(band_meaning("good_below"), None);
    }

    #[test]
    fn no_rust_type_names() {
        let (m, h) = plain("invalid u32").unwrap();
        assert_eq!(m, "this must be a whole number");
        assert!(h.is_some());
        let (m, _) = plain("invalid type: sequence, expected a string").unwrap();
        assert_eq!(m, "this is a list, where text goes");
        let (m, _) = plain("invalid type: string \"x\", expected a sequence").unwrap();
        assert_eq!(m, "this is text, where a list goes");
        let (m, _) = plain("invalid type: sequence, expected a number, or an expression").unwrap();
        assert_eq!(m, "this is a list, where a number, or an expression goes");
    }
}
