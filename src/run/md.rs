//! Markdown for the terminal: pulldown-cmark events to wrapped lines with bold, italics, inline
//! code, lists, quotes and code blocks. Without colour, inline code keeps its backticks.

use super::term::{display_width, Screen, Style};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};

const LEVEL_END: char = '\u{E014}';

/// The marker beside a levelled value (the metric rows' `[! warn]`).
pub fn level_mark(level: &str) -> &str {
    match level {
        "good" => "✓ good",
        "warn" => "! warn",
        "bad" => "✗ bad",
        other => other,
    }
}

/// An output shown in prose (`{{ @name }}`): `render` paints the text and its marker in the
/// level's colour, e.g. `22.7% [! warn]`.
pub fn levelled(text: &str, level: &str) -> String {
    let open = match level {
        "good" => '\u{E010}',
        "warn" => '\u{E011}',
        "bad" => '\u{E012}',
        _ => '\u{E013}',
    };
    let text = text.replace(|c| ('\u{E010}'..=LEVEL_END).contains(&c), "");
    format!("{open}{text} [{}]{LEVEL_END}", level_mark(level))
}

/// Renders Markdown to lines no wider than the screen (long words excepted).
pub fn render(md: &str, scr: &Screen) -> Vec<String> {
    render_prefixed(md, scr, "", "")
}

/// Renders Markdown with a prefix on the first line and another on the following ones. The
/// text's control characters are shown as `U+FFFD` (`load::text::visible`): whoever wrote it,
/// its escapes never reach the terminal, nor do they become styles.
pub fn render_prefixed(md: &str, scr: &Screen, first: &str, rest: &str) -> Vec<String> {
    let mut r = Renderer {
        scr: *scr,
        width: scr.width.min(100),
        lines: Vec::new(),
        words: Vec::new(),
        cur: Vec::new(),
        styles: Vec::new(),
        lists: Vec::new(),
        quote: 0,
        item_start: false,
        code: None,
        first: first.to_string(),
        rest: rest.to_string(),
        used_first: false,
        link: Vec::new(),
        levelled: 0,
    };
    for ev in Parser::new(&crate::load::text::visible(md)) {
        r.event(ev);
    }
    r.flush_par();
    while r.lines.last().is_some_and(|l| l.trim().is_empty()) {
        r.lines.pop();
    }
    if r.lines.is_empty() && !first.is_empty() {
        r.lines.push(first.trim_end().to_string());
    }
    r.lines
}

/// Inline Markdown flattened to one string (no wrapping), e.g. for table cells.
pub fn inline(md: &str, scr: &Screen) -> String {
    let wide = Screen {
        width: usize::MAX / 4,
        ..*scr
    };
    let mut r = render(md, &wide);
    r.retain(|l| !l.trim().is_empty());
    r.join(" ")
}

type Word = Vec<(char, Option<Style>)>;

struct Renderer {
    scr: Screen,
    width: usize,
    lines: Vec<String>,
    /// Finished words of the current paragraph; `None` is a hard break.
    words: Vec<Option<Word>>,
    cur: Word,
    styles: Vec<Style>,
    /// Open lists: next number (None for bullets).
    lists: Vec<Option<u64>>,
    quote: usize,
    item_start: bool,
    code: Option<String>,
    first: String,
    rest: String,
    used_first: bool,
    link: Vec<String>,
    /// Open levelled values (`levelled`): their spaces do not break the line.
    levelled: usize,
}

impl Renderer {
    fn style(&self) -> Option<Style> {
        if let Some(s @ (Style::Green | Style::Orange | Style::Red)) = self.styles.last().copied() {
            return Some(s);
        }
        let bold = self.styles.contains(&Style::Bold);
        let italic = self.styles.contains(&Style::Italic);
        if self.styles.last() == Some(&Style::Code) {
            return Some(Style::Code);
        }
        match (bold, italic) {
            (true, true) => Some(Style::BoldItalic),
            (true, false) => Some(Style::Bold),
            (false, true) => Some(Style::Italic),
            _ => self.styles.last().copied(),
        }
    }

    fn push_text(&mut self, text: &str, mut style: Option<Style>) {
        for ch in text.chars() {
            let level = match ch {
                '\u{E010}' => Some(Style::Green),
                '\u{E011}' => Some(Style::Orange),
                '\u{E012}' => Some(Style::Red),
                '\u{E013}' => Some(Style::Bold),
                _ => None,
            };
            if let Some(l) = level {
                self.styles.push(l);
                self.levelled += 1;
                style = self.style();
                continue;
            }
            if ch == LEVEL_END {
                self.styles.pop();
                self.levelled = self.levelled.saturating_sub(1);
                style = self.style();
                continue;
            }
            if ch.is_whitespace() && self.levelled == 0 {
                self.end_word();
            } else {
                self.cur.push((ch, style));
            }
        }
    }

    fn end_word(&mut self) {
        if !self.cur.is_empty() {
            self.words.push(Some(std::mem::take(&mut self.cur)));
        }
    }

