//! Bounds on what a lab may declare, and the rule for ids that name files, ledger keys and page
//! elements. Every limit is far above what a real lab uses (the shipped labs are around
//! 60 KB, 4 parts, lines under 400 characters); they exist so a hostile or broken lab is a
//! located error instead of a panic, a frozen tab or a runaway file. docs/tools.md lists
//! them and SECURITY.md explains why.

use crate::diag::Diagnostic;
use crate::load::Source;
use crate::model::*;

/// The most decimals anything shows: `fmt`'s argument, an output's or a slider's `digits`.
pub const MAX_DIGITS: u32 = 20;

/// Largest lab file, in bytes.
pub const MAX_LAB_BYTES: usize = 4 << 20;
/// Longest source line, in characters.
pub const MAX_LINE_CHARS: usize = 10_000;
/// Longest title, label, unit, prefix, option text, series or marker name, in characters.
pub const MAX_SHORT_TEXT: usize = 1_000;
/// Longest id (option ids, chart ids, checkbox options, the ledger's justification key).
pub const MAX_ID_CHARS: usize = 64;
/// Most parts in a lab.
pub const MAX_PARTS: usize = 1_000;
/// Most controls, formulas, outputs and instruments in one part.
pub const MAX_PER_PART: usize = 1_000;
/// Most options of a question, a select or a checkbox group, and values of a slider.
pub const MAX_OPTIONS: usize = 1_000;
/// Most series, bars, markers or reference lines in a chart.
pub const MAX_PER_CHART: usize = 1_000;
/// Most points in a chart's sweep.
pub const MAX_SWEEP_POINTS: u32 = 10_000;
/// Most tests in a lab.
pub const MAX_TESTS: usize = 10_000;

/// A safe id: `^[A-Za-z_][A-Za-z0-9_-]*$`, at most [`MAX_ID_CHARS`], and not `__proto__`.
/// Such a name is a file-name component, a JSON key and a CSS selector value as it stands.
pub fn is_safe_id(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && s.len() <= MAX_ID_CHARS
        && s != "__proto__"
}

/// An option id (of a prediction or a reflection): as [`is_safe_id`], but it may start with a
/// digit (`1_3`, `2x`, `10x`), as option ids could before 4bd6c4b made them errors and labs
/// written then use. It never names a file; where it becomes a page element's id it is
/// prefixed (`pred-a-1_3`), in selectors it is a quoted attribute value, in JavaScript and JSON a
/// string key (`tests/chromium/compat_browser.rs` locks such an option in Chromium).
pub fn is_option_id(s: &str) -> bool {
    let lead = s
        .strip_prefix(|c: char| c.is_ascii_digit())
        .map(|r| format!("_{r}"));
    is_safe_id(lead.as_deref().unwrap_or(s))
}

const ID_HINT: &str = "use letters, digits, `_` and `-`, starting with a letter, e.g. `fast_path`";
const OPTION_ID_HINT: &str = "use letters, digits, `_` and `-`, e.g. `fast_path` or `2x`";

struct Cx<'a> {
    file: &'a str,
    out: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    fn err(&mut self, pos: Pos, msg: String, hint: &str) {
        self.out
            .push(Diagnostic::error(self.file, pos, msg).with_hint(hint));
    }
    fn id(&mut self, pos: Pos, what: &str, id: &str) {
        self.id_by(pos, what, id, is_safe_id, ID_HINT);
    }
    fn id_by(&mut self, pos: Pos, what: &str, id: &str, ok: fn(&str) -> bool, hint: &str) {
        if id.is_empty() {
            self.err(pos, format!("{what} is empty"), hint);
        } else if !ok(id) {
            let shown: String = id.chars().take(MAX_ID_CHARS).collect();
            self.err(pos, format!("{what} `{shown}` is not a valid id"), hint);
        }
    }
    fn text(&mut self, pos: Pos, what: &str, s: &str) {
        let n = s.chars().count();
        if n > MAX_SHORT_TEXT {
            self.err(
                pos,
                format!("{what} is {n} characters long (at most {MAX_SHORT_TEXT})"),
                "keep titles and labels short; put explanations in prose fields",
            );
        }
    }
    fn count(&mut self, pos: Pos, what: &str, n: usize, max: usize) {
        if n > max {
            self.err(
                pos,
                format!("{n} {what} (at most {max})"),
                "split the lab into smaller parts or labs",
            );
        }
    }
    fn digits(&mut self, d: &Option<Spanned<u32>>) {
        if let Some(d) = d {
            if d.value > MAX_DIGITS {
                self.err(
                    d.pos,
                    format!("digits: {} is more than {MAX_DIGITS}", d.value),
                    "the page shows at most 20 decimals; e.g. `digits: 2`",
                );
            }
        }
    }
}

