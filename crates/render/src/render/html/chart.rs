//! Chart specs for the page: each chart's expressions numbered for the runtime, drawn by
//! `charts.js` (the same drawing as [`crate::render::svg::chart_svg`]).

use super::live::{Fns, PartCx};
use crate::eval::chart::{color_name, legend_pos, levelled_output, series_index, SERIES_COLORS};
use crate::model::*;
use serde_json::{json, Value as J};

pub(super) fn chart_spec(cx: &mut PartCx, fns: &mut Fns, ch: &Chart) -> Result<J, String> {
    let (lab, part) = (cx.lab, Some(cx.part));
    let model = &lab.lab.parts[cx.part.index];
    let mut e = |fns: &mut Fns, x: &Expr| -> Result<J, String> {
        Ok(J::from(fns.expr(lab, part, &x.value)?))
    };
    let opt = |fns: &mut Fns,
               x: &Option<Expr>,
               e: &mut dyn FnMut(&mut Fns, &Expr) -> Result<J, String>|
     -> Result<J, String> {
        match x {
            Some(x) => e(fns, x),
            None => Ok(J::Null),
        }
    };
    let sweep = match &ch.sweep {
        Some(s) => {
            json!({"var": s.var.value, "from": e(fns, &s.from)?, "to": e(fns, &s.to)?, "points": s.points, "step": s.step, "log": s.log})
        }
        None => J::Null,
    };
    let mut series = Vec::new();
    for (i, s) in ch.series.iter().enumerate() {
        let mut values = Vec::new();
        for v in &s.values {
            values.push(e(fns, v)?);
        }
        series.push(json!({
            "name": cx.tpl_json(fns, &Some(s.name.clone()), true)?,
            "x": opt(fns, &s.x, &mut e)?,
            "y": opt(fns, &s.y, &mut e)?,
            "values": values,
            "color": color_name(s.color, SERIES_COLORS[i % SERIES_COLORS.len()]),
            "color_when": opt(fns, &s.color_when, &mut e)?,
            "emphasis": opt(fns, &s.emphasis, &mut e)?,
            "dashed": s.dashed,
            "fill": s.fill,
            "text": cx.tpl_json(fns, &s.text, true)?,
        }));
        let o = last_object(&mut series);
        if let Some(out) = s
            .color_by
            .as_ref()
            .and_then(|b| levelled_output(model, &b.value))
        {
            o.insert("level".into(), level_spec(fns, cx, out)?);
        }
        if let Some(w) = &s.when {
            o.insert("when".into(), e(fns, w)?);
        }
        if let Some(v) = s.style {
            o.insert("style".into(), json!(v));
        }
        if let Some(v) = &s.width {
            o.insert("width".into(), json!(v.value));
        }
        if let Some(v) = s.marker {
            o.insert("marker".into(), json!(v));
        }
    }
    let mut bars = Vec::new();
    for b in &ch.bars {
        let level = match levelled_output(model, &b.value.value) {
            Some(out) if b.color.is_none() && b.color_when.is_none() => level_spec(fns, cx, out)?,
            _ => J::Null,
        };
        bars.push(json!({
            "level": level,
            "label": cx.tpl_json(fns, &Some(b.label.clone()), true)?,
            "value": e(fns, &b.value)?,
            "color": b.color.map(|c| color_name(Some(c), "blue")),
            "color_when": opt(fns, &b.color_when, &mut e)?,
            "text": cx.tpl_json(fns, &b.text, true)?,
        }));
    }
    let mut markers = Vec::new();
    for m in &ch.markers {
        markers.push(json!({
            "name": cx.tpl_json(fns, &Some(m.name.clone()), true)?,
            "x": e(fns, &m.x)?, "y": e(fns, &m.y)?,
            "symbol": m.symbol, "color": color_name(m.color, "orange"),
        }));
        let o = last_object(&mut markers);
        if let Some(w) = &m.when {
            o.insert("when".into(), e(fns, w)?);
        }
        if m.text.is_some() {
            o.insert("text".into(), cx.tpl_json(fns, &m.text, true)?);
        }
    }
    let mut bands = Vec::new();
    for b in &ch.bands {
        let at = |k: usize| b.between.value.get(k).and_then(|key| series_index(ch, key));
        let mut o = json!({
            "lower": at(0), "upper": at(1),
            "name": cx.tpl_json(fns, &b.name, true)?,
            "color": b.color.map(|c| color_name(Some(c), "blue")),
        });
        if let Some(w) = &b.when {
            o["when"] = e(fns, w)?;
        }
        bands.push(o);
    }
    let mut lines = |ls: &[RefLine], fns: &mut Fns| -> Result<Vec<J>, String> {
        let mut v = Vec::new();
        for l in ls {
            v.push(json!({
                "at": e(fns, &l.at)?,
                "label": cx.tpl_json(fns, &l.label, true)?,
                "color": color_name(l.color, "gray"),
                "dashed": l.dashed,
            }));
            if let Some(w) = &l.when {
                v.last_mut().expect("pushed")["when"] = e(fns, w)?;
            }
        }
        Ok(v)
    };
    let hlines = lines(&ch.hlines, fns)?;
    let vlines = lines(&ch.vlines, fns)?;
    let mut e2 = |fns: &mut Fns, x: &Expr| -> Result<J, String> {
        Ok(J::from(fns.expr(lab, part, &x.value)?))
    };
    let mut out = json!({
        "id": ch.id.value,
        "kind": ch.kind,
        "title": cx.tpl_json(fns, &ch.title, true)?,
        "x_label": cx.tpl_json(fns, &ch.x.label, true)?,
        "y_label": cx.tpl_json(fns, &ch.y.label, true)?,
        "x_log": ch.x.log, "y_log": ch.y.log,
        "x_min": opt(fns, &ch.x.min, &mut e2)?, "x_max": opt(fns, &ch.x.max, &mut e2)?,
        "y_min": opt(fns, &ch.y.min, &mut e2)?, "y_max": opt(fns, &ch.y.max, &mut e2)?,
        "x_prefix": ch.x.prefix.clone().unwrap_or_default(), "x_suffix": ch.x.suffix.clone().unwrap_or_default(),
        "y_prefix": ch.y.prefix.clone().unwrap_or_default(), "y_suffix": ch.y.suffix.clone().unwrap_or_default(),
        "legend": legend_pos(ch),
        "axes": ch.axes,
        "sweep": sweep,
        "series": series,
        "bars": bars,
        "markers": markers,
        "hlines": hlines,
        "vlines": vlines,
    });
    // Newer keys only when a chart uses them: the page carries no bytes for what it lacks.
    if ch.description.is_some() {
        out["description"] = cx.tpl_json(fns, &ch.description, true)?;
    }
    if let Some(h) = &ch.height {
        out["height"] = json!(h.value);
    }
    if ch.stacked {
        out["stacked"] = J::Bool(true);
    }
    if !bands.is_empty() {
        out["bands"] = J::Array(bands);
    }
    if let Some(b) = &ch.bins {
        let mut o = json!({
            "counts": e2(fns, &b.counts)?, "from": e2(fns, &b.from)?, "to": e2(fns, &b.to)?,
            "name": cx.tpl_json(fns, &b.name, true)?,
            "color": b.color.map(|c| color_name(Some(c), "blue")),
        });
        compact(&mut o);
        out["bins"] = o;
    }
    compact(&mut out);
    for k in ["series", "bars", "markers", "hlines", "vlines"] {
        for o in out
            .get_mut(k)
            .and_then(J::as_array_mut)
            .into_iter()
            .flatten()
        {
            compact(o);
        }
    }
    Ok(out)
}

