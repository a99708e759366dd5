//! The data table behind a chart: the values of its series, markers and reference lines, for
//! readers who cannot see the drawing (and anyone who wants the numbers).

use super::{esc, tip_num};
use crate::eval::chart::{ChartData, XValue};
use crate::model::ChartKind;
use std::fmt::Write;

/// The most rows of a chart's data a printed handout shows.
const PRINTED_ROWS: usize = 11;

/// `<details>` with the chart's values as tables (the page's charts.js writes the same, closed).
/// `open` for paper: a printed `<details>` shows only its summary, so it is open, a long sweep
/// keeps [`PRINTED_ROWS`] evenly spaced rows and numbers are written as values are elsewhere.
pub fn chart_table(ch: &ChartData, open: bool) -> String {
    let flat = |s: &str| s.replace('\n', " ");
    let xhead = ch.x_label.as_deref().map(flat).unwrap_or_else(|| {
        match ch.kind {
            ChartKind::Bar => "Category",
            ChartKind::Radar => "Axis",
            _ => "x",
        }
        .into()
    });
    let yhead = ch
        .y_label
        .as_deref()
        .map(flat)
        .unwrap_or_else(|| "y".into());
    // Printed, numbers as the handout writes values (`990`, not the tooltip's `989.50`).
    let num = |v: f64| {
        if open && v.is_finite() {
            crate::library::format::auto(v)
        } else {
            tip_num(v)
        }
    };
    let xs = |v: f64| format!("{}{}{}", ch.x_prefix, num(v), ch.x_suffix);
    let ys = |v: f64| format!("{}{}{}", ch.y_prefix, num(v), ch.y_suffix);
    let key = |x: &XValue| match x {
        XValue::Category(k) => format!("{}{}{}", ch.x_prefix, flat(k), ch.x_suffix),
        XValue::Number(i) if ch.kind == ChartKind::Radar => {
            ch.axes.get(*i as usize).cloned().unwrap_or_default()
        }
        XValue::Number(v) => match ch.bin_width {
            // A histogram's bin: its range.
            Some(w) => format!("{}{}–{}{}", ch.x_prefix, num(*v), num(*v + w), ch.x_suffix),
            None => xs(*v),
        },
    };
    let mut keys: Vec<String> = Vec::new();
    for s in &ch.series {
        for p in &s.points {
            let k = key(&p.x);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let mut o = format!(
        "<details class=\"chart-data\"{}><summary>Data</summary>",
        if open { " open" } else { "" }
    );
    // Printed open (the handout), a long sweep keeps evenly spaced rows, first and last among
    // them, and says so: 101 rows would fill pages a reader never reads.
    let all = keys.len();
    if open && all > PRINTED_ROWS {
        let step = (all - 1) as f64 / (PRINTED_ROWS - 1) as f64;
        let mut kept: Vec<String> = (0..PRINTED_ROWS)
            .map(|i| keys[((i as f64 * step).round() as usize).min(all - 1)].clone())
            .collect();
        kept.dedup();
        keys = kept;
    }
    if !keys.is_empty() {
        let _ = write!(
            o,
            "<table>{}<thead><tr><th scope=\"col\">{}</th>",
            if keys.len() < all {
                format!("<caption>{} of {all} points</caption>", keys.len())
            } else {
                String::new()
            },
            esc(&xhead)
        );
        for s in &ch.series {
            let name = if s.name.is_empty() { &yhead } else { &s.name };
            let _ = write!(o, "<th scope=\"col\">{}</th>", esc(name));
        }
        o.push_str("</tr></thead><tbody>");
        for k in &keys {
            let _ = write!(o, "<tr><th scope=\"row\">{}</th>", esc(k));
            for s in &ch.series {
                let v = s.points.iter().find(|p| &key(&p.x) == k);
                let _ = write!(
                    o,
                    "<td>{}</td>",
                    esc(&v.map(|p| ys(p.y)).unwrap_or_default())
                );
            }
            o.push_str("</tr>");
        }
        o.push_str("</tbody></table>");
    }
    let mut marks: Vec<[String; 3]> = Vec::new();
    for m in &ch.markers {
        marks.push([m.name.clone(), xs(m.x), ys(m.y)]);
    }
    for l in &ch.hlines {
        let name = l.label.as_deref().map(flat).unwrap_or_default();
        marks.push([name, String::new(), ys(l.at)]);
    }
    for l in &ch.vlines {
        let name = l.label.as_deref().map(flat).unwrap_or_default();
        marks.push([name, xs(l.at), String::new()]);
    }
    if !marks.is_empty() {
        let _ = write!(
            o,
            "<table><thead><tr><th scope=\"col\">Marked</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
            esc(&xhead),
            esc(&yhead)
        );
        for m in &marks {
            let _ = write!(
                o,
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
                esc(&m[0]),
                esc(&m[1]),
                esc(&m[2])
            );
        }
        o.push_str("</tbody></table>");
    }
    o.push_str("</details>");
    o
}
