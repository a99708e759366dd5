//! Cross-references copied from the book's sources. The course's notebooks cite the book as
//! Quarto does, `@sec-fault-tolerance`, `@fig-roofline`; labforge has no book to resolve them
//! against, so a student would read the token as typed on the page, in the terminal and in the
//! handout. `check` warns at each one, with what to write instead.

use crate::diag::Diagnostic;
use crate::load::Source;
use crate::model::Pos;

/// Quarto's cross-reference prefixes.
const KINDS: &[&str] = &["sec", "fig", "tbl", "eq", "lst", "thm", "def", "exm", "exr"];

/// A warning at every `@kind-label` in the lab's text (YAML comments are skipped).
pub fn warn(source: &Source, out: &mut Vec<Diagnostic>) {
    for (i, line) in source.text.lines().enumerate() {
        let text = uncommented(line);
        let mut from = 0;
        while let Some(at) = text[from..].find('@') {
            let start = from + at;
            from = start + 1;
            let Some(token) = reference_at(text, start) else {
                continue;
            };
            let col = text[..start].chars().count() + 1;
            out.push(
                Diagnostic::warning(
                    &source.name,
                    Pos::new(i as u32 + 1, col as u32),
                    format!(
                        "`{token}` is a cross-reference to the book: students would read it as typed"
                    ),
                )
                .with_hint(
                    "name what it points to in words (`the Fault Tolerance chapter`), or link it in Markdown (`[Fault Tolerance](https://…)`)",
                ),
            );
        }
    }
}

/// `@kind-label` starting at byte `start` of `text` (an `@` not inside a word: `a@b.c` is an
/// address, not a reference).
fn reference_at(text: &str, start: usize) -> Option<&str> {
    let before = text[..start].chars().next_back();
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.') {
        return None;
    }
    let rest = &text[start + 1..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let word = rest[..len].trim_end_matches(['-', '_']);
    let (kind, label) = word.split_once('-')?;
    (KINDS.contains(&kind) && !label.is_empty()).then(|| &text[start..start + 1 + word.len()])
}

/// `line` without a YAML comment: from a `#` at the line's start or after a space, outside
/// quotes, to the end.
fn uncommented(line: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '"' || c == '\'') && matches!(prev, ' ' | ':' | '[' | '{' | ',') => {
                quote = Some(c)
            }
            None if c == '#' && prev.is_whitespace() => return &line[..i],
            None => {}
        }
        prev = c;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(yaml: &str) -> Vec<(u32, u32, String)> {
        let mut out = Vec::new();
        warn(&Source::new("t.yaml", yaml), &mut out);
        out.into_iter()
            .map(|d| (d.line, d.col, d.message))
            .collect()
    }

    #[test]
    fn finds_book_references_in_text_and_not_in_comments_or_addresses() {
        let yaml = "reading: |\n  - **@sec-fault-tolerance** -- MTBF (see @fig-roofline.)\n# from @sec-x\nnote: \"mail a@sec-b.org\" # @sec-y\nhandle: \"@someone\"\n";
        let f = found(yaml);
        assert_eq!(
            f.iter().map(|(l, c, _)| (*l, *c)).collect::<Vec<_>>(),
            vec![(2, 7), (2, 43)],
            "{f:?}"
        );
        assert!(f[0]
            .2
            .starts_with("`@sec-fault-tolerance` is a cross-reference"));
        assert!(f[1].2.starts_with("`@fig-roofline` is"), "{}", f[1].2);
    }
}
