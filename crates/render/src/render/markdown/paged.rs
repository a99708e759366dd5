//! Paged media for the print handouts: lab text made into a CSS string for the `@page` margin
//! boxes (the running header on every printed page).

/// `text` as a quoted CSS string, safe inside a `<style>` element: every character outside
/// plain printable ASCII letters, digits, space and harmless punctuation is written as a CSS
/// hex escape (`\3c `), so no quote, backslash, newline or `</style>` can end the string or the
/// element; control characters are dropped.
pub fn css_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c.is_control() {
            continue;
        }
        if c.is_ascii_alphanumeric() || " .,:;!?-_()[]#%+=@".contains(c) {
            out.push(c);
        } else {
            // A space ends the escape, so a following hex digit is not read into it.
            out.push_str(&format!("\\{:x} ", c as u32));
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_strings_cannot_break_out() {
        assert_eq!(css_string("When Failure"), "\"When Failure\"");
        let s = css_string("a\"b\\c\nd</style><script>x</script>'é");
        // Backslashes only as escape starts, each followed by hex digits and a space.
        assert!(s[1..s.len() - 1].split('\\').skip(1).all(|e| {
            let hex: String = e.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            !hex.is_empty() && e[hex.len()..].starts_with(' ')
        }));
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('\n'));
        assert_eq!(s.matches('"').count(), 2);
        assert!(s.contains("\\22 ") && s.contains("\\5c ") && s.contains("\\3c \\2f style\\3e "));
        assert!(s.contains("\\e9 ") && s.contains("\\27 "));
        assert_eq!(css_string("x\u{0}\u{7f}y"), "\"xy\"");
    }

    #[test]
    fn plain_text_drops_markup() {
        assert_eq!(
            crate::render::plain_text("**When** `x<y` _now_\nthen"),
            "When x<y now then"
        );
    }
}
