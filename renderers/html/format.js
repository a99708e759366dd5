/*
 * How the page writes values (plain ES2019, no dependencies, no eval), as Rust's view does
 * (crates/engine/src/eval/display.rs, crates/engine/src/library/format.rs): numbers in prose, outputs with their caps, units and
 * levels, control read-outs, and the live templates (`{{ }}` placeholders, with a prediction
 * not answered yet said so). `labforgeFormat(D, L, R)` makes one for the page data D, the
 * library L (its `fmt`) and Rhai's semantics R (rhai.js); runtime.js writes the page with it.
 */
function labforgeFormat(D, L, R) {
  "use strict";
  var run = R.run, tostr = R.tostr, has = R.has, isMap = R.isMap, isNum = R.isNum;


  function fmtAuto(x) { return L.fmt ? L.fmt(x) : String(x); }
  function fmtFixed(x, d) { return L.fmt ? L.fmt(x, d) : x.toFixed(d); }
  /* How a placeholder's value reads in prose (eval::display). */
  function display(v) { return isNum(v) ? fmtAuto(v) : tostr(v); }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  /* A placeholder is an expression index, or "@name": an output, whose [text, level] recompute
     keeps in the scope under that key (shown coloured, with its level's words, unless plain). */
  function tpl(t, S, plain) {
    var out = t.l[0], x, o;
    for (var i = 0; i < t.e.length; i++) {
      x = t.e[i]; o = S[x];
      out += (isNum(x) ? esc(/*[xpart*/unanswered(x, S) || /*xpart]*/display(run(x, S))) : plain || !o[1] ? esc(o[0]) : '<span data-level="' + esc(o[1]) + '">' + esc(o[0]) +
        ' <span class="level-word">' + esc(LEVEL_WORD[o[1]] || o[1]) + "</span></span>") + t.l[i + 1];
    }
    return out;
  }
/*[xpart*/
  /* A placeholder reading a prediction not answered yet says so (eval::xpart::unanswered):
     D.pread lists, per expression, the parts whose prediction it reads ("" for `answer`). */
  function unanswered(x, S) {
    var r = (D.pread && D.pread[x]) || [], k, v;
    for (var i = 0; i < r.length; i++) {
      k = r[i] || S["@@"];
      if (!k) continue;
      v = r[i] ? (isMap(S.prediction) && has(S.prediction, k) ? S.prediction[k] : undefined) : S.answer;
      if (v === undefined || v === "" || v !== v) {
        return "(" + D.parts.filter(function (o) { return o.id === k; })[0].label + " not answered yet)";
      }
    }
    return null;
  }
/*xpart]*/
  /* The template as plain text: its HTML's textContent. Each literal piece's text is read once
     (a chart's point text is a template per point, and parsing HTML per point was most of a
     recompute); the values go in as the parser would read them (CR LF as LF, NUL dropped). A
     piece that ends inside a tag (a placeholder in an attribute) is read whole, each time. */
  function textOf(h) {
    var div = document.createElement("div");
    div.innerHTML = h;
    return div.textContent;
  }
  function tplText(t, S) {
    if (t._txt === undefined) t._txt = t.l.every(function (l) { return l.lastIndexOf("<") <= l.lastIndexOf(">"); }) ? t.l.map(textOf) : null;
    if (!t._txt) return textOf(tpl(t, S, 1));
    var out = t._txt[0], x, o;
    for (var i = 0; i < t.e.length; i++) {
      x = t.e[i]; o = S[x];
      out += String(isNum(x) ? /*[xpart*/unanswered(x, S) || /*xpart]*/display(run(x, S)) : o[0]).replace(/\r\n?/g, "\n").replace(/\0/g, "") + t._txt[i + 1];
    }
    return out;
  }
  /* An output's number as shown, [text, capped] (crates/engine/src/eval/display.rs): "≥ cap" at or above its
     cap, a time that would read 0 a unit down, decimals until a non-zero value shows a non-zero
     digit, a minus sign before the prefix. */
  function shown(o, x) {
    var capped = isNum(o.cap) && x >= o.cap, v = capped ? o.cap : x, unit = o.unit || "", d = o.digits,
      down = { h: "min", min: "s" }, a, s, nz = /[1-9∞]/;
    while (v !== 0 && !nz.test(fmtFixed(v, d === null || d === undefined ? 2 : d)) && down[unit]) { unit = down[unit]; v *= 60; d = null; }
    a = Math.abs(v);
    if (d === null || d === undefined) d = !isFinite(a) || (a < 1e15 && a === Math.trunc(a)) || a >= 100 ? 0 : a >= 10 ? 1 : 2;
    for (;;) { s = fmtFixed(a, d); if (!isFinite(a) || a === 0 || d >= 20 || nz.test(s)) break; d++; }
    s = (capped ? "≥ " : "") + (v < 0 && nz.test(s) ? "−" : "") + (o.prefix || "") + s;
    return [s + unitSep(unit, !!o.prefix) + unit, capped];
  }
  /* format::unit_sep: no space before a symbol (45%, 3×) or, after a prefix, a magnitude ($86K). */
  function unitSep(u, prefixed) {
    return u === "" || "%×/°‰".indexOf(u[0]) >= 0 || u === "x" || (prefixed && /^[KkMBT]$/.test(u)) ? "" : " ";
  }
  function formatOutput(o, v) {
    if (typeof v === "boolean") return o.words ? (v ? o.words[0] : o.words[1]) : (v ? "yes" : "no");
    return isNum(v) ? shown(o, v)[0] : tostr(v);
  }
  function bandLevel(b, x) {
    if (b.good_below !== null && b.good_below !== undefined) {
      if (x < b.good_below) return "good";
      return (b.warn_below !== null && b.warn_below !== undefined && x < b.warn_below) ? "warn" : "bad";
    }
    if (b.good_above !== null && b.good_above !== undefined) {
      if (x > b.good_above) return "good";
      return (b.warn_above !== null && b.warn_above !== undefined && x > b.warn_above) ? "warn" : "bad";
    }
    return "good";
  }
  var LEVEL_WORD = { good: "✓ good", warn: "⚠ warning", bad: "✗ bad" };
  function controlText(c, v) {
    if (c.kind !== "slider" && c.kind !== "number") return null;
    var d = c.digits;
    var s = (d !== null && d !== undefined) ? fmtFixed(v, d) : fmtAuto(v);
    return s + (c.unit ? unitSep(c.unit, false) + c.unit : "");
  }

  return { display: display, esc: esc, tpl: tpl, tplText: tplText, shown: shown, unitSep: unitSep,
    formatOutput: formatOutput, bandLevel: bandLevel, controlText: controlText, LEVEL_WORD: LEVEL_WORD };
}
