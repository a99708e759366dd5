/*
 * labforge charts: draws the chart model (eval::chart::ChartData, as JSON) to an SVG string.
 * A line-by-line port of src/render/svg.rs: same layout, colours, ticks and tooltips, so the
 * page's live chart and the handout's static figure look alike. No dependencies, no eval.
 */
(function () {
  "use strict";
  var WIDTH = 640, HEIGHT = 360, LEFT = 64, RIGHT = 20, TOP = 36, BOTTOM = 52, LEGEND_ROW = 20;
  var PALETTE = { blue: "#2563eb", red: "#dc2626", green: "#15803d", orange: "#c2410c", purple: "#7c3aed", gray: "#6b7280" };
  /* Own names only: a colour formula may return "constructor" or "__proto__". */
  function cls(n) { return Object.prototype.hasOwnProperty.call(PALETTE, n) ? n : "text"; }
  function palette(n) { return PALETTE[cls(n)] || "#1f2937"; }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    }).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
  }
  /* Rust's `{:.d$}`: toFixed, except that an exact tie rounds to even (toFixed rounds it away
     from zero; a tie has at most d+1 binary fraction digits, so toFixed(d+1) shows it exactly),
     and never an exponent. */
  function fixed(x, d) {
    if (Math.abs(x) >= 1e21) return BigInt(x) + (d ? "." + "0".repeat(d) : "");
    var s = x.toFixed(d), e = x.toFixed(d + 1), t;
    if (e[e.length - 1] === "5" && x * Math.pow(2, d + 1) % 1 === 0) {
      t = e.slice(0, -1).replace(/\.$/, "");
      if (t[t.length - 1] % 2 === 0) s = t;
    }
    return s[0] === "-" && /^[0.]+$/.test(s.slice(1)) ? s.slice(1) : s;
  }
  function c(x) { return fixed(x, 1); }
  function tickLabel(v, step, prefix, suffix) {
    var a = Math.abs(v), x = v, st = step, unit = "";
    if (a >= 1e9) { x = v / 1e9; st = step / 1e9; unit = "G"; }
    else if (a >= 1e6) { x = v / 1e6; st = step / 1e6; unit = "M"; }
    else if (a >= 1e4) { x = v / 1e3; st = step / 1e3; unit = "k"; }
    var d = (st > 0 && st < 1) ? Math.min(Math.max(Math.ceil(-Math.log10(st) - 1e-9), 0), 10) : 0;
    return prefix + fixed(x, d) + unit + suffix;
  }
  function tipNum(v) {
    if (!isFinite(v)) return "n/a";
    var a = Math.abs(v);
    var d = (a >= 1000 || a === 0 || a === Math.trunc(a)) ? 0 : (a >= 10 ? 2 : (a >= 0.01 ? 3 : 6));
    return fixed(v, d);
  }
  function niceStep(range) {
    var raw = range / 5, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function has(x) { return x !== null && x !== undefined; }
  function Scale(vals, min, max, log, zero) {
    var ok = function (v) { return isFinite(v) && (!log || v > 0); };
    var data = vals.filter(ok);
    var lo = Infinity, hi = -Infinity, i;
    for (i = 0; i < data.length; i++) { lo = Math.min(lo, data[i]); hi = Math.max(hi, data[i]); }
    if (zero && !log) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (has(min) && ok(min)) lo = min;
    if (has(max) && ok(max)) hi = max;
    if (!isFinite(lo) || !isFinite(hi)) { if (log) { lo = 1; hi = 10; } else { lo = 0; hi = 1; } }
    if (hi < lo) { var tmp = lo; lo = hi; hi = tmp; }
    this.log = log;
    if (log) {
      var l = Math.log10(lo), h = Math.log10(hi);
      if (!has(min)) l = Math.floor(l);
      if (!has(max)) h = Math.ceil(h);
      if (h - l < 1e-12) { l -= 1; h += 1; }
      var ticks = [], e = Math.floor(l);
      var mults = (h - l <= 1.5) ? [1, 2, 5] : [1];
      var every = Math.max(Math.ceil((h - l) / 8), 1);
      while (e <= Math.ceil(h) && ticks.length < 40) {
        if ((e - Math.floor(l)) % every === 0) {
          for (i = 0; i < mults.length; i++) {
            var t = mults[i] * Math.pow(10, e), lt = Math.log10(t);
            if (lt >= l - 1e-9 && lt <= h + 1e-9) ticks.push(t);
          }
        }
        e += 1;
      }
      this.lo = l; this.hi = h; this.ticks = ticks; this.step = 0;
      return;
    }
    if (hi - lo < 1e-12 * Math.max(Math.abs(lo), 1)) {
      var dd = lo === 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= dd; hi += dd;
    }
    var step = niceStep(hi - lo);
    if (!has(min)) lo = Math.floor(lo / step) * step;
    if (!has(max)) hi = Math.ceil(hi / step) * step;
    var tk = [], tt = Math.ceil(lo / step) * step;
    while (tt <= hi + step * 1e-9 && tk.length < 40) { tk.push(Math.abs(tt) < step * 1e-9 ? 0 : tt); tt += step; }
    this.lo = lo; this.hi = hi; this.ticks = tk; this.step = step;
  }
  Scale.prototype.frac = function (v) {
    var x = this.log ? (v > 0 ? Math.log10(v) : NaN) : v;
    return (x - this.lo) / (this.hi - this.lo);
  };
  Scale.prototype.label = function (v, p, s) { return tickLabel(v, this.log ? v : this.step, p, s); };

  function legendItems(ch) {
    var v = [];
    ch.series.forEach(function (s, i) { if (s.name !== "") v.push([s.name, s.color, dash(i, s.dashed), null]); });
    ch.markers.forEach(function (m) { v.push([m.name, m.color, "", m.symbol]); });
    return v;
  }
  function legendLayout(items, width) {
    var out = [], x = LEFT, row = 0;
    items.forEach(function (it) {
      var w = 30 + 7 * Array.from(it[0]).length + 16;
      if (x + w > width - RIGHT && x > LEFT) { x = LEFT; row += 1; }
      out.push([x, row]);
      x += w;
    });
    return out;
  }
  function dash(i, dashed) {
    if (dashed) return ' stroke-dasharray="6 4"';
    return ["", ' stroke-dasharray="10 3 2 3"', ' stroke-dasharray="2 3"'][i % 3];
  }
  function symbol(o, sym, x, y, color, size, tip) {
    var attrs = 'class="fi-' + cls(color) + ' mk" fill="' + palette(color) + '" stroke="#ffffff" stroke-width="1.5"';
    var title = tip === "" ? "" : "<title>" + esc(tip) + "</title>";
    if (sym === "circle") o.push('<circle cx="' + c(x) + '" cy="' + c(y) + '" r="' + c(size * 0.8) + '" ' + attrs + ">" + title + "</circle>");
    else if (sym === "square") o.push('<rect x="' + c(x - size * 0.75) + '" y="' + c(y - size * 0.75) + '" width="' + c(size * 1.5) + '" height="' + c(size * 1.5) + '" ' + attrs + ">" + title + "</rect>");
    else if (sym === "diamond") o.push('<path d="M' + c(x) + " " + c(y - size) + "L" + c(x + size) + " " + c(y) + "L" + c(x) + " " + c(y + size) + "L" + c(x - size) + " " + c(y) + 'Z" ' + attrs + ">" + title + "</path>");
    else {
      var d = "";
      for (var i = 0; i < 10; i++) {
        var r = i % 2 === 0 ? size * 1.2 : size * 0.5;
        var a = Math.PI * i / 5 - Math.PI / 2;
        d += (i === 0 ? "M" : "L") + c(x + r * Math.cos(a)) + " " + c(y + r * Math.sin(a));
      }
      o.push('<path d="' + d + 'Z" ' + attrs + ">" + title + "</path>");
    }
  }

  function svg(ch, uid) {
    var items = ch.legend ? legendItems(ch) : [];
    var width = WIDTH, lay = legendLayout(items, width);
    var rows = 0;
    lay.forEach(function (l) { rows = Math.max(rows, l[1] + 1); });
    var baseH = ch.kind === "radar" ? WIDTH * 0.75 : HEIGHT;
    var height = baseH + rows * LEGEND_ROW;
    uid = String(uid).replace(/[^A-Za-z0-9]/g, "-");
    var o = [];
    var title = ch.title !== null && ch.title !== undefined ? ch.title : ch.id;
    o.push('<svg xmlns="http://www.w3.org/2000/svg" class="lf-chart" viewBox="0 0 ' + c(width) + " " + c(height) + '" width="' + c(width) + '" height="' + c(height) + '" role="img" aria-label="' + esc(title) + '" font-family="system-ui, sans-serif" font-size="12">');
    o.push("<title>" + esc(title) + "</title>");
    o.push('<rect class="bg" x="0" y="0" width="' + c(width) + '" height="' + c(height) + '" fill="#ffffff"/>');
    if (has(ch.title)) o.push('<text class="fi-text" x="' + c(width / 2) + '" y="22" text-anchor="middle" font-size="14" font-weight="600" fill="#1f2937">' + esc(ch.title) + "</text>");
    if (ch.kind === "radar") radar(o, ch, width, baseH);
    else cartesian(o, ch, uid, width, baseH - BOTTOM);
    items.forEach(function (it, i) {
      var x = lay[i][0], y = baseH + 8 + lay[i][1] * LEGEND_ROW;
      if (it[3] !== null) symbol(o, it[3], x + 12, y - 4, it[1], 5, "");
      else o.push('<line class="st-' + cls(it[1]) + '" x1="' + c(x) + '" y1="' + c(y - 4) + '" x2="' + c(x + 24) + '" y2="' + c(y - 4) + '" stroke="' + palette(it[1]) + '" stroke-width="2.5"' + it[2] + "/>");
      o.push('<text class="fi-text" x="' + c(x + 30) + '" y="' + c(y) + '" fill="#1f2937">' + esc(it[0]) + "</text>");
    });
    o.push("</svg>");
    return o.join("");
  }
  function numX(x) { return typeof x === "number" ? x : NaN; }

  function cartesian(o, ch, uid, width, bottom) {
    var x0 = LEFT, x1 = width - RIGHT, y0 = TOP + 8, y1 = bottom;
    var isBar = ch.kind === "bar";
    var cats = [];
    if (isBar) ch.series.forEach(function (s) { s.points.forEach(function (p) { if (typeof p.x === "string" && cats.indexOf(p.x) < 0) cats.push(p.x); }); });
    var xs = [], ys = [];
    ch.series.forEach(function (s) { s.points.forEach(function (p) { xs.push(numX(p.x)); ys.push(p.y); }); });
    ch.markers.forEach(function (m) { xs.push(m.x); ys.push(m.y); });
    ch.vlines.forEach(function (l) { xs.push(l.at); });
    ch.hlines.forEach(function (l) { ys.push(l.at); });
    var sy = new Scale(ys, ch.y_min, ch.y_max, ch.y_log, isBar);
    var sx = new Scale(xs, ch.x_min, ch.x_max, ch.x_log, false);
    var px = function (v) { return x0 + sx.frac(v) * (x1 - x0); };
    var py = function (v) { return y1 - sy.frac(v) * (y1 - y0); };
    o.push('<g class="grid">');
    sy.ticks.forEach(function (t) {
      var y = py(t);
      o.push('<line class="st-grid" x1="' + c(x0) + '" y1="' + c(y) + '" x2="' + c(x1) + '" y2="' + c(y) + '" stroke="#e5e7eb"/><text class="fi-muted" x="' + c(x0 - 6) + '" y="' + c(y + 4) + '" text-anchor="end" fill="#6b7280">' + esc(sy.label(t, ch.y_prefix, ch.y_suffix)) + "</text>");
    });
    if (isBar) {
      var n = Math.max(cats.length, 1);
      cats.forEach(function (k, i) {
        var x = x0 + (i + 0.5) * (x1 - x0) / n;
        o.push('<text class="fi-muted" x="' + c(x) + '" y="' + c(y1 + 16) + '" text-anchor="middle" fill="#6b7280">' + esc(ch.x_prefix) + esc(k) + esc(ch.x_suffix) + "</text>");
      });
    } else {
      sx.ticks.forEach(function (t) {
        var x = px(t);
        o.push('<line class="st-grid" x1="' + c(x) + '" y1="' + c(y0) + '" x2="' + c(x) + '" y2="' + c(y1) + '" stroke="#e5e7eb"/><text class="fi-muted" x="' + c(x) + '" y="' + c(y1 + 16) + '" text-anchor="middle" fill="#6b7280">' + esc(sx.label(t, ch.x_prefix, ch.x_suffix)) + "</text>");
      });
    }
    o.push('<line class="st-axis" x1="' + c(x0) + '" y1="' + c(y1) + '" x2="' + c(x1) + '" y2="' + c(y1) + '" stroke="#6b7280"/><line class="st-axis" x1="' + c(x0) + '" y1="' + c(y0) + '" x2="' + c(x0) + '" y2="' + c(y1) + '" stroke="#6b7280"/></g>');
    if (has(ch.x_label)) o.push('<text class="fi-text" x="' + c((x0 + x1) / 2) + '" y="' + c(y1 + 36) + '" text-anchor="middle" fill="#1f2937">' + esc(ch.x_label) + "</text>");
    if (has(ch.y_label)) o.push('<text class="fi-text" transform="translate(14 ' + c((y0 + y1) / 2) + ') rotate(-90)" text-anchor="middle" fill="#1f2937">' + esc(ch.y_label) + "</text>");
    o.push('<clipPath id="clip-' + uid + '"><rect x="' + c(x0 - 8) + '" y="' + c(y0 - 8) + '" width="' + c(x1 - x0 + 16) + '" height="' + c(y1 - y0 + 16) + '"/></clipPath><g clip-path="url(#clip-' + uid + ')">');
    if (isBar) bars(o, ch, cats, x0, x1, py, sy);
    else ch.series.forEach(function (s, i) { lineSeries(o, ch.kind, i, s, px, py); });
    refLines(o, ch.hlines, true, x0, x1, y0, y1, py);
    refLines(o, ch.vlines, false, x0, x1, y0, y1, px);
    ch.markers.forEach(function (m) {
      var x = px(m.x), y = py(m.y);
      if (isFinite(x) && isFinite(y)) symbol(o, m.symbol, x, y, m.color, 7, m.name + ": (" + tipNum(m.x) + ", " + tipNum(m.y) + ")");
    });
    o.push("</g>");
  }
  function lineSeries(o, kind, i, s, px, py) {
    var k = cls(s.color), col = palette(s.color);
    var pts = s.points.map(function (p) { var xv = numX(p.x); return [px(xv), py(p.y), xv, p.y]; });
    if (kind === "line") {
      var d = "", pen = false;
      pts.forEach(function (p) {
        if (isFinite(p[0]) && isFinite(p[1])) { d += (pen ? "L" : "M") + c(p[0]) + " " + c(p[1]); pen = true; } else pen = false;
      });
      if (d !== "") o.push('<path class="st-' + k + '" d="' + d + '" fill="none" stroke="' + col + '" stroke-width="' + (s.emphasis ? "3.5" : "2") + '" stroke-linejoin="round"' + dash(i, s.dashed) + "/>");
    }
    var r = kind === "scatter" ? 4 : 2.5;
    var hidden = kind === "line" && pts.length > 30;
    o.push('<g class="fi-' + k + '" fill="' + col + '"' + (hidden ? ' fill-opacity="0"' : "") + ">");
    pts.forEach(function (p) {
      if (isFinite(p[0]) && isFinite(p[1])) {
        o.push('<circle cx="' + c(p[0]) + '" cy="' + c(p[1]) + '" r="' + c(r) + '"><title>' + esc(s.name) + (s.name === "" ? "" : ": ") + "(" + tipNum(p[2]) + ", " + tipNum(p[3]) + ")</title></circle>");
      }
    });
    o.push("</g>");
  }
  function bars(o, ch, cats, x0, x1, py, sy) {
    var n = Math.max(cats.length, 1), band = (x1 - x0) / n;
    var groups = Math.max(ch.series.length, 1), bw = band * 0.7 / groups;
    var base = sy.log ? py(Math.pow(10, sy.lo)) : py(Math.min(Math.max(0, sy.lo), sy.hi));
    ch.series.forEach(function (s, si) {
      s.points.forEach(function (p) {
        if (typeof p.x !== "string") return;
        var ci = cats.indexOf(p.x);
        if (ci < 0) return;
        var y = py(p.y);
        if (!isFinite(y)) return;
        var color = has(p.color) ? p.color : s.color;
        var x = x0 + ci * band + band * 0.15 + si * bw;
        var top = y < base ? y : base, h = y < base ? base - y : y - base;
        var label = s.name === "" ? p.x : s.name + " — " + p.x;
        o.push('<rect class="fi-' + cls(color) + '" x="' + c(x) + '" y="' + c(top) + '" width="' + c(bw) + '" height="' + c(h) + '" fill="' + palette(color) + '"><title>' + esc(label) + ": " + tipNum(p.y) + "</title></rect>");
        if (has(p.text)) o.push('<text class="fi-text" x="' + c(x + bw / 2) + '" y="' + c(top - 4) + '" text-anchor="middle" font-size="11" fill="#1f2937">' + esc(p.text) + "</text>");
      });
    });
  }
  function refLines(o, lines, horizontal, x0, x1, y0, y1, p) {
    lines.forEach(function (l) {
      var v = p(l.at);
      if (!isFinite(v)) return;
      var k = cls(l.color), col = palette(l.color);
      var a = horizontal ? [x0, v, x1, v] : [v, y0, v, y1];
      var lab = has(l.label) ? l.label : "";
      o.push('<line class="st-' + k + '" x1="' + c(a[0]) + '" y1="' + c(a[1]) + '" x2="' + c(a[2]) + '" y2="' + c(a[3]) + '" stroke="' + col + '" stroke-width="1.5"' + (l.dashed ? ' stroke-dasharray="5 4"' : "") + "><title>" + esc(lab) + (has(l.label) ? " (" + tipNum(l.at) + ")" : tipNum(l.at)) + "</title></line>");
      if (has(l.label)) {
        var t = horizontal ? [x1 - 4, v - 5, "end"] : [v + 4, y0 + 12, "start"];
        o.push('<text class="fi-' + k + '" x="' + c(t[0]) + '" y="' + c(t[1]) + '" text-anchor="' + t[2] + '" font-size="11" fill="' + col + '">' + esc(l.label) + "</text>");
      }
    });
  }
  function radar(o, ch, width, h) {
    var n = Math.max(ch.axes.length, 3);
    var longest = 0; ch.axes.forEach(function (a) { longest = Math.max(longest, Array.from(a).length); });
    var room = Math.max((width / 2 - longest * 7 - 8) / 1.12, 20);
    var cx = width / 2, cy = TOP + (h - TOP - 24) / 2 + 4, r = Math.min(Math.max((h - TOP - 24) / 2 - 24, 20), room);
    var maxv = ch.y_max;
    if (!has(maxv)) { maxv = 0; ch.series.forEach(function (s) { s.points.forEach(function (p) { if (isFinite(p.y)) maxv = Math.max(maxv, p.y); }); }); }
    if (!(maxv > 0)) maxv = 1;
    var at = function (i, f) { var a = 2 * Math.PI * i / n - Math.PI / 2; return [cx + r * f * Math.cos(a), cy + r * f * Math.sin(a)]; };
    [0.25, 0.5, 0.75, 1].forEach(function (ring) {
      var d = "";
      for (var i = 0; i < n; i++) { var p = at(i, ring); d += (i === 0 ? "M" : "L") + c(p[0]) + " " + c(p[1]); }
      o.push('<path class="st-grid" d="' + d + 'Z" fill="none" stroke="#e5e7eb"/>');
    });
    for (var i = 0; i < n; i++) {
      var p = at(i, 1), lp = at(i, 1.12);
      var anchor = Math.abs(lp[0] - cx) < 1 ? "middle" : (lp[0] > cx ? "start" : "end");
      o.push('<line class="st-grid" x1="' + c(cx) + '" y1="' + c(cy) + '" x2="' + c(p[0]) + '" y2="' + c(p[1]) + '" stroke="#e5e7eb"/><text class="fi-text" x="' + c(lp[0]) + '" y="' + c(lp[1] + 4) + '" text-anchor="' + anchor + '" fill="#1f2937">' + esc(ch.axes[i] !== undefined ? ch.axes[i] : "") + "</text>");
    }
    ch.series.forEach(function (s, si) {
      var k = cls(s.color), col = palette(s.color), d = "", dots = "";
      s.points.forEach(function (pt, j) {
        var f = isFinite(pt.y) ? Math.min(Math.max(pt.y / maxv, 0), 1.2) : 0;
        var q = at(j, f);
        d += (j === 0 ? "M" : "L") + c(q[0]) + " " + c(q[1]);
        dots += '<circle cx="' + c(q[0]) + '" cy="' + c(q[1]) + '" r="3"><title>' + esc(s.name) + ": " + esc(ch.axes[j] !== undefined ? ch.axes[j] : "") + " = " + tipNum(pt.y) + "</title></circle>";
      });
      o.push('<path class="st-' + k + (s.fill ? " fi-" + k : "") + '" d="' + d + 'Z" fill="' + (s.fill ? col : "none") + '" fill-opacity="0.18" stroke="' + col + '" stroke-width="' + (s.emphasis ? "3.5" : "2") + '"' + dash(si, s.dashed) + '/><g class="fi-' + k + '" fill="' + col + '">' + dots + "</g>");
    });
  }
  window.LFCharts = { svg: svg, Scale: Scale, tickLabel: tickLabel };
})();
