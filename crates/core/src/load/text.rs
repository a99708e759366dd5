//! Control characters in lab text. A lab's words reach terminals (`run`, `eval`, `check`'s
//! source lines), HTML and SVG; a terminal obeys escape sequences (OSC 52 writes the clipboard,
//! OSC 0 the window title), XML forbids most control characters. So no string of a lab file may
//! hold one: every YAML scalar is read, whatever field it is in, and the first control character
//! is a located error. Tabs and line breaks are text.

use crate::diag::Diagnostic;
use crate::load::Source;
use crate::model::Pos;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Is `c` a character no lab text may hold: C0 controls but tab and line breaks, DEL, C1
/// controls (U+0080–U+009F: `U+009B` is a one-character CSI), and the bidirectional overrides
/// that reorder what a reader sees.
pub fn forbidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` without the characters [`forbidden`] names (for text that did not come through
/// [`check_source`]: formula results, typed answers, saved records).
pub fn strip_forbidden(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(forbidden) {
        text.chars()
            .filter(|c| !forbidden(*c))
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// `text` with each character [`forbidden`] names shown as `U+FFFD`: the one filter for text
/// that reaches a terminal, whoever wrote it (a lab, a student's record, a file name). Every
/// write labforge makes to stdout or stderr goes through it ([`crate::print`]); a diagnostic's
/// source line and `grade`'s messages call it directly.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(forbidden) {
        text.chars()
            .map(|c| if forbidden(c) { '\u{FFFD}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// The style parameters labforge's own terminal output paints with (bold, dim, italic,
/// underline, the eight colours it uses, reset): `ESC [ n ; … m` with only these survives
/// [`for_terminal`]. Nothing that moves the cursor, clears, conceals, sets a title or the
/// clipboard is among them.
const STYLES: &[&str] = &[
    "0", "1", "2", "3", "4", "31", "32", "33", "34", "35", "36", "90",
];

/// The length of a style sequence labforge paints with at the start of `s` (see [`STYLES`]).
fn style_at(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\u{1b}[")?;
    let end = body.find('m')?;
    let params = &body[..end];
    (end <= 16 && params.split(';').all(|p| STYLES.contains(&p))).then_some(2 + end + 1)
}

/// [`visible`] for a line labforge has styled: the same filter, except that the style
/// sequences of [`STYLES`] are kept. A lab's or a student's text goes through [`visible`]
/// where it is laid out (`run`'s Markdown and wrapping), so its own ESC is `U+FFFD` by then;
/// one that reached a line some other way could at worst colour it.
pub fn for_terminal(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(forbidden) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' {
            if let Some(n) = style_at(rest) {
                out.push_str(&rest[..n]);
                rest = &rest[n..];
                continue;
            }
        }
        out.push(if forbidden(c) { '\u{FFFD}' } else { c });
        rest = &rest[c.len_utf8()..];
    }
    out.into()
}

/// The first YAML scalar of `source` holding a forbidden character, as an error at that
/// scalar. `None` when the text is clean or is not YAML the scanner can read (the parser then
/// reports the syntax error itself).
pub fn check_source(source: &Source) -> Option<Diagnostic> {
    let node: Located = serde_saphyr::from_str(&source.text).ok()?;
    let mut found = None;
    node.first_forbidden(&mut found);
    let (pos, c) = found?;
    Some(
        Diagnostic::error(
            &source.name,
            pos,
            format!(
                "this text holds the control character U+{:04X}",
                u32::from(c)
            ),
        )
        .with_hint(
            "remove it: lab text may not carry control characters or terminal escape sequences \
             (in a double-quoted string look for `\\e`, `\\x..`, `\\u....`)",
        ),
    )
}

/// Any YAML node with its position; only strings are kept.
struct Located {
    pos: Pos,
    node: Node,
}

enum Node {
    Text(String),
    List(Vec<Located>),
    Map(Vec<(Located, Located)>),
    Other,
}

impl Located {
    fn first_forbidden(&self, found: &mut Option<(Pos, char)>) {
        if found.is_some() {
            return;
        }
        match &self.node {
            Node::Text(s) => {
                if let Some(c) = s.chars().find(|c| forbidden(*c)) {
                    *found = Some((self.pos, c));
                }
            }
            Node::List(items) => items.iter().for_each(|i| i.first_forbidden(found)),
            Node::Map(entries) => entries.iter().for_each(|(k, v)| {
                k.first_forbidden(found);
                v.first_forbidden(found);
            }),
            Node::Other => {}
        }
    }
}

impl<'de> Deserialize<'de> for Located {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = serde_saphyr::Spanned::<Node>::deserialize(d)?;
        let loc = s.referenced;
        Ok(Located {
            pos: Pos::new(loc.line() as u32, loc.column() as u32),
            node: s.value,
        })
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Text(v))
    }
    fn visit_char<E>(self, v: char) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_i128<E>(self, _: i128) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_u128<E>(self, _: u128) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Other)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(i) = a.next_element::<Located>()? {
            items.push(i);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some(e) = a.next_entry::<Located, Located>()? {
            entries.push(e);
        }
        Ok(Node::Map(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(yaml: &str) -> Option<(u32, u32, String)> {
        check_source(&Source::new("t.yaml", yaml)).map(|d| (d.line, d.col, d.message))
    }

    #[test]
    fn escapes_in_any_field_are_located() {
        let y = "id: x\ntitle: fine\nparts:\n  - id: a\n    title: \"Part \\e]52;c;aGk=\\a\"\n";
        let (line, col, msg) = first(y).expect("found");
        assert_eq!((line, col), (5, 12));
        assert!(msg.contains("U+001B"), "{msg}");
        // Keys, flow lists, C1 controls and bidi overrides too.
        assert_eq!(first("a: [ok, \"\\x9b31m\"]\n").map(|f| f.0), Some(1));
        assert_eq!(first("\"k\\u0007\": 1\n").map(|f| f.0), Some(1));
        assert!(first("t: \"abc\\u202Edef\"\n").is_some());
    }

    #[test]
    fn ordinary_text_passes() {
        let y = "t: |\n  Tabs\tand\n  lines, $\\frac{a}{b}$ and ∑ are text.\nn: 3\nb: true\nz: ~\n";
        assert_eq!(first(y), None);
        assert_eq!(strip_forbidden("a\u{1b}]0;x\u{7}b\tc"), "a]0;xb\tc");
    }

    #[test]
    fn the_terminal_filter_keeps_only_labforges_styles() {
        // What labforge paints with survives; every other escape, C1 and bidi does not.
        let styled = "\u{1b}[1;4mHead\u{1b}[0m \u{1b}[36mcode\u{1b}[0m";
        assert_eq!(for_terminal(styled), styled);
        for bad in [
            "\u{1b}]52;c;cm0gLXJmIH4=\u{7}",
            "\u{1b}]0;title\u{1b}\\",
            "\u{1b}[2J",
            "\u{1b}[8m",
            "\u{1b}[1;8m",
            "\u{1b}[H",
            "\u{9b}2J",
            "\u{202e}txt",
            "\u{2066}x",
            "\u{1b}[",
        ] {
            let out = for_terminal(bad);
            assert!(!out.chars().any(forbidden), "{bad:?} -> {out:?}");
            assert!(out.contains('\u{FFFD}'), "{bad:?} -> {out:?}");
            assert_eq!(visible(bad), out, "one filter: {bad:?}");
        }
        assert_eq!(visible(styled).matches('\u{FFFD}').count(), 4);
    }
}
