//! Local stand-in for `render::svg::chart_svg` until the HTML branch's version lands (then this
//! file is deleted and the handout uses `super::super::svg::chart_svg`). Static, deterministic SVG
//! of the chart model: title, axes with ticks and labels (linear or log), series, bars, radar,
//! markers, reference lines and a legend.

use crate::eval::chart::{ChartData, XValue};
use crate::library::format;
use crate::model::{ChartKind, Symbol};
use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 360.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 56.0;

fn hex(name: &str) -> &'static str {
    match name {
        "blue" => "#2563eb",
        "green" => "#16a34a",
        "orange" => "#ea580c",
        "red" => "#dc2626",
        "purple" => "#7c3aed",
        "gray" => "#6b7280",
        _ => "#1e293b",
    }
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Plain text of inline Markdown (labels may carry `**bold**` or `` `code` ``).
fn plain(s: &str) -> String {
    s.replace("**", "").replace('`', "")
}

fn n(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// An axis scale from data values to pixels.
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    p0: f64,
    p1: f64,
}

impl Scale {
    fn new(vals: &[f64], min: Option<f64>, max: Option<f64>, log: bool, p0: f64, p1: f64) -> Scale {
        let ok: Vec<f64> = vals
            .iter()
            .copied()
            .filter(|v| v.is_finite() && (!log || *v > 0.0))
            .collect();
        let dlo = ok.iter().copied().fold(f64::INFINITY, f64::min);
        let dhi = ok.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (mut lo, mut hi) = if ok.is_empty() {
            if log {
                (1.0, 10.0)
            } else {
                (0.0, 1.0)
            }
        } else {
            (dlo, dhi)
        };
        if log {
            lo = 10f64.powf(lo.log10().floor());
            hi = 10f64.powf(hi.log10().ceil());
            if hi <= lo {
                hi = lo * 10.0;
            }
        } else {
            if hi == lo {
                let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
                lo -= d;
                hi += d;
            }
            let step = nice_step((hi - lo) / 5.0);
            lo = (lo / step).floor() * step;
            hi = (hi / step).ceil() * step;
        }
        if let Some(m) = min.filter(|m| m.is_finite() && (!log || *m > 0.0)) {
            lo = m;
        }
        if let Some(m) = max.filter(|m| m.is_finite() && (!log || *m > 0.0)) {
            hi = m;
        }
        if hi <= lo {
            hi = lo + 1.0;
        }
        Scale {
            lo,
            hi,
            log,
            p0,
            p1,
        }
    }

    fn t(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(f64::MIN_POSITIVE).log10() - self.lo.log10())
                / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.p0 + f * (self.p1 - self.p0)
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().ceil() as i32,
                self.hi.log10().floor() as i32,
            );
            let mut t: Vec<f64> = (a..=b).map(|e| 10f64.powi(e)).collect();
            if t.len() < 3 {
                t = (a - 1..=b)
                    .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
                    .filter(|v| *v >= self.lo * 0.999 && *v <= self.hi * 1.001)
                    .collect();
            }
            t
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let mut v = (self.lo / step).ceil() * step;
            let mut out = Vec::new();
            while v <= self.hi + step * 1e-9 && out.len() < 20 {
                out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
                v += step;
            }
            out
        }
    }
}

fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

fn tick_label(v: f64, prefix: &str, suffix: &str) -> String {
    let num = if v != 0.0 && (v.abs() >= 1e6 || v.abs() < 1e-3) {
        let e = v.abs().log10().floor();
        format!("{}e{}", n(v / 10f64.powf(e)), e as i32)
    } else {
        format::auto(v)
    };
    format!("{prefix}{num}{suffix}")
}

fn marker_shape(
    out: &mut String,
    class: &str,
    sym: Symbol,
    (x, y): (f64, f64),
    color: &str,
    name: &str,
) {
    let c = hex(color);
    let _ = write!(
        out,
        r#"<g class="{class}" data-name="{}"><title>{}</title>"#,
        esc(name),
        esc(name)
    );
    match sym {
        Symbol::Circle => {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="6" fill="{c}" stroke="#fff" stroke-width="1.5"/>"##,
                n(x),
                n(y)
            );
        }
        Symbol::Square => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="11" height="11" fill="{c}" stroke="#fff" stroke-width="1.5"/>"##,
                n(x - 5.5),
                n(y - 5.5)
            );
        }
        Symbol::Diamond => {
            let _ = write!(
                out,
                r##"<polygon points="{},{} {},{} {},{} {},{}" fill="{c}" stroke="#fff" stroke-width="1.5"/>"##,
                n(x),
                n(y - 8.0),
                n(x + 8.0),
                n(y),
                n(x),
                n(y + 8.0),
                n(x - 8.0),
                n(y)
            );
        }
        Symbol::Star => {
            let pts: Vec<String> = (0..10)
                .map(|i| {
                    let r = if i % 2 == 0 { 9.0 } else { 4.0 };
                    let a = std::f64::consts::PI * (i as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
                    format!("{},{}", n(x + r * a.cos()), n(y + r * a.sin()))
                })
                .collect();
            let _ = write!(
                out,
                r##"<polygon points="{}" fill="{c}" stroke="#fff" stroke-width="1"/>"##,
                pts.join(" ")
            );
        }
    }
    out.push_str("</g>");
}

