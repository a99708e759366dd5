//! Static SVG drawing of the chart model ([`ChartData`]).
//!
//! The page's `renderers/html/charts.js` draws the same model with the same layout, colours and
//! number formatting, so a handout's figure and the live page's chart look alike (a differential
//! test compares them byte for byte). Output is valid XML, deterministic, and readable without
//! colour: series differ by dash pattern, markers by shape, every point carries a `<title>`
//! tooltip, the chart an accessible name and description, and [`chart_table`] its values.

mod cartesian;
mod radar;
mod scale;
mod table;

use crate::eval::chart::{ChartData, SeriesData};
use crate::model::{ChartKind, LegendPos, LineStyle, PointShape, Symbol};
use std::fmt::Write;

pub use scale::{c, tick_label, tip_num, Scale};
pub use table::chart_table;

/// Default canvas width (the page draws at its column's width).
pub const WIDTH: f64 = 640.0;
/// Default drawing height, without the legend.
pub const HEIGHT: f64 = crate::eval::chart::DEFAULT_HEIGHT;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 52.0;
const LEGEND_ROW: f64 = 20.0;
/// Line height of 11-12 px text.
const LINE: f64 = 13.0;

/// The light-mode colour of a palette name (the page overrides these by class in dark mode).
pub fn palette(name: &str) -> &'static str {
    match name {
        "blue" => "#2563eb",
        "red" => "#dc2626",
        "green" => "#15803d",
        "orange" => "#c2410c",
        "purple" => "#7c3aed",
        "gray" => "#6b7280",
        _ => "#1f2937",
    }
}

fn class_color(name: &str) -> &'static str {
    match name {
        "blue" => "blue",
        "red" => "red",
        "green" => "green",
        "orange" => "orange",
        "purple" => "purple",
        "gray" => "gray",
        _ => "text",
    }
}

/// Escaping is shared by every renderer.
pub use super::escape as esc;

/// A number attribute (stroke width): shortest form, like JS `String(x)`.
fn sw(x: f64) -> String {
    format!("{x}")
}

/// A `<text>` element; `\n` in `s` starts a new line 13 px lower.
fn text(o: &mut String, pre: &str, x: f64, y: f64, post: &str, s: &str) {
    let _ = write!(o, "<text {pre} x=\"{}\" y=\"{}\"{post}>", c(x), c(y));
    if s.contains('\n') {
        for (i, l) in s.split('\n').enumerate() {
            let _ = write!(
                o,
                "<tspan x=\"{}\" dy=\"{}\">{}</tspan>",
                c(x),
                if i == 0 { 0.0 } else { LINE },
                esc(l)
            );
        }
    } else {
        o.push_str(&esc(s));
    }
    o.push_str("</text>");
}

/// Lines of a label and its widest line in characters.
fn measure(s: &str) -> (usize, usize) {
    let lines = s.split('\n');
    let w = lines.clone().map(|l| l.chars().count()).max().unwrap_or(0);
    (s.split('\n').count(), w)
}

