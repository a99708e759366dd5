//! The chart model: a chart declaration evaluated to plain data every renderer draws.

use super::{display, CompiledLab, EvalError, Evaluation};
use crate::formula::as_number;
use crate::formula::messages;
use crate::model::*;
use rhai::Dynamic;
use serde::Serialize;

mod shape;
pub use shape::check_shape;

/// An evaluated chart.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChartData {
    pub id: String,
    pub kind: ChartKind,
    pub title: Option<String>,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    pub x_log: bool,
    pub y_log: bool,
    pub x_min: Option<f64>,
    pub x_max: Option<f64>,
    pub y_min: Option<f64>,
    pub y_max: Option<f64>,
    pub x_prefix: String,
    pub x_suffix: String,
    pub y_prefix: String,
    pub y_suffix: String,
    /// Where the legend goes (`none`: no legend).
    pub legend: LegendPos,
    /// The lab's description for screen readers, if it gives one.
    pub description: Option<String>,
    /// Height of the drawing without the legend, in pixels.
    pub height: f64,
    /// Bars of a category stacked.
    pub stacked: bool,
    /// Filled bands between two series.
    pub bands: Vec<BandData>,
    /// A histogram's bin width: its one series' points are the bins, x their left edges.
    pub bin_width: Option<f64>,
    /// Radar axes.
    pub axes: Vec<String>,
    pub series: Vec<SeriesData>,
    pub markers: Vec<MarkerData>,
    pub hlines: Vec<LineData>,
    pub vlines: Vec<LineData>,
}

/// An evaluated series.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeriesData {
    pub name: String,
    pub color: String,
    pub dashed: bool,
    pub fill: bool,
    pub emphasis: bool,
    /// Explicit line style (none: as the series' position and `dashed` say).
    pub style: Option<LineStyle>,
    /// Explicit line width.
    pub width: Option<f64>,
    /// Explicit point shape.
    pub marker: Option<PointShape>,
    pub points: Vec<PointData>,
}

/// An evaluated band: the area between two series (indices into `series`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BandData {
    pub name: String,
    pub color: String,
    pub lower: usize,
    pub upper: usize,
}

/// One point: numeric x (line/scatter) or a category (bar), y, optional colour and label.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PointData {
    pub x: XValue,
    pub y: f64,
    pub color: Option<String>,
    pub text: Option<String>,
}

/// An x value.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum XValue {
    Number(f64),
    Category(String),
}

/// An evaluated marker.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MarkerData {
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub symbol: Symbol,
    pub color: String,
    /// Text drawn beside the marker.
    pub text: Option<String>,
}

/// An evaluated reference line.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LineData {
    pub at: f64,
    pub label: Option<String>,
    pub color: String,
    pub dashed: bool,
}

/// The palette name of a colour.
pub fn color_name(c: Option<Color>, fallback: &str) -> String {
    match c {
        None => fallback.to_string(),
        Some(c) => match c {
            Color::Blue => "blue",
            Color::Green | Color::Good => "green",
            Color::Orange | Color::Warn => "orange",
            Color::Red | Color::Bad => "red",
            Color::Purple => "purple",
            Color::Gray => "gray",
            Color::Text => "text",
        }
        .to_string(),
    }
}

/// Maps a colour expression's result (a palette or level name) to a palette name.
pub fn normalize_color(s: &str) -> String {
    match s {
        "good" => "green",
        "warn" => "orange",
        "bad" => "red",
        other => other,
    }
    .to_string()
}

/// The output with levels (`bands:` or `level:`) that an expression names, if it is one: a
/// bar showing it, or a series coloured by it, takes the colours of its card's levels.
pub fn levelled_output<'a>(part: &'a Part, expr: &str) -> Option<&'a Output> {
    part.outputs
        .get(expr.trim())
        .filter(|o| o.level.is_some() || o.bands.is_some())
}

