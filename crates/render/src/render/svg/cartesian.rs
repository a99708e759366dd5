//! Line, scatter and bar charts: axes, series, bands, bars, reference lines, markers, and the
//! placement of their labels (inside the plot, never overlapping).

use super::{
    c, class_color, esc, fit, measure, palette, series_dash, shape_symbol, sw, symbol, text,
    tip_num, Frame, Scale, BOTTOM, LEFT, LINE,
};
use crate::eval::chart::{ChartData, LineData, SeriesData, XValue};
use crate::model::{ChartKind, PointShape};
use std::fmt::Write;

fn num_x(p: &XValue) -> f64 {
    match p {
        XValue::Number(x) => *x,
        XValue::Category(_) => f64::NAN,
    }
}

/// The plot area.
struct Plot {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

/// A label waiting for its place: text, anchor point, anchor, colour class and fill. A label
/// with `alts` (a reference line's) never sits on data: it takes the first of its place and
/// `alts` where it covers no bar, no point and no label placed before it.
struct Label {
    s: String,
    x: f64,
    y: f64,
    anchor: &'static str,
    pre: String,
    post: String,
    alts: Vec<(f64, f64, &'static str)>,
    /// A bar's value, left out where its place is not free (its tooltip and the Data table
    /// keep it): under a taller bar of its group, or where a label sits already.
    optional: bool,
}

/// Each bar's value interval: stacked bars start where the category's previous one ended.
fn bar_spans(ch: &ChartData, cats: &[String]) -> Vec<Vec<(f64, f64)>> {
    let mut pos = vec![0.0; cats.len()];
    let mut neg = vec![0.0; cats.len()];
    ch.series
        .iter()
        .map(|s| {
            s.points
                .iter()
                .map(|p| {
                    let ci = match &p.x {
                        XValue::Category(k) => cats.iter().position(|x| x == k),
                        XValue::Number(_) => None,
                    };
                    match ci {
                        Some(ci) if ch.stacked && p.y.is_finite() => {
                            let acc = if p.y >= 0.0 {
                                &mut pos[ci]
                            } else {
                                &mut neg[ci]
                            };
                            let from = *acc;
                            *acc += p.y;
                            (from, *acc)
                        }
                        _ => (0.0, p.y),
                    }
                })
                .collect()
        })
        .collect()
}

pub(super) fn cartesian(o: &mut String, ch: &ChartData, uid: &str, f: &Frame) {
    let is_bar = ch.kind == ChartKind::Bar;
    let cats = if is_bar { ch.categories() } else { Vec::new() };
    // Each category's label fitted to its slot (names stay whole in titles and the data table).
    let slot = (f.right - LEFT) / cats.len().max(1) as f64;
    let shown: Vec<String> = cats
        .iter()
        .map(|k| fit(&format!("{}{k}{}", ch.x_prefix, ch.x_suffix), slot - 8.0))
        .collect();
    let cat_lines = shown.iter().map(|k| measure(k).0).max().unwrap_or(1);
    let extra = (cat_lines as f64 - 1.0) * LINE;
    let p = Plot {
        x0: LEFT,
        x1: f.right,
        y0: f.top + 8.0,
        y1: f.base - BOTTOM - extra,
    };
    let spans = bar_spans(ch, &cats);
    let mut xs: Vec<f64> = Vec::new();
    let mut ys: Vec<f64> = Vec::new();
    for (s, sp) in ch.series.iter().zip(&spans) {
        for (pt, (_, to)) in s.points.iter().zip(sp) {
            xs.push(num_x(&pt.x));
            ys.push(*to);
        }
    }
    for m in &ch.markers {
        xs.push(m.x);
        ys.push(m.y);
    }
    xs.extend(ch.vlines.iter().map(|l| l.at));
    ys.extend(ch.hlines.iter().map(|l| l.at));
    // A histogram's last bin ends one width after its left edge.
    if let (Some(w), Some(last)) = (ch.bin_width, xs.iter().rev().find(|x| x.is_finite())) {
        xs.push(*last + w);
    }
    let sy = Scale::new(
        &ys,
        ch.y_min,
        ch.y_max,
        ch.y_log,
        is_bar || ch.bin_width.is_some(),
    );
    let sx = Scale::new(&xs, ch.x_min, ch.x_max, ch.x_log, false);
    let px = |v: f64| p.x0 + sx.frac(v) * (p.x1 - p.x0);
    let py = |v: f64| p.y1 - sy.frac(v) * (p.y1 - p.y0);
    // Grid and axes.
    o.push_str("<g class=\"grid\">");
    for t in &sy.ticks {
        let y = py(*t);
        let _ = write!(
            o,
            "<line class=\"st-grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e5e7eb\"/><text class=\"fi-muted\" x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#6b7280\">{}</text>",
            c(p.x0),
            c(y),
            c(p.x1),
            c(y),
            c(p.x0 - 6.0),
            c(y + 4.0),
            esc(&sy.label(*t, &ch.y_prefix, &ch.y_suffix))
        );
    }
    if is_bar {
        let nc = cats.len().max(1) as f64;
        for (i, label) in shown.iter().enumerate() {
            let x = p.x0 + (i as f64 + 0.5) * (p.x1 - p.x0) / nc;
            text(
                o,
                "class=\"fi-muted\"",
                x,
                p.y1 + 16.0,
                " text-anchor=\"middle\" fill=\"#6b7280\"",
                label,
            );
        }
    } else {
        for t in &sx.ticks {
            let x = px(*t);
            let _ = write!(
                o,
                "<line class=\"st-grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e5e7eb\"/><text class=\"fi-muted\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#6b7280\">{}</text>",
                c(x),
                c(p.y0),
                c(x),
                c(p.y1),
                c(x),
                c(p.y1 + 16.0),
                esc(&sx.label(*t, &ch.x_prefix, &ch.x_suffix))
            );
        }
    }
    let _ = write!(
        o,
        "<line class=\"st-axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#6b7280\"/><line class=\"st-axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#6b7280\"/></g>",
        c(p.x0),
        c(p.y1),
        c(p.x1),
        c(p.y1),
        c(p.x0),
        c(p.y0),
        c(p.x0),
        c(p.y1)
    );
    if let Some(l) = &ch.x_label {
        let _ = write!(
            o,
            "<text class=\"fi-text\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#1f2937\">{}</text>",
            c((p.x0 + p.x1) / 2.0),
            c(p.y1 + 36.0 + extra),
            esc(l)
        );
    }
    if let Some(l) = &ch.y_label {
        let _ = write!(
            o,
            "<text class=\"fi-text\" transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\" fill=\"#1f2937\">{}</text>",
            c((p.y0 + p.y1) / 2.0),
            esc(l)
        );
    }
    let _ = write!(
        o,
        "<clipPath id=\"clip-{uid}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath><g clip-path=\"url(#clip-{uid})\">",
        c(p.x0 - 8.0),
        c(p.y0 - 8.0),
        c(p.x1 - p.x0 + 16.0),
        c(p.y1 - p.y0 + 16.0)
    );
    let mut labels: Vec<Label> = Vec::new();
    // What a reference line's label must not cover: bars and points (points gathered only when
    // a reference line has a label, as charts.js does on every frame of a drag).
    let mut data: Vec<[f64; 4]> = Vec::new();
    let avoid = ch
        .hlines
        .iter()
        .chain(&ch.vlines)
        .any(|l| l.label.is_some());
    // Bands under the lines.
    for b in &ch.bands {
        let (Some(lo), Some(hi)) = (ch.series.get(b.lower), ch.series.get(b.upper)) else {
            continue;
        };
        let mut pts: Vec<(f64, f64)> = Vec::new();
        for pt in lo.points.iter().chain(hi.points.iter().rev()) {
            let (x, y) = (px(num_x(&pt.x)), py(pt.y));
            if x.is_finite() && y.is_finite() {
                pts.push((x, y));
            }
        }
        if pts.len() < 3 {
            continue;
        }
        let mut d = String::new();
        for (i, (x, y)) in pts.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, c(*x), c(*y));
        }
        let _ = write!(
            o,
            "<path class=\"fi-{}\" d=\"{d}Z\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"><title>{}</title></path>",
            class_color(&b.color),
            palette(&b.color),
            esc(&b.name)
        );
    }
    // Series.
    if is_bar {
        bars(o, ch, &cats, &spans, &p, &py, &sy, &mut labels, &mut data);
    } else if let Some(w) = ch.bin_width {
        bins(o, ch, w, &px, &py, &sy, &mut data);
    } else {
        for (i, s) in ch.series.iter().enumerate() {
            line_series(o, ch.kind, i, s, &px, &py);
            if avoid {
                // A point is as big as its shape (4.5 px), a scatter dot (4 px) or a line's.
                let r = match s.marker {
                    Some(m) if m != PointShape::None => 4.5,
                    _ if ch.kind == ChartKind::Scatter => 4.0,
                    _ => 2.0,
                };
                for pt in s.points.iter() {
                    let (x, y) = (px(num_x(&pt.x)), py(pt.y));
                    if x.is_finite() && y.is_finite() {
                        data.push([x - r, y - r, x + r, y + r]);
                    }
                }
            }
        }
    }
    // Reference lines.
    ref_lines(o, &ch.hlines, true, &p, &sy, &mut labels);
    ref_lines(o, &ch.vlines, false, &p, &sx, &mut labels);
    o.push_str("</g>");
    // Markers (off-scale ones at the edge, with an arrow pointing to where they are).
    for m in &ch.markers {
        let (fx, fy) = (sx.frac(m.x), sy.frac(m.y));
        if !fx.is_finite() || !fy.is_finite() {
            continue;
        }
        let mut x = p.x0 + fx.clamp(0.0, 1.0) * (p.x1 - p.x0);
        let mut y = p.y1 - fy.clamp(0.0, 1.0) * (p.y1 - p.y0);
        let arrow = if fy > 1.0 {
            y = p.y0 + 14.0;
            Some([x, p.y0, x - 5.0, p.y0 + 7.0, x + 5.0, p.y0 + 7.0])
        } else if fy < 0.0 {
            y = p.y1 - 14.0;
            Some([x, p.y1, x - 5.0, p.y1 - 7.0, x + 5.0, p.y1 - 7.0])
        } else if fx > 1.0 {
            x = p.x1 - 14.0;
            Some([p.x1, y, p.x1 - 7.0, y - 5.0, p.x1 - 7.0, y + 5.0])
        } else if fx < 0.0 {
            x = p.x0 + 14.0;
            Some([p.x0, y, p.x0 + 7.0, y - 5.0, p.x0 + 7.0, y + 5.0])
        } else {
            None
        };
        let mut tip = format!("{}: ({}, {})", m.name, tip_num(m.x), tip_num(m.y));
        if let Some(a) = arrow {
            tip.push_str(", off the scale");
            let _ = write!(
                o,
                "<path class=\"fi-{} off\" d=\"M{} {}L{} {}L{} {}Z\" fill=\"{}\"/>",
                class_color(&m.color),
                c(a[0]),
                c(a[1]),
                c(a[2]),
                c(a[3]),
                c(a[4]),
                c(a[5]),
                palette(&m.color)
            );
        }
        symbol(o, m.symbol, x, y, &m.color, 7.0, &tip);
        if let Some(t) = &m.text {
            // Above right of the marker, else below right, above left, below left, right above
            // or below it, then a line or two further up or down on the right or above it.
            let below = y + 20.0;
            let above = y + 3.0 - LINE * measure(t).0 as f64;
            let step = LINE + 1.0;
            labels.push(Label {
                s: t.clone(),
                x: x + 10.0,
                y: y - 8.0,
                anchor: "start",
                pre: "class=\"fi-text mk\"".into(),
                post: " fill=\"#1f2937\"".into(),
                alts: vec![
                    (x + 10.0, below, "start"),
                    (x - 10.0, y - 8.0, "end"),
                    (x - 10.0, below, "end"),
                    (x, above, "middle"),
                    (x, below, "middle"),
                    (x + 10.0, y - 8.0 - step, "start"),
                    (x + 10.0, below + step, "start"),
                    (x, above - step, "middle"),
                    (x + 10.0, y - 8.0 - 2.0 * step, "start"),
                    (x + 10.0, below + 2.0 * step, "start"),
                    (x, above - 2.0 * step, "middle"),
                ],
                optional: false,
            });
        }
    }
    place_labels(o, labels, &p, &data);
}

