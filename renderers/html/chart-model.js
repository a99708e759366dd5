/*
 * labforge chart model: what a chart shows at the page's values, computed from its spec
 * (crates/render/src/render/html/chart.rs) as crates/engine/src/eval/chart.rs computes `ChartData` for the terminal and
 * the handouts: the sweep, series, bars, bands, markers and reference lines, each `when:`
 * honoured. charts.js draws the result; runtime.js calls `chartData` when a chart is drawn.
 * `labforgeChartModel(R, F)` takes Rhai's semantics (rhai.js) and the page's way of writing
 * values (format.js).
 */
function labforgeChartModel(R, F) {
  "use strict";
  var run = R.run, tostr = R.tostr, isNum = R.isNum, msg = R.msg, final = R.final;
  var display = F.display, tplText = F.tplText;
  function child(S, vars) {
    var c = Object.create(S);
    for (var k in vars) c[k] = vars[k];
    return c;
  }
  function numv(v) { return isNum(v) ? v : NaN; }
  /* linspace / step / log sweep (eval::chart::sweep_values; log as the library's logspace). */
  function sweepValues(from, to, points, step, log) {
    var out = [], i;
    if (log) {
      var k = Math.min(Math.max(points === null || points === undefined ? 50 : points, 1), 10000);
      if (!(from > 0 && to > 0 && isFinite(from) && isFinite(to))) return out;
      for (i = 0; i < k; i++) out.push(from * Math.pow(to / from, i / (k - 1.0)));
      out[0] = from;
      if (k > 1) out[k - 1] = to;
      return out;
    }
    if (step !== null && step !== undefined && step > 0) {
      var n = Math.max(0, Math.floor((to - from) / step + 1e-9));
      n = Math.min(n, 10000);
      for (i = 0; i <= n; i++) out.push(from + step * i);
      return out;
    }
    var m = Math.min(Math.max(points === null || points === undefined ? 50 : points, 1), 10000);
    if (m === 1) return [from];
    var d = (to - from) / (m - 1);
    for (i = 0; i < m; i++) out.push(i === m - 1 ? to : from + d * i);
    return out;
  }
  function normColor(s) { return ({ good: "green", warn: "orange", bad: "red" })[s] || s; }
  /* The colour of an output's level at value v (eval::CompiledLab::output_level): its `level:`
     expression, else its bands; a bar showing the output, or a series coloured by it, is
     drawn in the colour its card shows. */
  function levelColor(L, v, S) {
    if (L.expr !== undefined) return normColor(tostr(run(L.expr, child(S, { value: v }))));
    return isNum(v) ? normColor(F.bandLevel(L.bands, v)) : null;
  }
  /* What a chart spec leaves out is its default (crates/render/src/render/html/chart.rs, `compact`): no
     text, no items, false or none. */
  var CHART = { x_prefix: "", x_suffix: "", y_prefix: "", y_suffix: "", axes: [], series: [], bars: [], markers: [], hlines: [], vlines: [] };
  /* The chart model (eval::chart::ChartData) at scope S. */
  function chartData(c, S) {
    c = Object.assign({}, CHART, c);
    var e = function (i, extra) { return run(i, extra ? child(S, extra) : S); };
    var t = function (x) { return x === null || x === undefined ? null : tplText(x, S); };
    var opt = function (x) { return x === null || x === undefined ? null : numv(e(x)); };
    var sweep = null;
    if (c.sweep) {
      var from = numv(e(c.sweep.from)), to = numv(e(c.sweep.to));
      /* eval::chart: a log sweep's bounds, positive at the defaults (check), may not be at live values. */
/*[logsweep*/
      if (c.sweep.log && !(from > 0 && to > 0 && isFinite(from) && isFinite(to))) throw final(msg("log_sweep", display(from), display(to)));
/*logsweep]*/
      sweep = { v: c.sweep.var, vals: sweepValues(from, to, c.sweep.points, c.sweep.step, c.sweep.log) };
    }
    /* `when:` hides a series, band, marker or line (eval::chart: a condition, true or false). */
    var shown = function (w) {
      if (w === null || w === undefined) return true;
      var v = e(w);
      if (typeof v !== "boolean") throw final(msg("when", display(v)));
      return v;
    };
    var series = [], kept = [];
    c.series.forEach(function (s) {
      if (!shown(s.when)) { kept.push(null); return; }
      kept.push(series.length);
      var emphasis = s.emphasis !== null && s.emphasis !== undefined ? e(s.emphasis) === true : false;
      var points = [];
      if (c.kind === "radar") {
        (s.values || []).forEach(function (v) { points.push({ x: points.length, y: numv(e(v)), color: null, text: null }); });
      } else {
        var binds = sweep ? sweep.vals : [null];
        binds.forEach(function (b) {
          /* One scope per point: the sweep variable, then x and y for colour and text. */
          var pe = Object.create(S);
          if (b !== null) pe[sweep.v] = b;
          var xv = s.x !== null && s.x !== undefined ? run(s.x, pe) : (b !== null ? b : 0);
          var y = numv(s.y !== null && s.y !== undefined ? run(s.y, pe) : 0);
          var x = c.kind === "bar" ? display(xv) : numv(xv);
          pe.x = xv; pe.y = y;
          var color = s.color_when !== null && s.color_when !== undefined ? normColor(tostr(run(s.color_when, pe))) : s.level ? levelColor(s.level, y, S) : null;
          var text = s.text ? tplText(s.text, pe) : null;
          points.push({ x: x, y: y, color: color, text: text });
        });
      }
      series.push({ name: t(s.name), color: s.color, dashed: !!s.dashed, fill: !!s.fill, emphasis: emphasis,
        style: s.style || null, width: s.width === undefined ? null : s.width, marker: s.marker || null, points: points });
    });
    if (c.bars.length) {
      var pts = c.bars.map(function (b) {
        var v = e(b.value), y = numv(v);
        var label = t(b.label);
        var pe = child(S, { x: label, y: y });
        var color = b.color_when !== null && b.color_when !== undefined ? normColor(tostr(run(b.color_when, pe))) : b.color || (b.level ? levelColor(b.level, v, S) : null);
        return { x: label, y: y, color: color, text: b.text ? tplText(b.text, pe) : null };
      });
      series.push({ name: "", color: "blue", dashed: false, fill: false, emphasis: false, style: null, width: null, marker: null, points: pts });
    }
    var binWidth = null;
    /*[hist*/if (c.kind === "histogram" && c.bins) {
      /* eval::chart `bins`: a non-empty list of counts, none negative, in bins from `from` to `to`. */
      var cv = e(c.bins.counts);
      if (!Array.isArray(cv) || !cv.length) throw final(msg("bins_list", display(cv)));
      var bf = numv(e(c.bins.from)), bt = numv(e(c.bins.to));
      if (!(isFinite(bf) && isFinite(bt) && bf < bt)) throw final(msg("bins_range", display(bf), display(bt)));
      binWidth = (bt - bf) / cv.length;
      var bp = cv.map(function (n, i) {
        if (!isNum(n) || !(n >= 0)) throw final(msg("bins_count", i + 1, display(n)));
        return { x: bf + binWidth * i, y: n, color: null, text: null };
      });
      series.push({ name: c.bins.name ? t(c.bins.name) : "", color: c.bins.color || "blue", dashed: false, fill: false, emphasis: false, style: null, width: null, marker: null, points: bp });
    }/*hist]*/
    var markers = [];
    c.markers.forEach(function (m) {
      if (!shown(m.when)) return;
      var x = numv(e(m.x)), y = numv(e(m.y));
      markers.push({ name: t(m.name), x: x, y: y, symbol: m.symbol, color: m.color,
        text: m.text ? tplText(m.text, child(S, { x: x, y: y })) : null });
    });
    var bands = [];
    /*[band*/(c.bands || []).forEach(function (b) {
      if (!shown(b.when)) return;
      var lo = b.lower === null ? null : kept[b.lower], hi = b.upper === null ? null : kept[b.upper];
      if (lo === null || lo === undefined || hi === null || hi === undefined) return;
      bands.push({ name: b.name === null ? "" : t(b.name), color: b.color !== null ? b.color : series[lo].color, lower: lo, upper: hi });
    });/*band]*/
    var lines = function (ls) {
      var v = [];
      ls.forEach(function (l) { if (shown(l.when)) v.push({ at: numv(e(l.at)), label: t(l.label), color: l.color, dashed: !!l.dashed }); });
      return v;
    };
    return {
      id: c.id, kind: c.kind, title: t(c.title), x_label: t(c.x_label), y_label: t(c.y_label),
      x_log: !!c.x_log, y_log: !!c.y_log, x_min: opt(c.x_min), x_max: opt(c.x_max), y_min: opt(c.y_min), y_max: opt(c.y_max),
      x_prefix: c.x_prefix, x_suffix: c.x_suffix, y_prefix: c.y_prefix, y_suffix: c.y_suffix, legend: c.legend,
      description: c.description ? t(c.description) : null, height: c.height || 360, stacked: !!c.stacked, bands: bands, bin_width: binWidth,
      axes: c.axes, series: series, markers: markers,
      hlines: lines(c.hlines), vlines: lines(c.vlines)
    };
  }
  return { chartData: chartData, child: child, numv: numv };
}