/// How the page finds an output's level at a value (chart-model.js `levelColor`): its `level:`
/// expression, else its bands.
fn level_spec(fns: &mut Fns, cx: &PartCx, o: &Output) -> Result<J, String> {
    Ok(match (&o.level, &o.bands) {
        (Some(x), _) => json!({"expr": fns.expr(cx.lab, Some(cx.part), &x.value)?}),
        (None, Some(b)) => {
            let mut bands = json!({"good_below": b.good_below, "warn_below": b.warn_below, "good_above": b.good_above, "warn_above": b.warn_above});
            compact(&mut bands);
            json!({ "bands": bands })
        }
        (None, None) => J::Null,
    })
}

/// The keys of a chart, series, bar, marker or line whose value is its default — none, false,
/// no text, no items — left out (`chartData` in runtime.js reads them back as such): a chart
/// of the shipped labs carried ~250 bytes of them.
fn compact(o: &mut J) {
    if let Some(o) = o.as_object_mut() {
        o.retain(|_, v| match v {
            J::Null | J::Bool(false) => false,
            J::String(s) => !s.is_empty(),
            J::Array(a) => !a.is_empty(),
            _ => true,
        });
    }
}

/// The object just pushed, to add the keys a chart uses.
fn last_object(v: &mut [J]) -> &mut serde_json::Map<String, J> {
    v.last_mut()
        .and_then(J::as_object_mut)
        .expect("an object was pushed")
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