/// Draws labels inside the plot area: a label that would run past an edge turns or moves in,
/// and one that would overlap an earlier label moves down a line until it is free.
fn place_labels(o: &mut String, labels: Vec<Label>, p: &Plot, data: &[[f64; 4]]) {
    let mut placed: Vec<[f64; 4]> = Vec::new();
    for mut l in labels {
        let (lines, chars) = measure(&l.s);
        let w = 7.0 * chars as f64;
        let h = LINE * lines as f64;
        let fit = |l: &mut Label| {
            if l.anchor == "start" && l.x + w > p.x1 {
                l.x -= 20.0;
                l.anchor = "end";
            }
            if l.anchor == "end" && l.x - w < p.x0 {
                l.x = p.x0 + w;
            }
            if l.anchor == "middle" {
                l.x =
                    l.x.clamp(p.x0 + w / 2.0, (p.x1 - w / 2.0).max(p.x0 + w / 2.0));
            }
            if l.y - 11.0 < p.y0 {
                l.y = p.y0 + 11.0;
            }
        };
        let bx = |l: &Label| -> [f64; 4] {
            let left = match l.anchor {
                "end" => l.x - w,
                "middle" => l.x - w / 2.0,
                _ => l.x,
            };
            [left, l.y - 11.0, left + w, l.y - 11.0 + h]
        };
        let hits = |b: &[f64; 4], placed: &[[f64; 4]]| {
            placed
                .iter()
                .any(|q| b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3])
        };
        // Free: on no data, no label placed before, and above the plot's bottom edge.
        let taken = |b: &[f64; 4], placed: &[[f64; 4]]| {
            hits(b, data) || hits(b, placed) || b[3] > p.y1 - 2.0
        };
        let first = (l.x, l.y, l.anchor);
        fit(&mut l);
        if l.optional && taken(&bx(&l), &placed) {
            continue;
        }
        if !l.alts.is_empty() && taken(&bx(&l), &placed) {
            let mut free = false;
            for &(x, y, anchor) in &l.alts.clone() {
                (l.x, l.y, l.anchor) = (x, y, anchor);
                fit(&mut l);
                if !taken(&bx(&l), &placed) {
                    free = true;
                    break;
                }
            }
            if !free {
                // Nowhere free: where it covers the least data (the first such place).
                let mut best = (f64::INFINITY, first.0, first.1, first.2);
                for &(x, y, anchor) in [first].iter().chain(&l.alts.clone()) {
                    (l.x, l.y, l.anchor) = (x, y, anchor);
                    fit(&mut l);
                    let b = bx(&l);
                    let mut area = 0.0;
                    for q in data {
                        area += (b[2].min(q[2]) - b[0].max(q[0])).max(0.0)
                            * (b[3].min(q[3]) - b[1].max(q[1])).max(0.0);
                    }
                    if area < best.0 {
                        best = (area, x, y, anchor);
                    }
                }
                (l.x, l.y, l.anchor) = (best.1, best.2, best.3);
                fit(&mut l);
            }
        }
        let mut tries = 0;
        while hits(&bx(&l), &placed) && tries < 20 {
            l.y += LINE + 1.0;
            tries += 1;
        }
        if l.y - 11.0 + h > p.y1 - 2.0 {
            l.y = p.y1 - 2.0 - h + 11.0;
        }
        placed.push(bx(&l));
        let post = format!(
            " text-anchor=\"{}\" font-size=\"11\"{} stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"",
            l.anchor, l.post
        );
        text(o, &l.pre, l.x, l.y, &post, &l.s);
    }
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
                sw(s.width.unwrap_or(2.0) + if s.emphasis { 1.5 } else { 0.0 }),
                series_dash(i, s)
            );
        }
    }
    let tip = |xv: f64, yv: f64| {
        format!(
            "{}{}({}, {})",
            s.name,
            if s.name.is_empty() { "" } else { ": " },
            tip_num(xv),
            tip_num(yv)
        )
    };
    if let Some(shape) = s.marker.filter(|m| *m != PointShape::None) {
        for (x, y, xv, yv) in &pts {
            if x.is_finite() && y.is_finite() {
                symbol(
                    o,
                    shape_symbol(shape),
                    *x,
                    *y,
                    &s.color,
                    4.5,
                    &tip(*xv, *yv),
                );
            }
        }
        return;
    }
    let r = if kind == ChartKind::Scatter { 4.0 } else { 2.5 };
    // Dense lines (and `marker: none`) keep their points as invisible tooltip targets.
    let hidden = (kind == ChartKind::Line && pts.len() > 30) || s.marker.is_some();
    let _ = write!(
        o,
        "<g class=\"fi-{cls}\" fill=\"{col}\"{}>",
        if hidden { " fill-opacity=\"0\"" } else { "" }
    );
    for (x, y, xv, yv) in &pts {
        if x.is_finite() && y.is_finite() {
            let _ = write!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"><title>{}</title></circle>",
                c(*x),
                c(*y),
                c(r),
                esc(&tip(*xv, *yv))
            );
        }
    }
    o.push_str("</g>");
}

