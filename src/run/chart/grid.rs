//! Line and scatter charts drawn as text: series as glyphs on a grid of rows and columns (log
//! axes too), markers as symbols, off-scale ones at the edge with an arrow, reference lines
//! dashed, bands shaded, a legend below.

use super::*;

struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    fn t(&self, v: f64) -> f64 {
        if self.log {
            v.max(f64::MIN_POSITIVE).log10()
        } else {
            v
        }
    }
    /// Position 0..=n-1 of `v`, or None outside.
    fn pos(&self, v: f64, n: usize) -> Option<usize> {
        if !v.is_finite() || (self.log && v <= 0.0) {
            return None;
        }
        let (a, b) = (self.t(self.lo), self.t(self.hi));
        let f = if b > a {
            (self.t(v) - a) / (b - a)
        } else {
            0.5
        };
        if !(-1e-9..=1.0 + 1e-9).contains(&f) {
            return None;
        }
        Some(((f.clamp(0.0, 1.0)) * (n - 1) as f64).round() as usize)
    }
    fn at(&self, f: f64) -> f64 {
        let (a, b) = (self.t(self.lo), self.t(self.hi));
        let v = a + (b - a) * f;
        if self.log {
            10f64.powf(v)
        } else {
            v
        }
    }
}

fn range(vals: impl Iterator<Item = f64>, lo: Option<f64>, hi: Option<f64>, log: bool) -> Axis {
    let v: Vec<f64> = vals
        .filter(|x| x.is_finite() && (!log || *x > 0.0))
        .collect();
    let mut a = lo.unwrap_or_else(|| v.iter().copied().fold(f64::INFINITY, f64::min));
    let mut b = hi.unwrap_or_else(|| v.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    if !a.is_finite() || !b.is_finite() {
        a = if log { 1.0 } else { 0.0 };
        b = if log { 10.0 } else { 1.0 };
    }
    if a == b {
        if log {
            a /= 10.0;
            b *= 10.0;
        } else {
            a -= 1.0;
            b += 1.0;
        }
    }
    Axis { lo: a, hi: b, log }
}

pub(super) fn grid(c: &ChartData, scr: &Screen, out: &mut Vec<String>) {
    let pts = |f: fn(&XValue) -> Option<f64>| {
        c.series
            .iter()
            .flat_map(move |s| s.points.iter().filter_map(move |p| f(&p.x)))
    };
    let xnum = |x: &XValue| match x {
        XValue::Number(n) => Some(*n),
        XValue::Category(_) => None,
    };
    let xs = pts(xnum)
        .chain(c.markers.iter().map(|m| m.x))
        .collect::<Vec<_>>();
    let ys = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.y))
        .chain(c.markers.iter().map(|m| m.y))
        .chain(c.hlines.iter().map(|l| l.at))
        .collect::<Vec<_>>();
    if xs.is_empty() {
        out.push("  (no data)".into());
        return;
    }
    let xa = range(xs.into_iter(), c.x_min, c.x_max, c.x_log);
    let ya = range(ys.into_iter(), c.y_min, c.y_max, c.y_log);
    let ylabels: Vec<String> = [1.0, 0.5, 0.0]
        .iter()
        .map(|f| tick(ya.at(*f), &c.y_prefix, &c.y_suffix))
        .collect();
    let lw = ylabels.iter().map(|l| display_width(l)).max().unwrap_or(1);
    let w = scr.width.min(100).saturating_sub(lw + 4).clamp(10, 90);
    let h = grid_rows(c.height);
    // Cells: glyph and colour.
    let mut cells: Vec<Vec<Option<(char, String)>>> = vec![vec![None; w]; h];
    let row = |y: f64| ya.pos(y, h).map(|r| h - 1 - r);
    for l in &c.hlines {
        if let Some(r) = row(l.at) {
            for (i, cell) in cells[r].iter_mut().enumerate() {
                if !l.dashed || i % 2 == 0 {
                    *cell = Some(('-', l.color.clone()));
                }
            }
        }
    }
    for l in &c.vlines {
        if let Some(col) = xa.pos(l.at, w) {
            for (i, r) in cells.iter_mut().enumerate() {
                if !l.dashed || i % 2 == 0 {
                    r[col] = Some(('|', l.color.clone()));
                }
            }
        }
    }
    for b in &c.bands {
        let (Some(lo), Some(hi)) = (c.series.get(b.lower), c.series.get(b.upper)) else {
            continue;
        };
        for (p, q) in lo.points.iter().zip(&hi.points) {
            let (Some(x), Some(x2)) = (xnum(&p.x), xnum(&q.x)) else {
                continue;
            };
            let (Some(cx), Some(cx2)) = (xa.pos(x, w), xa.pos(x2, w)) else {
                continue;
            };
            let clamp = |y: f64| ya.pos(y, h).or(if y > ya.hi { Some(h - 1) } else { None });
            let (Some(a), Some(b2)) = (clamp(p.y), clamp(q.y)) else {
                continue;
            };
            if cx != cx2 {
                continue;
            }
            for r in a.min(b2) + 1..a.max(b2) {
                let cell = &mut cells[h - 1 - r][cx];
                if cell.is_none() {
                    *cell = Some(('░', b.color.clone()));
                }
            }
        }
    }
    for (si, s) in c.series.iter().enumerate() {
        let g = glyph(si, s.marker);
        let gap = |k: usize| match s.style {
            Some(LineStyle::Solid) => true,
            Some(LineStyle::Dashed) => k.is_multiple_of(2),
            Some(LineStyle::Dotted) => k.is_multiple_of(3),
            None => !s.dashed || k.is_multiple_of(2),
        };
        let mut prev: Option<(usize, usize)> = None;
        for p in &s.points {
            let Some(x) = xnum(&p.x) else { continue };
            let (Some(cx), Some(ry)) = (xa.pos(x, w), row(p.y)) else {
                prev = None;
                continue;
            };
            if c.kind == ChartKind::Line {
                if let Some((px, py)) = prev {
                    // Fill the gap between consecutive points.
                    let steps = px.abs_diff(cx).max(py.abs_diff(ry));
                    for k in 1..steps {
                        let f = k as f64 / steps as f64;
                        let ix = (px as f64 + (cx as f64 - px as f64) * f).round() as usize;
                        let iy = (py as f64 + (ry as f64 - py as f64) * f).round() as usize;
                        if gap(k) {
                            cells[iy][ix] = Some(('·', s.color.clone()));
                        }
                    }
                }
            }
            let g = g.unwrap_or('·');
            cells[ry][cx] = Some((g, p.color.clone().unwrap_or_else(|| s.color.clone())));
            prev = Some((cx, ry));
        }
    }
    // Markers; one off the scale sits at the edge as an arrow pointing to where it is.
    let mut off = vec![false; c.markers.len()];
    for (i, m) in c.markers.iter().enumerate() {
        if !m.x.is_finite() || !m.y.is_finite() {
            continue;
        }
        let (cx, ry) = (xa.pos(m.x, w), row(m.y));
        let edge_x = || if xa.t(m.x) > xa.t(xa.hi) { w - 1 } else { 0 };
        let edge_y = || if ya.t(m.y) > ya.t(ya.hi) { 0 } else { h - 1 };
        let (cx, ry, ch) = match (cx, ry) {
            (Some(cx), Some(ry)) => (cx, ry, symbol(m.symbol)),
            (Some(cx), None) => (cx, edge_y(), if edge_y() == 0 { '↑' } else { '↓' }),
            (None, Some(ry)) => (edge_x(), ry, if edge_x() == 0 { '←' } else { '→' }),
            (None, None) => (edge_x(), edge_y(), if edge_y() == 0 { '↑' } else { '↓' }),
        };
        off[i] = ch != symbol(m.symbol);
        cells[ry][cx] = Some((ch, m.color.clone()));
    }
    if let Some(l) = &c.y_label {
        out.push(scr.paint(Style::Dim, &format!("  {l}")));
    }
    for (r, cellrow) in cells.iter().enumerate() {
        let label = match r {
            0 => ylabels[0].clone(),
            _ if r == h / 2 => ylabels[1].clone(),
            _ if r == h - 1 => ylabels[2].clone(),
            _ => String::new(),
        };
        let mut line = format!("{}{label} ┤", " ".repeat(lw - display_width(&label)));
        for cell in cellrow {
            match cell {
                Some((ch, col)) => line.push_str(&scr.paint(color_of(col), &ch.to_string())),
                None => line.push(' '),
            }
        }
        out.push(line.trim_end().to_string());
    }
    out.push(format!("{} └{}", " ".repeat(lw), "─".repeat(w)));
    let (x0, x1) = (
        tick(xa.lo, &c.x_prefix, &c.x_suffix),
        tick(xa.hi, &c.x_prefix, &c.x_suffix),
    );
    let gap = w.saturating_sub(display_width(&x0) + display_width(&x1));
    out.push(format!("{}  {x0}{}{x1}", " ".repeat(lw), " ".repeat(gap)));
    if let Some(l) = &c.x_label {
        let pad = (lw + 2 + w / 2).saturating_sub(display_width(l) / 2);
        out.push(scr.paint(Style::Dim, &format!("{}{l}", " ".repeat(pad))));
    }
    // Legend: always, since glyphs are the only way to tell series apart without colour.
    for (si, s) in c.series.iter().enumerate() {
        if s.name.is_empty() {
            continue;
        }
        let g = glyph(si, s.marker).unwrap_or('·').to_string();
        out.push(format!(
            "  {} {}",
            scr.paint(color_of(&s.color), &g),
            s.name
        ));
    }
    for b in c.bands.iter().filter(|b| !b.name.is_empty()) {
        out.push(format!(
            "  {} {}",
            scr.paint(color_of(&b.color), "░"),
            b.name
        ));
    }
    for (m, off) in c.markers.iter().zip(off) {
        out.push(format!(
            "  {} {} ({}, {}){}{}",
            scr.paint(color_of(&m.color), &symbol(m.symbol).to_string()),
            m.name,
            tick(m.x, &c.x_prefix, &c.x_suffix),
            tick(m.y, &c.y_prefix, &c.y_suffix),
            if off { ", off the scale" } else { "" },
            m.text
                .as_deref()
                .map(|t| format!(" — {}", flat(t)))
                .unwrap_or_default()
        ));
    }
    // Each line's legend shows the glyph it is drawn with.
    let lines = c.hlines.iter().map(|l| (l, "-"));
    for (l, g) in lines.chain(c.vlines.iter().map(|l| (l, "|"))) {
        if let Some(t) = &l.label {
            out.push(format!(
                "  {} {}",
                scr.paint(color_of(&l.color), g),
                flat(t)
            ));
        }
    }
}

/// The glyph of a series' points: its explicit shape, else one per series (none: no glyph).
fn glyph(i: usize, shape: Option<PointShape>) -> Option<char> {
    match shape {
        None => Some(GLYPHS[i % GLYPHS.len()]),
        Some(PointShape::None) => None,
        Some(PointShape::Circle) => Some('●'),
        Some(PointShape::Square) => Some('■'),
        Some(PointShape::Triangle) => Some('▲'),
        Some(PointShape::Diamond) => Some('◆'),
        Some(PointShape::Star) => Some('★'),
    }
}

fn symbol(s: Symbol) -> char {
    match s {
        Symbol::Circle => '●',
        Symbol::Diamond => '◆',
        Symbol::Star => '★',
        Symbol::Square => '■',
        Symbol::Triangle => '▲',
    }
}
