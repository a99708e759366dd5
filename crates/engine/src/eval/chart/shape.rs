//! The structural checks of a chart declaration (`check_shape`), run when a lab compiles:
//! what each kind needs, histograms' bins, and the features a kind does not draw.

use super::series_index;
use crate::model::*;

/// Structural checks of a chart declaration.
pub fn check_shape(ch: &Chart, err: &mut dyn FnMut(Pos, String, &str)) {
    match ch.kind {
        ChartKind::Line | ChartKind::Scatter => {
            if ch.series.is_empty() && ch.markers.is_empty() {
                err(
                    ch.id.pos,
                    format!("chart `{}` has no series or markers", ch.id.value),
                    "add `series: [{ name: ..., x: ..., y: ... }]`",
                );
            }
            for s in &ch.series {
                if s.y.is_none() {
                    err(
                        s.name.pos,
                        "a line/scatter series needs `y`".into(),
                        "e.g. `y: write_time_s / tau * 100`",
                    );
                }
                if ch.sweep.is_none() && s.x.is_none() {
                    err(
                        s.name.pos,
                        "a series without a sweep needs `x`".into(),
                        "add `sweep: { var: ..., from: ..., to: ... }` to the chart",
                    );
                }
            }
        }
        ChartKind::Bar => {
            if ch.bars.is_empty() && ch.series.is_empty() {
                err(
                    ch.id.pos,
                    format!("bar chart `{}` has no bars", ch.id.value),
                    "add `bars:` or a `sweep` with a series",
                );
            }
            for s in &ch.series {
                if ch.sweep.is_none() {
                    err(
                        s.name.pos,
                        "a bar series needs a `sweep` on the chart".into(),
                        "or list fixed `bars:`",
                    );
                }
                if s.y.is_none() {
                    err(
                        s.name.pos,
                        "a bar series needs `y`".into(),
                        "e.g. `y: latency_ms`",
                    );
                }
            }
        }
        ChartKind::Histogram => check_histogram(ch, err),
        ChartKind::Radar => {
            if ch.axes.len() < 3 {
                err(
                    ch.id.pos,
                    "a radar chart needs at least three `axes`".into(),
                    "e.g. `axes: [Utilization, Low Wait, Fairness]`",
                );
            }
            for s in &ch.series {
                if s.values.len() != ch.axes.len() {
                    err(
                        s.name.pos,
                        format!(
                            "series has {} values for {} axes",
                            s.values.len(),
                            ch.axes.len()
                        ),
                        "give one value expression per axis",
                    );
                }
            }
        }
    }
    if ch.kind != ChartKind::Histogram {
        if let Some(b) = &ch.bins {
            err(
                b.counts.pos,
                "only a histogram has `bins`".into(),
                "make the chart `kind: histogram`, or remove `bins:`",
            );
        }
    }
    check_features(ch, err);
    for (name, a) in [("x", &ch.x), ("y", &ch.y)] {
        if a.log && ch.kind == ChartKind::Radar {
            err(
                ch.id.pos,
                format!("a radar chart has no {name} axis to make logarithmic"),
                "remove `log: true`",
            );
        }
    }
}

/// A histogram's shape: its `bins`, and nothing of the other kinds.
fn check_histogram(ch: &Chart, err: &mut dyn FnMut(Pos, String, &str)) {
    if ch.bins.is_none() {
        err(
            ch.id.pos,
            format!("histogram `{}` has no `bins`", ch.id.value),
            "add `bins: { counts: stats::histogram(latency_ms, 0, 60, 12), from: 0, to: 60 }`",
        );
    }
    let other = [
        ("series", !ch.series.is_empty()),
        ("bars", !ch.bars.is_empty()),
        ("sweep", ch.sweep.is_some()),
        ("axes", !ch.axes.is_empty()),
        ("bands", !ch.bands.is_empty()),
    ];
    for (key, _) in other.iter().filter(|(_, on)| *on) {
        err(
            ch.id.pos,
            format!("a histogram draws its `bins`, not `{key}`"),
            "remove it, or draw the values as a `kind: bar` or `kind: line` chart",
        );
    }
    for (name, a) in [("x", &ch.x), ("y", &ch.y)] {
        if a.log {
            err(
                ch.id.pos,
                format!("a histogram's {name} axis cannot be logarithmic"),
                "remove `log: true` (a histogram's bins are equal widths on a linear axis)",
            );
        }
    }
}

/// Checks of the newer keys: height, stacking, bands, series width.
fn check_features(ch: &Chart, err: &mut dyn FnMut(Pos, String, &str)) {
    if let Some(h) = &ch.height {
        if !(200.0..=1200.0).contains(&h.value) {
            err(
                h.pos,
                format!("chart height {} is outside 200 to 1200 pixels", h.value),
                "e.g. `height: 280` (the default is 360)",
            );
        }
    }
    if let Some(sw) = ch.sweep.as_ref().filter(|sw| sw.log && sw.step.is_some()) {
        err(
            sw.var.pos,
            "a `log: true` sweep is spaced by `points`, not `step`".into(),
            "remove `step:` and give `points:` (the default is 50)",
        );
    }
    if ch.stacked && ch.kind != ChartKind::Bar {
        err(
            ch.id.pos,
            "only bar charts can be `stacked`".into(),
            "remove `stacked: true`, or make the chart `kind: bar`",
        );
    }
    for s in &ch.series {
        if let Some(w) = &s.width {
            if !(w.value > 0.0 && w.value <= 12.0) {
                err(
                    w.pos,
                    format!("line width {} is outside 0 to 12 pixels", w.value),
                    "e.g. `width: 3` (the default is 2)",
                );
            }
        }
    }
    for b in &ch.bands {
        if !matches!(ch.kind, ChartKind::Line | ChartKind::Scatter) {
            err(
                b.between.pos,
                "a band needs a line or scatter chart".into(),
                "remove the band, or make the chart `kind: line`",
            );
        }
        if b.between.value.len() != 2 {
            err(
                b.between.pos,
                format!(
                    "a band lies between two series, not {}",
                    b.between.value.len()
                ),
                "e.g. `between: [low, high]`",
            );
            continue;
        }
        for key in &b.between.value {
            if series_index(ch, key).is_none() {
                let known: Vec<&str> = ch
                    .series
                    .iter()
                    .map(|s| s.id.as_ref().map_or(s.name.value.as_str(), |i| &i.value))
                    .collect();
                let hint = match crate::diag::did_you_mean(key, known.iter().copied()) {
                    Some(h) => h,
                    None => format!(
                        "name a series of this chart by its `id` (or name): {}",
                        known.join(", ")
                    ),
                };
                err(
                    b.between.pos,
                    format!("a band refers to `{key}`, which is not a series of this chart"),
                    &hint,
                );
            }
        }
    }
}