/// Whether a fixed colour is one a level is drawn in (green, orange, red).
pub fn is_level_color(c: Color) -> bool {
    matches!(
        c,
        Color::Green | Color::Good | Color::Orange | Color::Warn | Color::Red | Color::Bad
    )
}

/// Series colours in order, for series without their own.
pub const SERIES_COLORS: [&str; 6] = ["blue", "red", "text", "green", "orange", "purple"];

/// Where a chart's legend goes: as the lab says, else below when more than one thing is named.
pub fn legend_pos(ch: &Chart) -> LegendPos {
    let named = ch
        .series
        .iter()
        .filter(|s| !s.name.value.is_empty())
        .count()
        + ch.markers.len()
        + ch.bands.iter().filter(|b| b.name.is_some()).count();
    ch.legend.unwrap_or(if named > 1 {
        LegendPos::Bottom
    } else {
        LegendPos::None
    })
}

/// The default drawing height in pixels.
pub const DEFAULT_HEIGHT: f64 = 360.0;

/// The series a band names: its `id`, else its name as written.
pub fn series_index(ch: &Chart, key: &str) -> Option<usize> {
    ch.series.iter().position(|s| match &s.id {
        Some(id) => id.value == key,
        None => s.name.value == key,
    })
}

impl SeriesData {
    /// A series with the default look: no style, width or point shape of its own.
    pub fn plain(name: &str, color: &str, points: Vec<PointData>) -> SeriesData {
        SeriesData {
            name: name.into(),
            color: color.into(),
            dashed: false,
            fill: false,
            emphasis: false,
            style: None,
            width: None,
            marker: None,
            points,
        }
    }
}

impl ChartData {
    /// Bar categories in first-seen order.
    pub fn categories(&self) -> Vec<String> {
        let mut cats: Vec<String> = Vec::new();
        for s in &self.series {
            for p in &s.points {
                if let XValue::Category(k) = &p.x {
                    if !cats.contains(k) {
                        cats.push(k.clone());
                    }
                }
            }
        }
        cats
    }

    /// The names of the named series.
    fn series_names(&self) -> Vec<&str> {
        self.series
            .iter()
            .map(|s| s.name.as_str())
            .filter(|n| !n.is_empty())
            .collect()
    }

    /// The heading shown above the chart and its accessible name: the title, else what it plots
    /// in the lab's words (`Y vs X`, the radar axes, the series names), never an id.
    pub fn heading(&self) -> String {
        if let Some(t) = self.title.as_ref().filter(|t| !t.trim().is_empty()) {
            return t.clone();
        }
        let names = self.series_names();
        let what = match (&self.y_label, &self.x_label) {
            _ if self.kind == ChartKind::Radar && !self.axes.is_empty() => self.axes.join(", "),
            (Some(y), Some(x)) => format!("{y} vs {x}"),
            (Some(y), None) => y.clone(),
            (None, Some(x)) => x.clone(),
            (None, None) if !names.is_empty() => names.join(", "),
            (None, None) => String::new(),
        };
        let kind = kind_words(self.kind);
        if what.is_empty() {
            kind.to_string()
        } else {
            format!("{kind}: {what}")
        }
    }

    /// The accessible description: the lab's, else the series, markers and reference lines.
    pub fn summary(&self) -> String {
        if let Some(d) = self.description.as_ref().filter(|d| !d.trim().is_empty()) {
            return d.clone();
        }
        let mut parts: Vec<String> = Vec::new();
        let names = self.series_names();
        if !names.is_empty() {
            parts.push(format!("Series: {}.", names.join(", ")));
        }
        for m in &self.markers {
            parts.push(format!("{} at ({}, {}).", m.name, tip(m.x), tip(m.y)));
        }
        if let (Some(w), Some(s)) = (self.bin_width, self.series.first()) {
            let xs = |v: f64| format!("{}{}{}", self.x_prefix, tip(v), self.x_suffix);
            let top = s.points.iter().filter(|p| p.y.is_finite()).fold(
                None::<&PointData>,
                |b, p| match b {
                    Some(b) if b.y >= p.y => Some(b),
                    _ => Some(p),
                },
            );
            if let (Some(first), Some(top)) = (s.points.first(), top) {
                let (lo, x) = (num_x(&first.x), num_x(&top.x));
                parts.push(format!(
                    "{} bins of {} from {} to {}; the tallest, {}, at {} to {}.",
                    s.points.len(),
                    tip(w),
                    xs(lo),
                    xs(lo + w * s.points.len() as f64),
                    tip(top.y),
                    xs(x),
                    xs(x + w)
                ));
            }
        }
        for l in self.hlines.iter().chain(&self.vlines) {
            if let Some(t) = &l.label {
                parts.push(format!("{t}."));
            }
        }
        parts.push("Values in the Data table.".into());
        parts.join(" ")
    }
}

