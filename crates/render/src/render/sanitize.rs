//! The one sanitising policy for lab prose, used by every output that carries it.
//!
//! Lab text is Markdown written by whoever wrote the lab, and handouts and pages get published
//! on course sites, so the same rules hold everywhere:
//!
//! - raw HTML in lab text is shown as text, never interpreted;
//! - links keep only `http`, `https`, `mailto` and relative targets (`javascript:`, `data:`,
//!   `vbscript:` and every other scheme become `#`);
//! - images never load: an image is shown as its alt text, so opening a page or a handout makes
//!   no request.
//!
//! [`html_block`] / [`html_inline`] turn prose into HTML (the page, the print handout, the key);
//! [`markdown_text`] makes prose safe to place into a Markdown document (the `.md` handout), so
//! a site that renders the Markdown with raw HTML allowed inherits no markup from the lab.

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// Markdown features read in lab prose (as on the page and in the handouts alike).
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// True for a link target that is relative or uses `http`, `https` or `mailto`.
pub fn safe_url(u: &str) -> bool {
    // Browsers drop ASCII whitespace and control characters inside a scheme; a scheme is
    // whatever comes before the first `:` that precedes any `/`, `?` or `#`.
    let l: String = u
        .chars()
        .filter(|c| !c.is_ascii_control() && !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    match l.find([':', '/', '?', '#']) {
        Some(i) if l.as_bytes()[i] == b':' => matches!(&l[..i], "http" | "https" | "mailto"),
        _ => true,
    }
}

/// The sanitised event stream of `src`.
fn events(src: &str) -> impl Iterator<Item = Event<'_>> {
    let mut in_image = 0usize;
    Parser::new_ext(src, options()).filter_map(move |ev| match ev {
        Event::Html(s) | Event::InlineHtml(s) => Some(Event::Text(s)),
        // An image shows its alt text (the text events inside it) and loads nothing.
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
        }) => Some(Event::Start(Tag::Link {
            link_type,
            dest_url: if safe_url(&dest_url) {
                dest_url
            } else {
                CowStr::from("#")
            },
            title,
            id,
        })),
        other => Some(other),
    })
}

/// Block Markdown (paragraphs, lists, tables) to safe HTML.
pub fn html_block(src: &str) -> String {
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events(src));
    out
}

/// Inline Markdown to safe HTML: a single paragraph without its `<p>` wrapper.
pub fn html_inline(src: &str) -> String {
    let html = html_block(src);
    let t = html.trim_end();
    match t.strip_prefix("<p>").and_then(|x| x.strip_suffix("</p>")) {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => t.to_string(),
    }
}

/// Escapes text for HTML element content.
fn escape_html(s: &str) -> String {
    crate::render::escape(s)
}

