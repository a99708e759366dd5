//! The page's scripts, minified at render time by the `minifier` crate (the tokenizer-based
//! minifier rustdoc used for its own scripts): comments and whitespace dropped, names kept (the
//! scripts share top-level names and the page's data refers to none). Deterministic: the same
//! script gives the same bytes.

/// `src` minified; a script the minifier cannot read is returned as written.
pub fn minify_js(src: &str) -> String {
    match minifier::js::minify(src) {
        Ok(m) => m.to_string(),
        Err(_) => src.to_string(),
    }
}

/// A style sheet without indentation and without the line breaks CSS does not need (after `{`,
/// `}`, `;`, `,` or before `}`); other line breaks stay, where they may separate selectors.
pub fn compact_css(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !(out.is_empty() || out.ends_with(['{', '}', ';', ',']) || line.starts_with('}')) {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// Drops indentation, blank lines and comment-only lines from a script (an instructor's own,
/// from `--templates`). Line breaks stay, so automatic semicolon insertion sees the same
/// program; text inside lines is untouched.
pub fn strip_js(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut in_comment = false;
    for line in src.lines() {
        let t = line.trim();
        if in_comment {
            if t.contains("*/") {
                in_comment = false;
            }
            continue;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if t.starts_with("/*") {
            if !t.contains("*/") {
                in_comment = true;
                continue;
            }
            if t.ends_with("*/") && t.find("*/") == Some(t.len() - 2) {
                continue;
            }
        }
        out.push_str(t);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_keeps_the_line_breaks_that_separate() {
        assert_eq!(
            compact_css("a{b:c;\n  d:e}\n.x\n.y{}\n"),
            "a{b:c;d:e}.x\n.y{}"
        );
    }

    #[test]
    fn drops_comments_and_whitespace_and_is_deterministic() {
        let src = "// a comment\nvar LF_X = 1;\nfunction run(longName) {\n  /* block */\n  var another = longName + LF_X;\n  return another;\n}\n";
        let out = minify_js(src);
        assert_eq!(
            out,
            "var LF_X=1;function run(longName){var another=longName+LF_X;return another;}"
        );
        assert_eq!(minify_js(src), out);
    }
}