#[allow(clippy::too_many_arguments)]
fn bars(
    o: &mut String,
    ch: &ChartData,
    cats: &[String],
    spans: &[Vec<(f64, f64)>],
    p: &Plot,
    py: &dyn Fn(f64) -> f64,
    sy: &Scale,
    labels: &mut Vec<Label>,
    data: &mut Vec<[f64; 4]>,
) {
    let nc = cats.len().max(1) as f64;
    let band = (p.x1 - p.x0) / nc;
    let groups = if ch.stacked {
        1.0
    } else {
        ch.series.len().max(1) as f64
    };
    let bw = band * 0.7 / groups;
    let base = if sy.log {
        py(10f64.powf(sy.lo))
    } else {
        py(0f64.clamp(sy.lo, sy.hi))
    };
    let values = values_fit(ch, if groups > 1.0 { bw } else { band });
    for (si, (s, sp)) in ch.series.iter().zip(spans).enumerate() {
        for (pt, (from, to)) in s.points.iter().zip(sp) {
            let XValue::Category(k) = &pt.x else { continue };
            let Some(ci) = cats.iter().position(|x| x == k) else {
                continue;
            };
            let y = py(*to);
            if !y.is_finite() {
                continue;
            }
            let b = if ch.stacked && *from != 0.0 {
                py(*from)
            } else {
                base
            };
            let color = pt.color.clone().unwrap_or_else(|| s.color.clone());
            let cls = class_color(&color);
            let slot = if ch.stacked { 0.0 } else { si as f64 };
            let x = p.x0 + ci as f64 * band + band * 0.15 + slot * bw;
            let (top, h) = if y < b { (y, b - y) } else { (b, y - b) };
            data.push([x, top, x + bw, top + h]);
            let label = if s.name.is_empty() {
                k.replace('\n', " ")
            } else {
                format!("{} — {}", s.name, k.replace('\n', " "))
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
                tip_num(pt.y)
            );
            let Some(t) = pt.text.as_ref().filter(|_| ch.stacked || values) else {
                continue;
            };
            let lines = measure(t).0 as f64;
            let ty = if ch.stacked {
                top + h / 2.0 + 4.0 - (lines - 1.0) * LINE / 2.0
            } else {
                top - 4.0 - (lines - 1.0) * LINE
            };
            // Right above its bar, never further (a label lifted over its neighbours reads as
            // theirs); a stacked segment's inside it.
            labels.push(Label {
                s: t.clone(),
                x: x + bw / 2.0,
                y: ty,
                anchor: "middle",
                pre: "class=\"fi-text mk\"".into(),
                post: " fill=\"#1f2937\"".into(),
                alts: Vec::new(),
                optional: !ch.stacked,
            });
        }
    }
}

