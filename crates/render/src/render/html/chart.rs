//! Chart specs for the page ([`ChartData`]): each chart's expressions numbered for the runtime,
//! drawn by `charts.js` (the same drawing as [`crate::render::svg::chart_svg`]).

use super::data::{
    BandData, BarData, BinsData, ChartData, LevelData, LineData, MarkerData, SeriesData, SweepData,
};
use super::live::{Fns, PartCx};
use crate::diag::Diagnostic;
use crate::eval::chart::{color_name, legend_pos, levelled_output, series_index, SERIES_COLORS};
use crate::model::*;

pub(super) fn chart_spec(
    cx: &mut PartCx,
    fns: &mut Fns,
    ch: &Chart,
) -> Result<ChartData, Diagnostic> {
    let (lab, part) = (cx.lab, Some(cx.part));
    let model = &lab.lab.parts[cx.part.index];
    let e = |fns: &mut Fns, x: &Expr| fns.expr(lab, part, &x.value);
    let opt = |fns: &mut Fns, x: &Option<Expr>| x.as_ref().map(|x| e(fns, x)).transpose();
    let sweep = match &ch.sweep {
        Some(s) => Some(SweepData {
            var: s.var.value.clone(),
            from: e(fns, &s.from)?,
            to: e(fns, &s.to)?,
            points: s.points,
            step: s.step,
            log: s.log,
        }),
        None => None,
    };
    let mut series = Vec::new();
    for (i, s) in ch.series.iter().enumerate() {
        let mut values = Vec::new();
        for v in &s.values {
            values.push(e(fns, v)?);
        }
        let name = cx.tpl(fns, &s.name, true)?;
        let (x, y) = (opt(fns, &s.x)?, opt(fns, &s.y)?);
        let color = color_name(s.color, SERIES_COLORS[i % SERIES_COLORS.len()]);
        let (color_when, emphasis) = (opt(fns, &s.color_when)?, opt(fns, &s.emphasis)?);
        let text = cx.tpl_opt(fns, &s.text, true)?;
        let level = match s
            .color_by
            .as_ref()
            .and_then(|b| levelled_output(model, &b.value))
        {
            Some(out) => level_spec(fns, cx, out)?,
            None => None,
        };
        series.push(SeriesData {
            name,
            x,
            y,
            values,
            color,
            color_when,
            emphasis,
            dashed: s.dashed,
            fill: s.fill,
            text,
            level,
            when: opt(fns, &s.when)?,
            style: s.style,
            width: s.width.as_ref().map(|v| v.value).filter(|v| v.is_finite()),
            marker: s.marker,
        });
    }
    let mut bars = Vec::new();
    for b in &ch.bars {
        let level = match levelled_output(model, &b.value.value) {
            Some(out) if b.color.is_none() && b.color_when.is_none() => level_spec(fns, cx, out)?,
            _ => None,
        };
        bars.push(BarData {
            level,
            label: cx.tpl(fns, &b.label, true)?,
            value: e(fns, &b.value)?,
            color: b.color.map(|c| color_name(Some(c), "blue")),
            color_when: opt(fns, &b.color_when)?,
            text: cx.tpl_opt(fns, &b.text, true)?,
        });
    }
    let mut markers = Vec::new();
    for m in &ch.markers {
        markers.push(MarkerData {
            name: cx.tpl(fns, &m.name, true)?,
            x: e(fns, &m.x)?,
            y: e(fns, &m.y)?,
            symbol: m.symbol,
            color: color_name(m.color, "orange"),
            when: opt(fns, &m.when)?,
            text: cx.tpl_opt(fns, &m.text, true)?,
        });
    }
    let mut bands = Vec::new();
    for b in &ch.bands {
        let at = |k: usize| b.between.value.get(k).and_then(|key| series_index(ch, key));
        bands.push(BandData {
            lower: at(0),
            upper: at(1),
            name: cx.tpl_opt(fns, &b.name, true)?,
            color: b.color.map(|c| color_name(Some(c), "blue")),
            when: opt(fns, &b.when)?,
        });
    }
    let mut lines = |ls: &[RefLine], fns: &mut Fns| -> Result<Vec<LineData>, Diagnostic> {
        let mut v = Vec::new();
        for l in ls {
            v.push(LineData {
                at: e(fns, &l.at)?,
                label: cx.tpl_opt(fns, &l.label, true)?,
                color: color_name(l.color, "gray"),
                dashed: l.dashed,
                when: opt(fns, &l.when)?,
            });
        }
        Ok(v)
    };
    let hlines = lines(&ch.hlines, fns)?;
    let vlines = lines(&ch.vlines, fns)?;
    let title = cx.tpl_opt(fns, &ch.title, true)?;
    let x_label = cx.tpl_opt(fns, &ch.x.label, true)?;
    let y_label = cx.tpl_opt(fns, &ch.y.label, true)?;
    let (x_min, x_max) = (opt(fns, &ch.x.min)?, opt(fns, &ch.x.max)?);
    let (y_min, y_max) = (opt(fns, &ch.y.min)?, opt(fns, &ch.y.max)?);
    let description = cx.tpl_opt(fns, &ch.description, true)?;
    let bins = match &ch.bins {
        Some(b) => Some(BinsData {
            counts: e(fns, &b.counts)?,
            from: e(fns, &b.from)?,
            to: e(fns, &b.to)?,
            name: cx.tpl_opt(fns, &b.name, true)?,
            color: b.color.map(|c| color_name(Some(c), "blue")),
        }),
        None => None,
    };
    Ok(ChartData {
        id: ch.id.value.clone(),
        kind: ch.kind,
        title,
        x_label,
        y_label,
        x_log: ch.x.log,
        y_log: ch.y.log,
        x_min,
        x_max,
        y_min,
        y_max,
        x_prefix: ch.x.prefix.clone().unwrap_or_default(),
        x_suffix: ch.x.suffix.clone().unwrap_or_default(),
        y_prefix: ch.y.prefix.clone().unwrap_or_default(),
        y_suffix: ch.y.suffix.clone().unwrap_or_default(),
        legend: legend_pos(ch),
        axes: ch.axes.clone(),
        sweep,
        series,
        bars,
        markers,
        hlines,
        vlines,
        description,
        height: ch
            .height
            .as_ref()
            .map(|h| h.value)
            .filter(|h| h.is_finite()),
        stacked: ch.stacked,
        bands,
        bins,
    })
}