struct LegendItem {
    name: String,
    color: String,
    dashed: bool,
    symbol: Option<Symbol>,
}

/// Draws a chart as a standalone SVG document.
pub fn chart_svg(c: &ChartData) -> String {
    let mut legend: Vec<LegendItem> = Vec::new();
    if c.legend {
        for s in c.series.iter().filter(|s| !s.name.is_empty()) {
            legend.push(LegendItem {
                name: plain(&s.name),
                color: s.color.clone(),
                dashed: s.dashed,
                symbol: None,
            });
        }
        for m in &c.markers {
            legend.push(LegendItem {
                name: plain(&m.name),
                color: m.color.clone(),
                dashed: false,
                symbol: Some(m.symbol),
            });
        }
    }
    let legend_rows = legend.len().div_ceil(3);
    let h = H + 22.0 * legend_rows as f64;
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {h}" width="{W}" height="{h}" font-family="Helvetica, Arial, sans-serif" font-size="12" role="img" aria-label="{}">"#,
        esc(&plain(c.title.as_deref().unwrap_or(&c.id)))
    );
    let _ = write!(
        o,
        r##"<rect class="background" x="0" y="0" width="{W}" height="{h}" fill="#ffffff"/>"##
    );
    if let Some(t) = &c.title {
        let _ = write!(
            o,
            r##"<text class="title" x="{}" y="22" text-anchor="middle" font-size="15" font-weight="bold" fill="#1e293b">{}</text>"##,
            n(W / 2.0),
            esc(&plain(t))
        );
    }
    let (px0, px1, py0, py1) = (LEFT, W - RIGHT, H - BOTTOM, TOP);
    if c.kind == ChartKind::Radar {
        radar(&mut o, c);
    } else {
        cartesian(&mut o, c, px0, px1, py0, py1);
    }
    // Legend rows under the plot.
    for (i, item) in legend.iter().enumerate() {
        let (row, col) = (i / 3, i % 3);
        let x = LEFT + col as f64 * 190.0;
        let y = H + 4.0 + row as f64 * 22.0;
        let _ = write!(o, r#"<g class="legend-item">"#);
        match item.symbol {
            Some(sym) => marker_shape(
                &mut o,
                "legend-symbol",
                sym,
                (x + 10.0, y),
                &item.color,
                &item.name,
            ),
            None => {
                let _ = write!(
                    o,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="3"{}/>"#,
                    n(x),
                    n(y),
                    n(x + 20.0),
                    n(y),
                    hex(&item.color),
                    if item.dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    }
                );
            }
        }
        let _ = write!(
            o,
            r##"<text class="legend" x="{}" y="{}" fill="#1e293b">{}</text></g>"##,
            n(x + 26.0),
            n(y + 4.0),
            esc(&item.name)
        );
    }
    o.push_str("</svg>\n");
    o
}

