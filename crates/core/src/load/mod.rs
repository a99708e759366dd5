//! Loading: YAML text to a [`Lab`] with positions, or located diagnostics.

use crate::diag::{did_you_mean, Diagnostic};
use crate::model::{Lab, Pos};
use std::path::Path;

/// A lab file's text and the name diagnostics use for it.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Byte offset of each line's start, so that [`Source::line`] takes constant time (it is
    /// asked once per expression: a scan per call made compiling quadratic in the lab's size).
    starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            name: name.into(),
            text,
            starts,
        }
    }

    pub fn read(path: &Path) -> Result<Source, Diagnostic> {
        let name = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(Source::new(name, text)),
            Err(e) => {
                Err(
                    Diagnostic::error(&name, Pos::UNKNOWN, format!("cannot read the file: {e}"))
                        .with_hint("check the path; labforge reads UTF-8 YAML files"),
                )
            }
        }
    }

    /// The 1-based line `line`, if it exists.
    pub fn line(&self, line: u32) -> Option<&str> {
        let i = line.checked_sub(1)? as usize;
        let start = *self.starts.get(i)?;
        if start == self.text.len() {
            // Past the last newline (or empty text): `lines()` has no empty last line.
            return None;
        }
        let end = self.starts.get(i + 1).map_or(self.text.len(), |e| e - 1);
        let l = &self.text[start..end];
        Some(l.strip_suffix('\r').unwrap_or(l))
    }

    /// The byte offset where the 1-based line `line` starts (the text's length past its last
    /// line), in constant time.
    pub fn line_start(&self, line: u32) -> usize {
        let i = line.saturating_sub(1) as usize;
        self.starts.get(i).copied().unwrap_or(self.text.len())
    }

    /// The 1-based line holding byte `offset` and the byte offset where that line starts, in
    /// logarithmic time (counting the newlines before it per call made the lint's located
    /// warnings quadratic in the lab's size: a 40-part lab has over 1,600).
    pub fn line_at(&self, offset: usize) -> (u32, usize) {
        let n = self.starts.partition_point(|&s| s <= offset).max(1);
        (n as u32, self.starts[n - 1])
    }
}

/// Parses a lab. Errors are located at the offending YAML node.
pub fn parse(source: &Source) -> Result<Lab, Diagnostic> {
    if let Some(d) = limits::source(source) {
        return Err(d);
    }
    let mut lab =
        serde_saphyr::from_str::<Lab>(&source.text).map_err(|e| yaml_diagnostic(source, &e))?;
    crate::model::question::fill_ids(&mut lab);
    match text::check_source(source) {
        Some(d) => Err(d),
        None => Ok(lab),
    }
}

pub fn yaml_diagnostic(source: &Source, e: &serde_saphyr::Error) -> Diagnostic {
    let pos = e
        .location()
        .map(|l| Pos::new(l.line() as u32, l.column() as u32))
        .unwrap_or(Pos::UNKNOWN);
    let raw = e.without_snippet().to_string();
    let message = flow_comma_message(strip_location_prefix(&raw));
    let message = match message.strip_suffix(" rejected by the configured policy") {
        Some(m) => format!("{m} is not a number a lab can use"),
        None => message,
    };
    let line = source.line(pos.line);
    let split = message
        .contains("did not match any variant of untagged enum ")
        .then(|| line.and_then(keyless_flow_piece))
        .flatten();
    let (message, hint) = match split {
        // The comma trap in a constant's or value's flow mapping: the value to quote is known.
        Some((key, value, piece)) => (
            format!(
                "`{piece}` was read as a key: an unquoted comma inside `{{ ... }}` ended the value before it"
            ),
            Some(format!(
                "quote the whole value (`{key}: \"{value}, {piece}\"`), or write the mapping in block style, one `key: value` per line"
            )),
        ),
        None => {
            let message = untagged_message(message);
            let hint = yaml_hint(&message);
            match plain::plain(&message) {
                Some((m, Some(h))) => (m, Some(h)),
                Some((m, None)) => (m, hint),
                None => (message, hint),
            }
        }
    };
    Diagnostic::error(&source.name, pos, message).maybe_hint(hint)
}

/// serde-saphyr prefixes `error: line N column M: `; our diagnostics carry the position already.
fn strip_location_prefix(raw: &str) -> String {
    let first = raw.lines().next().unwrap_or(raw).trim();
    let s = first.strip_prefix("error: ").unwrap_or(first);
    let s = match s.strip_prefix("line ") {
        Some(rest) => match rest.find(": ") {
            Some(i) if rest[..i].contains("column") => &rest[i + 2..],
            _ => s,
        },
        None => s,
    };
    // ... and sometimes suffixes ` at line N, column M`.
    let s = match s.rfind(" at line ") {
        Some(i) if s[i..].contains(", column ") => &s[..i],
        _ => s,
    };
    s.to_string()
}

