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
  /* md: the student's text as text in Markdown (report.rs `md`); md1: inside a line. */
  var INLINE = /[\\`*_[\]<>&|~#]/g;
  function md(s) {
    return String(s).replace(/\r\n?/g, "\n").split("\n").map(function (l) {
      return l.replace(/^[ \t]+/, "").replace(INLINE, "\\$&").replace(/^[+\-=>]/, "\\$&").replace(/^(\d+)([.)])/, "$1\\$2");
    }).join("\n");
  }
  function md1(s) { return String(s).replace(INLINE, "\\$&").replace(/[\r\n]/g, " "); }
  function quote(s) { return md(s).split("\n").map(function (l) { return l ? "> " + l : ">"; }).join("\n"); }
  function jsonText(v) {
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : typeof v === "boolean" ? (v ? "on" : "off") : JSON.stringify(v);
  }
  function find(list, i, v) { return list.filter(function (x) { return x[i] === v; })[0]; }
  function setting(c, v) {
    if (v === undefined) return "not set";
    if (c.kind === "num" && typeof v === "number") return P.controlText({ kind: "slider", digits: c.digits, unit: c.unit }, v);
    var o = c.opts || [];
    if (c.kind === "sel") {
      var t = jsonText(v), hit = (typeof v === "string" && find(o, 0, t)) || find(o, 1, t);
      return hit ? hit[0] : md1(t);
    }
    if (c.kind === "box" && v && typeof v === "object" && !Array.isArray(v)) {
      var on = o.filter(function (x) { return v[x[0]] === true; }).map(function (x) { return x[1]; });
      return on.length ? on.join(", ") : "none";
    }
    return md1(jsonText(v));
  }
  function said(a, v) {
    var o = find(a.opts || [], 0, v);
    return o ? "**" + o[0] + "** — " + o[1] : md1(v);
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
  function report() {
    var R = D.report, l = P.ledger(), o = ["# " + R.title, ""];
    if (typeof l.student === "string" && l.student.trim()) o.push("- Student: " + md1(l.student));
    o.push("- Lab: `" + D.lab.id + "` v" + D.lab.version);
    if (R.track) o.push("- Track: " + R.track);
    o.push("- Complete: " + (l.complete ? "yes" : "no"), "");
    if (R.intro) o.push(R.intro, "");
    R.parts.forEach(function (pp) {
      var a = l.parts[pp.id] || {}, p = D.parts.filter(function (x) { return x.id === pp.id; })[0];
      var set = settings(p, a);
      o.push("## " + pp.head, "");
      if (pp.ctl.length) {
        o.push("### Settings", "");
        pp.ctl.forEach(function (c) { o.push("- " + c.label + ": " + setting(c, set[c.id])); });
        o.push("");
      }
      if (pp.out.length) {
        var vals = outputs(pp, p, set);
        o.push("### At these settings", "");
        pp.out.forEach(function (x) { o.push("- " + x[1] + ": " + (vals[x[0]] !== undefined ? vals[x[0]] : NOT_COMPUTED)); });
        o.push("");
      }
      if (pp.pred) {
        o.push("### Prediction", "", pp.pred.ask, "");
        if (a.prediction === undefined) o.push("- Answer: _not answered_");
        else {
          o.push("- Answer: " + said(pp.pred, a.prediction));
          if (typeof a.prediction_correct === "boolean") o.push("- Held: " + (a.prediction_correct ? "yes" : "no"));
          if (a.prediction_locked_at) o.push("- Locked in: " + md1(a.prediction_locked_at));
          if (a.prediction_attempts && a.prediction_attempts.length) o.push("- Looked at after locking in: " + a.prediction_attempts.map(md1).join(", "));
        }
        o.push("");
      }
      if (pp.refl) {
        o.push("### Reflection", "", pp.refl.ask, "");
        if (a.reflection === undefined) o.push("- Answer: _not answered_");
        else {
          o.push("- Answer: " + said(pp.refl, a.reflection));
          if (typeof a.reflection_correct === "boolean") o.push("- Correct: " + (a.reflection_correct ? "yes" : "no"));
        }
        o.push("");
      }
/*[questions*/
      pp.qs.forEach(function (q) {
        var x = a.questions && a.questions[q.id];
        o.push("### Question `" + q.id + "`", "", q.ask, "");
        if (!x) { o.push("- Answer: _not answered_", ""); return; }
        var v = x.answer;
        if (typeof v === "string" && q.kind === "text") o.push(v.trim() ? quote(v) : "_(empty)_");
        else if (typeof v === "string") o.push("- Answer: " + said(q, v));
        else if (Array.isArray(v) && v.every(function (s) { return typeof s === "string"; })) o.push("- Answer: " + (v.length ? v.map(function (s) { return said(q, s); }).join("; ") : "none"));
        else o.push("- Answer: " + md1(JSON.stringify(v)));
        if (x.correct === true) o.push("- Correct: yes");
        else if (x.correct === false) o.push(typeof x.score === "number" ? "- Credit: " + Math.round(x.score * 100) + "%" : "- Correct: no");
        o.push("");
      });
/*questions]*/
    });
    if (R.log) o.push("## Decision log", "", l.decision_log.trim() ? quote(l.decision_log) : "_(empty)_", "");
    return o.join("\n");
  }
  return { report: report };
}
