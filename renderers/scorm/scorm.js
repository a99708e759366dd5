/*
 * labforge SCORM 1.2 adapter: included only in `render --to scorm` packages, before the page's
 * runtime. Plain ES2019, no network, no eval: it only calls the LMS's API object.
 *
 * When an LMS provides the SCORM 1.2 API (`API` on this window, a parent up to 7 levels, or the
 * opener's), it calls LMSInitialize(""), hands the runtime the saved record from
 * cmi.suspend_data (window.LF_RESUME), and on each `labforge:record` event from the runtime
 * writes cmi.core.lesson_status (incomplete / completed, the ledger's `complete`),
 * cmi.core.score.raw/min/max (the percentage of predictions right, out of those the lab asks),
 * cmi.suspend_data (the record, cut to 4096 characters) and each new answer as an interaction
 * (cmi.interactions.n), then LMSCommit(""). On pagehide it writes the session time and calls
 * LMSFinish(""). Inside an LMS the page's Reset button is hidden (the LMS keeps the attempt).
 * Without an API it does nothing.
 */
(function () {
  "use strict";
  var MAX_SUSPEND = 4096;
  var COMMIT_IDLE_MS = 1000;

  function findIn(win) {
    for (var tries = 0; win && tries <= 7; tries++) {
      try {
        if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
        if (!win.parent || win.parent === win) return null;
        win = win.parent;
      } catch (e) { return null; /* a cross-origin frame: no API reachable */ }
    }
    return null;
  }
  var api = findIn(window);
  if (!api) { try { api = window.opener ? findIn(window.opener) : null; } catch (e) { api = null; } }
  if (!api) return;
  if (String(api.LMSInitialize("")) !== "true") return;

  var D = JSON.parse(document.getElementById("lf-data").textContent);
  var asked = D.parts.filter(function (p) { return !!p.prediction; }).length;
  var started = Date.now();
  var mode = String(api.LMSGetValue("cmi.core.lesson_mode") || "normal");
  var reporting = mode !== "review" && mode !== "browse";
  /* The LMS keeps the attempt: Reset (which erases the browser's copy) is not offered; the LMS
     grants new attempts. */
  Array.prototype.forEach.call(document.querySelectorAll("[data-reset]"), function (b) { b.hidden = true; });
  var saved = String(api.LMSGetValue("cmi.suspend_data") || "");
  /* The LMS's record is the student's record in this package: resumed from it, or blank. */
  window.LF_RESUME = saved === "" ? null : saved;

  var sent = Object.create(null), pending = false, timer = null, finished = false;
  function set(k, v) {
    if (sent[k] === v) return false;
    api.LMSSetValue(k, v);
    sent[k] = v;
    pending = true;
    return true;
  }
  function commit() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (!pending) return;
    pending = false;
    api.LMSCommit("");
  }

  /* The record as JSON within SCORM 1.2's 4096 characters: whole when it fits; else what resuming
     needs — each part's answers (prediction, when it was locked in and on which track,
     reflection, every question's entry) and the decision log, without the instruments'
     positions and the answers looked at after locking in; else with the free texts (the
     decision log and written answers) each cut to the longest length at which all fit, so a
     long essay does not push out the other answers. */
  var written = Object.create(null);
  D.parts.forEach(function (p) {
    (p.questions || []).forEach(function (q) { if (q.kind === "text") written[p.id + "\n" + q.id] = true; });
  });
  function cut(s, n) { var c = Array.from(s); return c.length > n ? c.slice(0, n).join("") : s; }
  function slimmed(state, n) {
    var slim = { parts: {}, decision_log: cut(String(state.decision_log || ""), n) };
    Object.keys(state.parts).forEach(function (id) {
      var a = state.parts[id], t = {};
      ["prediction", "prediction_locked_at", "track", "reflection"].forEach(function (w) { if (a[w] !== undefined) t[w] = a[w]; });
      if (a.questions && typeof a.questions === "object") {
        t.questions = {};
        Object.keys(a.questions).forEach(function (k) {
          var x = a.questions[k], y = {};
          if (!x || typeof x !== "object") return;
          Object.keys(x).forEach(function (f) { y[f] = x[f]; });
          if (written[id + "\n" + k] && typeof y.answer === "string") y.answer = cut(y.answer, n);
          t.questions[k] = y;
        });
      }
      slim.parts[id] = t;
    });
    return JSON.stringify(slim);
  }
  function suspendData(state) {
    var s = JSON.stringify(state);
    if (s.length <= MAX_SUSPEND) return s;
    var fits = function (n) { return slimmed(state, n).length <= MAX_SUSPEND; };
    if (!fits(0)) return JSON.stringify({ parts: {}, decision_log: "" });
    var lo = 0, hi = s.length;
    while (lo < hi) {
      var mid = Math.ceil((lo + hi) / 2);
      if (fits(mid)) lo = mid; else hi = mid - 1;
    }
    return slimmed(state, lo);
  }

  /* Each answer as a SCORM 1.2 interaction (cmi.interactions.n: id, type, student_response,
     result, time, and the right response where the page knows it), journaled as the standard
     has it: one entry when an answer is first given, another when a question's answer changes
     (a locked prediction never does). Answers a resumed record already held were reported by
     an earlier launch. Choices are reported by the option's place as SCORM 1.2 wants (a–z,
     0–9), a written answer as fill-in (its first 255 characters on one line), a number as
     typed. */
  var KEYS = "abcdefghijklmnopqrstuvwxyz0123456789";
  function letters(ids, picked) {
    var out = [];
    for (var i = 0; i < picked.length; i++) {
      var k = ids.indexOf(picked[i]);
      if (k < 0 || k >= KEYS.length) return null;
      out.push(KEYS[k]);
    }
    return out.join(",");
  }
  function clock(iso) {
    var m = /T(\d\d:\d\d:\d\d)/.exec(String(iso || ""));
    if (m) return m[1];
    var d = new Date();
    return pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds());
  }
  function decimal(x) {
    var t = String(x).trim().replace(/[,_]/g, "");
    if (/^-?\d+(\.\d+)?$/.test(t)) return t;
    var v = Number(t);
    if (!isFinite(v)) return "";
    if (Math.abs(v) >= 1e21) return t;
    return v.toFixed(10).replace(/\.?0+$/, "");
  }
  function interactions(led) {
    var out = [];
    D.parts.forEach(function (p) {
      var a = led.parts[p.id] || {};
      var pr = p.prediction;
      if (pr && a.prediction !== undefined) {
        var ids = (pr.options || []).map(function (o) { return o.id; });
        var right = (pr.options || []).filter(function (o) { return o.correct; }).map(function (o) { return o.id; });
        out.push(pr.numeric
          ? { id: p.id + ".prediction", type: "numeric", response: decimal(a.prediction), right: typeof pr.target === "number" && isFinite(pr.target) ? decimal(pr.target) : null, result: a.prediction_correct, time: a.prediction_locked_at }
          : { id: p.id + ".prediction", type: "choice", response: letters(ids, [a.prediction]), right: right.length ? letters(ids, right) : null, result: a.prediction_correct, time: a.prediction_locked_at });
      }
      if (p.reflection && a.reflection !== undefined) {
        var rids = p.reflection.options.map(function (o) { return o.id; });
        var rr = p.reflection.options.filter(function (o) { return o.correct; }).map(function (o) { return o.id; });
        out.push({ id: p.id + ".reflection", type: "choice", response: letters(rids, [a.reflection]), right: rr.length ? letters(rids, rr) : null, result: rr.length ? a.reflection_correct : undefined });
      }
      (p.questions || []).forEach(function (q) {
        var x = a.questions && a.questions[q.id];
        if (!x || x.answer === undefined || x.answer === null) return;
        var qi = (q.options || []).map(function (o) { return o[0]; });
        var qr = (q.options || []).filter(function (o) { return o[1]; }).map(function (o) { return o[0]; });
        var it = { id: p.id + ".q." + q.id, time: x.answered_at };
        if (q.kind === "choice" || q.kind === "select_all") {
          it.type = "choice";
          it.response = letters(qi, Array.isArray(x.answer) ? x.answer : [x.answer]);
          it.right = qr.length && !q.opinion ? letters(qi, qr) : null;
          it.result = q.opinion ? undefined : x.correct === true ? true : typeof x.score === "number" ? Math.round(100 * x.score) : x.correct;
        } else if (q.kind === "numeric") {
          it.type = "numeric";
          it.response = decimal(x.answer);
          it.result = x.correct;
        } else {
          it.type = "fill-in";
          it.response = cut(String(x.answer).replace(/\s+/g, " ").trim(), 255);
        }
        out.push(it);
      });
    });
    return out.filter(function (it) { return it.response !== null && it.response !== ""; });
  }
  var told = null, journal = 0;
  function tell(led) {
    var now = interactions(led), changed = false;
    if (told === null) {
      /* What the launch starts with was reported when it was answered. */
      told = Object.create(null);
      now.forEach(function (it) { told[it.id] = it.response; });
      journal = Number(api.LMSGetValue("cmi.interactions._count")) || 0;
      return false;
    }
    now.forEach(function (it) {
      if (told[it.id] === it.response) return;
      told[it.id] = it.response;
      var k = "cmi.interactions." + journal++ + ".";
      api.LMSSetValue(k + "id", cut(it.id, 255));
      api.LMSSetValue(k + "type", it.type);
      api.LMSSetValue(k + "time", clock(it.time));
      api.LMSSetValue(k + "student_response", it.response);
      if (it.right) api.LMSSetValue(k + "correct_responses.0.pattern", it.right);
      api.LMSSetValue(k + "result", it.result === true ? "correct" : it.result === false ? "wrong" : typeof it.result === "number" ? String(it.result) : "neutral");
      changed = true;
    });
    if (changed) pending = true;
    return changed;
  }

  /* The answers in a record (not the instruments or the decision log). */
  var answersSent = null;
  function answers(led) {
    return JSON.stringify(D.parts.map(function (p) {
      var a = led.parts[p.id] || {};
      return [a.prediction, a.prediction_attempts, a.reflection, a.questions];
    }));
  }

  function onRecord(ev) {
    if (finished || !reporting) return;
    var led = ev.detail.ledger, right = 0;
    D.parts.forEach(function (p) {
      if (p.prediction && led.parts[p.id] && led.parts[p.id].prediction_correct === true) right += 1;
    });
    var now = tell(led);
    now = answers(led) !== answersSent || now;
    answersSent = answers(led);
    now = set("cmi.core.lesson_status", led.complete ? "completed" : "incomplete") || now;
    if (asked > 0) {
      set("cmi.core.score.min", "0");
      set("cmi.core.score.max", "100");
      now = set("cmi.core.score.raw", String(Math.round(100 * right / asked))) || now;
    }
    /* Always "suspend": the LMS keeps the attempt's data, so a finished lab reopens as left
       (an empty exit lets an LMS start the next launch from nothing). */
    set("cmi.core.exit", "suspend");
    set("cmi.suspend_data", suspendData(ev.detail.state));
    /* Answers, status and score go to the LMS at once; the rest (instruments, typing) once
       the student pauses. */
    if (now) commit();
    else if (pending && timer === null) timer = setTimeout(commit, COMMIT_IDLE_MS);
  }
  document.addEventListener("labforge:record", onRecord);

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function finish() {
    if (finished) return;
    finished = true;
    if (reporting) {
      var s = Math.max(0, Math.floor((Date.now() - started) / 1000));
      var h = Math.min(9999, Math.floor(s / 3600));
      set("cmi.core.session_time", pad(h) + ":" + pad(Math.floor(s / 60) % 60) + ":" + pad(s % 60));
      commit();
    }
    api.LMSFinish("");
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("unload", finish);
})();