/// Part of a value taken for a key: `{ y: max(a, 0.1) / 2 }` splits at the comma, and YAML reads
/// `0.1) / 2` as a key. A "field" that cannot be a name says what happened instead.
fn flow_comma_message(message: String) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message;
    };
    let Some((name, _)) = rest.split_once('`') else {
        return message;
    };
    let a_name = name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if a_name {
        return message;
    }
    format!("`{name}` was read as a key: an unquoted comma inside `{{ ... }}` ended the value before it")
}

/// serde's "data did not match any variant of untagged enum Constant" names a Rust type, not
/// what the author wrote: said in the author's words instead.
fn untagged_message(message: String) -> String {
    let Some((_, name)) = message.split_once("did not match any variant of untagged enum ") else {
        return message;
    };
    match name.trim() {
        "Constant" => "this constant is not a number, true/false, text, a list or a record, nor `{ value: ..., unit: ..., source: ... }`".into(),
        "Value" => "this is not a value a lab can hold: a number, true/false, text, a list or a record (YAML's `null`, `~` or an empty value is none of these)".into(),
        "BoolOrExpr" => "this must be `true`, `false`, or an expression in quotes that gives one (`\"track.id == 'iphone'\"`)".into(),
        "MayNeverFire" => "`may_never_fire:` takes `true`, `false`, or a list of track ids (`[iphone, oura]`)".into(),
        "ClaimIs" => "a claim's `is:` takes `true`, `false`, or the words a text output reads (`is: Communication`)".into(),
        "NumOrExpr" => "this must be a number, or an expression in quotes that gives one (`\"variant.batch\"`)".into(),
        _ => message,
    }
}

/// A one-line flow mapping (`{ ... }`) with a piece that has no `key:`, split at commas outside
/// quotes and brackets: `{ value: 3, source: Meta, 2024 }` gives the key and value before the
/// comma and the piece after it, `("source", "Meta", "2024")` (YAML reads `2024` as a key whose
/// value is null, which no constant or value can hold).
fn keyless_flow_piece(line: &str) -> Option<(String, String, String)> {
    let open = line.find('{')?;
    let body = &line[open + 1..];
    let (mut depth, mut quote) = (0i32, None::<char>);
    let (mut pieces, mut start, mut end) = (Vec::new(), 0, body.len());
    for (i, c) in body.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '(' | '{') => depth += 1,
            (None, ']' | ')') => depth -= 1,
            (None, '}') if depth == 0 => {
                end = i;
                break;
            }
            (None, '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                pieces.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(body[start..end.max(start)].trim());
    let keyless = |p: &&str| !p.is_empty() && !p.contains(": ") && !p.ends_with(':');
    let i = pieces.iter().position(keyless)?;
    let (key, value) = pieces[..i].last()?.split_once(": ")?;
    Some((key.trim().into(), value.trim().into(), pieces[i].into()))
}

