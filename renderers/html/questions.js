/*
 * A part's questions on the page (crates/core/src/model/question.rs): answering, restoring after a reload,
 * and their entries in the record, as crates/engine/src/ledger/questions.rs writes them: `{answer, correct?,
 * score?, answered_at}` per question id; a select-all's `score` by its rule (each right option
 * +1, each wrong one -1, out of the right ones, never below 0). Only on a page whose lab asks
 * questions; runtime.js starts it with its state and calls `record(p)` and `done(p)`.
 */
function labforgeQuestions(D, api) {
  "use strict";
  var state = api.state, MAX = 10000;
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function qs(p) { return p.questions || []; }
  function words(s) { return s.split(/[ \t\n\r]+/).filter(Boolean).length; }
  function ids(q) { return (q.options || []).map(function (o) { return o[0]; }); }
  function right(q) { return (q.options || []).filter(function (o) { return o[1]; }).map(function (o) { return o[0]; }); }
  function numText(s) {
    var t = String(s).trim().replace(/[,_]/g, "");
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && isFinite(Number(t)) ? t : null;
  }
  /* The answer as the question can have it (as the record keeps it), else null. */
  function admit(q, x) {
    var o = ids(q);
    if (q.kind === "choice") return typeof x === "string" && o.indexOf(x) >= 0 ? x : null;
    if (q.kind === "select_all") {
      if (!Array.isArray(x) || !x.every(function (a, i) { return typeof a === "string" && o.indexOf(a) >= 0 && x.indexOf(a) === i; })) return null;
      return o.filter(function (i) { return x.indexOf(i) >= 0; });
    }
    if (q.kind === "numeric") return typeof x === "string" ? numText(x) : null;
    return typeof x === "string" && words(x) ? Array.from(x).slice(0, MAX).join("") : null;
  }
  function judge(q, x) {
    var r = right(q), out = {};
    if (q.kind === "choice" && !q.opinion) out.correct = r.indexOf(x) >= 0;
    if (q.kind === "select_all") {
      var hit = x.filter(function (a) { return r.indexOf(a) >= 0; }).length, miss = x.length - hit;
      out.score = Math.max(0, (hit - miss) / Math.max(1, r.length));
      out.correct = hit === r.length && miss === 0;
    }
    if (q.kind === "numeric") {
      var v = Number(x), t = q.target;
      out.correct = typeof t === "number" && Math.abs(v - t) <= (typeof q.abs === "number" ? q.abs : (typeof q.tol === "number" ? q.tol : 0.1) * Math.abs(t));
    }
    return out;
  }
  function answers(p) {
    var a = state.parts[p.id];
    if (!a.questions || typeof a.questions !== "object" || Array.isArray(a.questions)) a.questions = Object.create(null);
    return a.questions;
  }
  function box(p, q) { return api.partEl(p).querySelector('[data-question="' + q.id + '"]'); }
  function inputs(p, q) { return Array.prototype.slice.call(box(p, q).querySelectorAll("input,textarea")); }
  /* What the student has entered (not yet recorded). */
  function entered(p, q) {
    var els = inputs(p, q);
    if (q.kind === "choice") { var c = els.filter(function (e) { return e.checked; })[0]; return c ? c.value : null; }
    if (q.kind === "select_all") return els.filter(function (e) { return e.checked; }).map(function (e) { return e.value; });
    return els[0] ? els[0].value : "";
  }
  function show(p, q) {
    var a = answers(p), el = box(p, q), res = el.querySelector("[data-q-result]");
    var given = own(a, q.id) ? a[q.id].answer : null, word = res.querySelector("[data-result-word]");
    if (q.kind === "text") {
      var n = words(entered(p, q)), w = el.querySelector("[data-q-words]");
      w.textContent = n + (n === 1 ? " word" : " words") + (q.min_words ? " (at least " + q.min_words + ")" : "");
    }
    res.hidden = given === null;
    if (given === null) return;
    var j = judge(q, given);
    word.textContent = q.kind === "text" ? (q.min_words && words(given) < q.min_words ? "Saved — shorter than " + q.min_words + " words." : "Saved.")
      : j.correct === undefined ? "Recorded." : j.correct ? "Correct." : q.kind === "select_all" ? "Partly right: " + Math.round(j.score * 100) + "% credit." : "Not quite.";
    Array.prototype.forEach.call(res.querySelectorAll("[data-q-feedback]"), function (f) {
      var k = f.getAttribute("data-q-feedback");
      f.hidden = !(k === "" || (q.kind === "choice" ? k === given : Array.isArray(given) && given.indexOf(k) >= 0));
    });
  }
  /* A question waiting for others (its `requires`) is shown once they are answered. */
  function gates(p) {
    var a = answers(p);
    qs(p).forEach(function (q) {
      var el = box(p, q), req = (el.getAttribute("data-q-requires") || "").split(" ").filter(Boolean);
      el.hidden = !req.every(function (r) { return r === "prediction" || own(a, r); });
    });
  }
  function answer(p, q) {
    var x = admit(q, entered(p, q)), a = answers(p);
    /* An emptied written answer is no answer; any other unusable entry changes nothing. */
    if (x === null && !(q.kind === "text" && own(a, q.id))) return;
    if (x === null) delete a[q.id];
    else a[q.id] = { answer: x, answered_at: new Date().toISOString().replace(/\.\d+Z$/, "Z") };
    api.save();
    show(p, q);
    gates(p);
    var res = box(p, q).querySelector("[data-q-result]");
    if (!res.hidden) api.announce(p, res.innerHTML);
  }
  D.parts.forEach(function (p) {
    if (!p.questions) return;
    var a = answers(p);
    /* Saved answers the page cannot have are dropped; the rest go back in their boxes. */
    Object.keys(a).forEach(function (k) {
      var q = qs(p).filter(function (x) { return x.id === k; })[0], v = a[k];
      var x = q && v && typeof v === "object" ? admit(q, v.answer) : null;
      if (x === null) { delete a[k]; return; }
      a[k] = { answer: x, answered_at: typeof v.answered_at === "string" ? v.answered_at : undefined };
    });
    qs(p).forEach(function (q) {
      var els = inputs(p, q), given = own(a, q.id) ? a[q.id].answer : null;
      if (given !== null) els.forEach(function (e) {
        if (e.type === "radio") e.checked = e.value === given;
        else if (e.type === "checkbox") e.checked = given.indexOf(e.value) >= 0;
        else e.value = given;
      });
      els.forEach(function (e) {
        if (q.kind === "choice") e.addEventListener("change", function () { if (e.checked) answer(p, q); });
        /* A written answer is saved by its button, and when the box is left changed. */
        if (q.kind === "text") { e.addEventListener("input", function () { show(p, q); }); e.addEventListener("change", function () { answer(p, q); }); }
      });
      var sub = box(p, q).querySelector("[data-q-submit]"), form = box(p, q).querySelector("[data-q-form]");
      if (form) form.addEventListener("submit", function (ev) { ev.preventDefault(); answer(p, q); });
      else if (sub) sub.addEventListener("click", function () { answer(p, q); });
      show(p, q);
    });
    gates(p);
  });
  return {
    /* The part's entry in the record: its answered questions, in the lab's order. */
    record: function (p) {
      if (!p.questions) return null;
      var a = answers(p), out = Object.create(null), n = 0;
      qs(p).forEach(function (q) {
        if (!own(a, q.id)) return;
        var r = { answer: a[q.id].answer }, j = judge(q, r.answer);
        if (j.correct !== undefined) r.correct = j.correct;
        if (j.score !== undefined) r.score = j.score;
        if (a[q.id].answered_at) r.answered_at = a[q.id].answered_at;
        out[q.id] = r; n++;
      });
      return n ? out : null;
    },
    done: function (p) { var a = answers(p); return qs(p).every(function (q) { return own(a, q.id); }); }
  };
}