    fn prefixes(&mut self) -> (String, String) {
        let base_first = if self.used_first {
            self.rest.clone()
        } else {
            self.first.clone()
        };
        let base_rest = self.rest.clone();
        let quote = "│ ".repeat(self.quote);
        let depth = self.lists.len();
        let indent = "  ".repeat(depth.saturating_sub(1));
        let (mark, cont) = if depth > 0 {
            let marker = if self.item_start {
                match self.lists.last().copied().flatten() {
                    Some(n) => format!("{n}. "),
                    None => "• ".to_string(),
                }
            } else {
                String::new()
            };
            let w = if self.item_start {
                display_width(&marker)
            } else {
                match self.lists.last().copied().flatten() {
                    Some(n) => display_width(&format!("{n}. ")),
                    None => 2,
                }
            };
            let m = if marker.is_empty() {
                " ".repeat(w)
            } else {
                marker
            };
            (m, " ".repeat(w))
        } else {
            (String::new(), String::new())
        };
        let q = self.scr.paint(Style::Dim, &quote);
        (
            format!("{base_first}{q}{indent}{mark}"),
            format!("{base_rest}{q}{indent}{cont}"),
        )
    }

    fn flush_par(&mut self) {
        self.end_word();
        if self.words.is_empty() {
            return;
        }
        let (p1, p2) = self.prefixes();
        if self.item_start {
            self.item_start = false;
            if let Some(Some(n)) = self.lists.last_mut() {
                *n += 1;
            }
        }
        self.used_first = true;
        let words = std::mem::take(&mut self.words);
        let mut line = p1.clone();
        let mut lw = display_width(&p1);
        let mut empty = true;
        let pw = display_width(&p2);
        for w in words {
            let Some(w) = w else {
                self.lines.push(line);
                line = p2.clone();
                lw = pw;
                empty = true;
                continue;
            };
            let text = self.paint_word(&w);
            let ww: usize = w.iter().map(|(c, _)| display_width(&c.to_string())).sum();
            if !empty && lw + 1 + ww > self.width {
                self.lines.push(line);
                line = p2.clone();
                lw = pw;
                empty = true;
            }
            if !empty {
                line.push(' ');
                lw += 1;
            }
            line.push_str(&text);
            lw += ww;
            empty = false;
        }
        self.lines.push(line);
    }

    fn paint_word(&self, w: &Word) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < w.len() {
            let st = w[i].1;
            let mut j = i;
            let mut run = String::new();
            while j < w.len() && w[j].1 == st {
                run.push(w[j].0);
                j += 1;
            }
            match st {
                Some(s) => out.push_str(&self.scr.paint(s, &run)),
                None => out.push_str(&run),
            }
            i = j;
        }
        out
    }

    fn blank(&mut self) {
        if self.lists.is_empty() && self.lines.last().is_some_and(|l| !l.trim().is_empty()) {
            self.lines.push(String::new());
        }
    }

    fn event(&mut self, ev: Event<'_>) {
        if let Some(code) = &mut self.code {
            match ev {
                Event::Text(t) => code.push_str(&t),
                Event::End(TagEnd::CodeBlock) => {
                    let code = self.code.take().unwrap_or_default();
                    let (p, _) = self.prefixes();
                    let pad = " ".repeat(display_width(&p)) + "    ";
                    let width = self.scr.width.saturating_sub(display_width(&pad)).max(10);
                    for l in code.trim_end_matches('\n').lines() {
                        for l in wrap_code(l, width) {
                            let l = self.scr.paint(Style::Code, &l);
                            self.lines.push(format!("{pad}{l}"));
                        }
                    }
                    self.used_first = true;
                    self.blank();
                }
                _ => {}
            }
            return;
        }
        match ev {
            Event::Start(tag) => match tag {
                Tag::Paragraph => {}
                Tag::Heading { level, .. } => {
                    self.flush_par();
                    self.styles.push(if level == HeadingLevel::H1 {
                        Style::Heading
                    } else {
                        Style::Bold
                    });
                }
                Tag::BlockQuote(_) => {
                    self.flush_par();
                    self.quote += 1;
                }
                Tag::CodeBlock(kind) => {
                    self.flush_par();
                    let _ = matches!(kind, CodeBlockKind::Fenced(_));
                    self.code = Some(String::new());
                }
                Tag::List(start) => {
                    self.flush_par();
                    if self.lists.is_empty() {
                        self.blank_if_text();
                    }
                    self.lists.push(start);
                }
                Tag::Item => {
                    self.flush_par();
                    self.item_start = true;
                }
                Tag::Emphasis => self.styles.push(Style::Italic),
                Tag::Strong => self.styles.push(Style::Bold),
                Tag::Strikethrough => self.styles.push(Style::Dim),
                Tag::Link { dest_url, .. } => self.link.push(dest_url.to_string()),
                _ => {}
            },
            Event::End(tag) => match tag {
                TagEnd::Paragraph => {
                    self.flush_par();
                    self.blank();
                }
                TagEnd::Heading(_) => {
                    self.styles.pop();
                    self.flush_par();
                    self.blank();
                }
                TagEnd::BlockQuote(_) => {
                    self.flush_par();
                    self.quote = self.quote.saturating_sub(1);
                    self.blank();
                }
                TagEnd::List(_) => {
                    self.flush_par();
                    self.lists.pop();
                    self.blank();
                }
                TagEnd::Item => {
                    self.flush_par();
                    if self.item_start {
                        // An empty item still takes its number.
                        self.item_start = false;
                        if let Some(Some(n)) = self.lists.last_mut() {
                            *n += 1;
                        }
                    }
                }
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                    self.styles.pop();
                }
                TagEnd::Link => {
                    if let Some(url) = self.link.pop() {
                        if !url.is_empty() && !url.starts_with('#') {
                            self.push_text(&format!(" <{url}>"), Some(Style::Dim));
                        }
                    }
                }
                _ => {}
            },
            Event::Text(t) => {
                let st = self.style();
                self.push_text(&t, st);
            }
            Event::Code(t) => {
                if self.scr.color {
                    self.push_text(&t, Some(Style::Code));
                } else {
                    self.push_text(&format!("`{t}`"), None);
                }
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => self.push_text(&t, Some(Style::Code)),
            Event::Html(t) | Event::InlineHtml(t) => self.push_text(&t, None),
            Event::SoftBreak => self.end_word(),
            Event::HardBreak => {
                self.end_word();
                self.words.push(None);
            }
            Event::Rule => {
                self.flush_par();
                let w = self.width.min(40);
                self.lines.push(self.scr.paint(Style::Dim, &"─".repeat(w)));
            }
            Event::TaskListMarker(done) => {
                self.push_text(if done { "[x]" } else { "[ ]" }, None);
            }
            Event::FootnoteReference(t) => self.push_text(&format!("[{t}]"), None),
        }
    }

    fn blank_if_text(&mut self) {
        if self.lines.last().is_some_and(|l| !l.trim().is_empty()) {
            self.lines.push(String::new());
        }
    }
}

