/*
 * labforge SCORM 1.2 adapter: included only in `render --to scorm` packages, before the page's
 * runtime. Plain ES2019, no network, no eval: it only calls the LMS's API object.
 *
 * When an LMS provides the SCORM 1.2 API (`API` on this window, a parent up to 7 levels, or the
 * opener's), it calls LMSInitialize(""), hands the runtime the saved record from
 * cmi.suspend_data (window.LF_RESUME), and on each `labforge:record` event from the runtime
 * writes cmi.core.lesson_status (incomplete / completed, the ledger's `complete`),
 * cmi.core.score.raw/min/max (the percentage of predictions right, out of those the lab asks)
 * and cmi.suspend_data (the record, cut to 4096 characters), then LMSCommit(""). On pagehide it
 * writes the session time and calls LMSFinish(""). Inside an LMS the page's Reset button is
 * hidden (the LMS keeps the attempt). Without an API it does nothing.
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

  /* The record as JSON within SCORM 1.2's 4096 characters: whole when it fits; else without the
     instruments' positions and the answers looked at after locking in (the answers, when they
     were locked in, and the decision log are what resuming needs); else with the decision log
     cut to what fits. */
  function suspendData(state) {
    var s = JSON.stringify(state);
    if (s.length <= MAX_SUSPEND) return s;
    var slim = { parts: {}, decision_log: "" };
    Object.keys(state.parts).forEach(function (id) {
      var a = state.parts[id], t = {};
      ["prediction", "prediction_locked_at", "reflection"].forEach(function (w) { if (a[w] !== undefined) t[w] = a[w]; });
      slim.parts[id] = t;
    });
    var log = Array.from(state.decision_log || "");
    var fits = function (n) { slim.decision_log = log.slice(0, n).join(""); return JSON.stringify(slim).length <= MAX_SUSPEND; };
    var lo = 0, hi = log.length;
    if (!fits(0)) return JSON.stringify({ parts: {}, decision_log: "" });
    while (lo < hi) {
      var mid = Math.ceil((lo + hi) / 2);
      if (fits(mid)) lo = mid; else hi = mid - 1;
    }
    fits(lo);
    return JSON.stringify(slim);
  }

  /* The answers in a record (not the instruments or the decision log). */
  var answersSent = null;
  function answers(led) {
    return JSON.stringify(D.parts.map(function (p) {
      var a = led.parts[p.id] || {};
      return [a.prediction, a.prediction_attempts, a.reflection];
    }));
  }

  function onRecord(ev) {
    if (finished || !reporting) return;
    var led = ev.detail.ledger, right = 0;
    D.parts.forEach(function (p) {
      if (p.prediction && led.parts[p.id] && led.parts[p.id].prediction_correct === true) right += 1;
    });
    var now = answers(led) !== answersSent;
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