fn tip(v: f64) -> String {
    tip_num(v)
}

fn num_x(x: &XValue) -> f64 {
    match x {
        XValue::Number(v) => *v,
        XValue::Category(_) => f64::NAN,
    }
}

/// A number with `d` decimals, no separators and no `-0` (JS: `toFixed(d)`).
pub fn fixed(x: f64, d: usize) -> String {
    let s = format!("{x:.d$}");
    if s.starts_with('-') && s[1..].chars().all(|ch| ch == '0' || ch == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A value in a tooltip, read-out or description: up to 4 significant decimals.
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

/// A chart kind in words.
pub fn kind_words(k: ChartKind) -> &'static str {
    match k {
        ChartKind::Line => "Line chart",
        ChartKind::Scatter => "Scatter chart",
        ChartKind::Bar => "Bar chart",
        ChartKind::Radar => "Radar chart",
        ChartKind::Histogram => "Histogram",
    }
}

/// The values of a sweep: `points` evenly spaced (numpy `linspace`), from..to by `step`, or
/// with `log`, `points` evenly spaced on a log scale (the library's `logspace`; empty unless
/// `from` and `to` are positive).
pub fn sweep_values(
    from: f64,
    to: f64,
    points: Option<u32>,
    step: Option<f64>,
    log: bool,
) -> Vec<f64> {
    if log {
        let n = points.unwrap_or(50).clamp(1, 10_000);
        return crate::library::globals::logspace(from, to, n as f64).unwrap_or_default();
    }
    if let Some(st) = step.filter(|s| *s > 0.0) {
        let n = ((to - from) / st + 1e-9).floor().max(0.0) as usize;
        return (0..=n.min(10_000)).map(|i| from + st * i as f64).collect();
    }
    let n = points.unwrap_or(50).clamp(1, 10_000) as usize;
    if n == 1 {
        return vec![from];
    }
    let d = (to - from) / (n - 1) as f64;
    (0..n)
        .map(|i| if i == n - 1 { to } else { from + d * i as f64 })
        .collect()
}

fn num(v: &Dynamic) -> f64 {
    as_number(v).unwrap_or(f64::NAN)
}

impl CompiledLab {
    /// Evaluates every chart of the part.
    pub fn charts(&self, ev: &Evaluation) -> Result<Vec<ChartData>, EvalError> {
        let model = &self.lab.parts[ev.part];
        let mut out = Vec::new();
        for inst in &model.instruments {
            if let Instrument::Chart(ch) = inst {
                out.push(self.chart(ev, ch)?);
            }
        }
        Ok(out)
    }

    /// Evaluates one chart.
    pub fn chart(&self, ev: &Evaluation, ch: &Chart) -> Result<ChartData, EvalError> {
        let part = Some(&self.parts[ev.part]);
        let model = &self.lab.parts[ev.part];
        // One scope for the whole chart: points only push their sweep variable on top of it.
        let scope = std::cell::RefCell::new(self.base_scope(Some(ev)));
        let e = |src: &str, extra: &[(&str, Dynamic)]| {
            self.eval_expr_in(part, &mut scope.borrow_mut(), src, extra)
        };
        let t = |text: &Text| self.render_text(part, Some(ev), &text.value, &[]);
        let opt = |x: &Option<Expr>| -> Result<Option<f64>, EvalError> {
            x.as_ref()
                .map(|x| e(&x.value, &[]).map(|v| num(&v)))
                .transpose()
        };
        let sweep = match &ch.sweep {
            Some(s) => {
                let from = num(&e(&s.from.value, &[])?);
                let to = num(&e(&s.to.value, &[])?);
                if s.log && !(from > 0.0 && to > 0.0 && from.is_finite() && to.is_finite()) {
                    return Err(EvalError(
                        crate::diag::Diagnostic::error(
                            &self.source.name,
                            s.from.pos,
                            messages::fill(
                                messages::LOG_SWEEP,
                                &[
                                    &display(&Dynamic::from_float(from)),
                                    &display(&Dynamic::from_float(to)),
                                ],
                            ),
                        )
                        .with_hint("start the sweep above 0, e.g. `from: 1`"),
                    ));
                }
                Some((
                    s.var.value.clone(),
                    sweep_values(from, to, s.points, s.step, s.log),
                ))
            }
            None => None,
        };
        let shown = |w: &Option<Expr>| -> Result<bool, EvalError> {
            let Some(w) = w else { return Ok(true) };
            let v = e(&w.value, &[])?;
            v.as_bool().map_err(|_| {
                EvalError(
                    crate::diag::Diagnostic::error(
                        &self.source.name,
                        w.pos,
                        messages::fill(messages::WHEN, &[&display(&v)]),
                    )
                    .with_hint("write a condition, e.g. `when: utilization > 0.5`"),
                )
            })
        };
        let mut series = Vec::new();
        // Declared index -> index among the shown series (bands refer to them).
        let mut kept: Vec<Option<usize>> = Vec::new();
        for (i, s) in ch.series.iter().enumerate() {
            if !shown(&s.when)? {
                kept.push(None);
                continue;
            }
            kept.push(Some(series.len()));
            let color = color_name(s.color, SERIES_COLORS[i % SERIES_COLORS.len()]);
            let emphasis = match &s.emphasis {
                Some(x) => e(&x.value, &[])?.as_bool().unwrap_or(false),
                None => false,
            };
            let by = s
                .color_by
                .as_ref()
                .and_then(|o| levelled_output(model, &o.value));
            let mut points = Vec::new();
            if ch.kind == ChartKind::Radar {
                for v in &s.values {
                    points.push(PointData {
                        x: XValue::Number(points.len() as f64),
                        y: num(&e(&v.value, &[])?),
                        color: None,
                        text: None,
                    });
                }
            } else {
                let xs: Vec<Option<(String, f64)>> = match &sweep {
                    Some((var, vals)) => vals.iter().map(|v| Some((var.clone(), *v))).collect(),
                    None => vec![None],
                };
                for bind in xs {
                    let extra: Vec<(&str, Dynamic)> = bind
                        .iter()
                        .map(|(k, v)| (k.as_str(), Dynamic::from_float(*v)))
                        .collect();
                    let xv = match (&s.x, &bind) {
                        (Some(x), _) => e(&x.value, &extra)?,
                        (None, Some((_, v))) => Dynamic::from_float(*v),
                        (None, None) => Dynamic::from_float(0.0),
                    };
                    let y = num(&e(
                        s.y.as_ref().map(|y| y.value.as_str()).unwrap_or("0"),
                        &extra,
                    )?);
                    let x = if ch.kind == ChartKind::Bar {
                        XValue::Category(display(&xv))
                    } else {
                        XValue::Number(num(&xv))
                    };
                    let mut pe = extra.clone();
                    pe.push(("x", xv.clone()));
                    pe.push(("y", Dynamic::from_float(y)));
                    let color = match (&s.color_when, by) {
                        (Some(c), _) => Some(normalize_color(&e(&c.value, &pe)?.to_string())),
                        (None, Some(o)) => self
                            .output_level(ev, o, &Dynamic::from_float(y))?
                            .map(|l| normalize_color(&l)),
                        (None, None) => None,
                    };
                    let text = match &s.text {
                        Some(tx) => Some(self.render_text(part, Some(ev), &tx.value, &pe)?),
                        None => None,
                    };
                    points.push(PointData { x, y, color, text });
                }
            }
            series.push(SeriesData {
                name: t(&s.name)?,
                color,
                dashed: s.dashed,
                fill: s.fill,
                emphasis,
                style: s.style,
                width: s.width.as_ref().map(|w| w.value),
                marker: s.marker,
                points,
            });
        }
        if !ch.bars.is_empty() {
            let mut points = Vec::new();
            for b in &ch.bars {
                let v = e(&b.value.value, &[])?;
                let y = num(&v);
                let label = t(&b.label)?;
                let pe = [
                    ("x", Dynamic::from(label.clone())),
                    ("y", Dynamic::from_float(y)),
                ];
                let color = match (&b.color_when, b.color) {
                    (Some(c), _) => Some(normalize_color(&e(&c.value, &pe)?.to_string())),
                    (None, Some(c)) => Some(color_name(Some(c), "blue")),
                    // Showing an output with levels: its card's colour.
                    (None, None) => match levelled_output(model, &b.value.value) {
                        Some(o) => self.output_level(ev, o, &v)?.map(|l| normalize_color(&l)),
                        None => None,
                    },
                };
                let text = b
                    .text
                    .as_ref()
                    .map(|tx| self.render_text(part, Some(ev), &tx.value, &pe))
                    .transpose()?;
                points.push(PointData {
                    x: XValue::Category(label),
                    y,
                    color,
                    text,
                });
            }
            series.push(SeriesData::plain("", "blue", points));
        }
        let mut bin_width = None;
        if let (ChartKind::Histogram, Some(b)) = (ch.kind, &ch.bins) {
            let (w, points) = self.bins(b, &e)?;
            bin_width = Some(w);
            let name = b.name.as_ref().map(&t).transpose()?.unwrap_or_default();
            series.push(SeriesData::plain(
                &name,
                &color_name(b.color, "blue"),
                points,
            ));
        }
        let mut markers = Vec::new();
        for m in &ch.markers {
            if !shown(&m.when)? {
                continue;
            }
            let x = num(&e(&m.x.value, &[])?);
            let y = num(&e(&m.y.value, &[])?);
            let pe = [("x", Dynamic::from_float(x)), ("y", Dynamic::from_float(y))];
            markers.push(MarkerData {
                name: t(&m.name)?,
                x,
                y,
                symbol: m.symbol,
                color: color_name(m.color, "orange"),
                text: m
                    .text
                    .as_ref()
                    .map(|tx| self.render_text(part, Some(ev), &tx.value, &pe))
                    .transpose()?,
            });
        }
        let mut bands = Vec::new();
        for b in &ch.bands {
            if !shown(&b.when)? {
                continue;
            }
            let idx = |k: usize| {
                b.between
                    .value
                    .get(k)
                    .and_then(|key| series_index(ch, key))
                    .and_then(|i| kept[i])
            };
            let (Some(lower), Some(upper)) = (idx(0), idx(1)) else {
                continue;
            };
            bands.push(BandData {
                name: b.name.as_ref().map(&t).transpose()?.unwrap_or_default(),
                color: match b.color {
                    Some(c) => color_name(Some(c), "blue"),
                    None => series[lower].color.clone(),
                },
                lower,
                upper,
            });
        }
        let lines = |ls: &[RefLine]| -> Result<Vec<LineData>, EvalError> {
            let mut v = Vec::new();
            for l in ls {
                if !shown(&l.when)? {
                    continue;
                }
                v.push(LineData {
                    at: num(&e(&l.at.value, &[])?),
                    label: l.label.as_ref().map(&t).transpose()?,
                    color: color_name(l.color, "gray"),
                    dashed: l.dashed,
                });
            }
            Ok(v)
        };
        Ok(ChartData {
            id: ch.id.value.clone(),
            kind: ch.kind,
            title: ch.title.as_ref().map(&t).transpose()?,
            x_label: ch.x.label.as_ref().map(&t).transpose()?,
            y_label: ch.y.label.as_ref().map(&t).transpose()?,
            x_log: ch.x.log,
            y_log: ch.y.log,
            x_min: opt(&ch.x.min)?,
            x_max: opt(&ch.x.max)?,
            y_min: opt(&ch.y.min)?,
            y_max: opt(&ch.y.max)?,
            x_prefix: ch.x.prefix.clone().unwrap_or_default(),
            x_suffix: ch.x.suffix.clone().unwrap_or_default(),
            y_prefix: ch.y.prefix.clone().unwrap_or_default(),
            y_suffix: ch.y.suffix.clone().unwrap_or_default(),
            legend: legend_pos(ch),
            description: ch.description.as_ref().map(&t).transpose()?,
            height: ch.height.as_ref().map_or(DEFAULT_HEIGHT, |h| h.value),
            stacked: ch.stacked,
            bands,
            bin_width,
            axes: ch.axes.clone(),
            series,
            markers,
            hlines: lines(&ch.hlines)?,
            vlines: lines(&ch.vlines)?,
        })
    }
}

/// How a chart evaluates an expression, with extra names bound.
type ExprEval<'a> = dyn Fn(&str, &[(&str, Dynamic)]) -> Result<Dynamic, EvalError> + 'a;

impl CompiledLab {
    /// A histogram's bins: their width and one point per bin (x its left edge, y its count).
    fn bins(&self, b: &Bins, e: &ExprEval) -> Result<(f64, Vec<PointData>), EvalError> {
        let fail = |pos: Pos, key: &str, args: &[&dyn std::fmt::Display], hint: &str| {
            EvalError(
                crate::diag::Diagnostic::error(&self.source.name, pos, messages::fill(key, args))
                    .with_hint(hint),
            )
        };
        let v = e(&b.counts.value, &[])?;
        let list = match v.clone().into_array() {
            Ok(l) if !l.is_empty() => l,
            _ => {
                return Err(fail(
                    b.counts.pos,
                    messages::BINS_LIST,
                    &[&display(&v)],
                    "e.g. `counts: stats::histogram(latency_ms, 0, 60, 12)`",
                ))
            }
        };
        let (from, to) = (num(&e(&b.from.value, &[])?), num(&e(&b.to.value, &[])?));
        if !(from.is_finite() && to.is_finite() && from < to) {
            return Err(fail(
                b.from.pos,
                messages::BINS_RANGE,
                &[
                    &display(&Dynamic::from_float(from)),
                    &display(&Dynamic::from_float(to)),
                ],
                "give the range the counts were binned over (stats::histogram's lo and hi), e.g. `from: 0` and `to: 60`",
            ));
        }
        let w = (to - from) / list.len() as f64;
        let mut points = Vec::with_capacity(list.len());
        for (i, c) in list.iter().enumerate() {
            let y = match as_number(c) {
                Some(y) if y >= 0.0 => y,
                _ => return Err(fail(
                    b.counts.pos,
                    messages::BINS_COUNT,
                    &[&(i + 1), &display(c)],
                    "counts are how many values fell in each bin, as `stats::histogram` gives them",
                )),
            };
            points.push(PointData {
                x: XValue::Number(from + w * i as f64),
                y,
                color: None,
                text: None,
            });
        }
        Ok((w, points))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy() {
        assert_eq!(
            sweep_values(0.0, 1.0, Some(5), None, false),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
        assert_eq!(
            sweep_values(2.0, 5.0, None, Some(1.0), false),
            vec![2.0, 3.0, 4.0, 5.0]
        );
    }
}