/// A code (math) line in `width` columns: wrapped at spaces, the rest indented two more than
/// the line; a word wider than that is cut with `…` (never split in two).
fn wrap_code(line: &str, width: usize) -> Vec<String> {
    if display_width(line) <= width {
        return vec![line.to_string()];
    }
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let more = format!("{indent}  ");
    let opts = textwrap::Options::new(width)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .initial_indent(indent)
        .subsequent_indent(&more);
    textwrap::wrap(body, opts)
        .into_iter()
        .map(|l| {
            if display_width(&l) <= width {
                return l.into_owned();
            }
            let mut cut = String::new();
            for c in l.chars() {
                if display_width(&cut) + display_width(&c.to_string()) + 1 > width {
                    break;
                }
                cut.push(c);
            }
            cut + "…"
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(w: usize) -> Screen {
        Screen {
            width: w,
            color: false,
        }
    }

    #[test]
    fn bold_lists_and_code() {
        let md = "Some **bold** text and `code`.\n\n- one\n- two **2**\n\n1. first\n2. second\n\n```\nlet x = 1;\n```\n";
        let l = render(md, &plain(80));
        assert_eq!(
            l,
            vec![
                "Some bold text and `code`.",
                "",
                "• one",
                "• two 2",
                "",
                "1. first",
                "2. second",
                "",
                "    let x = 1;",
            ]
        );
        let c = render(
            "**bold** and `c`",
            &Screen {
                width: 80,
                color: true,
            },
        );
        assert_eq!(c, vec!["\x1b[1mbold\x1b[0m and \x1b[36mc\x1b[0m"]);
    }

    #[test]
    fn levelled_values_are_coloured_with_their_marker() {
        let md = format!("= **{} waste**", levelled("22.7%", "warn"));
        assert_eq!(render(&md, &plain(80)), vec!["= 22.7% [! warn] waste"]);
        // The value and its marker stay on one line.
        assert_eq!(
            render(&md, &plain(12)),
            vec!["=", "22.7% [! warn]", "waste"]
        );
        let c = render(
            &md,
            &Screen {
                width: 80,
                color: true,
            },
        );
        assert_eq!(
            c,
            vec!["= \x1b[33m22.7% [! warn]\x1b[0m \x1b[1mwaste\x1b[0m"]
        );
    }

    #[test]
    fn wraps_at_width_with_prefixes() {
        let md = "alpha beta gamma delta epsilon zeta eta theta";
        let l = render_prefixed(md, &plain(20), "A) ", "   ");
        assert_eq!(
            l,
            vec![
                "A) alpha beta gamma",
                "   delta epsilon",
                "   zeta eta theta"
            ]
        );
        assert!(l.iter().all(|x| display_width(x) <= 20));
        let items = render("- a long item that must wrap around", &plain(16));
        assert_eq!(items, vec!["• a long item", "  that must wrap", "  around"]);
    }
}