/// Located errors for a lab file too large or with a line too long, before it is parsed.
pub fn source(source: &Source) -> Option<Diagnostic> {
    if source.text.len() > MAX_LAB_BYTES {
        return Some(
            Diagnostic::error(
                &source.name,
                Pos::new(1, 1),
                format!(
                    "the lab file is {} bytes (at most {MAX_LAB_BYTES})",
                    source.text.len()
                ),
            )
            .with_hint("split it into several labs"),
        );
    }
    for (i, line) in source.text.lines().enumerate() {
        if line.chars().count() > MAX_LINE_CHARS {
            return Some(
                Diagnostic::error(
                    &source.name,
                    Pos::new(i as u32 + 1, MAX_LINE_CHARS as u32 + 1),
                    format!("line {} is longer than {MAX_LINE_CHARS} characters", i + 1),
                )
                .with_hint("break long prose into paragraphs (a `|` block); keep labels short"),
            );
        }
    }
    None
}

fn choices(cx: &mut Cx, q: &Text, options: &[Choice]) {
    cx.count(q.pos, "options", options.len(), MAX_OPTIONS);
    for o in options {
        if let Some(id) = &o.id {
            // An id written as `id: ""` has no position of its own: point at the option.
            let pos = if id.pos.is_known() {
                id.pos
            } else {
                o.text.pos
            };
            cx.id_by(pos, "option id", &id.value, is_option_id, OPTION_ID_HINT);
        }
        cx.text(o.text.pos, "an option's text", &o.text.value);
    }
}

fn chart(cx: &mut Cx, c: &Chart) {
    cx.id(c.id.pos, "chart id", &c.id.value);
    if let Some(t) = &c.title {
        cx.text(t.pos, "a chart title", &t.value);
    }
    for (what, n) in [
        ("series", c.series.len()),
        ("bars", c.bars.len()),
        ("markers", c.markers.len()),
        ("reference lines", c.hlines.len() + c.vlines.len()),
        ("radar axes", c.axes.len()),
    ] {
        cx.count(
            c.id.pos,
            &format!("{what} in chart `{}`", c.id.value),
            n,
            MAX_PER_CHART,
        );
    }
    for s in &c.series {
        cx.text(s.name.pos, "a series name", &s.name.value);
    }
    for m in &c.markers {
        cx.text(m.name.pos, "a marker name", &m.name.value);
    }
    for a in &c.axes {
        cx.text(c.id.pos, "a radar axis name", a);
    }
    if let Some(s) = &c.sweep {
        if s.points.is_some_and(|p| p > MAX_SWEEP_POINTS) {
            cx.err(
                s.var.pos,
                format!(
                    "the sweep has {} points (at most {MAX_SWEEP_POINTS})",
                    s.points.unwrap_or(0)
                ),
                "a chart needs a few dozen points, e.g. `points: 50`",
            );
        }
    }
}

fn control(cx: &mut Cx, c: &Control) {
    cx.text(c.label().pos, "a control label", &c.label().value);
    match c {
        Control::Slider(s) => {
            cx.digits(&s.digits);
            if let Some(v) = &s.values {
                cx.count(v.pos, "slider values", v.value.len(), MAX_OPTIONS);
            }
            if let Some(u) = &s.unit {
                cx.text(s.id.pos, "a unit", u);
            }
        }
        Control::Select(s) | Control::Radio(s) => {
            cx.count(
                s.options.pos,
                "select options",
                s.options.value.len(),
                MAX_OPTIONS,
            );
            for k in s.options.value.keys() {
                cx.text(s.options.pos, "a select option label", k);
            }
        }
        Control::Checkboxes(cb) => {
            cx.count(cb.id.pos, "checkbox options", cb.options.len(), MAX_OPTIONS);
            for (k, label) in &cb.options {
                cx.id(cb.id.pos, "checkbox option", k);
                cx.text(cb.id.pos, "a checkbox label", label);
            }
        }
        Control::Number(_) | Control::Switch(_) => {}
    }
}

