/*
 * labforge charts: draws the chart model (eval::chart::ChartData, as JSON) to an SVG string.
 * A line-by-line port of crates/render/src/render/svg/: same layout, colours, ticks and tooltips, so the
 * page's live chart and the handout's static figure look alike. No dependencies, no eval.
 */
(function () {
  "use strict";
  var WIDTH = 640, LEFT = 64, RIGHT = 20, TOP = 36, BOTTOM = 52, LEGEND_ROW = 20, LINE = 13;
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
    var s = x.toFixed(d), e, t;
    if (x * Math.pow(2, d + 1) % 1 === 0 && (e = x.toFixed(d + 1))[e.length - 1] === "5") {
      t = e.slice(0, -1).replace(/\.$/, "");
      if (t[t.length - 1] % 2 === 0) s = t;
    }
    return s[0] === "-" && /^[0.]+$/.test(s.slice(1)) ? s.slice(1) : s;
  }
  function c(x) { return fixed(x, 1); }
  /* The template with each @ replaced by the next argument: numbers as coordinates. */
  function T(t) {
    var a = arguments, i = 1;
    return t.replace(/@/g, function () { var x = a[i++]; return typeof x === "number" ? c(x) : x; });
  }
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
    /*[log*/if (log) {
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
    }/*log]*/
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

  /* `<text>`; "\n" starts a new line 13 px lower (svg/mod.rs `text`). */
  function text(o, pre, x, y, post, s) {
    var h = T('<text @ x="@" y="@"@>', pre, x, y, post);
    if (s.indexOf("\n") >= 0) s.split("\n").forEach(function (l, i) { h += T('<tspan x="@" dy="@">@</tspan>', x, i === 0 ? "0" : "13", esc(l)); });
    else h += esc(s);
    o.push(h + "</text>");
  }
  function len(s) { return Array.from(s).length; }
  function measure(s) {
    var ls = s.split("\n"), w = 0;
    ls.forEach(function (l) { w = Math.max(w, len(l)); });
    return [ls.length, w];
  }
  function wrap(s, n) {
    var out = [], cur = "";
    s.split(" ").filter(function (w) { return w !== ""; }).forEach(function (w) {
      if (cur !== "" && len(cur) + 1 + len(w) > n) { out.push(cur); cur = ""; }
      if (cur !== "") cur += " ";
      cur += w;
    });
    if (cur !== "" || out.length === 0) out.push(cur);
    return out;
  }
  /* Average advance of a character of the 12 px text and of the 14 px semibold title (svg/mod.rs). */
  var CHAR_W = 7, TITLE_CHAR_W = 9;
  /* A label fitted to `room` pixels: lines wrapped at spaces, a word still too long cut into
     hyphenated pieces (svg/mod.rs `fit`). */
  function fit(s, room) {
    var n = Math.max(Math.floor(room / CHAR_W), 3), out = [];
    s.split("\n").forEach(function (line) {
      wrap(line, n).forEach(function (l) {
        var ch = Array.from(l), i = 0;
        while (ch.length - i > n) { out.push(ch.slice(i, i + n - 1).join("") + "-"); i += n - 1; }
        out.push(ch.slice(i).join(""));
      });
    });
    return out.join("\n");
  }
  var KIND = { line: "Line chart", scatter: "Scatter chart", bar: "Bar chart", radar: "Radar chart", histogram: "Histogram" };
  /* eval::chart::ChartData::heading and ::summary. */
  function heading(ch) {
    if (has(ch.title) && ch.title.trim() !== "") return ch.title;
    var names = ch.series.map(function (s) { return s.name; }).filter(function (x) { return x !== ""; });
    var what = "";
    if (ch.kind === "radar" && ch.axes.length) what = ch.axes.join(", ");
    else if (has(ch.y_label) && has(ch.x_label)) what = ch.y_label + " vs " + ch.x_label;
    else if (has(ch.y_label)) what = ch.y_label;
    else if (has(ch.x_label)) what = ch.x_label;
    else if (names.length) what = names.join(", ");
    return what === "" ? KIND[ch.kind] : KIND[ch.kind] + ": " + what;
  }
  function summary(ch) {
    if (has(ch.description) && ch.description.trim() !== "") return ch.description;
    var parts = [], names = ch.series.map(function (s) { return s.name; }).filter(function (x) { return x !== ""; });
    if (names.length) parts.push("Series: " + names.join(", ") + ".");
    ch.markers.forEach(function (m) { parts.push(m.name + " at (" + tipNum(m.x) + ", " + tipNum(m.y) + ")."); });
    /*[hist*/if (has(ch.bin_width) && ch.series.length) {
      var w = ch.bin_width, pts = ch.series[0].points, top = null;
      var xs = function (v) { return ch.x_prefix + tipNum(v) + ch.x_suffix; };
      pts.forEach(function (p) { if (isFinite(p.y) && (top === null || !(top.y >= p.y))) top = p; });
      if (pts.length && top !== null) parts.push(pts.length + " bins of " + tipNum(w) + " from " + xs(pts[0].x) + " to " + xs(pts[0].x + w * pts.length) + "; the tallest, " + tipNum(top.y) + ", at " + xs(top.x) + " to " + xs(top.x + w) + ".");
    }/*hist]*/
    ch.hlines.concat(ch.vlines).forEach(function (l) { if (has(l.label)) parts.push(l.label + "."); });
    parts.push("Values in the Data table.");
    return parts.join(" ");
  }
  function seriesDash(i, s) {
    /*[shape*/if (s.style === "solid") return "";
    if (s.style === "dashed") return ' stroke-dasharray="6 4"';
    if (s.style === "dotted") return ' stroke-dasharray="2 3"';/*shape]*/
    return dash(i, s.dashed);
  }
  function sw(s) { return String((has(s.width) ? s.width : 2) + (s.emphasis ? 1.5 : 0)); }
  /*[shape*/var SHAPE = { square: "square", triangle: "triangle", diamond: "diamond", star: "star" };
  function shapeSymbol(p) { return SHAPE[p] || "circle"; }/*shape]*/
  function legendItems(ch) {
    var v = [];
    ch.series.forEach(function (s, i) {
      if (s.name !== "") v.push(ch.kind === "bar" || ch.kind === "histogram" ? [s.name, s.color, "block"] : [s.name, s.color, "line", seriesDash(i, s), has(s.marker) && s.marker !== "none" ? s.marker : null]);
    });
    /*[band*/ch.bands.forEach(function (b) { if (b.name !== "") v.push([b.name, b.color, "area"]); });/*band]*/
    ch.markers.forEach(function (m) { v.push([m.name, m.color, "mark", m.symbol]); });
    return v;
  }
  function itemWidth(name) { return 30 + 7 * len(name) + 16; }
  function legendRows(items, left, right) {
    var out = [], x = left, row = 0;
    items.forEach(function (it) {
      var w = itemWidth(it[0]);
      if (x + w > right && x > left) { x = left; row += 1; }
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
    if (sym === "circle") o.push(T('<circle cx="@" cy="@" r="@" @>@</circle>', x, y, size * 0.8, attrs, title));
    else if (sym === "square") o.push(T('<rect x="@" y="@" width="@" height="@" @>@</rect>', x - size * 0.75, y - size * 0.75, size * 1.5, size * 1.5, attrs, title));
    else if (sym === "diamond") o.push(T('<path d="M@ @L@ @L@ @L@ @Z" @>@</path>', x, y - size, x + size, y, x, y + size, x - size, y, attrs, title));
    /*[shape*/else if (sym === "triangle") o.push(T('<path d="M@ @L@ @L@ @Z" @>@</path>', x, y - size, x + size, y + size * 0.8, x - size, y + size * 0.8, attrs, title));/*shape]*/
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

  /* `lean`: without the invisible points (a long line's) that only carry a hover tooltip: the
     page draws them once the pointer or the focus is on the chart. */
  var lean = false;
  function svg(ch, uid, width, noHover) {
    lean = !!noHover;
    width = Math.round(Math.min(Math.max(has(width) ? width : WIDTH, 240), 2000));
    var legend = ch.kind === "radar" && ch.legend === "right" ? "bottom" : ch.legend;
    var items = legend === "none" ? [] : legendItems(ch);
    var head = heading(ch);
    var tl = wrap(head, Math.max(Math.floor((width - 16) / TITLE_CHAR_W), 8));
    var titleH = (tl.length - 1) * 18;
    var side = 0;
    /*[legend*/if (legend === "right" && items.length) {
      items.forEach(function (it) { side = Math.max(side, itemWidth(it[0]) - 8); });
      side = Math.min(side, Math.round(width * 0.35));
    }/*legend]*/
    var lay = legend === "top" || legend === "bottom" ? legendRows(items, LEFT, width - RIGHT) : [];
    var rows = 0;
    lay.forEach(function (l) { rows = Math.max(rows, l[1] + 1); });
    var topH = legend === "top" ? rows * LEGEND_ROW : 0;
    var baseH = ch.kind === "radar" ? Math.round(ch.height * 4 / 3) : ch.height;
    var base = baseH + titleH + topH;
    var height = base + (legend === "bottom" ? rows * LEGEND_ROW : 0);
    uid = String(uid).replace(/[^A-Za-z0-9]/g, "-");
    var o = [];
    o.push(T('<svg xmlns="http://www.w3.org/2000/svg" class="lf-chart" viewBox="0 0 @ @" width="@" height="@" role="img" aria-labelledby="t-@" aria-describedby="d-@" font-family="system-ui, sans-serif" font-size="12">', width, height, width, height, uid, uid));
    o.push('<title id="t-' + uid + '">' + esc(head) + '</title><desc id="d-' + uid + '">' + esc(summary(ch)) + "</desc>");
    o.push(T('<rect class="bg" x="0" y="0" width="@" height="@" fill="#ffffff"/>', width, height));
    tl.forEach(function (l, i) { text(o, 'class="fi-text"', width / 2, 22 + 18 * i, ' text-anchor="middle" font-size="14" font-weight="600" fill="#1f2937"', l); });
    var f = { width: width, top: TOP + titleH + topH, base: base, right: width - RIGHT - side };
    /*[radar*/if (ch.kind === "radar") radar(o, ch, f);
    else /*radar]*/cartesian(o, ch, uid, f);
    items.forEach(function (it, i) {
      var x, y;
      x = lay[i] ? lay[i][0] : 0; y = base + 8 + (lay[i] ? lay[i][1] : 0) * LEGEND_ROW;
      /*[legend*/if (legend === "right") { x = f.right + 8; y = f.top + 12 + i * LEGEND_ROW; }
      else if (legend === "top") y = TOP + titleH + 4 + lay[i][1] * LEGEND_ROW;/*legend]*/
      if (it[2] === "mark") symbol(o, it[3], x + 12, y - 4, it[1], 5, "");
      else if (it[2] !== "line") o.push(T('<rect class="fi-@" x="@" y="@" width="24" height="10" fill="@"@/>', cls(it[1]), x, y - 9, palette(it[1]), it[2] === "area" ? ' fill-opacity="0.35"' : ""));
      else {
        o.push(T('<line class="st-@" x1="@" y1="@" x2="@" y2="@" stroke="@" stroke-width="2.5"@/>', cls(it[1]), x, y - 4, x + 24, y - 4, palette(it[1]), it[3]));
        if (it[4] !== null) symbol(o, shapeSymbol(it[4]), x + 12, y - 4, it[1], 4, "");
      }
      text(o, 'class="fi-text"', x + 30, y, ' fill="#1f2937"', it[0]);
    });
    o.push("</svg>");
    svg.parts = segments(o);
    return o.join("");
  }
  /* The drawing's pieces grouped into its top-level nodes' markup (a `<g>` opened in one piece
     closes in a later one): what `paint` compares with the drawing on screen, so that a redraw
     parses and writes only the groups that changed. */
  function segments(o) {
    var segs = [], cur = "", depth = 0, i, m;
    for (i = 1; i < o.length - 1; i++) {
      cur += o[i];
      m = o[i].match(/<\/?g[ >]/g);
      if (m) m.forEach(function (t) { depth += t.charAt(1) === "/" ? -1 : 1; });
      if (depth === 0) { segs.push(cur); cur = ""; }
    }
    return depth === 0 ? { open: o[0], segs: segs } : null;
  }
  function numX(x) { return typeof x === "number" ? x : NaN; }
  function categories(ch) {
    var cats = [];
    ch.series.forEach(function (s) { s.points.forEach(function (p) { if (typeof p.x === "string" && cats.indexOf(p.x) < 0) cats.push(p.x); }); });
    return cats;
  }
  function barSpans(ch, cats) {
    var pos = cats.map(function () { return 0; }), neg = pos.slice();
    return ch.series.map(function (s) {
      return s.points.map(function (p) {
        var ci = typeof p.x === "string" ? cats.indexOf(p.x) : -1;
        /*[stack*/if (ci >= 0 && ch.stacked && isFinite(p.y)) {
          var acc = p.y >= 0 ? pos : neg, from = acc[ci];
          acc[ci] += p.y;
          return [from, acc[ci]];
        }/*stack]*/
        return [0, p.y];
      });
    });
  }

  function cartesian(o, ch, uid, f) {
    var isBar = ch.kind === "bar";
    var cats = isBar ? categories(ch) : [];
    /* Each category's label fitted to its slot (names stay whole in titles and the data table). */
    var slot = (f.right - LEFT) / Math.max(cats.length, 1);
    var shown = cats.map(function (k) { return fit(ch.x_prefix + k + ch.x_suffix, slot - 8); });
    var catLines = 1;
    shown.forEach(function (k) { catLines = Math.max(catLines, measure(k)[0]); });
    var extra = (catLines - 1) * LINE;
    var P = { x0: LEFT, x1: f.right, y0: f.top + 8, y1: f.base - BOTTOM - extra };
    var x0 = P.x0, x1 = P.x1, y0 = P.y0, y1 = P.y1;
    var spans = barSpans(ch, cats);
    var xs = [], ys = [];
    ch.series.forEach(function (s, si) { s.points.forEach(function (p, j) { xs.push(numX(p.x)); ys.push(spans[si][j][1]); }); });
    ch.markers.forEach(function (m) { xs.push(m.x); ys.push(m.y); });
    ch.vlines.forEach(function (l) { xs.push(l.at); });
    ch.hlines.forEach(function (l) { ys.push(l.at); });
    /*[hist*/if (has(ch.bin_width)) { for (var li = xs.length - 1; li >= 0; li--) if (isFinite(xs[li])) { xs.push(xs[li] + ch.bin_width); break; } }/*hist]*/
    var sy = new Scale(ys, ch.y_min, ch.y_max, ch.y_log, isBar || has(ch.bin_width));
    var sx = new Scale(xs, ch.x_min, ch.x_max, ch.x_log, false);
    var px = function (v) { return x0 + sx.frac(v) * (x1 - x0); };
    var py = function (v) { return y1 - sy.frac(v) * (y1 - y0); };
    o.push('<g class="grid">');
    sy.ticks.forEach(function (t) {
      var y = py(t);
      o.push(T('<line class="st-grid" x1="@" y1="@" x2="@" y2="@" stroke="#e5e7eb"/><text class="fi-muted" x="@" y="@" text-anchor="end" fill="#6b7280">@</text>', x0, y, x1, y, x0 - 6, y + 4, esc(sy.label(t, ch.y_prefix, ch.y_suffix))));
    });
    if (isBar) {
      var n = Math.max(cats.length, 1);
      shown.forEach(function (k, i) {
        text(o, 'class="fi-muted"', x0 + (i + 0.5) * (x1 - x0) / n, y1 + 16, ' text-anchor="middle" fill="#6b7280"', k);
      });
    } else {
      sx.ticks.forEach(function (t) {
        var x = px(t);
        o.push(T('<line class="st-grid" x1="@" y1="@" x2="@" y2="@" stroke="#e5e7eb"/><text class="fi-muted" x="@" y="@" text-anchor="middle" fill="#6b7280">@</text>', x, y0, x, y1, x, y1 + 16, esc(sx.label(t, ch.x_prefix, ch.x_suffix))));
      });
    }
    o.push(T('<line class="st-axis" x1="@" y1="@" x2="@" y2="@" stroke="#6b7280"/><line class="st-axis" x1="@" y1="@" x2="@" y2="@" stroke="#6b7280"/></g>', x0, y1, x1, y1, x0, y0, x0, y1));
    if (has(ch.x_label)) o.push(T('<text class="fi-text" x="@" y="@" text-anchor="middle" fill="#1f2937">@</text>', (x0 + x1) / 2, y1 + 36 + extra, esc(ch.x_label)));
    if (has(ch.y_label)) o.push(T('<text class="fi-text" transform="translate(14 @) rotate(-90)" text-anchor="middle" fill="#1f2937">@</text>', (y0 + y1) / 2, esc(ch.y_label)));
    o.push(T('<clipPath id="clip-@"><rect x="@" y="@" width="@" height="@"/></clipPath><g clip-path="url(#clip-@)">', uid, x0 - 8, y0 - 8, x1 - x0 + 16, y1 - y0 + 16, uid));
    var labels = [];
    /*[band*/ch.bands.forEach(function (b) {
      var lo = ch.series[b.lower], hi = ch.series[b.upper];
      if (!lo || !hi) return;
      var pts = [];
      lo.points.concat(hi.points.slice().reverse()).forEach(function (p) {
        var x = px(numX(p.x)), y = py(p.y);
        if (isFinite(x) && isFinite(y)) pts.push([x, y]);
      });
      if (pts.length < 3) return;
      var d = "";
      pts.forEach(function (q, i) { d += (i === 0 ? "M" : "L") + c(q[0]) + " " + c(q[1]); });
      o.push('<path class="fi-' + cls(b.color) + '" d="' + d + 'Z" fill="' + palette(b.color) + '" fill-opacity="0.18" stroke="none"><title>' + esc(b.name) + "</title></path>");
    });/*band]*/
    /* What a reference line's label must not cover: bars and points (gathered only when a
       reference line has a label: a drag redraws the chart every frame). */
    var data = [], avoid = ch.hlines.concat(ch.vlines).some(function (l) { return has(l.label); });
    if (isBar) bars(o, ch, cats, spans, P, py, sy, labels, data);
    /*[hist*/else if (has(ch.bin_width)) bins(o, ch, ch.bin_width, px, py, sy, data);/*hist]*/
    else ch.series.forEach(function (s, i) {
      lineSeries(o, ch.kind, i, s, px, py);
      /* A point is as big as its shape (4.5 px), a scatter dot (4 px) or a line's. */
      var r = has(s.marker) && s.marker !== "none" ? 4.5 : ch.kind === "scatter" ? 4 : 2;
      if (avoid) s.points.forEach(function (pt) { var x = px(numX(pt.x)), y = py(pt.y); if (isFinite(x) && isFinite(y)) data.push([x - r, y - r, x + r, y + r]); });
    });
    refLines(o, ch.hlines, true, P, sy, labels);
    refLines(o, ch.vlines, false, P, sx, labels);
    o.push("</g>");
    ch.markers.forEach(function (m) {
      var fx = sx.frac(m.x), fy = sy.frac(m.y);
      if (!isFinite(fx) || !isFinite(fy)) return;
      var x = x0 + Math.min(Math.max(fx, 0), 1) * (x1 - x0), y = y1 - Math.min(Math.max(fy, 0), 1) * (y1 - y0), a = null;
      if (fy > 1) { y = y0 + 14; a = [x, y0, x - 5, y0 + 7, x + 5, y0 + 7]; }
      else if (fy < 0) { y = y1 - 14; a = [x, y1, x - 5, y1 - 7, x + 5, y1 - 7]; }
      else if (fx > 1) { x = x1 - 14; a = [x1, y, x1 - 7, y - 5, x1 - 7, y + 5]; }
      else if (fx < 0) { x = x0 + 14; a = [x0, y, x0 + 7, y - 5, x0 + 7, y + 5]; }
      var tip = m.name + ": (" + tipNum(m.x) + ", " + tipNum(m.y) + ")";
      if (a) {
        tip += ", off the scale";
        o.push(T('<path class="fi-@ off" d="M@ @L@ @L@ @Z" fill="@"/>', cls(m.color), a[0], a[1], a[2], a[3], a[4], a[5], palette(m.color)));
      }
      symbol(o, m.symbol, x, y, m.color, 7, tip);
      if (has(m.text)) {
        var above = y + 3 - LINE * measure(m.text)[0], step = LINE + 1;
        labels.push({ s: m.text, x: x + 10, y: y - 8, anchor: "start", pre: 'class="fi-text mk"', post: ' fill="#1f2937"', alts: [[x + 10, y + 20, "start"], [x - 10, y - 8, "end"], [x - 10, y + 20, "end"],
          [x, above, "middle"], [x, y + 20, "middle"], [x + 10, y - 8 - step, "start"], [x + 10, y + 20 + step, "start"], [x, above - step, "middle"],
          [x + 10, y - 8 - 2 * step, "start"], [x + 10, y + 20 + 2 * step, "start"], [x, above - 2 * step, "middle"]] });
      }
    });
    placeLabels(o, labels, P, data);
  }
  /* Labels inside the plot, never overlapping (svg/cartesian.rs `place_labels`). A label with
     `alts` (a reference line's) takes the first of its place and `alts` where it covers no bar,
     no point and no label placed before it. */
  function placeLabels(o, labels, P, data) {
    var placed = [];
    labels.forEach(function (l) {
      var m = measure(l.s), w = 7 * m[1], h = LINE * m[0];
      var fit = function () {
        if (l.anchor === "start" && l.x + w > P.x1) { l.x -= 20; l.anchor = "end"; }
        if (l.anchor === "end" && l.x - w < P.x0) l.x = P.x0 + w;
        if (l.anchor === "middle") l.x = Math.min(Math.max(l.x, P.x0 + w / 2), Math.max(P.x1 - w / 2, P.x0 + w / 2));
        if (l.y - 11 < P.y0) l.y = P.y0 + 11;
      };
      var bx = function () { var left = l.anchor === "end" ? l.x - w : l.anchor === "middle" ? l.x - w / 2 : l.x; return [left, l.y - 11, left + w, l.y - 11 + h]; };
      var over = function (b, qs) { return qs.some(function (q) { return b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3]; }); };
      var hits = function (b) { return over(b, placed); };
      /* Free: on no data, no label placed before, and above the plot's bottom edge. */
      var taken = function (b) { return over(b, data) || hits(b) || b[3] > P.y1 - 2; };
      var first = [l.x, l.y, l.anchor];
      fit();
      /* A bar's value whose place is not free is left out (svg/cartesian.rs `optional`). */
      if (l.optional && taken(bx())) return;
      if (l.alts && taken(bx())) {
        var free = l.alts.some(function (a) { l.x = a[0]; l.y = a[1]; l.anchor = a[2]; fit(); return !taken(bx()); });
        /* Nowhere free: where it covers the least data (the first such place). */
        if (!free) {
          var best = [Infinity, first[0], first[1], first[2]];
          [first].concat(l.alts).forEach(function (a) {
            l.x = a[0]; l.y = a[1]; l.anchor = a[2]; fit();
            var b = bx(), area = 0;
            data.forEach(function (q) { area += Math.max(Math.min(b[2], q[2]) - Math.max(b[0], q[0]), 0) * Math.max(Math.min(b[3], q[3]) - Math.max(b[1], q[1]), 0); });
            if (area < best[0]) best = [area, a[0], a[1], a[2]];
          });
          l.x = best[1]; l.y = best[2]; l.anchor = best[3]; fit();
        }
      }
      var tries = 0;
      while (hits(bx()) && tries < 20) { l.y += LINE + 1; tries += 1; }
      if (l.y - 11 + h > P.y1 - 2) l.y = P.y1 - 2 - h + 11;
      placed.push(bx());
      text(o, l.pre, l.x, l.y, ' text-anchor="' + l.anchor + '" font-size="11"' + l.post + ' stroke="#ffffff" stroke-width="3" paint-order="stroke"', l.s);
    });
  }
  function lineSeries(o, kind, i, s, px, py) {
    var k = cls(s.color), col = palette(s.color);
    var pts = s.points.map(function (p) { var xv = numX(p.x); return [px(xv), py(p.y), xv, p.y]; });
    if (kind === "line") {
      var d = "", pen = false;
      pts.forEach(function (p) {
        if (isFinite(p[0]) && isFinite(p[1])) { d += (pen ? "L" : "M") + c(p[0]) + " " + c(p[1]); pen = true; } else pen = false;
      });
      if (d !== "") o.push('<path class="st-' + k + '" d="' + d + '" fill="none" stroke="' + col + '" stroke-width="' + sw(s) + '" stroke-linejoin="round"' + seriesDash(i, s) + "/>");
    }
    var tip = function (p) { return s.name + (s.name === "" ? "" : ": ") + "(" + tipNum(p[2]) + ", " + tipNum(p[3]) + ")"; };
    /*[shape*/if (has(s.marker) && s.marker !== "none") {
      pts.forEach(function (p) { if (isFinite(p[0]) && isFinite(p[1])) symbol(o, shapeSymbol(s.marker), p[0], p[1], s.color, 4.5, tip(p)); });
      return;
    }/*shape]*/
    var r = kind === "scatter" ? 4 : 2.5;
    var hidden = (kind === "line" && pts.length > 30) || has(s.marker);
    if (hidden && lean) return;
    o.push('<g class="fi-' + k + '" fill="' + col + '"' + (hidden ? ' fill-opacity="0"' : "") + ">");
    pts.forEach(function (p) {
      if (isFinite(p[0]) && isFinite(p[1])) o.push(T('<circle cx="@" cy="@" r="@"><title>@</title></circle>', p[0], p[1], r, esc(tip(p))));
    });
    o.push("</g>");
  }
  /* Do a bar chart's values fit above their bars at 11 px (svg/cartesian.rs `values_fit`)?
     Where not, all are left out (tooltips and the Data table keep them), none lifted. */
  function valuesFit(ch, spacing) {
    var widest = 0;
    ch.series.forEach(function (s) { s.points.forEach(function (p) { if (has(p.text)) widest = Math.max(widest, measure(p.text)[1]); }); });
    return 7 * widest <= spacing - 2;
  }
  function bars(o, ch, cats, spans, P, py, sy, labels, data) {
    var n = Math.max(cats.length, 1), band = (P.x1 - P.x0) / n;
    var groups = ch.stacked ? 1 : Math.max(ch.series.length, 1), bw = band * 0.7 / groups;
    var base = sy.log ? py(Math.pow(10, sy.lo)) : py(Math.min(Math.max(0, sy.lo), sy.hi));
    var values = valuesFit(ch, groups > 1 ? bw : band);
    ch.series.forEach(function (s, si) {
      s.points.forEach(function (p, j) {
        if (typeof p.x !== "string") return;
        var ci = cats.indexOf(p.x);
        if (ci < 0) return;
        var sp = spans[si][j], y = py(sp[1]);
        if (!isFinite(y)) return;
        var b = ch.stacked && sp[0] !== 0 ? py(sp[0]) : base;
        var color = has(p.color) ? p.color : s.color;
        var x = P.x0 + ci * band + band * 0.15 + (ch.stacked ? 0 : si) * bw;
        var top = y < b ? y : b, h = y < b ? b - y : y - b;
        data.push([x, top, x + bw, top + h]);
        var k = p.x.split("\n").join(" ");
        var label = s.name === "" ? k : s.name + " — " + k;
        o.push(T('<rect class="fi-@" x="@" y="@" width="@" height="@" fill="@"><title>@: @</title></rect>', cls(color), x, top, bw, h, palette(color), esc(label), tipNum(p.y)));
        /* Right above its bar, never further (a label lifted over its neighbours reads as
           theirs); a stacked segment's inside it. */
        if (has(p.text) && (ch.stacked || values)) {
          var nl = measure(p.text)[0];
          var ty = ch.stacked ? top + h / 2 + 4 - (nl - 1) * LINE / 2 : top - 4 - (nl - 1) * LINE;
          labels.push({ s: p.text, x: x + bw / 2, y: ty, anchor: "middle", pre: 'class="fi-text mk"', post: ' fill="#1f2937"', optional: !ch.stacked });
        }
      });
    });
  }
  /*[hist*/function bins(o, ch, w, px, py, sy, data) {
    var base = py(Math.min(Math.max(0, sy.lo), sy.hi));
    ch.series.forEach(function (s) {
      var k = cls(s.color), col = palette(s.color);
      s.points.forEach(function (p) {
        var lo = numX(p.x), a = px(lo), b = px(lo + w), y = py(p.y);
        if (!(isFinite(a) && isFinite(b) && isFinite(y))) return;
        var gap = b - a >= 4 ? 1 : 0, top = y < base ? y : base, h = y < base ? base - y : y - base;
        data.push([a, top, b, top + h]);
        var range = ch.x_prefix + tipNum(lo) + "–" + tipNum(lo + w) + ch.x_suffix;
        var label = s.name === "" ? range : s.name + " — " + range;
        o.push(T('<rect class="fi-@" x="@" y="@" width="@" height="@" fill="@"><title>@: @</title></rect>', k, a + gap / 2, top, b - a - gap, h, col, esc(label), tipNum(p.y)));
      });
    });
  }/*hist]*/
  var ARROWS = { h1: "▲ ", h0: "▼ ", v1: "▶ ", v0: "◀ " };
  function refLines(o, lines, horizontal, P, sc, labels) {
    lines.forEach(function (l) {
      var f = sc.frac(l.at);
      if (!isFinite(f)) return;
      var fc = Math.min(Math.max(f, 0), 1);
      var v = horizontal ? P.y1 - fc * (P.y1 - P.y0) : P.x0 + fc * (P.x1 - P.x0);
      var arrow = f > 1 ? ARROWS[(horizontal ? "h" : "v") + 1] : f < 0 ? ARROWS[(horizontal ? "h" : "v") + 0] : "";
      var k = cls(l.color), col = palette(l.color);
      var a = horizontal ? [P.x0, v, P.x1, v] : [v, P.y0, v, P.y1];
      var lab = has(l.label) ? l.label : "";
      o.push(T('<line class="st-@" x1="@" y1="@" x2="@" y2="@" stroke="@" stroke-width="1.5"@><title>@@@</title></line>', k, a[0], a[1], a[2], a[3], col, l.dashed ? ' stroke-dasharray="5 4"' : "", esc(lab), has(l.label) ? " (" + tipNum(l.at) + ")" : tipNum(l.at), arrow === "" ? "" : ", off the scale"));
      if (has(l.label)) {
        var nl = measure(l.label)[0], x, y, anchor;
        var alts;
        var step = LINE + 1, j, yy;
        if (horizontal) {
          var above = v - 5 - (nl - 1) * LINE, below = v + 14, mid = (P.x0 + P.x1) / 2;
          y = above - 11 < P.y0 ? below : above; x = P.x1 - 4; anchor = "end";
          alts = [[P.x1 - 4, below, "end"], [P.x0 + 4, y, "start"], [P.x0 + 4, below, "start"], [mid, y, "middle"], [mid, below, "middle"]];
          for (j = 1; j <= 8; j++) {
            [[P.x1 - 4, "end"], [P.x0 + 4, "start"], [mid, "middle"]].forEach(function (q) { alts.push([q[0], above - j * step, q[1]], [q[0], below + j * step, q[1]]); });
          }
        } else {
          var bottom = P.y1 - 6 - (nl - 1) * LINE;
          x = v + 4; y = P.y0 + 12; anchor = "start";
          alts = [[v - 4, P.y0 + 12, "end"], [v + 4, bottom, "start"], [v - 4, bottom, "end"]];
          for (yy = P.y0 + 12 + step; yy < bottom; yy += step) alts.push([v + 4, yy, "start"], [v - 4, yy, "end"]);
        }
        labels.push({ s: arrow + l.label, x: x, y: y, anchor: anchor, pre: 'class="fi-' + k + ' mk"', post: ' fill="' + col + '"', alts: alts });
      }
    });
  }
/*[radar*/  function radar(o, ch, f) {
    var width = f.width, top = f.top, h = f.base;
    var n = Math.max(ch.axes.length, 3);
    var longest = 0; ch.axes.forEach(function (a) { longest = Math.max(longest, Array.from(a).length); });
    var room = Math.max((width / 2 - longest * 7 - 8) / 1.12, 20);
    var cx = width / 2, cy = top + (h - top - 24) / 2 + 4, r = Math.min(Math.max((h - top - 24) / 2 - 24, 20), room);
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
      o.push(T('<line class="st-grid" x1="@" y1="@" x2="@" y2="@" stroke="#e5e7eb"/><text class="fi-text" x="@" y="@" text-anchor="@" fill="#1f2937">@</text>', cx, cy, p[0], p[1], lp[0], lp[1] + 4, anchor, esc(ch.axes[i] !== undefined ? ch.axes[i] : "")));
    }
    ch.series.forEach(function (s, si) {
      var k = cls(s.color), col = palette(s.color), d = "", dots = "";
      s.points.forEach(function (pt, j) {
        var f = isFinite(pt.y) ? Math.min(Math.max(pt.y / maxv, 0), 1.2) : 0;
        var q = at(j, f);
        d += (j === 0 ? "M" : "L") + c(q[0]) + " " + c(q[1]);
        dots += T('<circle cx="@" cy="@" r="3"><title>@: @ = @</title></circle>', q[0], q[1], esc(s.name), esc(ch.axes[j] !== undefined ? ch.axes[j] : ""), tipNum(pt.y));
      });
      o.push('<path class="st-' + k + (s.fill ? " fi-" + k : "") + '" d="' + d + 'Z" fill="' + (s.fill ? col : "none") + '" fill-opacity="0.18" stroke="' + col + '" stroke-width="' + sw(s) + '"' + seriesDash(si, s) + '/><g class="fi-' + k + '" fill="' + col + '">' + dots + "</g>");
    });
  }/*radar]*/
  /* The data table (svg/table.rs `chart_table`). */
  function table(ch) {
    var flat = function (s) { return s.split("\n").join(" "); };
    var xhead = has(ch.x_label) ? flat(ch.x_label) : (ch.kind === "bar" ? "Category" : ch.kind === "radar" ? "Axis" : "x");
    var yhead = has(ch.y_label) ? flat(ch.y_label) : "y";
    var xs = function (v) { return ch.x_prefix + tipNum(v) + ch.x_suffix; };
    var ys = function (v) { return ch.y_prefix + tipNum(v) + ch.y_suffix; };
    var key = function (x) {
      if (typeof x === "string") return ch.x_prefix + flat(x) + ch.x_suffix;
      if (ch.kind === "radar") return ch.axes[x] !== undefined ? ch.axes[x] : "";
      /*[hist*/if (has(ch.bin_width)) return ch.x_prefix + tipNum(x) + "–" + tipNum(x + ch.bin_width) + ch.x_suffix;/*hist]*/
      return xs(x);
    };
    var keys = [];
    ch.series.forEach(function (s) { s.points.forEach(function (p) { var k = key(p.x); if (keys.indexOf(k) < 0) keys.push(k); }); });
    var o = '<details class="chart-data"><summary>Data</summary>';
    if (keys.length) {
      o += '<table><thead><tr><th scope="col">' + esc(xhead) + "</th>";
      ch.series.forEach(function (s) { o += '<th scope="col">' + esc(s.name === "" ? yhead : s.name) + "</th>"; });
      o += "</tr></thead><tbody>";
      keys.forEach(function (k) {
        o += '<tr><th scope="row">' + esc(k) + "</th>";
        ch.series.forEach(function (s) {
          var v = null;
          for (var i = 0; i < s.points.length; i++) if (key(s.points[i].x) === k) { v = s.points[i]; break; }
          o += "<td>" + esc(v ? ys(v.y) : "") + "</td>";
        });
        o += "</tr>";
      });
      o += "</tbody></table>";
    }
    var marks = [];
    ch.markers.forEach(function (m) { marks.push([m.name, xs(m.x), ys(m.y)]); });
    ch.hlines.forEach(function (l) { marks.push([has(l.label) ? flat(l.label) : "", "", ys(l.at)]); });
    ch.vlines.forEach(function (l) { marks.push([has(l.label) ? flat(l.label) : "", xs(l.at), ""]); });
    if (marks.length) {
      o += '<table><thead><tr><th scope="col">Marked</th><th scope="col">' + esc(xhead) + '</th><th scope="col">' + esc(yhead) + "</th></tr></thead><tbody>";
      marks.forEach(function (m) { o += '<tr><th scope="row">' + esc(m[0]) + "</th><td>" + esc(m[1]) + "</td><td>" + esc(m[2]) + "</td></tr>"; });
      o += "</tbody></table>";
    }
    return o + "</details>";
  }
  /* The page: draw at the figure's width (text keeps its size), redraw on resize, and read out
     the nearest point under the pointer or the arrow keys. A figure that is not shown (another
     tab, a locked or gated part) is drawn when it appears, which its ResizeObserver reports,
     or before printing (runtime.js, which computes every part first, calls `flush(true)`):
     until then it keeps its data source, which may be a function (the
     runtime's formulas run then). The width is read once and then taken from the observer, so
     a redraw never forces a layout; an unchanged drawing is not written again. */
  var HIDDEN = ".tabbed .part:not(.current),.tabbed .synthesis:not(.current),[hidden]", figs = [];
  var observer = typeof ResizeObserver === "function" ? new ResizeObserver(function (es) {
    es.forEach(function (en) {
      var f = en.target, d = f._lf, w = Math.round(f.clientWidth);
      if (d && w && (d.dirty || w !== d.w)) { d.w = w; paint(f); }
    });
  }) : null;
  /* While the document loads (or boot.js runs the page's scripts), a figure never measured is drawn by its observer's first report,
     after the layout the page does anyway, instead of forcing a layout before the first frame. */
  function now(f) { return !observer || !!f._lf.w || (document.readyState !== "loading" && !window.LF_BOOT); }
  /* Draws every figure not yet drawn: the shown ones (`all` false), or all, for print. */
  function flush(all) {
    figs.forEach(function (f) { if (f._lf.dirty && (all || (!f.closest(HIDDEN) && now(f)))) paint(f); });
  }
  /* The Data table is written while its <details> is open (a closed one shows only its
     summary, to readers and screen readers alike), so a recompute does not build it unread. */
  function paint(fig) {
    var d = fig._lf, open = fig.querySelector("details[open]");
    d.dirty = false;
    if (typeof d.src === "function") d.ch = d.src();
    d.src = null;
    if (!d.ch) return;
    d.w = d.w || Math.round(fig.clientWidth) || WIDTH;
    /* Through the public object, so a test can watch what is drawn. */
    var L = window.LFCharts, svg = L.svg(d.ch, d.uid, d.w, !d.full), parts = L.svg.parts, old = d.parts;
    if (svg === d.svg && !open) return;
    d.svg = svg;
    d.parts = null;
    d.i = -1;
    var html = svg + '<p class="chart-readout" aria-live="polite"></p>', tail = '<details class="chart-data"><summary>Data</summary></details>';
    if (open) { fig.innerHTML = html + L.table(d.ch, d.uid); fig.querySelector("details").open = true; return; }
    if (!parts) { L.morph(fig, html + tail); return; }
    var el = fig.firstChild, out = el && el.nextSibling, det = out && out.nextSibling;
    if (old && old.segs.length === parts.segs.length && el && el.nodeName === "svg" && out && out.className === "chart-readout" &&
        det && det.nodeName === "DETAILS" && det.childNodes.length === 1 && !det.nextSibling) {
      /* Only the groups that changed, parsed in one go (a comment between two). */
      var changed = [], at = [];
      parts.segs.forEach(function (g, i) { if (g !== old.segs[i]) { changed.push(g); at.push(i); } });
      var got = groups(parts.open + changed.join("<!---->") + "</svg>"), svgNew = got[0];
      sync1(el, svgNew);
      var n = el.firstChild, counts = old.counts.slice();
      parts.segs.forEach(function (g, i) {
        var k = at.indexOf(i), j;
        if (k < 0) { for (j = 0; j < counts[i]; j++) n = n.nextSibling; return; }
        var olds = [], news = got[1][k];
        for (j = 0; j < counts[i]; j++) { olds.push(n); n = n.nextSibling; }
        if (olds.length === news.length && olds.every(function (x, q) { return x.nodeName === news[q].nodeName; })) olds.forEach(function (x, q) { sync(x, news[q]); });
        else { news.forEach(function (y) { el.insertBefore(y, n); }); olds.forEach(function (x) { el.removeChild(x); }); }
        counts[i] = news.length;
      });
      var hit = el.querySelector(".lf-hit");
      if (hit) hit.classList.remove("lf-hit");
      if (out.firstChild) out.textContent = "";
      d.parts = { segs: parts.segs, counts: counts };
      return;
    }
    var all = groups(parts.open + parts.segs.join("<!---->") + "</svg>" + '<p class="chart-readout" aria-live="polite"></p>' + tail);
    kids(fig, scratch.content);
    d.parts = { segs: parts.segs, counts: all[1].map(function (x) { return x.length; }) };
  }
  /* `html` parsed (an `<svg>` first, its groups of top-level nodes parted by empty comments):
     the parsed `<svg>` (in the scratch template) without the comments, and its groups. */
  function groups(html) {
    scratch = scratch || document.createElement("template");
    scratch.innerHTML = html;
    var el = scratch.content.firstChild, gs = [[]], n, nx;
    for (n = el.firstChild; n; n = nx) {
      nx = n.nextSibling;
      if (n.nodeType === 8) { gs.push([]); el.removeChild(n); } else gs[gs.length - 1].push(n);
    }
    return [el, gs];
  }
  function targets(fig) {
    return Array.prototype.slice.call(fig.querySelectorAll("svg circle, svg rect[class^=fi-], svg path.mk")).filter(function (n) {
      var t = n.querySelector("title");
      return t && t.textContent !== "" && n.getAttribute("class") !== "bg";
    });
  }
  function show(fig, n) {
    var out = fig.querySelector(".chart-readout"), old = fig.querySelector(".lf-hit");
    if (old) old.classList.remove("lf-hit");
    if (!n) { out.textContent = ""; return; }
    n.classList.add("lf-hit");
    out.textContent = n.querySelector("title").textContent;
  }
  function centre(n) { var b = n.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; }
  /* `src`: the chart model, or a function returning it (null: leave the drawing as it is). */
  function draw(fig, src, uid) {
    var first = !fig._lf, d = fig._lf || (fig._lf = { w: 0, svg: null });
    d.uid = uid; d.i = -1; d.dirty = true;
    if (typeof src === "function") { d.src = src; d.ch = null; } else { d.src = null; d.ch = src; }
    /* Without a ResizeObserver (nothing would report a figure as it appears), drawn at once. */
    if (!observer || (!fig.closest(HIDDEN) && now(fig))) paint(fig);
    if (!first) return;
    figs.push(fig);
    fig.tabIndex = 0;
    fig.addEventListener("toggle", function (ev) {
      var t = ev.target;
      if (t.open && !t.querySelector("table") && fig._lf.ch) { t.outerHTML = window.LFCharts.table(fig._lf.ch, fig._lf.uid); fig.querySelector("details").open = true; }
    }, true);
    if (observer) observer.observe(fig);
    /* The hover points, while the pointer or the focus is on the chart. */
    var full = function (on) {
      return function (ev) {
        var d = fig._lf;
        if (on === !!d.full || (!on && (fig.matches(":hover") || fig.contains(document.activeElement)))) return;
        d.full = on;
        if (!on || d.dirty) return;
        paint(fig);
        /* The event under way lost its target with the old drawing: read out here. */
        if (ev.type === "pointerenter") hover(ev);
      };
    };
    fig.addEventListener("pointerenter", full(true));
    fig.addEventListener("focusin", full(true));
    fig.addEventListener("pointerleave", full(false));
    fig.addEventListener("focusout", full(false));
    var hover = function (ev) {
      var best = null, bd = Infinity;
      targets(fig).forEach(function (n) {
        var p = centre(n), d = Math.abs(p[0] - ev.clientX) + Math.abs(p[1] - ev.clientY) / 4;
        if (d < bd) { bd = d; best = n; }
      });
      show(fig, bd < 80 ? best : null);
    };
    fig.addEventListener("pointermove", hover);
    fig.addEventListener("pointerleave", function () { show(fig, null); });
    fig.addEventListener("keydown", function (ev) {
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
      if (!step) return;
      var ts = targets(fig);
      if (!ts.length) return;
      ev.preventDefault();
      var d = fig._lf;
      d.i = (d.i + step + ts.length) % ts.length;
      show(fig, ts[d.i]);
    });
  }
  /* `el` made to hold the markup `html` as `innerHTML = html` would, with only what differs
     written: a node where the new markup has one of the same name is kept, its attributes and
     text updated, so a redraw that moves one bar restyles and lays out that bar, not the
     whole drawing (runtime.js writes its live templates so too). */
  /* Made at the first redraw, not when the script loads: the script also runs where there is
     no document (node, tests/it/charts_js.rs). */
  var scratch = null;
  function morph(el, html) {
    scratch = scratch || document.createElement("template");
    scratch.innerHTML = html;
    kids(el, scratch.content);
  }
  function kids(a, b) {
    var x = a.firstChild, y = b.firstChild, ny, nx;
    for (; y; y = ny) {
      ny = y.nextSibling;
      if (x && x.nodeName === y.nodeName) { sync(x, y); x = x.nextSibling; }
      else if (x) { nx = x.nextSibling; a.replaceChild(y, x); x = nx; }
      else a.appendChild(y);
    }
    for (; x; x = nx) { nx = x.nextSibling; a.removeChild(x); }
  }
  function sync(a, b) {
    if (b.nodeType !== 1) { if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue; return; }
    sync1(a, b);
    kids(a, b);
  }
  /* The attributes of `b` on `a`. */
  function sync1(a, b) {
    var i, n, at = a.attributes, bt = b.attributes;
    for (i = at.length - 1; i >= 0; i--) if (!b.hasAttribute(at[i].name)) a.removeAttribute(at[i].name);
    for (i = 0; i < bt.length; i++) { n = bt[i]; if (a.getAttribute(n.name) !== n.value) a.setAttributeNS(n.namespaceURI, n.name, n.value); }
  }
  window.LFCharts = { svg: svg, table: table, draw: draw, flush: flush, morph: morph, Scale: Scale, tickLabel: tickLabel };
})();