/// Do a bar chart's values fit above their bars: is the widest (at the charts' 11 px, which
/// no text goes below) narrower than the spacing of the bars' centres, so that neighbours never
/// meet? Where not (a phone), all of the chart's values are left out of the drawing, none
/// lifted over its neighbours where it would read as theirs; each bar's tooltip and the Data
/// table keep them.
fn values_fit(ch: &ChartData, spacing: f64) -> bool {
    let widest = ch
        .series
        .iter()
        .flat_map(|s| &s.points)
        .filter_map(|p| p.text.as_deref())
        .map(|t| measure(t).1)
        .max()
        .unwrap_or(0);
    7.0 * widest as f64 <= spacing - 2.0
}

/// A histogram's bins: adjacent bars from the axis to each count, a pixel apart when there is
/// room; each carries its range and count as its tooltip.
fn bins(
    o: &mut String,
    ch: &ChartData,
    w: f64,
    px: &dyn Fn(f64) -> f64,
    py: &dyn Fn(f64) -> f64,
    sy: &Scale,
    data: &mut Vec<[f64; 4]>,
) {
    let base = py(0f64.clamp(sy.lo, sy.hi));
    for s in &ch.series {
        let cls = class_color(&s.color);
        let col = palette(&s.color);
        for pt in &s.points {
            let lo = num_x(&pt.x);
            let (a, b, y) = (px(lo), px(lo + w), py(pt.y));
            if !(a.is_finite() && b.is_finite() && y.is_finite()) {
                continue;
            }
            let gap = if b - a >= 4.0 { 1.0 } else { 0.0 };
            let (top, h) = if y < base {
                (y, base - y)
            } else {
                (base, y - base)
            };
            data.push([a, top, b, top + h]);
            let range = format!(
                "{}{}–{}{}",
                ch.x_prefix,
                tip_num(lo),
                tip_num(lo + w),
                ch.x_suffix
            );
            let label = if s.name.is_empty() {
                range
            } else {
                format!("{} — {range}", s.name)
            };
            let _ = write!(
                o,
                "<rect class=\"fi-{cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{col}\"><title>{}: {}</title></rect>",
                c(a + gap / 2.0),
                c(top),
                c(b - a - gap),
                c(h),
                esc(&label),
                tip_num(pt.y)
            );
        }
    }
}