fn yaml_hint(message: &str) -> Option<String> {
    if message.starts_with("non-finite float") {
        return Some(
            "write a finite number: a slider, a number input and a formula work with real numbers (`.inf` and `.nan` have no position on a slider)"
                .into(),
        );
    }
    if message.contains("an unquoted comma inside") {
        return Some(
            "quote the whole value (`y: \"max(a, 0.1) / 2\"`), or write the mapping in block style, one `key: value` per line"
                .into(),
        );
    }
    if message.starts_with("expected string scalar") {
        return Some(
            "quote this value: YAML reads text starting with `[`, `{`, `&`, `*`, `!`, `|`, `>`, `%` or `@` as something else (`\"[1, 2, 3][0]\"`)"
                .into(),
        );
    }
    let quoted = |s: &str| -> Option<String> {
        let start = s.find('`')? + 1;
        let end = start + s[start..].find('`')?;
        Some(s[start..end].to_string())
    };
    // `unknown field `x`, expected one of `a`, `b``: the name and the allowed names.
    let name_and_expected = |rest: &str| -> Option<(String, Vec<String>)> {
        let expected = rest
            .split_once("expected one of ")
            .map(|(_, l)| {
                l.split(", ")
                    .map(|x| x.trim_matches('`').to_string())
                    .collect()
            })
            .or_else(|| {
                rest.split_once("expected ")
                    .map(|(_, l)| vec![l.trim_matches('`').to_string()])
            })
            .unwrap_or_default();
        Some((quoted(rest)?, expected))
    };
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (name, expected) = name_and_expected(rest)?;
        let bands = expected.iter().any(|e| e == "good_below");
        if let Some(h) = plain::band_meaning(&name).filter(|_| bands) {
            return Some(h);
        }
        return Some(
            match did_you_mean(&name, expected.iter().map(|s| s.as_str())) {
                Some(h) => h,
                None if !expected.is_empty() => format!("allowed here: {}", expected.join(", ")),
                None => "remove this key; this mapping takes no extra keys".into(),
            },
        );
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (name, expected) = name_and_expected(rest)?;
        return Some(
            match did_you_mean(&name, expected.iter().map(|s| s.as_str())) {
                Some(h) => format!("{h} (allowed: {})", expected.join(", ")),
                None => format!("allowed values: {}", expected.join(", ")),
            },
        );
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        let name = quoted(rest)?;
        return Some(format!("add `{name}:` to this mapping"));
    }
    if message.starts_with("invalid type") || message.starts_with("invalid value") {
        if let Some((_, exp)) = message.split_once("expected ") {
            return Some(format!("write {exp} here"));
        }
    }
    if message.contains("found a tab") {
        return Some("YAML indentation must use spaces, not tabs".into());
    }
    if message.starts_with("invalid floating point") || message.starts_with("invalid integer") {
        return Some("write a number here (quote it only if you mean text)".into());
    }
    if message.contains("mapping values are not allowed") {
        return Some(
            "unquoted text cannot contain `: ` (YAML reads it as a key); quote the whole text (`feedback: \"Not quite: ...\"`) or use a `|` block; otherwise check the indentation of this line and the one before".into(),
        );
    }
    if message.contains("did not find expected") {
        return Some(
            "check the brackets, quotes and indentation on this line and the one before".into(),
        );
    }
    if message.starts_with("this must be `true`, `false`, or an expression") {
        return Some(
            "write `true` or `false`, or put the expression in quotes: `correct: \"track.id == 'iphone'\"`".into(),
        );
    }
    if message.starts_with("a claim's `is:` takes") {
        return Some("write `is: true` or `is: false` for a yes/no output, or the output's words as text: `is: Communication`".into());
    }
    if message.starts_with("`may_never_fire:` takes") {
        return Some("write `may_never_fire: true`, or the tracks it may never show on: `may_never_fire: [iphone]`".into());
    }
    if message.starts_with("this must be a number, or an expression") {
        return Some("write a number (`default: 8`), or put the expression in quotes: `default: \"variant.batch\"`".into());
    }
    if message.starts_with("this constant is not") {
        return Some(
            "write a number (`mtbf_h: 50000`), or `{ value: 50000, unit: h, source: \"Meta, 2024\" }` with each text that holds a comma in quotes"
                .into(),
        );
    }
    None
}

#[cfg(test)]
mod source_tests {
    use super::Source;

    #[test]
    fn line_matches_lines() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\nx\n", "é\nü\n\n"] {
            let s = Source::new("t", text);
            for n in 0..6u32 {
                let want = n.checked_sub(1).and_then(|i| text.lines().nth(i as usize));
                assert_eq!(s.line(n), want, "{text:?} line {n}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_field_is_located_with_suggestion() {
        let src = Source::new("t.yaml", "id: x\ntitle: T\nparts: []\ntitel: oops\n");
        let d = parse(&src).unwrap_err();
        assert_eq!((d.line, d.col), (4, 1));
        assert!(
            d.message
                .starts_with("`titel` is not a key this mapping takes"),
            "{}",
            d.message
        );
        assert!(!d.message.contains("expected one of"), "{}", d.message);
        assert_eq!(d.hint.as_deref(), Some("did you mean `title`?"));
    }

    #[test]
    fn missing_field_says_what_to_add() {
        let src = Source::new("t.yaml", "id: x\nparts: []\n");
        let d = parse(&src).unwrap_err();
        assert_eq!(d.message, "this mapping needs a `title:` key");
        assert_eq!(d.hint.as_deref(), Some("add `title:` to this mapping"));
    }

    #[test]
    fn yaml_traps_say_what_happened() {
        let base = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/inputs/ok_minimal.yaml"
        ))
        .unwrap();
        let comma = base.replace(
            "y: \"rho / (1 - rho) * amplification * service_min\"",
            "y: max(rho, 0.1) / (1 - rho) * amplification * service_min",
        );
        let d = parse(&Source::new("t.yaml", comma)).unwrap_err();
        assert!(d.message.contains("unquoted comma"), "{}", d.message);
        assert!(d.hint.unwrap().contains("quote the whole value"));
        let constant = base.replace("source: \"example\"", "source: Example, 2024");
        assert_ne!(
            constant, base,
            "ok_minimal.yaml's constant has `source: \"example\"`"
        );
        let d = parse(&Source::new("t.yaml", constant)).unwrap_err();
        assert_eq!(
            d.message,
            "`2024` was read as a key: an unquoted comma inside `{ ... }` ended the value before it"
        );
        assert_eq!(
            d.hint.as_deref(),
            Some("quote the whole value (`source: \"Example, 2024\"`), or write the mapping in block style, one `key: value` per line")
        );
        let list = base.replace("double: n * 2", "double: [1, 2, 3][0]");
        let d = parse(&Source::new("t.yaml", list)).unwrap_err();
        assert!(d.hint.unwrap().starts_with("quote this value"));
    }
}
pub mod check;
pub mod limits;
mod plain;
mod questions;
mod report;
pub mod text;
pub mod tracks;
pub mod xref;
