/*
 * labforge page report: the lab report a student hands in, written from the page's record by
 * the rules of crates/view/src/view/report.rs (`write`), line by line, over the plan Rust made
 * of the lab (D.report: every lab text settled there). The key outputs come from the page's
 * formulas at the record's settings. `labforgeReport(D, P)` takes the page's data and, from
 * runtime.js, the record (`ledger`) and the helpers that compute and write values.
 */
function labforgeReport(D, P) {
  "use strict";
  var NOT_COMPUTED = "could not be computed";
  /* md: the student's text as text in Markdown (report.rs `md`); md1: inside a line. vis:
     the terminal filter (load::text::visible): control characters but tab and line breaks,
     DEL, C1 and the bidi overrides shown as U+FFFD, so the file runs nothing in a terminal. */
  var INLINE = /[\\`*_[\]<>&|~#]/g, BAD = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
  function vis(s) { return String(s).replace(BAD, "\ufffd"); }
  function md(s) {
    return vis(s).replace(/\r\n?/g, "\n").split("\n").map(function (l) {
      return l.replace(/^[ \t]+/, "").replace(INLINE, "\\$&").replace(/^[+\-=>]/, "\\$&").replace(/^(\d+)([.)])/, "$1\\$2");
    }).join("\n");
  }
  function md1(s) { return vis(s).replace(INLINE, "\\$&").replace(/[\r\n]/g, " "); }
  function quote(s) { return md(s).split("\n").map(function (l) { return l ? "> " + l : ">"; }).join("\n"); }
  function jsonText(v) {
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : typeof v === "boolean" ? (v ? "on" : "off") : JSON.stringify(v);
  }
  function find(list, i, v) { return list.filter(function (x) { return x[i] === v; })[0]; }
  /* A value in the report is a list of pieces: a string is the lab's text (or labforge's),
     {s} the student's (md1 in Markdown), {b} bold, {c} code, {i} emphasis. */
  function setting(c, v) {
    if (v === undefined) return ["not set"];
    if (c.kind === "num" && typeof v === "number") return [P.controlText({ kind: "slider", digits: c.digits, unit: c.unit }, v)];
    var o = c.opts || [];
    if (c.kind === "sel") {
      var t = jsonText(v), hit = (typeof v === "string" && find(o, 0, t)) || find(o, 1, t);
      return hit ? [hit[0]] : [{ s: t }];
    }
    if (c.kind === "box" && v && typeof v === "object" && !Array.isArray(v)) {
      var on = o.filter(function (x) { return v[x[0]] === true; }).map(function (x) { return x[1]; });
      return [on.length ? on.join(", ") : "none"];
    }
    return [{ s: jsonText(v) }];
  }
  function said(a, v) {
    var o = find(a.opts || [], 0, v);
    return o ? [{ b: o[0] }, " — " + o[1]] : [{ s: v }];
  }
  function saidAll(a, vs) {
    var r = [];
    vs.forEach(function (v, i) { if (i) r.push("; "); r.push.apply(r, said(a, v)); });
    return r;
  }
  /* The record's settings of a part, every control (the page's own where it holds none). */
  function settings(p, a) {
    var got = (a && a.controls) || {}, set = Object.create(null);
    p.controls.forEach(function (c) { set[c.id] = Object.prototype.hasOwnProperty.call(got, c.id) ? got[c.id] : P.readControl(p, c); });
    return set;
  }
  function outputs(pp, p, set) {
    var m = Object.create(null), S, inputs = Object.create(null);
    p.controls.forEach(function (c) { inputs[c.id] = P.fromJson(set[c.id]); });
    P.startUpdate();
    try { S = P.scopeFor(p, inputs); } catch (e) { return m; }
    pp.out.forEach(function (x) {
      var o = p.outputs.filter(function (y) { return y.name === x[0]; })[0], v = S[x[0]];
      if (o && v !== undefined) m[x[0]] = P.formatOutput(o, v);
    });
    return m;
  }
  /* The report, told to a writer `w` (`markdown` and `typeset` below):
     h(level, value, kind) a heading, li(key, value) a line `key: value`, text(markdown, html)
     the lab's own paragraph, quote(text) the student's written text, note(text) a remark,
     gap() the end of a block. */
  function tell(w) {
    var R = D.report, l = P.ledger(), no = [{ i: "not answered" }];
    w.h(1, [R.title], "title");
    w.gap();
    if (typeof l.student === "string" && l.student.trim()) w.li("Student", [{ s: l.student }]);
    w.li("Lab", [{ c: D.lab.id }, " v" + D.lab.version]);
    if (R.track) w.li("Track", [R.track]);
    w.li("Complete", [l.complete ? "yes" : "no"]);
    w.gap();
    if (R.intro) { w.text(R.intro, R.introh); w.gap(); }
    R.parts.forEach(function (pp) {
      var a = l.parts[pp.id] || {}, p = D.parts.filter(function (x) { return x.id === pp.id; })[0];
      var set = settings(p, a);
      w.h(2, [pp.head], "part");
      w.gap();
      if (pp.ctl.length) {
        w.h(3, ["Settings"], "settings");
        w.gap();
        pp.ctl.forEach(function (c) { w.li(c.label, setting(c, set[c.id])); });
        w.gap();
      }
      if (pp.out.length) {
        var vals = outputs(pp, p, set);
        w.h(3, ["At these settings"], "outputs");
        w.gap();
        pp.out.forEach(function (x) { w.li(x[1], [vals[x[0]] !== undefined ? vals[x[0]] : NOT_COMPUTED]); });
        w.gap();
      }
      if (pp.pred) {
        w.h(3, ["Prediction"], "prediction");
        w.gap();
        w.text(pp.pred.ask, pp.pred.h);
        w.gap();
        if (a.prediction === undefined) w.li("Answer", no);
        else {
          w.li("Answer", said(pp.pred, a.prediction));
          if (typeof a.prediction_correct === "boolean") w.li("Held", [a.prediction_correct ? "yes" : "no"]);
          if (a.prediction_locked_at) w.li("Locked in", [{ s: a.prediction_locked_at }]);
          if (a.prediction_attempts && a.prediction_attempts.length) w.li("Looked at after locking in", [{ s: a.prediction_attempts.join(", ") }]);
        }
        w.gap();
      }
      if (pp.refl) {
        w.h(3, ["Reflection"], "reflection");
        w.gap();
        w.text(pp.refl.ask, pp.refl.h);
        w.gap();
        if (a.reflection === undefined) w.li("Answer", no);
        else {
          w.li("Answer", said(pp.refl, a.reflection));
          if (typeof a.reflection_correct === "boolean") w.li("Correct", [a.reflection_correct ? "yes" : "no"]);
        }
        w.gap();
      }
/*[questions*/
      pp.qs.forEach(function (q) {
        var x = a.questions && a.questions[q.id];
        w.h(3, ["Question ", { c: q.id }], "question");
        w.gap();
        w.text(q.ask, q.h);
        w.gap();
        if (!x) { w.li("Answer", no); w.gap(); return; }
        var v = x.answer;
        if (typeof v === "string" && q.kind === "text") { if (v.trim()) w.quote(v); else w.note("(empty)"); }
        else if (typeof v === "string") w.li("Answer", said(q, v));
        else if (Array.isArray(v) && v.every(function (s) { return typeof s === "string"; })) w.li("Answer", v.length ? saidAll(q, v) : ["none"]);
        else w.li("Answer", [{ s: JSON.stringify(v) }]);
        if (x.correct === true) w.li("Correct", ["yes"]);
        else if (x.correct === false) w.li(typeof x.score === "number" ? "Credit" : "Correct", [typeof x.score === "number" ? Math.round(x.score * 100) + "%" : "no"]);
        w.gap();
      });
/*questions]*/
    });
    if (R.log) {
      w.h(2, ["Decision log"], "log");
      w.gap();
      if (l.decision_log.trim()) w.quote(l.decision_log); else w.note("(empty)");
      w.gap();
    }
    return w;
  }
  /* The Markdown writer: the bytes of report.rs `write`. */
  function inline(v) {
    return v.map(function (x) {
      return typeof x === "string" ? x : "s" in x ? md1(x.s) : "b" in x ? "**" + x.b + "**" : "c" in x ? "`" + x.c + "`" : "_" + x.i + "_";
    }).join("");
  }
  function markdown() {
    var o = [];
    return {
      h: function (n, v) { o.push("######".slice(0, n) + " " + inline(v)); },
      li: function (k, v) { o.push("- " + k + ": " + inline(v)); },
      text: function (m) { o.push(m); },
      quote: function (s) { o.push(quote(s)); },
      note: function (t) { o.push("_" + t + "_"); },
      gap: function () { o.push(""); },
      done: function () { return o.join("\n"); }
    };
  }
  function report() { return tell(markdown()).done(); }
  /* The print writer: the same report typeset into `doc` (an element), all of it text but the
     lab's own paragraphs (Rust's sanitised HTML, `h`). A part is a section, each block under
     a part a section of its own; the lines of a block are the rows of one table. */
  function typeset(doc) {
    var de = document, part = doc, sec = doc, rows = null;
    function el(tag, cls, parent) { var e = de.createElement(tag); if (cls) e.className = cls; (parent || sec).appendChild(e); return e; }
    function put(e, v) {
      v.forEach(function (x) {
        if (typeof x === "string" || "s" in x) { e.appendChild(de.createTextNode(typeof x === "string" ? x : vis(x.s))); return; }
        var t = "b" in x ? "strong" : "c" in x ? "code" : "em";
        el(t, "", e).textContent = String("b" in x ? x.b : "c" in x ? x.c : x.i);
      });
      return e;
    }
    doc.textContent = "";
    return {
      h: function (n, v, kind) {
        rows = null;
        if (n === 1) { sec = part = doc; put(el("h1", "r-title"), v); var t = D.lab.title; if (t && D.report.title.indexOf(t) < 0) el("p", "r-lab").textContent = t; return; }
        if (n === 2) part = sec = el("section", "r-part r-" + kind, doc);
        else {
          /* The settings and the outputs at them side by side. */
          var pair = kind === "settings" || kind === "outputs", last = part.lastElementChild;
          if (pair && !(last && last.className === "r-pair")) last = el("div", "r-pair", part);
          sec = el("section", "r-block r-" + kind, pair ? last : part);
        }
        put(el("h" + n), v);
      },
      li: function (k, v) {
        if (!rows) rows = el("tbody", "", el("table", sec === doc ? "r-facts" : "r-rows"));
        var tr = el("tr", "", rows);
        el("th", "", tr).textContent = k;
        var td = put(el("td", "", tr), v), w = v.length === 1 && v[0];
        if (w === "yes" || w === "no") td.className = "r-" + w;
      },
      text: function (m, h) { var e = el("div", "r-ask"); if (typeof h === "string") e.innerHTML = h; else e.textContent = m; },
      quote: function (s) {
        var q = el("div", "r-written");
        vis(s).replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/).forEach(function (para) {
          if (!para.trim()) return;
          var p = el("p", "", q);
          para.split("\n").forEach(function (line, i) { if (i) el("br", "", p); p.appendChild(de.createTextNode(line)); });
        });
      },
      note: function (t) { el("p", "r-note").textContent = t; },
      gap: function () { rows = null; },
      done: function () { return doc; }
    };
  }
  return { report: report, typeset: function (doc) { return tell(typeset(doc)).done(); } };
}
