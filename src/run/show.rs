//! The explore view: controls, instruments, charts and active banners at given control values,
//! drawn from the lab's [view](crate::view::explore).

use super::term::{self, Screen, Style};
use super::ui::Res;
use super::ui::Stop;
use super::{chart, md, Session};
use crate::eval::CompiledPart;
use crate::view::{self, InstrumentView, Row};
use indexmap::IndexMap;
use rhai::Dynamic;

impl Session<'_> {
    /// A live prediction's feedback for the locked-in answer at `ev` (the current controls):
    /// a heading naming the answer, and the text. `None` before locking in or when not live.
    pub(super) fn live_feedback(
        &self,
        cp: &CompiledPart,
        ev: &crate::eval::Evaluation,
    ) -> Res<Option<(String, String)>> {
        let model = &self.lab.lab.parts[cp.index];
        if !model.prediction.as_ref().is_some_and(|p| p.live) {
            return Ok(None);
        }
        let Some(rec) = self.ledger.parts.get(&model.id.value) else {
            return Ok(None);
        };
        let Some(answer) = &rec.prediction else {
            return Ok(None);
        };
        let correct = rec.prediction_correct.unwrap_or(false);
        let fb = view::answer_feedback(self.lab, cp, ev, answer, correct)
            .map_err(|e| Stop::bad(format!("the lab failed to evaluate: {e}")))?;
        let mark = if correct { "✓" } else { "✗" };
        Ok(fb.map(|f| (format!("{mark} Your prediction ({answer}): "), f.plain())))
    }

    /// The instruments and active feedback at the given control values.
    pub(super) fn show(&self, cp: &CompiledPart, inputs: &IndexMap<String, Dynamic>) -> Res<()> {
        let scr = &self.scr;
        // Each view is one update, with its own total budget (as a page update).
        self.lab.start_update();
        // A formula, chart or banner that fails at these values is shown as the page shows it,
        // in the same words, and the student changes the controls again.
        let ev = match self.lab.evaluate(cp, inputs) {
            Ok(ev) => ev,
            Err(e) => return self.show_error(&e.0.message),
        };
        let v = match view::explore(self.lab, cp, &ev) {
            Ok(v) => v,
            Err(e) => return self.show_error(message_of(&e.message)),
        };
        let mut l = Vec::new();
        if !v.controls.is_empty() {
            let c: Vec<String> = v
                .controls
                .iter()
                .map(|c| format!("{} = {}", md::inline(&c.label.plain(), scr), c.value))
                .collect();
            l.extend(md::render_prefixed(
                &c.join(" · "),
                &Screen {
                    color: false,
                    ..*scr
                },
                "Controls: ",
                "  ",
            ));
        }
        for inst in &v.instruments {
            l.push(String::new());
            match inst {
                InstrumentView::Metrics(t) => rows(scr, &t.rows, &mut l),
                InstrumentView::Table(t) => {
                    if let Some(title) = &t.title {
                        l.push(scr.paint(Style::Bold, &title.plain()));
                    }
                    rows(scr, &t.rows, &mut l);
                }
                InstrumentView::Panel(p) => {
                    for x in term::wrap(&p.title.plain(), scr.width) {
                        l.push(scr.paint(Style::Bold, &x));
                    }
                    let bar = format!("  {} ", scr.paint(Style::Dim, "│"));
                    for line in &p.lines {
                        let t = line.marked(&md::levelled);
                        l.extend(md::render_prefixed(&t, scr, &bar, &bar));
                    }
                }
                InstrumentView::Chart(c) => l.extend(chart::draw(&c.data, scr)),
            }
        }
        if !v.tabled && !v.outputs.is_empty() {
            l.push(String::new());
            rows(scr, &v.outputs, &mut l);
        }
        if let Some((head, fb)) = self.live_feedback(cp, &ev)? {
            l.push(String::new());
            l.extend(md::render_prefixed(&fb, scr, &head, "  "));
        }
        for c in &v.callouts {
            l.push(String::new());
            let style = Style::of_color(c.kind).unwrap_or(Style::Blue);
            let bar = scr.paint(style, "▌ ");
            let head = match &c.title {
                Some(t) => format!("**{}** {}: ", c.kind.to_uppercase(), t.plain()),
                None => format!("**{}**: ", c.kind.to_uppercase()),
            };
            l.extend(md::render_prefixed(
                &format!("{head}{}", c.text.plain()),
                scr,
                &bar,
                &bar,
            ));
        }
        self.print(l);
        Ok(())
    }
}

impl Session<'_> {
    /// An error at the current control values, as the page's error box shows it.
    fn show_error(&self, message: &str) -> Res<()> {
        let mut l = vec![String::new()];
        for x in term::wrap(&format!("⚠ {message}"), self.scr.width) {
            l.push(self.scr.paint(Style::Red, &x));
        }
        self.print(l);
        Ok(())
    }
}

/// The message of a rendered diagnostic (`file:line:col: error: MESSAGE`, then the source).
fn message_of(rendered: &str) -> &str {
    let first = rendered.lines().next().unwrap_or_default();
    first.split_once("error: ").map_or(first, |(_, m)| m)
}

/// Outputs as aligned rows: label, value, level, caption.
fn rows(scr: &Screen, rows: &[Row], l: &mut Vec<String>) {
    let labels: Vec<String> = rows.iter().map(|r| r.label.plain()).collect();
    let w = labels
        .iter()
        .map(|s| term::display_width(s))
        .max()
        .unwrap_or(0);
    for (r, label) in rows.iter().zip(&labels) {
        let pad = format!("{label}{}", " ".repeat(w - term::display_width(label)));
        let caption = r.note.as_ref().map(|n| n.plain());
        l.extend(table_row(
            scr,
            &pad,
            &r.display,
            r.level.as_deref(),
            caption,
        ));
    }
}

/// `  Label  value  [level]  caption` with the value coloured by its level; on a screen too
/// narrow for that, label, value and caption on lines of their own.
fn table_row(
    scr: &Screen,
    label: &str,
    value: &str,
    level: Option<&str>,
    caption: Option<String>,
) -> Vec<String> {
    let (v, mark) = match level {
        Some(lv) => {
            let style = Style::of_color(lv).unwrap_or(Style::Bold);
            let mark = md::level_mark(lv);
            (
                scr.paint(style, value),
                format!("  {}", scr.paint(style, &format!("[{mark}]"))),
            )
        }
        None => (scr.paint(Style::Bold, value), String::new()),
    };
    let caption = caption.filter(|c| !c.is_empty());
    let cap = caption
        .as_ref()
        .map(|c| format!("  {}", scr.paint(Style::Dim, c)))
        .unwrap_or_default();
    let row = format!("  {label}  {v}{mark}{cap}");
    if term::display_width(&row) <= scr.width {
        return vec![row];
    }
    // Too wide for the screen: the label, then the value, then the caption, each on its own.
    let mut l = vec![format!("  {}", label.trim_end())];
    l.push(format!("    {v}{mark}"));
    if let Some(c) = caption {
        for x in term::wrap(&c, scr.width.saturating_sub(4).max(1)) {
            l.push(format!("    {}", scr.paint(Style::Dim, &x)));
        }
    }
    l
}