/// How the page finds an output's level at a value (chart-model.js `levelColor`): its `level:`
/// expression, else its bands.
fn level_spec(fns: &mut Fns, cx: &PartCx, o: &Output) -> Result<Option<LevelData>, Diagnostic> {
    Ok(match (&o.level, &o.bands) {
        (Some(x), _) => Some(LevelData::Expr(fns.expr(
            cx.lab,
            Some(cx.part),
            &x.value,
        )?)),
        (None, Some(b)) => Some(LevelData::Bands(b.into())),
        (None, None) => None,
    })
}

/// Chart features whose page code is fenced in `charts.js` and `runtime.js` by
/// `/*[name*/ ... /*name]*/`: the page carries a feature's code only when one of the lab's
/// charts uses it.
pub(super) fn features_used(lab: &Lab) -> Vec<&'static str> {
    let charts = lab.parts.iter().flat_map(|p| {
        p.instruments.iter().filter_map(|i| match i {
            Instrument::Chart(c) => Some(c.as_ref()),
            _ => None,
        })
    });
    let mut used = Vec::new();
    for ch in charts {
        let mut add = |f: &'static str, on: bool| {
            if on && !used.contains(&f) {
                used.push(f);
            }
        };
        add("band", !ch.bands.is_empty());
        add("stack", ch.stacked);
        add("radar", ch.kind == ChartKind::Radar);
        add("hist", ch.kind == ChartKind::Histogram);
        add("log", ch.x.log || ch.y.log);
        add("logsweep", ch.sweep.as_ref().is_some_and(|s| s.log));
        add(
            "legend",
            matches!(ch.legend, Some(LegendPos::Top | LegendPos::Right)),
        );
        add(
            "shape",
            ch.series
                .iter()
                .any(|s| s.style.is_some() || s.marker.is_some())
                || ch.markers.iter().any(|m| m.symbol == Symbol::Triangle),
        );
    }
    used
}