fn cartesian(o: &mut String, c: &ChartData, px0: f64, px1: f64, py0: f64, py1: f64) {
    let bar = c.kind == ChartKind::Bar;
    let cats: Vec<String> = if bar {
        let mut v: Vec<String> = Vec::new();
        for s in &c.series {
            for p in &s.points {
                if let XValue::Category(k) = &p.x {
                    if !v.contains(k) {
                        v.push(k.clone());
                    }
                }
            }
        }
        v
    } else {
        Vec::new()
    };
    let mut xs: Vec<f64> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    for s in &c.series {
        for p in &s.points {
            if let XValue::Number(x) = p.x {
                xs.push(x);
            }
            ys.push(p.y);
        }
    }
    for m in &c.markers {
        xs.push(m.x);
        ys.push(m.y);
    }
    ys.extend(c.hlines.iter().map(|l| l.at));
    xs.extend(c.vlines.iter().map(|l| l.at));
    if bar && !c.y_log {
        ys.push(0.0);
    }
    let sx = Scale::new(&xs, c.x_min, c.x_max, c.x_log, px0, px1);
    let sy = Scale::new(&ys, c.y_min, c.y_max, c.y_log, py0, py1);
    // Grid and ticks.
    o.push_str(r#"<g class="axis y-axis">"#);
    for t in sy.ticks() {
        let y = sy.t(t);
        let _ = write!(
            o,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#e5e7eb"/><text x="{}" y="{}" text-anchor="end" fill="#475569">{}</text>"##,
            n(px0),
            n(y),
            n(px1),
            n(y),
            n(px0 - 6.0),
            n(y + 4.0),
            esc(&tick_label(t, &c.y_prefix, &c.y_suffix))
        );
    }
    o.push_str("</g>");
    o.push_str(r#"<g class="axis x-axis">"#);
    let band = if bar {
        (px1 - px0) / cats.len().max(1) as f64
    } else {
        0.0
    };
    if bar {
        for (i, k) in cats.iter().enumerate() {
            let _ = write!(
                o,
                r##"<text x="{}" y="{}" text-anchor="middle" fill="#475569">{}</text>"##,
                n(px0 + band * (i as f64 + 0.5)),
                n(py0 + 18.0),
                esc(&plain(k))
            );
        }
    } else {
        for t in sx.ticks() {
            let x = sx.t(t);
            let _ = write!(
                o,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#e5e7eb"/><text x="{}" y="{}" text-anchor="middle" fill="#475569">{}</text>"##,
                n(x),
                n(py0),
                n(x),
                n(py1),
                n(x),
                n(py0 + 18.0),
                esc(&tick_label(t, &c.x_prefix, &c.x_suffix))
            );
        }
    }
    o.push_str("</g>");
    let _ = write!(
        o,
        r##"<path class="frame" d="M{} {}V{}H{}" fill="none" stroke="#334155"/>"##,
        n(px0),
        n(py1),
        n(py0),
        n(px1)
    );
    if let Some(l) = &c.x_label {
        let _ = write!(
            o,
            r##"<text class="axis-label x-label" x="{}" y="{}" text-anchor="middle" font-weight="bold" fill="#1e293b">{}</text>"##,
            n((px0 + px1) / 2.0),
            n(py0 + 40.0),
            esc(&plain(l))
        );
    }
    if let Some(l) = &c.y_label {
        let _ = write!(
            o,
            r##"<text class="axis-label y-label" x="{}" y="{}" text-anchor="middle" font-weight="bold" fill="#1e293b" transform="rotate(-90 {} {})">{}</text>"##,
            n(18.0),
            n((py0 + py1) / 2.0),
            n(18.0),
            n((py0 + py1) / 2.0),
            esc(&plain(l))
        );
    }
    // Data.
    let nbar = c.series.len().max(1) as f64;
    for (si, s) in c.series.iter().enumerate() {
        let col = hex(&s.color);
        let _ = write!(
            o,
            r#"<g class="series" data-name="{}">"#,
            esc(&plain(&s.name))
        );
        if bar {
            let w = band * 0.7 / nbar;
            for p in &s.points {
                let XValue::Category(k) = &p.x else { continue };
                let i = cats.iter().position(|c| c == k).unwrap_or(0) as f64;
                let x = px0 + band * i + band * 0.15 + w * si as f64;
                let base = if c.y_log { py0 } else { sy.t(0.0) };
                let y = sy.t(p.y);
                let fill = p.color.as_deref().map(hex).unwrap_or(col);
                let _ = write!(
                    o,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"/>"#,
                    n(x),
                    n(y.min(base)),
                    n(w),
                    n((base - y).abs())
                );
                if let Some(t) = &p.text {
                    let _ = write!(
                        o,
                        r##"<text x="{}" y="{}" text-anchor="middle" fill="#1e293b">{}</text>"##,
                        n(x + w / 2.0),
                        n(y.min(base) - 4.0),
                        esc(&plain(t))
                    );
                }
            }
        } else {
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter_map(|p| match p.x {
                    XValue::Number(x)
                        if x.is_finite()
                            && p.y.is_finite()
                            && (!c.x_log || x > 0.0)
                            && (!c.y_log || p.y > 0.0) =>
                    {
                        Some((sx.t(x), sy.t(p.y)))
                    }
                    _ => None,
                })
                .collect();
            if c.kind == ChartKind::Scatter {
                for (x, y) in &pts {
                    let _ = write!(
                        o,
                        r#"<circle cx="{}" cy="{}" r="3.5" fill="{col}"/>"#,
                        n(*x),
                        n(*y)
                    );
                }
            } else if !pts.is_empty() {
                let d: Vec<String> = pts
                    .iter()
                    .enumerate()
                    .map(|(i, (x, y))| {
                        format!("{}{} {}", if i == 0 { "M" } else { "L" }, n(*x), n(*y))
                    })
                    .collect();
                let _ = write!(
                    o,
                    r#"<path d="{}" fill="none" stroke="{col}" stroke-width="{}"{}/>"#,
                    d.join(""),
                    if s.emphasis { 4 } else { 2 },
                    if s.dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    }
                );
            }
        }
        o.push_str("</g>");
    }
    // Reference lines.
    for l in &c.hlines {
        let y = sy.t(l.at);
        ref_line(o, "hline", (px0, y, px1, y), l, (px1 - 4.0, y - 5.0, "end"));
    }
    for l in &c.vlines {
        let x = sx.t(l.at);
        ref_line(
            o,
            "vline",
            (x, py0, x, py1),
            l,
            (x + 4.0, py1 + 12.0, "start"),
        );
    }
    for m in &c.markers {
        marker_shape(
            o,
            "marker",
            m.symbol,
            (sx.t(m.x), sy.t(m.y)),
            &m.color,
            &plain(&m.name),
        );
    }
}

fn ref_line(
    o: &mut String,
    class: &str,
    (x1, y1, x2, y2): (f64, f64, f64, f64),
    l: &crate::eval::chart::LineData,
    (tx, ty, anchor): (f64, f64, &str),
) {
    let col = hex(&l.color);
    let _ = write!(
        o,
        r#"<g class="{class}"><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{col}" stroke-width="2"{}/>"#,
        n(x1),
        n(y1),
        n(x2),
        n(y2),
        if l.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        }
    );
    if let Some(t) = &l.label {
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" text-anchor="{anchor}" fill="{col}">{}</text>"#,
            n(tx),
            n(ty),
            esc(&plain(t))
        );
    }
    o.push_str("</g>");
}

