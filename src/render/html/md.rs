//! Markdown to HTML with raw HTML disabled: HTML in lab text is shown as text, links keep only
//! safe schemes, images become their alt text.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

pub use crate::render::escape;

fn safe_url(u: &str) -> bool {
    let l = u.trim().to_ascii_lowercase();
    let scheme_end = l.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if l.as_bytes()[i] == b':' => {
            let scheme = &l[..i];
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// Block Markdown (paragraphs, lists, tables).
pub fn md_block(src: &str) -> String {
    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    let mut in_image = 0usize;
    let events = Parser::new_ext(src, opts).filter_map(move |ev| match ev {
        Event::Html(s) | Event::InlineHtml(s) => Some(Event::Text(s)),
        Event::Start(Tag::Image { .. }) => {
            in_image += 1;
            None
        }
        Event::End(TagEnd::Image) => {
            in_image = in_image.saturating_sub(1);
            None
        }
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest = if safe_url(&dest_url) {
                dest_url
            } else {
                CowStr::from("#")
            };
            Some(Event::Start(Tag::Link {
                link_type,
                dest_url: dest,
                title,
                id,
            }))
        }
        other => Some(other),
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

/// Inline Markdown: a single paragraph without its `<p>` wrapper.
pub fn md_inline(src: &str) -> String {
    let html = md_block(src);
    let t = html.trim_end();
    if let Some(inner) = t.strip_prefix("<p>").and_then(|x| x.strip_suffix("</p>")) {
        if !inner.contains("<p>") {
            return inner.to_string();
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_text() {
        assert_eq!(
            md_inline("hi <script>alert(1)</script> **b**"),
            "hi &lt;script&gt;alert(1)&lt;/script&gt; <strong>b</strong>"
        );
        assert!(!md_block("<img src=x onerror=alert(1)>").contains("<img"));
    }

    #[test]
    fn unsafe_links_are_neutralised() {
        let h = md_inline("[x](javascript:alert(1)) [y](https://e.org)");
        assert!(!h.contains("javascript"), "{h}");
        assert!(h.contains("href=\"https://e.org\""));
        assert!(!md_inline("![a](http://x/y.png)").contains("<img"));
    }
}
