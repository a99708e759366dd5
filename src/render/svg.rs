//! Static SVG drawing of the chart model ([`ChartData`]).
//!
//! The page's `renderers/html/charts.js` draws the same model with the same layout, colours and
//! number formatting, so a handout's figure and the live page's chart look alike. Output is valid
//! XML, deterministic, and readable without colour: series differ by dash pattern, markers by
//! shape, and every point carries a `<title>` tooltip.

use crate::eval::chart::{ChartData, LineData, SeriesData, XValue};
use crate::model::{ChartKind, Symbol};
use std::fmt::Write;

/// Canvas width and height (radar charts are square).
pub const WIDTH: f64 = 640.0;
pub const HEIGHT: f64 = 360.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 52.0;
const LEGEND_ROW: f64 = 20.0;

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
        "blue" | "red" | "green" | "orange" | "purple" | "gray" => match name {
            "blue" => "blue",
            "red" => "red",
            "green" => "green",
            "orange" => "orange",
            "purple" => "purple",
            _ => "gray",
        },
        _ => "text",
    }
}

/// Escaping is shared by every renderer.
pub use super::escape as esc;

/// A coordinate with one decimal (JS: `toFixed(1)`).
fn c(x: f64) -> String {
    let s = format!("{x:.1}");
    if s == "-0.0" {
        "0.0".into()
    } else {
        s
    }
}

