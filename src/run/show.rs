//! The explore view: controls, instruments, charts and active banners at given control values.

use super::term::{self, Screen, Style};
use super::ui::Res;
use super::{chart, controls::control_display, eval_stop, md, Session};
use crate::eval::{self, CompiledPart, Evaluation};
use crate::model::*;
use indexmap::IndexMap;
use rhai::Dynamic;

impl Session<'_> {
    /// The instruments and active feedback at the given control values.
    pub(super) fn show(
        &self,
        cp: &CompiledPart,
        part: &Part,
        inputs: &IndexMap<String, Dynamic>,
    ) -> Res<()> {
        let scr = &self.scr;
        // Each view is one update, with its own total budget (as a page update).
        self.lab.start_update();
        let ev = self.lab.evaluate(cp, inputs).map_err(eval_stop)?;
        let outputs: IndexMap<String, eval::OutputView> = self
            .lab
            .outputs(&ev)
            .map_err(eval_stop)?
            .into_iter()
            .map(|o| (o.name.clone(), o))
            .collect();
        let mut l = Vec::new();
        if !part.controls.is_empty() {
            let c: Vec<String> = part
                .controls
                .iter()
                .map(|ctl| {
                    let v = inputs
                        .get(&ctl.id().value)
                        .cloned()
                        .unwrap_or(Dynamic::UNIT);
                    format!(
                        "{} = {}",
                        md::inline(&ctl.label().value, scr),
                        control_display(ctl, &v)
                    )
                })
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
        let row = |label: &str, name: &str, caption: Option<String>| -> Vec<String> {
            let (value, level) = match outputs.get(name) {
                Some(o) => (o.display.clone(), o.level.clone()),
                None => (
                    ev.values
                        .get(name)
                        .map(eval::display)
                        .unwrap_or_else(|| "—".into()),
                    None,
                ),
            };
            table_row(scr, label, &value, level.as_deref(), caption)
        };
        let mut tables = 0;
        for inst in &part.instruments {
            match inst {
                Instrument::Metrics(cards) => {
                    tables += 1;
                    l.push(String::new());
                    let w = cards
                        .iter()
                        .map(|c| card_label(self, cp, &ev, c, &outputs))
                        .map(|s| term::display_width(&s))
                        .max()
                        .unwrap_or(0);
                    for c in cards {
                        let label = card_label(self, cp, &ev, c, &outputs);
                        let caption = c
                            .caption
                            .as_ref()
                            .map(|t| self.text(Some(cp), Some(&ev), t))
                            .transpose()?;
                        let pad = format!("{label}{}", " ".repeat(w - term::display_width(&label)));
                        l.extend(row(&pad, &c.output.value, caption));
                    }
                }
                Instrument::Table(t) => {
                    tables += 1;
                    l.push(String::new());
                    if let Some(title) = &t.title {
                        l.push(scr.paint(Style::Bold, &self.text(Some(cp), Some(&ev), title)?));
                    }
                    let labels: Vec<String> = t
                        .outputs
                        .iter()
                        .map(|o| {
                            outputs
                                .get(&o.value)
                                .map(|v| v.label.clone())
                                .unwrap_or(o.value.clone())
                        })
                        .collect();
                    let w = labels
                        .iter()
                        .map(|s| term::display_width(s))
                        .max()
                        .unwrap_or(0);
                    for (o, label) in t.outputs.iter().zip(&labels) {
                        let pad = format!("{label}{}", " ".repeat(w - term::display_width(label)));
                        l.extend(row(&pad, &o.value, None));
                    }
                }
                Instrument::Panel(p) => {
                    l.push(String::new());
                    let title = self.text(Some(cp), Some(&ev), &p.title)?;
                    for x in term::wrap(&title, scr.width) {
                        l.push(scr.paint(Style::Bold, &x));
                    }
                    let bar = format!("  {} ", scr.paint(Style::Dim, "│"));
                    for line in &p.lines {
                        let t = self.levelled(Some(cp), Some(&ev), line)?;
                        l.extend(md::render_prefixed(&t, scr, &bar, &bar));
                    }
                }
                Instrument::Chart(ch) => {
                    l.push(String::new());
                    let data = self.lab.chart(&ev, ch).map_err(eval_stop)?;
                    l.extend(chart::draw(&data, scr));
                }
            }
        }
        if tables == 0 && !outputs.is_empty() {
            l.push(String::new());
            let w = outputs
                .values()
                .map(|o| term::display_width(&o.label))
                .max()
                .unwrap_or(0);
            for o in outputs.values() {
                let pad = format!(
                    "{}{}",
                    o.label,
                    " ".repeat(w - term::display_width(&o.label))
                );
                l.extend(table_row(scr, &pad, &o.display, o.level.as_deref(), None));
            }
        }
        for c in self.lab.callouts(&ev).map_err(eval_stop)? {
            l.push(String::new());
            let style = Style::of_color(c.kind).unwrap_or(Style::Blue);
            let bar = scr.paint(style, "▌ ");
            let head = match &c.title {
                Some(t) => format!("**{}** {t}: ", c.kind.to_uppercase()),
                None => format!("**{}**: ", c.kind.to_uppercase()),
            };
            l.extend(md::render_prefixed(
                &format!("{head}{}", c.text),
                scr,
                &bar,
                &bar,
            ));
        }
        self.print(l);
        Ok(())
    }
}

fn card_label(
    s: &Session<'_>,
    cp: &CompiledPart,
    ev: &Evaluation,
    c: &MetricCard,
    outputs: &IndexMap<String, eval::OutputView>,
) -> String {
    match &c.label {
        Some(t) => s
            .lab
            .render_text(Some(cp), Some(ev), &t.value, &[])
            .unwrap_or_else(|_| t.value.clone()),
        None => outputs
            .get(&c.output.value)
            .map(|o| o.label.clone())
            .unwrap_or_else(|| c.output.value.clone()),
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
