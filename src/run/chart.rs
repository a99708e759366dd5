//! Charts drawn as text: line/scatter series as ASCII points on a grid (one glyph per series,
//! markers as symbols, off-scale ones at the edge with an arrow, reference lines dashed, bands
//! shaded), bars as horizontal bars (stacked ones as segments), radar as a table.

use super::term::{display_width, Screen, Style};
use crate::eval::chart::{ChartData, XValue};
use crate::library::format;
use crate::model::{ChartKind, LineStyle, PointShape, Symbol};

mod grid;
use grid::grid;

const GLYPHS: [char; 6] = ['*', '+', 'o', 'x', '#', '%'];
/// Glyphs of the series of a stacked bar.
const BLOCKS: [&str; 4] = ["█", "▓", "▒", "░"];

/// A label on one line (`\n` read as a space).
fn flat(s: &str) -> String {
    s.replace('\n', " ")
}

/// Rows of the grid for a chart of `height` pixels (12 at the default 360).
fn grid_rows(height: f64) -> usize {
    ((height / 30.0).round() as usize).clamp(6, 24)
}

/// Draws a chart in at most `scr.width` columns.
pub fn draw(c: &ChartData, scr: &Screen) -> Vec<String> {
    let mut out = Vec::new();
    let lines = |first: &str, text: &str| -> Vec<String> {
        super::term::wrap(text, scr.width.saturating_sub(2).max(1))
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{}{x}", if i == 0 { first } else { "  " }))
            .collect()
    };
    for x in lines("▸ ", &flat(&c.heading())) {
        out.push(scr.paint(Style::Bold, &x));
    }
    if matches!(c.kind, ChartKind::Bar | ChartKind::Histogram) {
        // Bars carry no axes: name what the rows and lengths are.
        let axes: Vec<&str> = [&c.y_label, &c.x_label]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        if !axes.is_empty() {
            for x in lines("  ", &axes.join(" by ")) {
                out.push(scr.paint(Style::Dim, &x));
            }
        }
    }
    match c.kind {
        ChartKind::Bar if c.stacked => stacked(c, scr, &mut out),
        ChartKind::Bar => bars(c, scr, &mut out),
        ChartKind::Radar => radar(c, scr, &mut out),
        ChartKind::Line | ChartKind::Scatter => grid(c, scr, &mut out),
        ChartKind::Histogram => bars(&bins_as_bars(c), scr, &mut out),
    }
    out
}

/// A histogram as bars, one row per bin named by its range (`10–20 ms`).
fn bins_as_bars(c: &ChartData) -> ChartData {
    let mut b = c.clone();
    let w = c.bin_width.unwrap_or(f64::NAN);
    for s in &mut b.series {
        for p in &mut s.points {
            if let XValue::Number(lo) = p.x {
                let (a, z) = (format::auto(lo), format::auto(lo + w));
                p.x = XValue::Category(format!("{}{a}–{z}{}", c.x_prefix, c.x_suffix));
            }
        }
    }
    b
}

fn color_of(name: &str) -> Style {
    Style::of_color(name).unwrap_or(Style::Bold)
}

fn tick(x: f64, prefix: &str, suffix: &str) -> String {
    format!("{prefix}{}{suffix}", format::auto(x))
}

