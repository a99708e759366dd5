//! Radar charts.

use super::{c, class_color, esc, palette, series_dash, sw, tip_num, Frame};
use crate::eval::chart::ChartData;
use std::fmt::Write;

pub(super) fn radar(o: &mut String, ch: &ChartData, f: &Frame) {
    let (width, top, h) = (f.width, f.top, f.base);
    let n = ch.axes.len().max(3);
    let cx = width / 2.0;
    let cy = top + (h - top - 24.0) / 2.0 + 4.0;
    // Leave room beside the circle for the longest axis label (about 7 px a character).
    let longest = ch.axes.iter().map(|a| a.chars().count()).max().unwrap_or(0) as f64;
    let room = ((width / 2.0 - longest * 7.0 - 8.0) / 1.12).max(20.0);
    let r = ((h - top - 24.0) / 2.0 - 24.0).max(20.0).min(room);
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
            let fr = if p.y.is_finite() {
                (p.y / maxv).clamp(0.0, 1.2)
            } else {
                0.0
            };
            let (x, y) = at(i, fr);
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
            sw(s.width.unwrap_or(2.0) + if s.emphasis { 1.5 } else { 0.0 }),
            series_dash(si, s)
        );
    }
}