/// A number with `d` decimals, no separators (JS: `toFixed(d)`).
fn fixed(x: f64, d: usize) -> String {
    let s = format!("{x:.d$}");
    if s.starts_with('-') && s[1..].chars().all(|ch| ch == '0' || ch == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A tick label: SI suffix for large magnitudes, decimals from the tick step.
pub fn tick_label(v: f64, step: f64, prefix: &str, suffix: &str) -> String {
    let a = v.abs();
    let (x, st, unit) = if a >= 1e9 {
        (v / 1e9, step / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, step / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, step / 1e3, "k")
    } else {
        (v, step, "")
    };
    let d = if st > 0.0 && st < 1.0 {
        ((-st.log10() - 1e-9).ceil() as i64).clamp(0, 10) as usize
    } else {
        0
    };
    format!("{prefix}{}{unit}{suffix}", fixed(x, d))
}

/// A value in a tooltip: up to 4 significant decimals.
pub fn tip_num(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let a = v.abs();
    let d = if a >= 1000.0 || a == 0.0 || a == a.trunc() {
        0
    } else if a >= 10.0 {
        2
    } else if a >= 0.01 {
        3
    } else {
        6
    };
    fixed(v, d)
}

/// An axis scale: domain (in log10 units when `log`), ticks and their step.
#[derive(Debug, Clone)]
pub struct Scale {
    pub log: bool,
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub step: f64,
}

fn nice_step(range: f64) -> f64 {
    let raw = range / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let k = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    k * p
}

impl Scale {
    /// A scale over `vals` (non-finite and, for log, non-positive values ignored), with optional
    /// explicit bounds; `zero` includes 0 in a linear domain (bars).
    pub fn new(vals: &[f64], min: Option<f64>, max: Option<f64>, log: bool, zero: bool) -> Scale {
        let ok = |v: &f64| v.is_finite() && (!log || *v > 0.0);
        let data: Vec<f64> = vals.iter().copied().filter(ok).collect();
        let mut lo = data.iter().copied().fold(f64::INFINITY, f64::min);
        let mut hi = data.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if zero && !log {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        if let Some(m) = min.filter(ok) {
            lo = m;
        }
        if let Some(m) = max.filter(ok) {
            hi = m;
        }
        if !lo.is_finite() || !hi.is_finite() {
            (lo, hi) = if log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        if hi < lo {
            std::mem::swap(&mut lo, &mut hi);
        }
        if log {
            let (mut l, mut h) = (lo.log10(), hi.log10());
            if min.is_none() {
                l = l.floor();
            }
            if max.is_none() {
                h = h.ceil();
            }
            if h - l < 1e-12 {
                l -= 1.0;
                h += 1.0;
            }
            let mut ticks = Vec::new();
            let mut e = l.floor();
            let mults: &[f64] = if h - l <= 1.5 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let every = ((h - l) / 8.0).ceil().max(1.0);
            while e <= h.ceil() && ticks.len() < 40 {
                if (e - l.floor()) % every == 0.0 {
                    for m in mults {
                        let t = m * 10f64.powf(e);
                        let lt = t.log10();
                        if lt >= l - 1e-9 && lt <= h + 1e-9 {
                            ticks.push(t);
                        }
                    }
                }
                e += 1.0;
            }
            return Scale {
                log,
                lo: l,
                hi: h,
                ticks,
                step: 0.0,
            };
        }
        if hi - lo < 1e-12 * lo.abs().max(1.0) {
            let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
            lo -= d;
            hi += d;
        }
        let step = nice_step(hi - lo);
        if min.is_none() {
            lo = (lo / step).floor() * step;
        }
        if max.is_none() {
            hi = (hi / step).ceil() * step;
        }
        let mut ticks = Vec::new();
        let mut t = (lo / step).ceil() * step;
        while t <= hi + step * 1e-9 && ticks.len() < 40 {
            ticks.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
            t += step;
        }
        Scale {
            log,
            lo,
            hi,
            ticks,
            step,
        }
    }

    /// Fraction of the way along the axis (NaN when the value cannot be placed).
    pub fn frac(&self, v: f64) -> f64 {
        let x = if self.log {
            if v > 0.0 {
                v.log10()
            } else {
                f64::NAN
            }
        } else {
            v
        };
        (x - self.lo) / (self.hi - self.lo)
    }

    fn label(&self, v: f64, prefix: &str, suffix: &str) -> String {
        let step = if self.log { v } else { self.step };
        tick_label(v, step, prefix, suffix)
    }
}

/// A legend entry: name, colour, the series' dash attribute, marker symbol.
type LegendItem = (String, String, &'static str, Option<Symbol>);

/// Legend entries for named series and markers.
fn legend_items(c: &ChartData) -> Vec<LegendItem> {
    let mut v: Vec<LegendItem> = c
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.name.is_empty())
        .map(|(i, s)| (s.name.clone(), s.color.clone(), dash(i, s.dashed), None))
        .collect();
    v.extend(
        c.markers
            .iter()
            .map(|m| (m.name.clone(), m.color.clone(), "", Some(m.symbol))),
    );
    v
}

/// Legend rows: items wrapped to the width; each item is (x offset, row, entry index).
fn legend_layout(items: &[LegendItem], width: f64) -> Vec<(f64, usize)> {
    let mut out = Vec::new();
    let (mut x, mut row) = (LEFT, 0usize);
    for it in items {
        let w = 30.0 + 7.0 * it.0.chars().count() as f64 + 16.0;
        if x + w > width - RIGHT && x > LEFT {
            x = LEFT;
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
    let items = if ch.legend {
        legend_items(ch)
    } else {
        Vec::new()
    };
    let width = WIDTH;
    let lay = legend_layout(&items, width);
    let rows = lay.iter().map(|(_, r)| r + 1).max().unwrap_or(0) as f64;
    let base_h = if ch.kind == ChartKind::Radar {
        WIDTH * 0.75
    } else {
        HEIGHT
    };
    let height = base_h + rows * LEGEND_ROW;
    let uid: String = uid
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '-' })
        .collect();
    let mut o = String::new();
    let title = ch.title.clone().unwrap_or_else(|| ch.id.clone());
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lf-chart\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\" font-family=\"system-ui, sans-serif\" font-size=\"12\">",
        c(width),
        c(height),
        c(width),
        c(height),
        esc(&title)
    );
    let _ = write!(o, "<title>{}</title>", esc(&title));
    let _ = write!(
        o,
        "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        c(width),
        c(height)
    );
    if let Some(t) = &ch.title {
        let _ = write!(
            o,
            "<text class=\"fi-text\" x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"600\" fill=\"#1f2937\">{}</text>",
            c(width / 2.0),
            esc(t)
        );
    }
    let plot_bottom = base_h - BOTTOM;
    if ch.kind == ChartKind::Radar {
        radar(&mut o, ch, width, base_h);
    } else {
        cartesian(&mut o, ch, &uid, width, plot_bottom);
    }
    // Legend.
    for (it, (x, row)) in items.iter().zip(lay.iter()) {
        let y = base_h + 8.0 + *row as f64 * LEGEND_ROW;
        let cls = class_color(&it.1);
        match it.3 {
            Some(sym) => symbol(&mut o, sym, x + 12.0, y - 4.0, &it.1, 5.0, ""),
            None => {
                let _ = write!(
                    o,
                    "<line class=\"st-{cls}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>",
                    c(*x),
                    c(y - 4.0),
                    c(x + 24.0),
                    c(y - 4.0),
                    palette(&it.1),
                    it.2
                );
            }
        }
        let _ = write!(
            o,
            "<text class=\"fi-text\" x=\"{}\" y=\"{}\" fill=\"#1f2937\">{}</text>",
            c(x + 30.0),
            c(y),
            esc(&it.0)
        );
    }
    o.push_str("</svg>");
    o
}

fn num_x(p: &XValue) -> f64 {
    match p {
        XValue::Number(x) => *x,
        XValue::Category(_) => f64::NAN,
    }
}

fn cartesian(o: &mut String, ch: &ChartData, uid: &str, width: f64, bottom: f64) {
    let (x0, x1, y0, y1) = (LEFT, width - RIGHT, TOP + 8.0, bottom);
    let is_bar = ch.kind == ChartKind::Bar;
    // Categories (bars) in first-seen order.
    let mut cats: Vec<String> = Vec::new();
    if is_bar {
        for s in &ch.series {
            for p in &s.points {
                if let XValue::Category(k) = &p.x {
                    if !cats.contains(k) {
                        cats.push(k.clone());
                    }
                }
            }
        }
    }
    let mut xs: Vec<f64> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    for s in &ch.series {
        for p in &s.points {
            xs.push(num_x(&p.x));
            ys.push(p.y);
        }
    }
    for m in &ch.markers {
        xs.push(m.x);
        ys.push(m.y);
    }
    xs.extend(ch.vlines.iter().map(|l| l.at));
    ys.extend(ch.hlines.iter().map(|l| l.at));
    let sy = Scale::new(&ys, ch.y_min, ch.y_max, ch.y_log, is_bar);
    let sx = Scale::new(&xs, ch.x_min, ch.x_max, ch.x_log, false);
    let px = |v: f64| x0 + sx.frac(v) * (x1 - x0);
    let py = |v: f64| y1 - sy.frac(v) * (y1 - y0);
    // Grid and axes.
    o.push_str("<g class=\"grid\">");
    for t in &sy.ticks {
        let y = py(*t);
        let _ = write!(
            o,
            "<line class=\"st-grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e5e7eb\"/><text class=\"fi-muted\" x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#6b7280\">{}</text>",
            c(x0),
            c(y),
            c(x1),
            c(y),
            c(x0 - 6.0),
            c(y + 4.0),
            esc(&sy.label(*t, &ch.y_prefix, &ch.y_suffix))
        );
    }
    if is_bar {
        let n = cats.len().max(1) as f64;
        for (i, k) in cats.iter().enumerate() {
            let x = x0 + (i as f64 + 0.5) * (x1 - x0) / n;
            let _ = write!(
                o,
                "<text class=\"fi-muted\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#6b7280\">{}{}{}</text>",
                c(x),
                c(y1 + 16.0),
                esc(&ch.x_prefix),
                esc(k),
                esc(&ch.x_suffix)
            );
        }
    } else {
        for t in &sx.ticks {
            let x = px(*t);
            let _ = write!(
                o,
                "<line class=\"st-grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e5e7eb\"/><text class=\"fi-muted\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#6b7280\">{}</text>",
                c(x),
                c(y0),
                c(x),
                c(y1),
                c(x),
                c(y1 + 16.0),
                esc(&sx.label(*t, &ch.x_prefix, &ch.x_suffix))
            );
        }
    }
    let _ = write!(
        o,
        "<line class=\"st-axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#6b7280\"/><line class=\"st-axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#6b7280\"/></g>",
        c(x0),
        c(y1),
        c(x1),
        c(y1),
        c(x0),
        c(y0),
        c(x0),
        c(y1)
    );
    if let Some(l) = &ch.x_label {
        let _ = write!(
            o,
            "<text class=\"fi-text\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#1f2937\">{}</text>",
            c((x0 + x1) / 2.0),
            c(y1 + 36.0),
            esc(l)
        );
    }
    if let Some(l) = &ch.y_label {
        let _ = write!(
            o,
            "<text class=\"fi-text\" transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\" fill=\"#1f2937\">{}</text>",
            c((y0 + y1) / 2.0),
            esc(l)
        );
    }
    let _ = write!(
        o,
        "<clipPath id=\"clip-{uid}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath><g clip-path=\"url(#clip-{uid})\">",
        c(x0 - 8.0),
        c(y0 - 8.0),
        c(x1 - x0 + 16.0),
        c(y1 - y0 + 16.0)
    );
    // Series.
    if is_bar {
        bars(o, ch, &cats, x0, x1, &py, &sy);
    } else {
        for (i, s) in ch.series.iter().enumerate() {
            line_series(o, ch.kind, i, s, &px, &py);
        }
    }
    // Reference lines.
    ref_lines(o, &ch.hlines, true, x0, x1, y0, y1, &py);
    ref_lines(o, &ch.vlines, false, x0, x1, y0, y1, &px);
    // Markers.
    for m in &ch.markers {
        let (x, y) = (px(m.x), py(m.y));
        if x.is_finite() && y.is_finite() {
            let tip = format!("{}: ({}, {})", m.name, tip_num(m.x), tip_num(m.y));
            symbol(o, m.symbol, x, y, &m.color, 7.0, &tip);
        }
    }
    o.push_str("</g>");
}

fn line_series(
    o: &mut String,
    kind: ChartKind,
    i: usize,
    s: &SeriesData,
    px: &dyn Fn(f64) -> f64,
    py: &dyn Fn(f64) -> f64,
) {
    let cls = class_color(&s.color);
    let col = palette(&s.color);
    let pts: Vec<(f64, f64, f64, f64)> = s
        .points
        .iter()
        .map(|p| {
            let xv = num_x(&p.x);
            (px(xv), py(p.y), xv, p.y)
        })
        .collect();
    if kind == ChartKind::Line {
        let mut d = String::new();
        let mut pen = false;
        for (x, y, _, _) in &pts {
            if x.is_finite() && y.is_finite() {
                let _ = write!(d, "{}{} {}", if pen { "L" } else { "M" }, c(*x), c(*y));
                pen = true;
            } else {
                pen = false;
            }
        }
        if !d.is_empty() {
            let _ = write!(
                o,
                "<path class=\"st-{cls}\" d=\"{d}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"{}\" stroke-linejoin=\"round\"{}/>",
                if s.emphasis { "3.5" } else { "2" },
                dash(i, s.dashed)
            );
        }
    }
    let r = if kind == ChartKind::Scatter { 4.0 } else { 2.5 };
    // Dense lines keep their points as invisible tooltip targets.
    let hidden = kind == ChartKind::Line && pts.len() > 30;
    let _ = write!(
        o,
        "<g class=\"fi-{cls}\" fill=\"{col}\"{}>",
        if hidden { " fill-opacity=\"0\"" } else { "" }
    );
    for (x, y, xv, yv) in &pts {
        if x.is_finite() && y.is_finite() {
            let name = if s.name.is_empty() { "" } else { &s.name };
            let _ = write!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}{}({}, {})</title></circle>",
                c(*x),
                c(*y),
                c(r),
                esc(name),
                if name.is_empty() { "" } else { ": " },
                tip_num(*xv),
                tip_num(*yv)
            );
        }
    }
    o.push_str("</g>");
}

fn bars(
    o: &mut String,
    ch: &ChartData,
    cats: &[String],
    x0: f64,
    x1: f64,
    py: &dyn Fn(f64) -> f64,
    sy: &Scale,
) {
    let n = cats.len().max(1) as f64;
    let band = (x1 - x0) / n;
    let groups = ch.series.len().max(1) as f64;
    let bw = band * 0.7 / groups;
    let base = if sy.log {
        py(10f64.powf(sy.lo))
    } else {
        py(0f64.clamp(sy.lo, sy.hi))
    };
    for (si, s) in ch.series.iter().enumerate() {
        for p in &s.points {
            let XValue::Category(k) = &p.x else { continue };
            let Some(ci) = cats.iter().position(|x| x == k) else {
                continue;
            };
            let y = py(p.y);
            if !y.is_finite() {
                continue;
            }
            let color = p.color.clone().unwrap_or_else(|| s.color.clone());
            let cls = class_color(&color);
            let x = x0 + ci as f64 * band + band * 0.15 + si as f64 * bw;
            let (top, h) = if y < base {
                (y, base - y)
            } else {
                (base, y - base)
            };
            let label = if s.name.is_empty() {
                k.clone()
            } else {
                format!("{} — {k}", s.name)
            };
            let _ = write!(
                o,
                "<rect class=\"fi-{cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {}</title></rect>",
                c(x),
                c(top),
                c(bw),
                c(h),
                palette(&color),
                esc(&label),
                tip_num(p.y)
            );
            if let Some(t) = &p.text {
                let _ = write!(
                    o,
                    "<text class=\"fi-text\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#1f2937\">{}</text>",
                    c(x + bw / 2.0),
                    c(top - 4.0),
                    esc(t)
                );
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn ref_lines(
    o: &mut String,
    lines: &[LineData],
    horizontal: bool,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    p: &dyn Fn(f64) -> f64,
) {
    for l in lines {
        let v = p(l.at);
        if !v.is_finite() {
            continue;
        }
        let cls = class_color(&l.color);
        let col = palette(&l.color);
        let (ax, ay, bx, by) = if horizontal {
            (x0, v, x1, v)
        } else {
            (v, y0, v, y1)
        };
        let _ = write!(
            o,
            "<line class=\"st-{cls}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{col}\" stroke-width=\"1.5\"{}><title>{}{}</title></line>",
            c(ax),
            c(ay),
            c(bx),
            c(by),
            if l.dashed { " stroke-dasharray=\"5 4\"" } else { "" },
            esc(l.label.as_deref().unwrap_or("")),
            if l.label.is_some() {
                format!(" ({})", tip_num(l.at))
            } else {
                tip_num(l.at)
            }
        );
        if let Some(t) = &l.label {
            let (tx, ty, anchor) = if horizontal {
                (x1 - 4.0, v - 5.0, "end")
            } else {
                (v + 4.0, y0 + 12.0, "start")
            };
            let _ = write!(
                o,
                "<text class=\"fi-{cls}\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" font-size=\"11\" fill=\"{col}\">{}</text>",
                c(tx),
                c(ty),
                esc(t)
            );
        }
    }
}

fn radar(o: &mut String, ch: &ChartData, width: f64, h: f64) {
    let n = ch.axes.len().max(3);
    let cx = width / 2.0;
    let cy = TOP + (h - TOP - 24.0) / 2.0 + 4.0;
    // Leave room beside the circle for the longest axis label (about 7 px a character).
    let longest = ch.axes.iter().map(|a| a.chars().count()).max().unwrap_or(0) as f64;
    let room = ((width / 2.0 - longest * 7.0 - 8.0) / 1.12).max(20.0);
    let r = ((h - TOP - 24.0) / 2.0 - 24.0).max(20.0).min(room);
    let maxv = ch.y_max.unwrap_or_else(|| {
        ch.series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.y))
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max)
    });
    let maxv = if maxv > 0.0 { maxv } else { 1.0 };
    let at = |i: usize, frac: f64| {
        let a = std::f64::consts::TAU * i as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
        (cx + r * frac * a.cos(), cy + r * frac * a.sin())
    };
    for ring in [0.25, 0.5, 0.75, 1.0] {
        let mut d = String::new();
        for i in 0..n {
            let (x, y) = at(i, ring);
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, c(x), c(y));
        }
        let _ = write!(
            o,
            "<path class=\"st-grid\" d=\"{d}Z\" fill=\"none\" stroke=\"#e5e7eb\"/>"
        );
    }
    for i in 0..n {
        let (x, y) = at(i, 1.0);
        let (lx, ly) = at(i, 1.12);
        let anchor = if (lx - cx).abs() < 1.0 {
            "middle"
        } else if lx > cx {
            "start"
        } else {
            "end"
        };
        let _ = write!(
            o,
            "<line class=\"st-grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e5e7eb\"/><text class=\"fi-text\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" fill=\"#1f2937\">{}</text>",
            c(cx),
            c(cy),
            c(x),
            c(y),
            c(lx),
            c(ly + 4.0),
            esc(ch.axes.get(i).map(|s| s.as_str()).unwrap_or(""))
        );
    }
    for (si, s) in ch.series.iter().enumerate() {
        let cls = class_color(&s.color);
        let col = palette(&s.color);
        let mut d = String::new();
        let mut dots = String::new();
        for (i, p) in s.points.iter().enumerate() {
            let f = if p.y.is_finite() {
                (p.y / maxv).clamp(0.0, 1.2)
            } else {
                0.0
            };
            let (x, y) = at(i, f);
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, c(x), c(y));
            let _ = write!(
                dots,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\"><title>{}: {} = {}</title></circle>",
                c(x),
                c(y),
                esc(&s.name),
                esc(ch.axes.get(i).map(|s| s.as_str()).unwrap_or("")),
                tip_num(p.y)
            );
        }
        let _ = write!(
            o,
            "<path class=\"st-{cls}{}\" d=\"{d}Z\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"{col}\" stroke-width=\"{}\"{}/><g class=\"fi-{cls}\" fill=\"{col}\">{dots}</g>",
            if s.fill { format!(" fi-{cls}") } else { String::new() },
            if s.fill { col } else { "none" },
            if s.emphasis { "3.5" } else { "2" },
            dash(si, s.dashed)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_nice() {
        let s = Scale::new(&[0.3, 9.7], None, None, false, false);
        assert_eq!(s.ticks, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(tick_label(2500.0, 500.0, "$", ""), "$2500");
        assert_eq!(tick_label(25000.0, 5000.0, "", "%"), "25k%");
        assert_eq!(tick_label(0.25, 0.05, "", ""), "0.25");
    }

    #[test]
    fn log_ticks_are_decades() {
        let s = Scale::new(&[3.0, 4000.0], None, None, true, false);
        assert_eq!(s.ticks, vec![1.0, 10.0, 100.0, 1000.0, 10000.0]);
        assert!((s.frac(100.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn escapes_text() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