fn bars(c: &ChartData, scr: &Screen, out: &mut Vec<String>) {
    let rows: Vec<(String, f64, String, String)> = c
        .series
        .iter()
        .flat_map(|s| {
            s.points.iter().map(move |p| {
                let label = match &p.x {
                    XValue::Category(l) => flat(l),
                    XValue::Number(n) => format::auto(*n),
                };
                let label = if c.series.len() > 1 && !s.name.is_empty() {
                    format!("{} · {label}", s.name)
                } else {
                    label
                };
                let text = p
                    .text
                    .as_deref()
                    .map(flat)
                    .unwrap_or_else(|| tick(p.y, &c.y_prefix, &c.y_suffix));
                let color = p.color.clone().unwrap_or_else(|| s.color.clone());
                (label, p.y, text, color)
            })
        })
        .collect();
    if rows.is_empty() {
        out.push("  (no data)".into());
        return;
    }
    let lw = rows
        .iter()
        .map(|r| display_width(&r.0))
        .max()
        .unwrap_or(0)
        .min(scr.width / 3);
    let tw = rows.iter().map(|r| display_width(&r.2)).max().unwrap_or(0);
    let max = rows
        .iter()
        .map(|r| r.1.abs())
        .chain(c.hlines.iter().map(|l| l.at.abs()))
        .filter(|v| v.is_finite())
        .fold(c.y_max.unwrap_or(0.0), f64::max);
    let avail = scr.width.min(100).saturating_sub(lw + tw + 6).max(5);
    let cell = |y: f64| {
        if max > 0.0 && y.is_finite() {
            ((y.abs() / max) * avail as f64).round() as usize
        } else {
            0
        }
    };
    // Target and reference lines: a `┊` at their value's column on every bar.
    let marks: Vec<(usize, &str)> = c
        .hlines
        .iter()
        .filter(|l| l.at.is_finite())
        .map(|l| (cell(l.at), l.color.as_str()))
        .collect();
    for (label, y, text, color) in rows {
        let n = cell(y);
        let width = marks.iter().map(|m| m.0 + 1).fold(n, usize::max);
        let mut bar = String::new();
        let mut run = 0;
        for i in 0..width {
            match marks.iter().find(|m| m.0 == i) {
                Some(m) => {
                    bar.push_str(&scr.paint(color_of(&color), &"█".repeat(run)));
                    run = 0;
                    bar.push_str(&scr.paint(color_of(m.1), "┊"));
                }
                None if i < n => run += 1,
                None => {
                    bar.push_str(&scr.paint(color_of(&color), &"█".repeat(run)));
                    run = 0;
                    bar.push(' ');
                }
            }
        }
        bar.push_str(&scr.paint(color_of(&color), &"█".repeat(run)));
        let label = truncate(&label, lw);
        let pad = lw - display_width(&label);
        out.push(format!("  {label}{} │{bar} {text}", " ".repeat(pad)));
    }
    ref_legend(c, scr, out);
}

/// The reference lines of a bar chart under it.
fn ref_legend(c: &ChartData, scr: &Screen, out: &mut Vec<String>) {
    for l in c.hlines.iter().filter(|l| l.at.is_finite()) {
        let what = l
            .label
            .as_deref()
            .map(flat)
            .unwrap_or_else(|| tick(l.at, &c.y_prefix, &c.y_suffix));
        out.push(format!("  {} {what}", scr.paint(color_of(&l.color), "┊")));
    }
}

/// Stacked bars: one row per category, a segment per series (its own glyph), the total after.
fn stacked(c: &ChartData, scr: &Screen, out: &mut Vec<String>) {
    let cats = c.categories();
    if cats.is_empty() {
        out.push("  (no data)".into());
        return;
    }
    let value = |s: &crate::eval::chart::SeriesData, k: &str| {
        s.points
            .iter()
            .find(|p| matches!(&p.x, XValue::Category(x) if x == k))
            .map(|p| p.y)
            .filter(|y| y.is_finite())
            .unwrap_or(0.0)
    };
    let totals: Vec<f64> = cats
        .iter()
        .map(|k| c.series.iter().map(|s| value(s, k).max(0.0)).sum())
        .collect();
    let labels: Vec<String> = cats.iter().map(|k| flat(k)).collect();
    let lw = labels
        .iter()
        .map(|l| display_width(l))
        .max()
        .unwrap_or(0)
        .min(scr.width / 3);
    let texts: Vec<String> = totals
        .iter()
        .map(|t| tick(*t, &c.y_prefix, &c.y_suffix))
        .collect();
    let tw = texts.iter().map(|t| display_width(t)).max().unwrap_or(0);
    let max = totals
        .iter()
        .copied()
        .chain(c.hlines.iter().map(|l| l.at.abs()))
        .filter(|v| v.is_finite())
        .fold(c.y_max.unwrap_or(0.0), f64::max);
    let avail = scr.width.min(100).saturating_sub(lw + tw + 6).max(5);
    let cells = |y: f64| {
        if max > 0.0 {
            ((y / max) * avail as f64).round() as usize
        } else {
            0
        }
    };
    for (i, k) in cats.iter().enumerate() {
        let mut bar = String::new();
        let mut acc = 0.0;
        let mut drawn = 0;
        for (si, s) in c.series.iter().enumerate() {
            acc += value(s, k).max(0.0);
            let n = cells(acc).saturating_sub(drawn);
            drawn += n;
            bar.push_str(&scr.paint(color_of(&s.color), &BLOCKS[si % BLOCKS.len()].repeat(n)));
        }
        let label = truncate(&labels[i], lw);
        let pad = lw - display_width(&label);
        out.push(format!("  {label}{} │{bar} {}", " ".repeat(pad), texts[i]));
    }
    for (si, s) in c.series.iter().enumerate() {
        if !s.name.is_empty() {
            let g = BLOCKS[si % BLOCKS.len()];
            out.push(format!("  {} {}", scr.paint(color_of(&s.color), g), s.name));
        }
    }
    ref_legend(c, scr, out);
}

