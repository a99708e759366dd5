//! Symbols on paper that need no font: in the print-ready HTML handouts every ✓ ✗ ⚠ ℹ ⏱ 🔒
//! (the marks labforge writes beside levels and badges and in the key's boxes, and the same
//! symbols in lab text) is drawn as a small inline SVG in the text's colour. Printed as
//! characters they need a symbol or colour-emoji font, and where none is installed (common on
//! Linux lab machines) they print as empty boxes.
//!
//! The Markdown handout keeps them as characters: a Markdown file is read or converted
//! elsewhere, with that reader's fonts.

/// A symbol drawn as paths on a 16×16 grid: its character, its name (the SVG's accessible
/// name) and its shapes.
struct Mark {
    c: char,
    name: &'static str,
    paths: &'static str,
}

const STROKE: &str =
    "fill=\"none\" stroke=\"currentColor\" stroke-linecap=\"round\" stroke-linejoin=\"round\"";

const MARKS: &[Mark] = &[
    Mark {
        c: '✓',
        name: "check",
        paths: "<path d=\"M2.5 8.5l3.5 3.5 7.5-8\" stroke-width=\"2.2\"/>",
    },
    Mark {
        c: '✔',
        name: "check",
        paths: "<path d=\"M2.5 8.5l3.5 3.5 7.5-8\" stroke-width=\"2.6\"/>",
    },
    Mark {
        c: '✗',
        name: "cross",
        paths: "<path d=\"M3.5 3.5l9 9M12.5 3.5l-9 9\" stroke-width=\"2.2\"/>",
    },
    Mark {
        c: '✘',
        name: "cross",
        paths: "<path d=\"M3.5 3.5l9 9M12.5 3.5l-9 9\" stroke-width=\"2.6\"/>",
    },
    Mark {
        c: '⚠',
        name: "warning",
        paths: "<path d=\"M8 1.8L15 14.2H1z\" stroke-width=\"1.5\"/><path d=\"M8 6.2v3.9M8 12.2v.1\" stroke-width=\"1.8\"/>",
    },
    Mark {
        c: 'ℹ',
        name: "information",
        paths: "<circle cx=\"8\" cy=\"8\" r=\"6.6\" stroke-width=\"1.4\"/><path d=\"M8 7.2v4.6M8 4.6v.1\" stroke-width=\"1.8\"/>",
    },
    Mark {
        c: '⏱',
        name: "duration",
        paths: "<circle cx=\"8\" cy=\"9.2\" r=\"5.6\" stroke-width=\"1.4\"/><path d=\"M8 9.2V6.2M6.4 1.6h3.2M8 1.6v2\" stroke-width=\"1.4\"/>",
    },
    Mark {
        c: '🔒',
        name: "locked",
        paths: "<rect x=\"3\" y=\"7.2\" width=\"10\" height=\"7.3\" rx=\"1\" stroke-width=\"1.4\"/><path d=\"M5.3 7.2V5a2.7 2.7 0 0 1 5.4 0v2.2\" stroke-width=\"1.4\"/>",
    },
];

/// The inline SVG of the mark named `name` (`check`, `cross`, `warning`, `information`,
/// `duration`, `locked`), empty for another name.
pub fn icon(name: &str) -> String {
    MARKS
        .iter()
        .find(|m| m.name == name)
        .map(svg)
        .unwrap_or_default()
}

fn svg(m: &Mark) -> String {
    format!(
        "<svg class=\"mark mark-{}\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" role=\"img\" aria-label=\"{}\"><g {STROKE}>{}</g></svg>",
        m.name, m.name, m.paths
    )
}

/// `html` (markup labforge wrote, lab text already escaped) with every mark in its text drawn
/// as SVG. Only text between tags changes; an emoji variation selector after a mark goes with it.
pub fn draw(html: &str) -> String {
    if !html.chars().any(|c| MARKS.iter().any(|m| m.c == c)) {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len() + 256);
    // Inside a tag (and a quoted attribute value in it, where a `>` does not end the tag)
    // nothing changes.
    let (mut in_tag, mut quote) = (false, None);
    let mut chars = html.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quote) {
            ('<', None) if !in_tag => in_tag = true,
            ('>', None) if in_tag => in_tag = false,
            ('"' | '\'', None) if in_tag => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            _ => {}
        }
        match MARKS.iter().find(|m| m.c == c).filter(|_| !in_tag) {
            Some(m) => {
                out.push_str(&svg(m));
                if chars.peek() == Some(&'\u{fe0f}') {
                    chars.next();
                }
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_in_text_become_svg_and_tags_are_untouched() {
        let html = "<p title=\"✓\">21% (⚠ warning) ✓\u{fe0f} done</p>";
        let out = draw(html);
        assert!(out.starts_with("<p title=\"✓\">21% (<svg class=\"mark mark-warning\""));
        assert!(out.contains("</svg> warning) <svg class=\"mark mark-check\""));
        assert!(out.ends_with("</svg> done</p>"));
        assert!(!out.contains('\u{fe0f}'));
        assert_eq!(out.matches("<svg").count(), 2);
        assert_eq!(draw("plain & <b>x</b>"), "plain & <b>x</b>");
        // A `>` in a quoted attribute value does not end the tag.
        let a = "<a href=\"x>✓\" title='>⚠'>ℹ</a>";
        let out = draw(a);
        assert!(out.starts_with("<a href=\"x>✓\" title='>⚠'><svg"), "{out}");
        assert!(out.ends_with("</svg></a>"), "{out}");
        assert!(icon("locked").contains("aria-label=\"locked\""));
        assert_eq!(icon("nothing"), "");
    }
}
