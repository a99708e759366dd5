//! Prose templates: Markdown with `{{ expr }}` placeholders.

/// A piece of a template.
#[derive(Debug, Clone, PartialEq)]
pub enum Segment<'a> {
    /// Literal text.
    Lit(&'a str),
    /// A placeholder's expression and its byte offset in the template.
    Expr(&'a str, usize),
    /// `{{ @name }}`: output `name` of the part as its instrument shows it (text and level), and
    /// the byte offset of the `@`.
    Output(&'a str, usize),
}

/// Splits a template. An unclosed `{{` is an error with its byte offset.
pub fn segments(text: &str) -> Result<Vec<Segment<'_>>, usize> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(i) = text[rest..].find("{{") {
        let start = rest + i;
        if start > rest {
            out.push(Segment::Lit(&text[rest..start]));
        }
        let inner = start + 2;
        let Some(j) = text[inner..].find("}}") else {
            return Err(start);
        };
        let raw = &text[inner..inner + j];
        if raw.contains("{{") {
            return Err(start);
        }
        let lead = raw.len() - raw.trim_start().len();
        let body = raw.trim();
        out.push(match body.strip_prefix('@') {
            Some(name) => Segment::Output(name.trim(), inner + lead),
            None => Segment::Expr(body, inner + lead),
        });
        rest = inner + j + 2;
    }
    if rest < text.len() {
        out.push(Segment::Lit(&text[rest..]));
    }
    Ok(out)
}

/// The 1-based (line, column) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_placeholders_with_offsets() {
        let s = segments("At {{ fmt(x, 0) }}% the wait").unwrap();
        assert_eq!(
            s,
            vec![
                Segment::Lit("At "),
                Segment::Expr("fmt(x, 0)", 6),
                Segment::Lit("% the wait")
            ]
        );
        assert_eq!(segments("oops {{ x").unwrap_err(), 5);
        assert_eq!(
            segments("= {{ @waste }}!").unwrap(),
            vec![
                Segment::Lit("= "),
                Segment::Output("waste", 5),
                Segment::Lit("!")
            ]
        );
    }
}