fn truncate(s: &str, w: usize) -> String {
    if display_width(s) <= w {
        return s.to_string();
    }
    let mut o = String::new();
    for ch in s.chars() {
        if display_width(&o) + 2 > w {
            break;
        }
        o.push(ch);
    }
    o.push('…');
    o
}

fn radar(c: &ChartData, scr: &Screen, out: &mut Vec<String>) {
    // Axis names pad a column up to 40 cells; longer ones just run on.
    let aw = c
        .axes
        .iter()
        .map(|a| display_width(a))
        .max()
        .unwrap_or(4)
        .min(40);
    // A series' column is as wide as its name where the screen has room for every column
    // ("Current policy" in full at 100 columns), else the room shared out, never under 10.
    let n = c.series.len().max(1);
    let room = scr.width.saturating_sub(aw + 2) / n;
    let cw = c
        .series
        .iter()
        .map(|s| display_width(&s.name))
        .max()
        .unwrap_or(0)
        .min(room.saturating_sub(2))
        .max(10);
    let mut head = format!("  {:aw$}", "");
    for s in &c.series {
        let name = truncate(&s.name, cw);
        let pad = cw.saturating_sub(display_width(&name));
        head.push_str(&format!("  {}{name}", " ".repeat(pad)));
    }
    out.push(scr.paint(Style::Dim, &head));
    for (i, a) in c.axes.iter().enumerate() {
        let mut line = format!("  {a}{}", " ".repeat(aw.saturating_sub(display_width(a))));
        for s in &c.series {
            let v = s
                .points
                .get(i)
                .map(|p| format::auto(p.y))
                .unwrap_or_default();
            line.push_str(&format!("  {v:>cw$}"));
        }
        out.push(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::chart::{BandData, LineData, MarkerData, PointData, SeriesData};
    use crate::model::LegendPos;

    const HEIGHT: usize = 12;

    fn chart(kind: ChartKind) -> ChartData {
        ChartData {
            id: "c".into(),
            kind,
            title: Some("T".into()),
            x_label: None,
            y_label: None,
            x_log: false,
            y_log: false,
            x_min: None,
            x_max: None,
            y_min: None,
            y_max: None,
            x_prefix: String::new(),
            x_suffix: String::new(),
            y_prefix: String::new(),
            y_suffix: String::new(),
            legend: LegendPos::Bottom,
            description: None,
            height: 360.0,
            stacked: false,
            bands: vec![],
            bin_width: None,
            axes: vec![],
            series: vec![],
            markers: vec![],
            hlines: vec![],
            vlines: vec![],
        }
    }

    fn pt(x: XValue, y: f64) -> PointData {
        PointData {
            x,
            y,
            color: None,
            text: None,
        }
    }

    #[test]
    fn line_chart_fits_and_places_points() {
        let mut c = chart(ChartKind::Line);
        c.series.push(series(
            "s",
            "blue",
            (0..=10)
                .map(|i| pt(XValue::Number(i as f64), i as f64))
                .collect(),
        ));
        c.markers.push(MarkerData {
            name: "Now".into(),
            x: 10.0,
            y: 10.0,
            symbol: Symbol::Diamond,
            color: "orange".into(),
            text: None,
        });
        let scr = Screen {
            width: 40,
            color: false,
        };
        let l = draw(&c, &scr);
        assert!(l.iter().all(|x| display_width(x) <= 40), "{l:#?}");
        // Top row ends with the marker (highest point), bottom row starts with a point.
        assert!(l[1].ends_with('◆'), "{}", l[1]);
        assert!(l[HEIGHT].contains("0 ┤*"), "{}", l[HEIGHT]);
        assert!(l.iter().any(|x| x.contains("◆ Now (10, 10)")));
    }

    /// A bar chart of two bars, 10 and 5.
    fn two_bars() -> ChartData {
        let mut c = chart(ChartKind::Bar);
        c.series.push(series(
            "",
            "blue",
            vec![
                pt(XValue::Category("big".into()), 10.0),
                pt(XValue::Category("half".into()), 5.0),
            ],
        ));
        c
    }

    #[test]
    fn a_histogram_is_a_bar_per_bin_named_by_its_range() {
        let mut c = chart(ChartKind::Histogram);
        c.x_suffix = " ms".into();
        c.bin_width = Some(5.0);
        c.series.push(series(
            "n",
            "blue",
            vec![pt(XValue::Number(0.0), 8.0), pt(XValue::Number(5.0), 4.0)],
        ));
        let l = draw(&c, &plain(40));
        let n = |s: &str| s.matches('█').count();
        assert!(
            l[1].contains("0–5 ms") && l[2].contains("5–10 ms"),
            "{l:#?}"
        );
        assert_eq!(n(&l[1]), 2 * n(&l[2]));
    }

    #[test]
    fn bars_scale_to_the_largest() {
        let c = two_bars();
        let l = draw(&c, &plain(40));
        let n = |s: &str| s.matches('█').count();
        assert_eq!(n(&l[1]), 2 * n(&l[2]));
        assert!(l[1].ends_with(" 10") && l[2].ends_with(" 5"));
    }

    #[test]
    fn bars_keep_their_target_lines() {
        let mut c = two_bars();
        // A target beyond every bar widens the scale so it is drawn too.
        c.hlines.push(LineData {
            at: 7.5,
            label: Some("Target 7.5".into()),
            color: "red".into(),
            dashed: true,
        });
        c.hlines.push(LineData {
            at: 20.0,
            label: None,
            color: "gray".into(),
            dashed: true,
        });
        let scr = Screen {
            width: 60,
            color: false,
        };
        let l = draw(&c, &scr);
        assert!(l.iter().all(|x| display_width(x) <= 60), "{l:#?}");
        let cols = |row: &str| -> Vec<usize> {
            row.chars()
                .enumerate()
                .filter(|(_, ch)| *ch == '┊')
                .map(|(i, _)| i)
                .collect()
        };
        let (a, b) = (cols(&l[1]), cols(&l[2]));
        assert_eq!(a.len(), 2, "{l:#?}");
        assert_eq!(
            a, b,
            "the lines stand at the same columns on every bar:\n{l:#?}"
        );
        // 7.5 of 20 on the same scale as the bars: the bar of 5 ends before the 7.5 line.
        let bar_end =
            |row: &str| row.chars().position(|ch| ch == '█').unwrap() + row.matches('█').count();
        assert!(bar_end(&l[2]) <= a[0] && a[0] < a[1], "{l:#?}");
        assert!(l.iter().any(|x| x.contains("┊ Target 7.5")), "{l:#?}");
        assert!(l.iter().any(|x| x.contains("┊ 20")), "{l:#?}");
    }

    fn series(name: &str, color: &str, pts: Vec<PointData>) -> SeriesData {
        SeriesData::plain(name, color, pts)
    }

    fn plain(width: usize) -> Screen {
        Screen {
            width,
            color: false,
        }
    }

    #[test]
    fn stacked_bars_are_segments_of_one_row() {
        let mut c = chart(ChartKind::Bar);
        c.stacked = true;
        let cat = |k: &str, y| pt(XValue::Category(k.into()), y);
        c.series.push(series(
            "compute",
            "blue",
            vec![cat("Data\nparallel", 6.0), cat("B", 2.0)],
        ));
        c.series.push(series(
            "comm",
            "orange",
            vec![cat("Data\nparallel", 2.0), cat("B", 2.0)],
        ));
        let l = draw(&c, &plain(60));
        assert!(l.iter().all(|x| display_width(x) <= 60), "{l:#?}");
        // One row per category (the label on one line), compute then comm, the total after.
        let row = l.iter().find(|x| x.contains("Data parallel")).unwrap();
        let (a, b) = (row.matches('█').count(), row.matches('▓').count());
        assert!(a == 3 * b && b > 0, "{row}");
        assert!(row.ends_with(" 8"), "{row}");
        let rb = l.iter().find(|x| x.starts_with("  B")).unwrap();
        assert_eq!(rb.matches('█').count(), rb.matches('▓').count(), "{rb}");
        assert_eq!(
            a + b,
            2 * (rb.matches('█').count() * 2),
            "8 is twice 4:\n{l:#?}"
        );
        assert!(l.iter().any(|x| x == "  ▓ comm"), "{l:#?}");
    }

    #[test]
    fn styles_bands_and_off_scale_markers() {
        let mut c = chart(ChartKind::Line);
        let line = |k: f64| {
            (0..=10)
                .map(|i| pt(XValue::Number(i as f64), i as f64 * k))
                .collect::<Vec<_>>()
        };
        let mut lo = series("low", "blue", line(1.0));
        lo.marker = Some(PointShape::Square);
        let mut hi = series("high", "red", line(2.0));
        hi.style = Some(LineStyle::Solid);
        hi.marker = Some(PointShape::None);
        c.series = vec![lo, hi];
        c.bands.push(BandData {
            name: "spread".into(),
            color: "blue".into(),
            lower: 0,
            upper: 1,
        });
        c.y_max = Some(20.0);
        c.markers.push(MarkerData {
            name: "Far".into(),
            x: 5.0,
            y: 500.0,
            symbol: Symbol::Star,
            color: "red".into(),
            text: Some("way\nup".into()),
        });
        let l = draw(&c, &plain(60));
        let grid = &l[1..=HEIGHT];
        assert!(grid.iter().any(|r| r.contains('■')), "{l:#?}");
        assert!(
            grid.iter().any(|r| r.contains('░')),
            "the band is shaded:\n{l:#?}"
        );
        // The high series has no glyph at its points: only the line between them.
        assert!(!grid.iter().any(|r| r.contains('+')), "{l:#?}");
        // The marker far above the scale stands on the top row as an arrow, marked below.
        assert!(l[1].contains('↑'), "{l:#?}");
        assert!(
            l.iter()
                .any(|x| x.contains("★ Far (5, 500), off the scale — way up")),
            "{l:#?}"
        );
        assert!(l.iter().any(|x| x == "  ░ spread"), "{l:#?}");
        assert!(l.iter().any(|x| x == "  ■ low"), "{l:#?}");
    }

    #[test]
    fn a_radars_series_names_are_shown_whole_where_the_screen_has_room() {
        let mut c = chart(ChartKind::Radar);
        c.axes = vec!["Utilization".into(), "Low Wait".into()];
        for name in ["Current policy", "Target"] {
            c.series.push(series(
                name,
                "blue",
                vec![
                    pt(XValue::Category("Utilization".into()), 0.69),
                    pt(XValue::Category("Low Wait".into()), 0.94),
                ],
            ));
        }
        let wide = draw(&c, &plain(100));
        assert!(
            wide.iter().any(|l| l.contains("Current policy")),
            "{wide:#?}"
        );
        // Values sit right-aligned under their series' names.
        let head = wide.iter().find(|l| l.contains("Current policy")).unwrap();
        let row = wide.iter().find(|l| l.contains("Utilization")).unwrap();
        assert_eq!(
            head.find("Current policy").unwrap() + "Current policy".len(),
            row.find("0.69").unwrap() + 4,
            "{wide:#?}"
        );
        let narrow = draw(&c, &plain(40));
        assert!(narrow.iter().all(|l| display_width(l) <= 40), "{narrow:#?}");
        assert!(narrow.iter().any(|l| l.contains('…')), "{narrow:#?}");
    }
}