/// Lab prose made safe to place anywhere in a Markdown document, whatever surrounds it.
///
/// Ordinary Markdown (emphasis, code, lists, tables, safe links) is kept as written. Every `<`
/// of the lab's text becomes `&lt;`, so no raw HTML or autolink can start from it (a code span
/// or block holding a `<` is written as `<code>` HTML with its text escaped, so it still reads
/// the same); every image becomes a link (`!` escaped), so nothing loads; a link or link
/// definition with an unsafe target keeps only its text.
pub fn markdown_text(src: &str) -> String {
    // Source ranges to replace, from a parse of the text on its own.
    // `None`: an unsafe link, replaced by its text.
    let mut edits: Vec<(std::ops::Range<usize>, Option<String>)> = Vec::new();
    let mut code_block: Option<(usize, String)> = None;
    let parser = Parser::new_ext(src, options());
    for (_, def) in parser.reference_definitions().iter() {
        if !safe_url(&def.dest) {
            edits.push((def.span.clone(), Some(String::new())));
        }
    }
    for (ev, range) in parser.into_offset_iter() {
        match ev {
            Event::Code(c) if src[range.clone()].contains('<') => {
                edits.push((range, Some(format!("<code>{}</code>", escape_html(&c)))));
            }
            Event::Start(Tag::CodeBlock(_)) => code_block = Some((range.start, String::new())),
            Event::Text(t) if code_block.is_some() => {
                if let Some((_, s)) = code_block.as_mut() {
                    s.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((start, text)) = code_block.take() {
                    let end = range.end;
                    if src[start..end].contains('<') {
                        let html = format!("<pre><code>{}</code></pre>", escape_html(&text));
                        // Keep the block's line structure: a blank line before and after.
                        edits.push((
                            start..end,
                            Some(format!("\n{}\n", html.replace('\n', "&#10;"))),
                        ));
                    }
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) if !safe_url(&dest_url)
                && !matches!(link_type, LinkType::Autolink | LinkType::Email) =>
            {
                edits.push((range, None));
            }
            _ => {}
        }
    }
    // A bad link's replacement is its visible text, sanitised on its own.
    let mut fixed: Vec<(std::ops::Range<usize>, String)> = edits
        .into_iter()
        .map(|(r, s)| {
            let s = s.unwrap_or_else(|| markdown_text(&link_text(&src[r.clone()])));
            (r, s)
        })
        .collect();
    // Outermost edits win; nested ones inside them are dropped.
    fixed.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
    let mut out = String::with_capacity(src.len() + 16);
    let mut at = 0;
    for (r, s) in fixed {
        if r.start < at {
            continue;
        }
        out.push_str(&escape_plain(&src[at..r.start]));
        out.push_str(&s);
        at = r.end;
    }
    out.push_str(&escape_plain(&src[at..]));
    out
}

/// The visible text of an inline link's source (`[text](url)` or `[text][ref]`).
fn link_text(src: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::new();
    let mut prev_backslash = false;
    for (i, c) in src.char_indices() {
        if i == 0 && c == '[' {
            depth = 1;
            continue;
        }
        if !prev_backslash {
            if c == '[' {
                depth += 1;
            } else if c == ']' {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
        }
        prev_backslash = c == '\\' && !prev_backslash;
        out.push(c);
    }
    out
}

/// Escapes in plain Markdown source every `<` that could open raw HTML or an autolink (one
/// followed by a letter, `/`, `!`, `?` or the end of the text, which another field could
/// continue; `a < b` stays as written) and the `!` of `![` (images).
fn escape_plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut backslashes = 0usize;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' if chars
                .peek()
                .is_none_or(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')) =>
            {
                out.push_str("&lt;")
            }
            '!' if chars.peek() == Some(&'[') && backslashes.is_multiple_of(2) => {
                out.push_str("\\!")
            }
            c => out.push(c),
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_text() {
        assert_eq!(
            html_inline("hi <script>alert(1)</script> **b**"),
            "hi &lt;script&gt;alert(1)&lt;/script&gt; <strong>b</strong>"
        );
        assert!(!html_block("<img src=x onerror=alert(1)>").contains("<img"));
    }

    #[test]
    fn unsafe_links_are_neutralised_and_images_load_nothing() {
        let h = html_inline("[x](javascript:alert(1)) [y](https://e.org) [z](java\tscript:1)");
        assert!(!h.contains("href=\"java"), "{h}");
        assert!(h.contains("href=\"https://e.org\""));
        for u in [
            "data:text/html,x",
            "VBScript:x",
            " javascript:x",
            "\u{1}javascript:x",
        ] {
            assert!(!safe_url(u), "{u}");
        }
        for u in [
            "https://e.org",
            "mailto:a@b",
            "notes.html#x",
            "#top",
            "a/b:c",
        ] {
            assert!(safe_url(u), "{u}");
        }
        let img = html_block("![alt text](http://127.0.0.1:9/beacon.png)");
        assert!(!img.contains("<img") && img.contains("alt text"), "{img}");
    }

    /// Renders Markdown as a site would, raw HTML allowed.
    fn site(md: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, Parser::new_ext(md, options()));
        out
    }

    #[test]
    fn markdown_text_keeps_markdown_but_no_markup() {
        let ok = "**bold** *em* `code` [docs](https://e.org)\n\n- one\n- two\n\n| a | b |\n|--|--|\n| 1 | 2 |";
        assert_eq!(markdown_text(ok), ok);
        for payload in [
            "<script>alert(1)</script>",
            "x <img src=x onerror=alert(1)>",
            "<svg onload=alert(1)>",
            "![x](http://127.0.0.1:9/b.png)",
            "\\\\![x](http://127.0.0.1:9/b.png)",
            "[x](javascript:alert(1))",
            "[x][r]\n\n[r]: javascript:alert(1)",
            "`<img src=x onerror=alert(1)>`",
            "```\n<script>alert(1)</script>\n```",
            "<http://127.0.0.1:9/a>",
        ] {
            let md = markdown_text(payload);
            let html = site(&md);
            assert!(
                !html.contains("<img")
                    && !html.contains("<script")
                    && !html.contains("<svg")
                    && !html.contains("javascript:"),
                "{payload:?} -> {md:?} -> {html}"
            );
            // Placed after an unbalanced backtick from elsewhere, still no markup.
            let html = site(&format!("` {md} `"));
            assert!(
                !html.contains("<img") && !html.contains("<script"),
                "{html}"
            );
        }
        // Code holding `<` still reads the same.
        assert!(site(&markdown_text("`a<b`")).contains("<code>a&lt;b</code>"));
    }
}