/// Appends errors for ids that are not safe and sizes past the limits of this module.
pub fn bounds(lab: &Lab, source: &Source, out: &mut Vec<Diagnostic>) {
    let mut cx = Cx {
        file: &source.name,
        out,
    };
    cx.text(lab.title.pos, "the lab title", &lab.title.value);
    cx.count(lab.id.pos, "parts", lab.parts.len(), MAX_PARTS);
    if let Some(k) = lab
        .ledger
        .as_ref()
        .and_then(|l| l.justification_key.as_ref())
    {
        cx.id(k.pos, "justification_key", &k.value);
    }
    if let Some(t) = lab.tests.first() {
        cx.count(t.part.pos, "tests", lab.tests.len(), MAX_TESTS);
    }
    // Lab-level controls are copied into the parts that show them after this check.
    cx.count(lab.id.pos, "lab controls", lab.controls.len(), MAX_PER_PART);
    for c in &lab.controls {
        control(&mut cx, c);
    }
    cx.count(lab.id.pos, "reads", lab.reads.len(), MAX_PER_PART);
    for r in &lab.reads {
        for t in r.label.iter().chain(r.unit.iter()) {
            cx.text(r.name.pos, "the label or unit of a read", t);
        }
    }
    cx.count(lab.id.pos, "records", lab.records.len(), MAX_PER_PART);
    for p in &lab.parts {
        let pos = p.id.pos;
        cx.text(p.title.pos, "a part title", &p.title.value);
        for (what, n) in [
            ("controls", p.controls.len()),
            ("formulas", p.formulas.len()),
            ("outputs", p.outputs.len()),
            ("instruments", p.instruments.len()),
            ("feedback rules", p.feedback.len()),
        ] {
            cx.count(
                pos,
                &format!("{what} in part `{}`", p.id.value),
                n,
                MAX_PER_PART,
            );
        }
        if let Some(pr) = &p.prediction {
            choices(&mut cx, &pr.question, &pr.options);
        }
        if let Some(r) = &p.reflection {
            choices(&mut cx, &r.question, &r.options);
        }
        cx.count(
            pos,
            &format!("questions in part `{}`", p.id.value),
            p.questions.len(),
            MAX_PER_PART,
        );
        for q in &p.questions {
            choices(&mut cx, &q.prompt(), &q.spec.options);
            if let Some(t) = &q.spec.placeholder {
                cx.text(t.pos, "a placeholder", t);
            }
        }
        for c in &p.controls {
            control(&mut cx, c);
        }
        // Outputs are keyed by formula name and carry no position: report at the part.
        for (name, o) in &p.outputs {
            cx.digits(&o.digits);
            for (what, t) in [
                ("label", &o.label),
                ("unit", &o.unit),
                ("prefix", &o.prefix),
            ] {
                if let Some(t) = t {
                    cx.text(pos, &format!("the {what} of output `{name}`"), t);
                }
            }
        }
        for i in &p.instruments {
            match i {
                Instrument::Chart(c) => chart(&mut cx, c),
                Instrument::Panel(pa) => {
                    cx.text(pa.title.pos, "a panel title", &pa.title.value);
                    cx.count(pa.title.pos, "panel lines", pa.lines.len(), MAX_PER_PART);
                }
                Instrument::Metrics(cards) => {
                    for m in cards {
                        if let Some(l) = &m.label {
                            cx.text(l.pos, "a metric card label", &l.value);
                        }
                    }
                }
                Instrument::Table(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{is_option_id, is_safe_id};

    #[test]
    fn safe_ids() {
        for ok in [
            "a",
            "A",
            "_x",
            "fast-path",
            "opt_2",
            "student_justification",
        ] {
            assert!(is_safe_id(ok), "{ok}");
        }
        let long = "a".repeat(65);
        for bad in [
            "",
            "1a",
            "-a",
            "a b",
            "a/b",
            "../x",
            "/../../../escaped/pwned",
            "__proto__",
            "é",
            &long,
        ] {
            assert!(!is_safe_id(bad), "{bad}");
            assert!(!is_option_id(bad) || bad == "1a", "{bad}");
        }
        // Option ids as labs written before 4bd6c4b had them: a digit may come first.
        for ok in ["1_3", "2x", "10x", "1a", "7", "B"] {
            assert!(is_option_id(ok), "{ok}");
        }
        for bad in ["1 3", "1/x", "-1", "1é", &format!("1{}", "a".repeat(64))] {
            assert!(!is_option_id(bad), "{bad}");
        }
    }
}