fn radar(o: &mut String, c: &ChartData) {
    let (cx, cy, r) = (W / 2.0, (TOP + H - BOTTOM) / 2.0 + 10.0, 120.0);
    let k = c.axes.len().max(3);
    let max = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.y))
        .filter(|y| y.is_finite())
        .fold(c.y_max.unwrap_or(0.0), f64::max)
        .max(1e-12);
    let at = |i: usize, f: f64| {
        let a = std::f64::consts::TAU * i as f64 / k as f64 - std::f64::consts::FRAC_PI_2;
        (cx + r * f * a.cos(), cy + r * f * a.sin())
    };
    o.push_str(r#"<g class="axis radar-axes">"#);
    for ring in [0.25, 0.5, 0.75, 1.0] {
        let pts: Vec<String> = (0..k)
            .map(|i| {
                let (x, y) = at(i, ring);
                format!("{},{}", n(x), n(y))
            })
            .collect();
        let _ = write!(
            o,
            r##"<polygon points="{}" fill="none" stroke="#e5e7eb"/>"##,
            pts.join(" ")
        );
    }
    for (i, name) in c.axes.iter().enumerate() {
        let (x, y) = at(i, 1.0);
        let (lx, ly) = at(i, 1.15);
        let _ = write!(
            o,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#cbd5e1"/><text class="axis-label" x="{}" y="{}" text-anchor="middle" fill="#1e293b">{}</text>"##,
            n(cx),
            n(cy),
            n(x),
            n(y),
            n(lx),
            n(ly + 4.0),
            esc(&plain(name))
        );
    }
    o.push_str("</g>");
    for s in &c.series {
        let col = hex(&s.color);
        let pts: Vec<String> = s
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (x, y) = at(i, (p.y / max).clamp(0.0, 1.0));
                format!("{},{}", n(x), n(y))
            })
            .collect();
        let _ = write!(
            o,
            r#"<g class="series" data-name="{}"><polygon points="{}" fill="{}" fill-opacity="{}" stroke="{col}" stroke-width="2"{}/></g>"#,
            esc(&plain(&s.name)),
            pts.join(" "),
            if s.fill { col } else { "none" },
            if s.fill { "0.2" } else { "0" },
            if s.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            }
        );
    }
}