/// Reference lines; one beyond the scale is drawn at the edge, its label marked with an arrow.
fn ref_lines(
    o: &mut String,
    lines: &[LineData],
    horizontal: bool,
    p: &Plot,
    s: &Scale,
    labels: &mut Vec<Label>,
) {
    for l in lines {
        let f = s.frac(l.at);
        if !f.is_finite() {
            continue;
        }
        let fc = f.clamp(0.0, 1.0);
        let v = if horizontal {
            p.y1 - fc * (p.y1 - p.y0)
        } else {
            p.x0 + fc * (p.x1 - p.x0)
        };
        let arrow = match (horizontal, f > 1.0, f < 0.0) {
            (true, true, _) => "▲ ",
            (true, _, true) => "▼ ",
            (false, true, _) => "▶ ",
            (false, _, true) => "◀ ",
            _ => "",
        };
        let cls = class_color(&l.color);
        let col = palette(&l.color);
        let (ax, ay, bx, by) = if horizontal {
            (p.x0, v, p.x1, v)
        } else {
            (v, p.y0, v, p.y1)
        };
        let _ = write!(
            o,
            "<line class=\"st-{cls}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{col}\" stroke-width=\"1.5\"{}><title>{}{}{}</title></line>",
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
            },
            if arrow.is_empty() { "" } else { ", off the scale" }
        );
        if let Some(t) = &l.label {
            let lines = measure(t).0 as f64;
            // At the right end above the line (below it at the top edge); else below it, then
            // at the left end; a vertical line's at its top right, then top left, then bottom.
            // Where those cover data: the middle of the line, then a line further from it at
            // each end and the middle (a vertical line's: down its length, right then left).
            let step = LINE + 1.0;
            let (x, y, anchor, alts) = if horizontal {
                let above = v - 5.0 - (lines - 1.0) * LINE;
                let below = v + 14.0;
                let y = if above - 11.0 < p.y0 { below } else { above };
                let mid = (p.x0 + p.x1) / 2.0;
                let mut alts = vec![
                    (p.x1 - 4.0, below, "end"),
                    (p.x0 + 4.0, y, "start"),
                    (p.x0 + 4.0, below, "start"),
                    (mid, y, "middle"),
                    (mid, below, "middle"),
                ];
                for k in 1..=8 {
                    let k = k as f64;
                    for (x, anchor) in [(p.x1 - 4.0, "end"), (p.x0 + 4.0, "start"), (mid, "middle")]
                    {
                        alts.push((x, above - k * step, anchor));
                        alts.push((x, below + k * step, anchor));
                    }
                }
                (p.x1 - 4.0, y, "end", alts)
            } else {
                let bottom = p.y1 - 6.0 - (lines - 1.0) * LINE;
                let mut alts = vec![
                    (v - 4.0, p.y0 + 12.0, "end"),
                    (v + 4.0, bottom, "start"),
                    (v - 4.0, bottom, "end"),
                ];
                let mut y = p.y0 + 12.0 + step;
                while y < bottom {
                    alts.push((v + 4.0, y, "start"));
                    alts.push((v - 4.0, y, "end"));
                    y += step;
                }
                (v + 4.0, p.y0 + 12.0, "start", alts)
            };
            labels.push(Label {
                s: format!("{arrow}{t}"),
                x,
                y,
                anchor,
                pre: format!("class=\"fi-{cls} mk\""),
                post: format!(" fill=\"{col}\""),
                alts,
                optional: false,
            });
        }
    }
}
