//! Diagnostics as data: every problem with a lab carries its file, position, message and hint.

use crate::model::Pos;
use serde::Serialize;
use std::fmt::Write;

/// An error past checking (building a view, rendering) found where the file is not known: an
/// error of the whole file (line 0) until the caller that knows the file names it
/// ([`Diagnostic::in_file`]; a renderer names its lab's). Where the place is known — a part,
/// an instructor's template — the error is made located instead.
impl From<String> for Diagnostic {
    fn from(message: String) -> Diagnostic {
        Diagnostic::error("", Pos::default(), message)
    }
}

impl From<&str> for Diagnostic {
    fn from(message: &str) -> Diagnostic {
        Diagnostic::from(message.to_string())
    }
}

/// `file:line:col: message` (`file: message` at line 0), for a place that wants one line of
/// text; the commands print diagnostics with [`Diagnostic::render`].
impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.file.is_empty(), self.line) {
            (true, _) => write!(f, "{}", self.message),
            (false, 0) => write!(f, "{}: {}", self.file, self.message),
            (false, l) => write!(f, "{}:{l}:{}: {}", self.file, self.col, self.message),
        }
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// One problem found in a lab file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file as the user named it.
    pub file: String,
    /// 1-based line and column; line 0 when unknown.
    pub line: u32,
    pub col: u32,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(file: &str, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: file.to_string(),
            line: pos.line,
            col: pos.col,
            message: message.into(),
            hint: None,
        }
    }
    pub fn warning(file: &str, pos: Pos, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(file, pos, message)
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
    pub fn maybe_hint(mut self, hint: Option<String>) -> Diagnostic {
        if hint.is_some() {
            self.hint = hint;
        }
        self
    }
    /// This diagnostic, in `file` when it names none yet (see the `From<String>` below).
    pub fn in_file(mut self, file: &str) -> Diagnostic {
        if self.file.is_empty() {
            self.file = file.to_string();
        }
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    pub fn pos(&self) -> Pos {
        Pos::new(self.line, self.col)
    }

    /// Renders `file:line:col: error: message`, the source line with a caret, and the hint.
    pub fn render(&self, source: Option<&str>) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = String::new();
        if self.line > 0 {
            let _ = writeln!(
                out,
                "{}:{}:{}: {sev}: {}",
                self.file, self.line, self.col, self.message
            );
        } else {
            let _ = writeln!(out, "{}: {sev}: {}", self.file, self.message);
        }
        if let Some(line) = source.and_then(|s| s.lines().nth(self.line.saturating_sub(1) as usize))
        {
            if self.line > 0 {
                let num = self.line.to_string();
                let pad = " ".repeat(num.len());
                let caret_col = self.col.max(1) as usize - 1;
                let lead: String = line
                    .chars()
                    .take(caret_col)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{num} | {line}");
                let _ = writeln!(out, "{pad} | {lead}^");
            }
        }
        if let Some(h) = &self.hint {
            let _ = writeln!(out, "  = hint: {h}");
        }
        // The source line and quoted names are the lab's text: a control character in them
        // must reach the terminal as a visible mark, never as an escape sequence.
        crate::load::text::visible(&out).into_owned()
    }
}

/// The closest candidate to `name` (Levenshtein distance at most a third of its length, min 2).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (levenshtein(&name.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["utilization", "cs", "service_min"];
        assert_eq!(
            did_you_mean("utilisation", names).as_deref(),
            Some("did you mean `utilization`?")
        );
        assert_eq!(did_you_mean("bandwidth", names), None);
    }

    #[test]
    fn renders_caret_under_column() {
        let d = Diagnostic::error("lab.yaml", Pos::new(2, 5), "bad").with_hint("fix it");
        let r = d.render(Some("a: 1\nb:  oops\n"));
        assert_eq!(
            r,
            "lab.yaml:2:5: error: bad\n  |\n2 | b:  oops\n  |     ^\n  = hint: fix it\n"
        );
    }

    #[test]
    fn control_characters_in_the_source_line_are_shown_not_sent() {
        let d = Diagnostic::error("lab.yaml", Pos::new(1, 4), "bad `\u{1b}]0;x\u{7}`");
        let r = d.render(Some("t: \u{1b}]52;c;aGk=\u{7}\n"));
        assert!(!r.contains('\u{1b}') && !r.contains('\u{7}'), "{r:?}");
        assert!(r.contains("1 | t: \u{fffd}]52;c;aGk=\u{fffd}"), "{r:?}");
    }
}