/// Words wrapped to lines of at most `n` characters (a longer word gets a line of its own).
fn wrap(s: &str, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in s.split(' ').filter(|w| !w.is_empty()) {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > n {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

/// Average advance of a character of the 12 px chart text, and of the 14 px semibold title
/// (system-ui; generous, so a wrapped line fits in the width it was wrapped for).
const CHAR_W: f64 = 7.0;
const TITLE_CHAR_W: f64 = 9.0;

/// A label fitted to `room` pixels: each of its lines wrapped at spaces, and a word still too
/// long cut into hyphenated pieces (a bar chart's categories on a phone).
fn fit(s: &str, room: f64) -> String {
    let n = ((room / CHAR_W).floor() as usize).max(3);
    let mut out: Vec<String> = Vec::new();
    for line in s.split('\n') {
        for l in wrap(line, n) {
            let chars: Vec<char> = l.chars().collect();
            if chars.len() <= n {
                out.push(l);
                continue;
            }
            let mut i = 0;
            while chars.len() - i > n {
                out.push(chars[i..i + n - 1].iter().collect::<String>() + "-");
                i += n - 1;
            }
            out.push(chars[i..].iter().collect());
        }
    }
    out.join("\n")
}

/// A legend entry's picture.
enum Swatch {
    Line(String, Option<PointShape>),
    Mark(Symbol),
    Area,
    Block,
}

/// A legend entry: name, colour, picture.
type LegendItem = (String, String, Swatch);

/// Legend entries for named series, bands and markers.
fn legend_items(c: &ChartData) -> Vec<LegendItem> {
    let mut v: Vec<LegendItem> = Vec::new();
    for (i, s) in c.series.iter().enumerate() {
        if !s.name.is_empty() {
            let shape = s.marker.filter(|m| *m != PointShape::None);
            let sw = if matches!(c.kind, ChartKind::Bar | ChartKind::Histogram) {
                Swatch::Block
            } else {
                Swatch::Line(series_dash(i, s), shape)
            };
            v.push((s.name.clone(), s.color.clone(), sw));
        }
    }
    for b in &c.bands {
        if !b.name.is_empty() {
            v.push((b.name.clone(), b.color.clone(), Swatch::Area));
        }
    }
    for m in &c.markers {
        v.push((m.name.clone(), m.color.clone(), Swatch::Mark(m.symbol)));
    }
    v
}

fn item_width(name: &str) -> f64 {
    30.0 + 7.0 * name.chars().count() as f64 + 16.0
}

/// Legend rows: items wrapped between `left` and `right`; each item is (x, row).
fn legend_rows(items: &[LegendItem], left: f64, right: f64) -> Vec<(f64, usize)> {
    let mut out = Vec::new();
    let (mut x, mut row) = (left, 0usize);
    for it in items {
        let w = item_width(&it.0);
        if x + w > right && x > left {
            x = left;
            row += 1;
        }
        out.push((x, row));
        x += w;
    }
    out
}

fn dash(series_index: usize, dashed: bool) -> &'static str {
    if dashed {
        " stroke-dasharray=\"6 4\""
    } else {
        // Later series get distinct patterns so colour is not the only difference.
        match series_index % 3 {
            0 => "",
            1 => " stroke-dasharray=\"10 3 2 3\"",
            _ => " stroke-dasharray=\"2 3\"",
        }
    }
}

/// A series' dash attribute: its explicit style, else as its position and `dashed` say.
fn series_dash(i: usize, s: &SeriesData) -> String {
    match s.style {
        Some(LineStyle::Solid) => String::new(),
        Some(LineStyle::Dashed) => " stroke-dasharray=\"6 4\"".into(),
        Some(LineStyle::Dotted) => " stroke-dasharray=\"2 3\"".into(),
        None => dash(i, s.dashed).into(),
    }
}

/// The marker shape a point shape draws.
fn shape_symbol(p: PointShape) -> Symbol {
    match p {
        PointShape::Square => Symbol::Square,
        PointShape::Triangle => Symbol::Triangle,
        PointShape::Diamond => Symbol::Diamond,
        PointShape::Star => Symbol::Star,
        PointShape::Circle | PointShape::None => Symbol::Circle,
    }
}

/// A marker shape centred at (x, y).
fn symbol(out: &mut String, sym: Symbol, x: f64, y: f64, color: &str, size: f64, tip: &str) {
    let cls = class_color(color);
    let fill = palette(color);
    let attrs =
        format!("class=\"fi-{cls} mk\" fill=\"{fill}\" stroke=\"#ffffff\" stroke-width=\"1.5\"");
    let title = if tip.is_empty() {
        String::new()
    } else {
        format!("<title>{}</title>", esc(tip))
    };
    let _ = match sym {
        Symbol::Circle => write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {attrs}>{title}</circle>",
            c(x),
            c(y),
            c(size * 0.8)
        ),
        Symbol::Square => write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {attrs}>{title}</rect>",
            c(x - size * 0.75),
            c(y - size * 0.75),
            c(size * 1.5),
            c(size * 1.5)
        ),
        Symbol::Diamond => write!(
            out,
            "<path d=\"M{} {}L{} {}L{} {}L{} {}Z\" {attrs}>{title}</path>",
            c(x),
            c(y - size),
            c(x + size),
            c(y),
            c(x),
            c(y + size),
            c(x - size),
            c(y)
        ),
        Symbol::Triangle => write!(
            out,
            "<path d=\"M{} {}L{} {}L{} {}Z\" {attrs}>{title}</path>",
            c(x),
            c(y - size),
            c(x + size),
            c(y + size * 0.8),
            c(x - size),
            c(y + size * 0.8)
        ),
        Symbol::Star => {
            let mut d = String::new();
            for i in 0..10 {
                let r = if i % 2 == 0 { size * 1.2 } else { size * 0.5 };
                let a = std::f64::consts::PI * (i as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
                let _ = write!(
                    d,
                    "{}{} {}",
                    if i == 0 { "M" } else { "L" },
                    c(x + r * a.cos()),
                    c(y + r * a.sin())
                );
            }
            write!(out, "<path d=\"{d}Z\" {attrs}>{title}</path>")
        }
    };
}

/// The chart as a standalone SVG document fragment (`<svg xmlns=...>...</svg>`).
pub fn chart_svg(ch: &ChartData) -> String {
    chart_svg_with_id(ch, &ch.id)
}

/// The chart with `uid` used for element ids (clip paths), unique within a document.
pub fn chart_svg_with_id(ch: &ChartData, uid: &str) -> String {
    chart_svg_sized(ch, uid, WIDTH)
}

/// The drawing's frame: where the title, legend and plot go.
pub(crate) struct Frame {
    pub width: f64,
    /// Top of the plot area (above it: title and a top legend).
    pub top: f64,
    /// Bottom of the axis area (below it: a bottom legend).
    pub base: f64,
    /// Right edge of the plot area.
    pub right: f64,
}

/// The chart drawn `width` pixels wide (the page passes its column's width, so text keeps its
/// size on a phone).
pub fn chart_svg_sized(ch: &ChartData, uid: &str, width: f64) -> String {
    let width = width.clamp(240.0, 2000.0).round();
    let legend = if ch.kind == ChartKind::Radar && ch.legend == LegendPos::Right {
        LegendPos::Bottom
    } else {
        ch.legend
    };
    let items = if legend == LegendPos::None {
        Vec::new()
    } else {
        legend_items(ch)
    };
    let heading = ch.heading();
    let title_lines = wrap(
        &heading,
        (((width - 16.0) / TITLE_CHAR_W).floor() as usize).max(8),
    );
    let title_h = (title_lines.len() as f64 - 1.0) * 18.0;
    let side = if legend == LegendPos::Right && !items.is_empty() {
        items
            .iter()
            .map(|it| item_width(&it.0) - 8.0)
            .fold(0.0, f64::max)
            .min((width * 0.35).round())
    } else {
        0.0
    };
    let rows_lay = match legend {
        LegendPos::Top | LegendPos::Bottom => legend_rows(&items, LEFT, width - RIGHT),
        _ => Vec::new(),
    };
    let rows = rows_lay.iter().map(|(_, r)| r + 1).max().unwrap_or(0) as f64;
    let top_h = if legend == LegendPos::Top {
        rows * LEGEND_ROW
    } else {
        0.0
    };
    let base_h = if ch.kind == ChartKind::Radar {
        (ch.height * 4.0 / 3.0).round()
    } else {
        ch.height
    };
    let base = base_h + title_h + top_h;
    let height = base
        + if legend == LegendPos::Bottom {
            rows * LEGEND_ROW
        } else {
            0.0
        };
    let uid: String = uid
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '-' })
        .collect();
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lf-chart\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-labelledby=\"t-{uid}\" aria-describedby=\"d-{uid}\" font-family=\"system-ui, sans-serif\" font-size=\"12\">",
        c(width),
        c(height),
        c(width),
        c(height),
    );
    let _ = write!(
        o,
        "<title id=\"t-{uid}\">{}</title><desc id=\"d-{uid}\">{}</desc>",
        esc(&heading),
        esc(&ch.summary())
    );
    let _ = write!(
        o,
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        c(width),
        c(height)
    );
    for (i, l) in title_lines.iter().enumerate() {
        text(
            &mut o,
            "class=\"fi-text\"",
            width / 2.0,
            22.0 + 18.0 * i as f64,
            " text-anchor=\"middle\" font-size=\"14\" font-weight=\"600\" fill=\"#1f2937\"",
            l,
        );
    }
    let frame = Frame {
        width,
        top: TOP + title_h + top_h,
        base,
        right: width - RIGHT - side,
    };
    if ch.kind == ChartKind::Radar {
        radar::radar(&mut o, ch, &frame);
    } else {
        cartesian::cartesian(&mut o, ch, &uid, &frame);
    }
    // Legend.
    for (i, it) in items.iter().enumerate() {
        let (x, y) = match legend {
            LegendPos::Right => (frame.right + 8.0, frame.top + 12.0 + i as f64 * LEGEND_ROW),
            LegendPos::Top => (
                rows_lay[i].0,
                TOP + title_h + 4.0 + rows_lay[i].1 as f64 * LEGEND_ROW,
            ),
            _ => (
                rows_lay[i].0,
                base + 8.0 + rows_lay[i].1 as f64 * LEGEND_ROW,
            ),
        };
        let cls = class_color(&it.1);
        match &it.2 {
            Swatch::Mark(sym) => symbol(&mut o, *sym, x + 12.0, y - 4.0, &it.1, 5.0, ""),
            Swatch::Area | Swatch::Block => {
                let _ = write!(
                    o,
                    "<rect class=\"fi-{cls}\" x=\"{}\" y=\"{}\" width=\"24\" height=\"10\" fill=\"{}\"{}/>",
                    c(x),
                    c(y - 9.0),
                    palette(&it.1),
                    if matches!(it.2, Swatch::Area) {
                        " fill-opacity=\"0.35\""
                    } else {
                        ""
                    }
                );
            }
            Swatch::Line(d, shape) => {
                let _ = write!(
                    o,
                    "<line class=\"st-{cls}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"{d}/>",
                    c(x),
                    c(y - 4.0),
                    c(x + 24.0),
                    c(y - 4.0),
                    palette(&it.1),
                );
                if let Some(p) = shape {
                    symbol(&mut o, shape_symbol(*p), x + 12.0, y - 4.0, &it.1, 4.0, "");
                }
            }
        }
        text(
            &mut o,
            "class=\"fi-text\"",
            x + 30.0,
            y,
            " fill=\"#1f2937\"",
            &it.0,
        );
    }
    o.push_str("</svg>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), vec!["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("", 6), vec![""]);
        // 60 px hold 8 characters: words wrap, a longer word is cut with a hyphen.
        assert_eq!(fit("Flat ring (IB)", 60.0), "Flat\nring\n(IB)");
        assert_eq!(fit("Hierarchical total", 60.0), "Hierarc-\nhical\ntotal");
        assert_eq!(fit("IB phase", 60.0), "IB phase");
        assert_eq!(fit("a\nb", 60.0), "a\nb");
        assert_eq!(measure("ab\ncde"), (2, 3));
    }
}
