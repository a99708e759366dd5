/*
 * labforge page runtime. Plain ES2019, no dependencies, no eval: runs the page (controls, gating,
 * outputs, banners, charts, progress in localStorage, ledger and report export) with the lab's
 * formulas, which rhai.js (`labforgeRhai`) runs with Rhai's semantics, writing values as
 * format.js (`labforgeFormat`) does, its charts' content computed by chart-model.js
 * (`labforgeChartModel`) and its record and report written by ledger.js (`labforgeLedger`).
 */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("lf-data").textContent);
  var L = (typeof labforgeLibrary === "function") ? labforgeLibrary(D.hardware, D.models) : {};
  var R = labforgeRhai(D, L);
  var run = R.run, tostr = R.tostr, fromJson = R.fromJson, startUpdate = R.startUpdate, has = R.has,
    isNum = R.isNum, msg = R.msg, final = R.final, same = R.same;
  /* How values are written (format.js, `labforgeFormat`). */
  var F = labforgeFormat(D, L, R);
  var display = F.display, tpl = F.tpl, tplText = F.tplText, shown = F.shown, formatOutput = F.formatOutput,
    bandLevel = F.bandLevel, controlText = F.controlText, LEVEL_WORD = F.LEVEL_WORD;
  window.LF_RUNTIME = { run: run, tostr: tostr, fromJson: fromJson, startUpdate: startUpdate, formatOutput: formatOutput,
    ops: R.ops };

  /* ------------------------------------------------------------ evaluation */

  var LAB_CONST = fromJson(D.constants);
/*[reads*/
  /* Numbers read from earlier labs of the course (crates/engine/src/eval/carried.rs, `lookup`): the
     course record's when it holds a finite number inside the range, else the default; the list
     under the header says which, and where it came from. The record is the student's data. */
  function carriedRaw(ps, r) {
    var obj = function (o) { return !!o && typeof o === "object" && !Array.isArray(o); };
    var ctl = function (p, k) { var a = has(ps, p) ? ps[p] : null, c = obj(a) ? a.controls : null; return obj(c) && has(c, k) ? c[k] : undefined; };
    if (!obj(ps)) return undefined;
    if (r[2] === "record") {
      var ids = Object.keys(ps).sort(), x;
      for (var i = 0; i < ids.length; i++) if ((x = ctl(ids[i], "@" + r[3])) !== undefined) return x;
      return undefined;
    }
    if (r[2] === "control") { var d = r[3].indexOf("."); return ctl(r[3].slice(0, d), r[3].slice(d + 1)); }
    var a = has(ps, r[3]) ? ps[r[3]] : null;
    return obj(a) && has(a, "prediction") ? a.prediction : undefined;
  }
  (D.reads || []).forEach(function (r) {
    var rec = window.LF_COURSE && LF_COURSE.record ? LF_COURSE.record() : null;
    var l = rec && rec.labs && has(rec.labs, r[1]) ? rec.labs[r[1]] : null;
    var v = carriedRaw(l && l.parts, r), how = v === undefined ? 1 : 2;
    if (typeof v === "string" && r[2] === "prediction" && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) v = parseFloat(v);
    if (typeof v === "number" && isFinite(v) && v >= r[5] && v <= r[6]) how = 0; else v = r[4];
    LAB_CONST[r[0]] = v;
    var li = document.querySelector('[data-carried="' + r[0] + '"]');
    if (li) { li.querySelector("[data-carried-value]").textContent = String(v); li.querySelector("[data-carried-from]").textContent = "(" + r[7][how] + ")"; }
  });
/*reads]*/
  function scopeFor(p, inputs) {
    var S = Object.create(null), k;
    for (k in LAB_CONST) S[k] = LAB_CONST[k];
    var pc = p._consts || (p._consts = fromJson(p.constants));
    for (k in pc) S[k] = pc[k];
    p.controls.forEach(function (c) { S[c.id] = inputs[c.id]; });
/*[parts*/
    /* Earlier parts' values at their settings, `parts.a.x` (crates/engine/src/eval/earlier.rs), before the formulas. */
    if (p.earlier) {
      var E = Object.create(null);
      p.earlier.forEach(function (id) { var o = D.parts.filter(function (x) { return x.id === id; })[0]; E[id] = scopeFor(o, settings(o)); });
      S.parts = E;
    }
/*parts]*/
    for (var i = 0; i < p.formulas.length; i++) {
      var f = p.formulas[i];
      try { S[f[0]] = f[2] ? remembered(p, i, f, S) : run(f[1], S); } catch (e) { throw final(msg("formula", f[0], e.message)); }
    }
/*[answer*/
    /* The locked-in answer (eval::with_answer): after the formulas, which never see it. */
    if (p.answer) {
      var a = state.parts[p.id].prediction, set = answered(p.id, "prediction");
      S.answer = p.answer === "number" ? (set ? parseFloat(a) : NaN) : (set ? String(a) : "");
      S["@@"] = p.id;
    }
/*answer]*/
/*[xpart*/
    /* Earlier parts' locked predictions, `prediction.a` (eval::xpart), unset as `answer` is. */
    if (p.preds) {
      var m = Object.create(null);
      for (var k2 in D.preds) {
        var done = answered(k2, "prediction"), v2 = state.parts[k2].prediction;
        m[k2] = D.preds[k2] === "number" ? (done ? parseFloat(v2) : NaN) : (done ? String(v2) : "");
      }
      S.prediction = m;
    }
/*xpart]*/
    return S;
  }
  /* A formula with a loop (f[2]: the names it reads, crates/render/src/render/html/part.rs `scope_reads`):
     its last value while those names hold the same values, the update charged the operations
     it cost then, so a drag of a slider it does not read skips it and the budget runs out
     where it would have (then it runs, and fails as it would). */
  var LAB_OPS = D.labOps || D.maxOps, reused = 0;
  window.LF_RUNTIME.reused = function () { return reused; };
  function remembered(p, i, f, S) {
    var m = (p._memo || (p._memo = []))[i], t = R.total();
    if (m && t + m.ops <= LAB_OPS && f[2].every(function (k, j) { return S[k] === m.in[j]; })) {
      R.total(t + m.ops);
      reused++;
      return m.v;
    }
    var v = run(f[1], S);
    p._memo[i] = { in: f[2].map(function (k) { return S[k]; }), v: v, ops: R.total() - t };
    return v;
  }
  /* The chart model (chart-model.js, `labforgeChartModel`). */
  var CM = labforgeChartModel(R, F), chartData = CM.chartData, child = CM.child;

  /* ------------------------------------------------------------ state */

  var KEY = "labforge:" + D.lab.id + ":v" + D.lab.version;
  /* Saved progress is data from outside the page: only known parts, answers as strings,
     controls and the decision log of the right shape are kept; the rest is discarded with a
     notice. Keyed records have no prototype, so no id or key can reach Object.prototype. */
  function isRecord(o) { return !!o && typeof o === "object" && !Array.isArray(o); }
  function blankState() {
    var s = { parts: Object.create(null), decision_log: "" };
    D.parts.forEach(function (p) { s.parts[p.id] = Object.create(null); });
    return s;
  }
  var RESET = "#lf-reset";
  function readState() {
    var s = blankState(), raw = null, saved, dropped = false;
    if (typeof location !== "undefined" && location.hash === RESET) {
      try { localStorage.removeItem(KEY); } catch (err) { /* ignore */ }
      try { history.replaceState(null, "", location.pathname + location.search); } catch (err) { /* ignore */ }
      return { state: s, dropped: false };
    }
    /* A host that keeps the record itself (the SCORM adapter) sets LF_RESUME: its text, or null. */
    if (window.LF_RESUME !== undefined) raw = window.LF_RESUME;
    else try { raw = localStorage.getItem(KEY); } catch (err) { return { state: s, dropped: false }; }
    if (raw === null) return { state: s, dropped: false };
    try { saved = JSON.parse(raw); } catch (err) { return { state: s, dropped: true }; }
    if (!isRecord(saved) || !isRecord(saved.parts)) return { state: s, dropped: true };
    D.parts.forEach(function (p) {
      if (!has(saved.parts, p.id)) return;
      var a = saved.parts[p.id], t = s.parts[p.id];
      if (!isRecord(a)) { dropped = true; return; }
      ["prediction", "reflection"].forEach(function (w) {
        if (!has(a, w)) return;
        if (typeof a[w] === "string" || (typeof a[w] === "number" && isFinite(a[w]))) t[w] = String(a[w]);
        else dropped = true;
      });
      if (has(a, "prediction_locked_at")) {
        if (typeof a.prediction_locked_at === "string") t.prediction_locked_at = a.prediction_locked_at; else dropped = true;
      }
/*[tracks*/
      /* The track the prediction was locked on, and whether it was right there. */
      if (has(a, "track") && typeof a.track === "string" && TRACK_ID.test(a.track)) t.track = a.track;
      if (has(a, "prediction_correct") && typeof a.prediction_correct === "boolean") t.prediction_correct = a.prediction_correct;
/*tracks]*/
      if (has(a, "prediction_attempts")) {
        if (Array.isArray(a.prediction_attempts) && a.prediction_attempts.every(function (x) { return typeof x === "string"; })) t.prediction_attempts = a.prediction_attempts.slice();
        else dropped = true;
      }
/*[questions*/
      /* Checked answer by answer when questions.js starts. */
      if (has(a, "questions")) { if (isRecord(a.questions)) t.questions = a.questions; else dropped = true; }
/*questions]*/
      if (has(a, "controls")) {
        if (!isRecord(a.controls)) { dropped = true; return; }
        t.controls = Object.create(null);
        p.controls.forEach(function (c) { if (has(a.controls, c.id)) t.controls[c.id] = a.controls[c.id]; });
      }
    });
    /* The student's name for the report (a lab on its own: a course keeps it in its record). */
    if (typeof saved.student === "string" && saved.student.length <= 100) s.student = saved.student;
    if (has(saved, "decision_log")) {
      if (typeof saved.decision_log === "string") s.decision_log = saved.decision_log; else dropped = true;
    }
/*[tracks*/
    /* A lab on its own keeps the student's track with its progress (a course, in its record). */
    if (typeof saved.track === "string" && TRACK_ID.test(saved.track)) s.track = saved.track;
    /* Controls left on another track's page are that track's settings (its ranges and
       defaults): this page starts from its own. */
    if (typeof saved.on === "string" && saved.on !== TR.now) D.parts.forEach(function (p) { delete s.parts[p.id].controls; });
/*tracks]*/
    return { state: s, dropped: dropped };
  }
/*[tracks*/
  /* tracks.js (`labforgeTracks`): the page's track, the student's, the picker. */
  var TK = labforgeTracks(D, { state: function () { return state; }, save: function () { save(); }, q: q, qa: qa });
  var TRACK_ID = TK.ID, TR = TK.TR, trackOf = TK.of;
  /*tracks]*/
  var loaded = readState(), state = loaded.state/*[questions*/, QS = null/*questions]*/;
  /* ledger.js (`labforgeLedger`). */
  var LG = labforgeLedger(D, { state: state, answered: answered, predictionCorrect: predictionCorrect,
    reflectionCorrect: reflectionCorrect, run: run, startUpdate: startUpdate, consts: LAB_CONST, q: q, student: student/*[tracks*/, track: TR.now/*tracks]*/
    /*[questions*/, qs: function () { return QS; }/*questions]*/ });
  var updateHud = LG.updateHud, complete = LG.complete, ledger = LG.ledger, download = LG.download;
  /* report.js (`labforgeReport`): the lab report, from the record, by Rust's rules. */
  var REPORT = labforgeReport(D, { ledger: ledger, controlText: controlText, readControl: readControl, fromJson: fromJson,
    startUpdate: startUpdate, scopeFor: scopeFor, formatOutput: formatOutput }), report = REPORT.report;
/*[tracks*/
  if (TR.now) state.on = TR.now;
  TK.arrive();
  if (TK.move()) return;
/*tracks]*/
  function notice(text) {
    var n = document.querySelector("[data-notice]");
    if (!n) {
      n = document.createElement("p");
      n.setAttribute("data-notice", "");
      n.setAttribute("role", "status");
      n.className = "lf-notice";
      var main = document.getElementById("main") || document.body;
      main.insertBefore(n, main.firstChild);
    }
    n.textContent = text;
  }
  var DROPPED = "Some saved progress for this lab could not be read and was discarded. Use Reset to start over if anything looks wrong.";
  if (loaded.dropped) notice(DROPPED);
  function save() { try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (err) { /* ignore */ } record(); }
  /* Tells listeners (the SCORM adapter) the student's record changed: `labforge:record`. */
  function record() { document.dispatchEvent(new CustomEvent("labforge:record", { detail: { state: state, ledger: ledger() } })); laterReport(); }

  function q(root, sel) { return root.querySelector(sel); }
  function qa(root, sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  /* A part's element and a control's inputs never change: looked up once. */
  function partEl(p) { return p._el || (p._el = document.querySelector('[data-part="' + p.id + '"]')); }
  function ctlInputs(p, c) { return c._els || (c._els = qa(partEl(p), '[data-control="' + c.id + '"]')); }

  /* Current value of a control from its input. */
  function readControl(p, c) {
    var els = ctlInputs(p, c);
    var el = els[0];
    switch (c.kind) {
      case "slider":
        var pos = parseFloat(el.value);
        if (c.values) return c.values[Math.round(pos)];
        if (c.base !== null && c.base !== undefined) return Math.pow(c.base, pos);
        return pos;
      case "number": return parseFloat(el.value);
      case "switch": return el.checked;
      case "select": return fromJson(c.values[el.selectedIndex < 0 ? 0 : el.selectedIndex]);
/*[radio*/
      case "radio": return fromJson(c.values[Math.max(0, els.findIndex(function (x) { return x.checked; }))]);
/*radio]*/
      case "checkboxes":
        var m = Object.create(null);
        els.forEach(function (x) { m[x.value] = x.checked; });
        return m;
    }
    return undefined;
  }
  function writeControl(p, c, v) {
    var els = ctlInputs(p, c), el = els[0], i;
    switch (c.kind) {
      case "slider":
        if (c.values) { i = c.values.indexOf(v); if (i >= 0) el.value = String(i); }
        else if (c.base !== null && c.base !== undefined) el.value = String(Math.log(v) / Math.log(c.base));
        else el.value = String(v);
        break;
      case "number": el.value = String(v); break;
      case "switch": el.checked = v === true; break;
      case "select":
        for (i = 0; i < c.values.length; i++) if (same(fromJson(c.values[i]), fromJson(v))) { el.selectedIndex = i; break; }
        break;
      case "checkboxes": els.forEach(function (x) { x.checked = !!(v && v[x.value]); }); break;
/*[radio*/
      case "radio": els.forEach(function (x, k) { x.checked = same(fromJson(c.values[k]), fromJson(v)); }); break;
/*radio]*/
    }
  }
  /* ------------------------------------------------------------ answers and gating */

  function answered(pid, what) {
    var a = state.parts[pid] || {};
    return a[what] !== undefined && a[what] !== null && a[what] !== "";
  }
  function predictionCorrect(p, ans) {
    var pr = p.prediction;
/*[tracks*/
    /* A prediction locked on another track was right or not on that track. */
    var lk = state.parts[p.id];
    if (lk && lk.track && lk.track !== TR.now && ans === lk.prediction && typeof lk.prediction_correct === "boolean") return lk.prediction_correct;
/*tracks]*/
    if (!pr || ans === undefined || ans === null) return null;
    if (pr.numeric) {
      var x = parseFloat(ans);
      if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(String(ans)) || x !== x) return false;
      return Math.abs(x - pr.target) <= (pr.abs !== null && pr.abs !== undefined ? pr.abs : pr.tolerance * Math.abs(pr.target));
    }
    return pr.options.some(function (o) { return o.correct && o.id === ans; });
  }
/*[bands*/
  /* NumericAnswer::band_of: from (inclusive) up to to (exclusive; the last band includes it). */
  function bandOf(bands, x) {
    for (var i = 0; i < bands.length; i++) {
      var f = bands[i][0], t = bands[i][1];
      if ((f === null || x >= f) && (t === null || x < t || (i === bands.length - 1 && x === t))) return i;
    }
    return -1;
  }
/*bands]*/
  function reflectionCorrect(p, ans) {
    if (!p.reflection || ans === undefined || ans === null) return null;
    return p.reflection.options.some(function (o) { return o.correct && o.id === ans; });
  }
  function unlocked(p) {
    return p.requires.every(function (r) { return answered(r[0], r[1]); });
  }

  function announce(p, html) {
    var live = q(partEl(p), "[data-announce]");
    if (live) live.innerHTML = html;
  }

  /* A prediction is a commitment: selecting (click, arrow keys) only selects; "Lock in" (or
     the numeric form's button) records the first answer, its time, and from then on every
     other answer looked at is an attempt, never a new answer. `looking` is the answer whose
     feedback is on screen after locking (not saved: a reload shows the locked answer). */
  var looking = {};
  /* Parts not computed since the page loaded (see "loading"). */
  var pending = [];
  function selectedOption(p) {
    var r = q(partEl(p), 'input[type="radio"][name="prediction-' + p.id + '"]:checked');
    return r ? r.value : null;
  }
  function updateLock(p) {
    if (!p.prediction) return;
    var el = partEl(p), locked = answered(p.id, "prediction");
    var btn = q(el, "[data-lock]");
    if (btn) { btn.hidden = locked; btn.disabled = locked || selectedOption(p) === null; }
    var info = q(el, "[data-locked-in]");
    if (info) {
      info.hidden = !locked;
      var b = q(info, "[data-locked-answer]");
      if (b) b.textContent = locked ? String(state.parts[p.id].prediction) : "";
/*[tracks*/
      /* Locked on another track than this page's: said next to it. */
      var on = locked && state.parts[p.id].track, lt = q(info, "[data-locked-track]");
      if (on && on !== TR.now && !lt) {
        lt = document.createElement("span");
        lt.setAttribute("data-locked-track", "");
        lt.className = "locked-track";
        info.appendChild(lt);
      }
      if (lt) {
        lt.hidden = !(on && on !== TR.now);
        lt.textContent = lt.hidden ? "" : " Answered on the " + (trackOf(on) ? trackOf(on)[1] : on) + " track: it counts as it was judged there.";
      }
/*tracks]*/
    }
  }
  function lockIn(p, v) {
    var a = state.parts[p.id];
    if (answered(p.id, "prediction")) return;
    a.prediction = v;
    a.prediction_locked_at = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    a.prediction_attempts = [];
/*[tracks*/
    if (TR.now) { a.track = TR.now; a.prediction_correct = predictionCorrect(p, v); }
/*tracks]*/
    delete looking[p.id];
    recompute(p);
/*[xpart*/
    /* Parts reading this prediction (`prediction.a`) show it at once. */
    D.parts.forEach(function (o) { if (o !== p && o.preds) recompute(o); });
/*xpart]*/
    save(); applyGates();
    var box = q(partEl(p), "[data-prediction-result]");
    if (box) announce(p, box.innerHTML);
  }
  function look(p, v) {
    var a = state.parts[p.id];
    looking[p.id] = v;
    if (v !== String(a.prediction)) {
      if (!Array.isArray(a.prediction_attempts)) a.prediction_attempts = [];
      a.prediction_attempts.push(v);
      save();
    }
    showChoiceFeedback(p, "prediction");
  }

  function showChoiceFeedback(p, what) {
    var el = partEl(p);
    var ans = state.parts[p.id][what];
    if (what === "prediction" && ans !== undefined && has(looking, p.id)) ans = looking[p.id];
    /* One option's feedback, or one copy shared by several options (their ids space-separated). */
    qa(el, '[data-' + what + '-feedback],[data-' + what + '-feedback-ids]').forEach(function (f) {
      var one = f.getAttribute("data-" + what + "-feedback"), ids = f.getAttribute("data-" + what + "-feedback-ids");
      f.hidden = ans === undefined || (one !== null ? one !== String(ans) : ids.split(" ").indexOf(String(ans)) < 0);
    });
    var ok = what === "prediction" ? predictionCorrect(p, ans) : reflectionCorrect(p, ans);
    var box = q(el, '[data-' + what + '-result]');
    if (box) {
      if (ans === undefined || ans === null) { box.hidden = true; return; }
      box.hidden = false;
      box.className = "callout " + (ok ? "success" : "warn");
      var word = q(box, "[data-result-word]");
      if (word) word.textContent = ok ? "✓ Correct" : "⚠ Not quite";
      if (what === "prediction" && p.prediction && p.prediction.numeric) {
        qa(el, "[data-numeric-feedback]").forEach(function (f) { f.hidden = f.getAttribute("data-numeric-feedback") !== (ok ? "correct" : "other"); });
/*[bands*/
        var band = bandOf(p.prediction.bands, parseFloat(ans));
        qa(el, "[data-numeric-band]").forEach(function (f) { f.hidden = +f.getAttribute("data-numeric-band") !== band; });
/*bands]*/
      }
    }
  }

  function applyGates() {
    D.parts.forEach(function (p) {
      var el = partEl(p);
      var open = unlocked(p);
      q(el, "[data-part-body]").hidden = !open;
      q(el, "[data-locked]").hidden = open;
      var tab = document.querySelector('[data-tab="' + p.id + '"]');
      if (tab) {
        tab.setAttribute("aria-disabled", open ? "false" : "true");
        tab.classList.toggle("locked", !open);
      }
      var gate = q(el, "[data-gated]");
      if (gate) {
        var ready = !p.prediction || answered(p.id, "prediction");
        gate.hidden = !ready;
        var note = q(el, "[data-gate-note]");
        if (note) note.hidden = ready;
      }
      showChoiceFeedback(p, "prediction");
      showChoiceFeedback(p, "reflection");
      updateLock(p);
    });
    updateHud();
    var done = document.querySelector("[data-complete]");
    if (done) done.hidden = !complete();
    laterReport();
    /* Charts a gate kept hidden are drawn as it opens. */
    if (window.LFCharts && window.LFCharts.flush) window.LFCharts.flush(false);
  }

  var reportTimer = 0;
  /* The name on the report: the course record's (typed once for the course), or this lab's. */
  function student() {
    var c = window.LF_COURSE, v = c && c.student ? c.student() : state.student;
    return typeof v === "string" && v.trim() ? v : null;
  }
  function setStudent(v) {
    var c = window.LF_COURSE;
    if (c && c.setStudent) { c.setStudent(v); record(); } else { if (v.trim()) state.student = v; else delete state.student; save(); }
  }
  /* "Your report", once the lab is complete: written again a moment after a change. */
  function laterReport() {
    var done = document.querySelector("[data-complete]"), box = document.querySelector("[data-report-box]");
    if (done && !done.hidden && box && box.open && !reportTimer) reportTimer = setTimeout(showReport, 150);
  }
  function showReport() { reportTimer = 0; var r = document.querySelector("[data-report]"); if (r) r.textContent = report(); }

  /* ------------------------------------------------------------ recompute */

  /* An attribute or a text is written only when it changes (a write costs a style pass). */
  function setAttr(n, k, v) { if (v === null) { if (n.hasAttribute(k)) n.removeAttribute(k); } else if (n.getAttribute(k) !== v) n.setAttribute(k, v); }
  /* A lone text node's data is set (the node kept: no layout object made again). */
  function setText(n, t) {
    var f = n.firstChild;
    if (f && f.nodeType === 3 && !f.nextSibling) { if (f.data !== t) f.data = t; } else if (n.textContent !== t) n.textContent = t;
  }
  /* Markup written as charts.js writes a drawing again: only what differs (`morph`). */
  function morph(n, h) { if (window.LFCharts) LFCharts.morph(n, h); else n.innerHTML = h; }
  function setOutput(node, v) {
    setAttr(node, "data-value", isNum(v) ? String(v) : (typeof v === "boolean" ? String(v) : tostr(v)));
  }
  /* A control's read-out and its slider's aria-valuetext, at value v. */
  function readout(p, c, v) {
    var t = controlText(c, v), o = c._out !== undefined ? c._out : (c._out = q(partEl(p), '[data-control-display="' + c.id + '"]'));
    if (t === null) return;
    if (o) setText(o, t);
    if (c.kind === "slider") setAttr(ctlInputs(p, c)[0], "aria-valuetext", t);
  }
  /* Input is applied at most once per animation frame: the moves of a drag between two frames are one
     recompute, at the last position (the read-out follows each move at once); a `change` (the
     end of a drag, a key, a list, a box) applies at once, as does showing the part, printing,
     a download or leaving the page. A part already computed at these settings is not again. */
  var queued = [], busy = false, task = new MessageChannel();
  function apply(p) {
    var i = queued.indexOf(p);
    if (i >= 0) queued.splice(i, 1);
    if (pending.indexOf(p) < 0 && p._seen === JSON.stringify(settings(p))) return;
    recompute(p); save();
  }
  function applyQueued() { queued.slice().forEach(apply); }
  /* Applied in a task of its own (not in the frame's rendering task), then nothing until the
     next frame, whose callback applies what came meanwhile in the task after it. */
  task.port1.onmessage = function () {
    applyQueued();
    requestAnimationFrame(function () { busy = queued.length > 0; if (busy) task.port2.postMessage(0); });
  };
  function queue(p) {
    if (queued.indexOf(p) < 0) queued.push(p);
    /* A page not shown draws no frame: applied at once. */
    if (document.visibilityState === "hidden") applyQueued();
    else if (!busy) { busy = true; task.port2.postMessage(0); }
  }
  function recompute(p) {
    var at = pending.indexOf(p);
    if (at >= 0) pending.splice(at, 1);
    startUpdate();
    var el = partEl(p);
    var inputs = keepControls(p);
    var err = q(el, "[data-error]");
    var S;
    p._seen = JSON.stringify(inputs);
    /* The controls' read-outs follow the inputs even when a formula then fails. */
    p.controls.forEach(function (c) { readout(p, c, inputs[c.id]); });
    try {
      S = scopeFor(p, inputs);
      p.outputs.forEach(function (o) {
        var v = S[o.name];
        var level = null;
        if (o.level !== null && o.level !== undefined) level = tostr(run(o.level, child(S, { value: v })));
        else if (o.bands && isNum(v)) level = bandLevel(o.bands, v);
        var text = formatOutput(o, v), capped = isNum(v) && shown(o, v)[1];
        S["@" + o.name] = [text, level];
        /* The part's markup outside its live templates is never written again: its nodes are looked up once. */
        (o._els || (o._els = qa(el, '[data-output="' + o.name + '"]').map(function (n) { return [n, q(n, "[data-text]") || n, q(n, "[data-level-word]")]; }))).forEach(function (e) {
          var n = e[0];
          setOutput(n, v);
          setAttr(n, "data-capped", capped ? "" : null);
          setText(e[1], text);
          setAttr(n, "data-level", level);
          if (e[2]) setText(e[2], level ? (LEVEL_WORD[level] || level) : "");
        });
      });
/*[parts*/
      /* The later parts that read this one follow it. */
      D.parts.forEach(function (o) { if (o.earlier && o.earlier.indexOf(p.id) >= 0) { o._seen = null; queue(o); } });
/*parts]*/
/*[records*/
      /* Values kept for later labs of the course (`records:`) beside the settings, as `@NAME` (ledger.rs). */
      (p.records || []).forEach(function (r) {
        var x = S[r[1]], c = state.parts[p.id].controls;
        if (isNum(x) && isFinite(x)) c["@" + r[0]] = x; else delete c["@" + r[0]];
      });
/*records]*/
      /* Charts before prose and banners, in Rust's order (view::explore), so that the first
         error at these values is the one Rust reports. */
      var later = chartsLater(p, S, err);
      p.charts.forEach(function (c, i) {
        var fig = c._fig !== undefined ? c._fig : (c._fig = q(el, '[data-chart="' + i + '"]'));
        if (fig && window.LFCharts) window.LFCharts.draw(fig, function () { return later(i); }, "p-" + p.id + "-" + c.id);
      });
      later.now = false;
      (p._tpls || (p._tpls = qa(el, "[data-tpl]"))).forEach(function (n) {
        var h = tpl(p.tpls[+n.getAttribute("data-tpl")], S);
        if (n._lf !== h) { morph(n, h); n._lf = h; }
      });
      var fb = [];
      p.feedback.forEach(function (r) {
        if (run(r.when, S) === true) {
          fb.push('<div class="callout ' + r.kind + '" role="status"><span class="icon" aria-hidden="true">' +
            ({ success: "✓", info: "ℹ", warn: "⚠", danger: "✗" })[r.kind] + '</span><span class="sr-kind">' +
            ({ success: "Success", info: "Note", warn: "Warning", danger: "Danger" })[r.kind] + ': </span>' +
            (r.title ? "<strong>" + tpl(r.title, S) + "</strong> " : "") + tpl(r.text, S) + "</div>");
        }
      });
      var area = q(el, "[data-feedback-area]");
      if (area) {
        var html = fb.join("");
        if (area.getAttribute("data-html") !== html) { morph(area, html); area.setAttribute("data-html", html); }
      }
      if (err && !err.hidden) { err.hidden = true; err.textContent = ""; }
    } catch (e) {
      showError(err, e);
    }
  }
  /* The part's control values, read from its inputs and kept in the record. */
  function keepControls(p) { return (state.parts[p.id].controls = settings(p)); }
  function settings(p) {
    var inputs = {};
    p.controls.forEach(function (c) { inputs[c.id] = readControl(p, c); });
    return inputs;
  }

  /* A part's charts at scope S, computed when charts.js first draws one of them (a chart in a
     hidden tab waits until it is shown or printed): all in order, within the budget left by the
     update that made S, as if computed then; an error shows in the part's error line. */
  function chartsLater(p, S, err) {
    var base = R.total(), out = null, fault = null;
    var get = function (i) {
      if (!out) {
        out = [];
        R.total(base);
        try { p.charts.forEach(function (c) { out.push(chartData(c, S)); }); } catch (e) { fault = e; }
      }
      if (i < out.length || !fault) return out[i] || null;
      /* Drawn during the update (a chart on screen): the update stops here, as in Rust. */
      if (get.now) throw fault;
      showError(err, fault);
      return null;
    };
    get.now = true;
    return get;
  }
  /* As Rust words it: an expression outside the part's formulas fails as an "expression". */
  function showError(err, e) {
    if (err) { err.hidden = false; err.textContent = "⚠ " + (e.lf ? e.message : msg("expression", e.message)); }
  }

  window.LF_PAGE = { ledger: function () { applyQueued(); return ledger(); }, report: report, state: function () { return state; } };

  /* ------------------------------------------------------------ wiring */

  /* Reset is wired before anything reads saved progress, so it works whatever was saved. */
  function wireReset() {
    qa(document, "[data-reset]").forEach(function (br) { br.addEventListener("click", function () {
      if (window.confirm("Erase your saved answers for this lab?")) {
        try { localStorage.removeItem(KEY); } catch (e) { /* ignore */ }
        /* The reloaded page erases the record itself (see readState): the removal above may
           not yet be visible to the new document's storage when the browser is busy. */
        try { history.replaceState(null, "", RESET); } catch (e) { /* ignore */ }
        location.reload();
      }
    }); });
  }

  function restore() {
    D.parts.forEach(function (p) {
      try { restorePart(p); } catch (e) {
        state.parts[p.id] = Object.create(null);
        loaded.dropped = true;
        notice(DROPPED);
      }
    });
    /* The report is written when its box opens (and again after a change while it is open). */
    var box = document.querySelector("[data-report-box]");
    if (box) box.addEventListener("toggle", function () { if (box.open) showReport(); });
    var who = document.querySelector("[data-student]");
    if (who) { who.value = student() || ""; who.addEventListener("input", function () { setStudent(who.value); }); }
    var dl = document.querySelector('[name="decision-log"]');
    if (dl) dl.value = state.decision_log;
  }
  function restorePart(p) {
    var a = state.parts[p.id], el = partEl(p);
    if (a.controls) p.controls.forEach(function (c) { if (has(a.controls, c.id)) writeControl(p, c, fromJson(a.controls[c.id])); });
    ["prediction", "reflection"].forEach(function (what) {
      if (!answered(p.id, what)) return;
      qa(el, 'input[name="' + what + "-" + p.id + '"]').forEach(function (r) {
        if (r.type === "radio") r.checked = r.value === String(a[what]);
        else r.value = String(a[what]);
      });
    });
  }

/*[shared*/
  /* A lab-level control (eval::shared) is one value in every part that shows it: moved in one
     part, it is set in the others, which recompute (`then`: queue, or apply at once). */
  function share(p, c, then) {
    if (!c.shared) return;
    var v = readControl(p, c);
    D.parts.forEach(function (o) {
      o.controls.forEach(function (k) { if (o !== p && k.id === c.id) { writeControl(o, k, v); readout(o, k, v); then(o); } });
    });
  }
/*shared]*/
  function wire() {
    D.parts.forEach(function (p) {
      var el = partEl(p);
      p.controls.forEach(function (c) {
        ctlInputs(p, c).forEach(function (inp) {
          inp.addEventListener("input", function () { readout(p, c, readControl(p, c)); queue(p);/*[shared*/ share(p, c, queue);/*shared]*/ });
          inp.addEventListener("change", function () { apply(p);/*[shared*/ share(p, c, apply);/*shared]*/ });
        });
      });
      ["prediction", "reflection"].forEach(function (what) {
        qa(el, 'input[type="radio"][name="' + what + "-" + p.id + '"]').forEach(function (r) {
          r.addEventListener("change", function () {
            if (!r.checked) return;
            if (what === "prediction") {
              if (answered(p.id, "prediction")) look(p, r.value); else updateLock(p);
              return;
            }
            state.parts[p.id][what] = r.value;
            save(); applyGates();
            var box = q(el, "[data-" + what + "-result]");
            if (box) announce(p, box.innerHTML);
          });
        });
      });
      var form = q(el, "[data-numeric-form]");
      if (form) {
        form.addEventListener("submit", function (ev) {
          ev.preventDefault();
          var v = q(form, 'input[name="prediction-' + p.id + '"]').value.trim();
          if (v === "") return;
          if (answered(p.id, "prediction")) look(p, v); else lockIn(p, v);
        });
      }
      var lock = q(el, "[data-lock]");
      if (lock) lock.addEventListener("click", function () {
        var v = selectedOption(p);
        if (v === null) return;
        lockIn(p, v);
        /* The button goes; the keyboard stays in the question, on the answer locked in. */
        var r = q(el, 'input[name="prediction-' + p.id + '"]:checked');
        if (r && lock.hidden) r.focus();
      });
    });
    var dl = document.querySelector('[name="decision-log"]');
    if (dl) dl.addEventListener("input", function () { state.decision_log = dl.value; save(); });
    qa(document, "[data-export-json]").forEach(function (bj) { bj.addEventListener("click", function () {
      applyQueued();
      download(D.lab.id + "-ledger.json", "application/json", JSON.stringify(ledger(), null, 2) + "\n");
    }); });
    qa(document, "[data-export-md]").forEach(function (bm) { bm.addEventListener("click", function () {
      applyQueued();
      download(D.lab.id + "-report.md", "text/markdown", report());
    }); });
    /* Printing the report: the page prints only it, typeset (report.js `typeset` into the
       print view; style.css, `html.print-report`). */
    qa(document, "[data-print-report]").forEach(function (bp) { bp.addEventListener("click", function () {
      applyQueued();
      var box = document.querySelector("[data-report-box]"), doc = document.querySelector("[data-print-doc]");
      if (box) box.open = true;
      showReport();
      if (doc) REPORT.typeset(doc);
      var h = document.documentElement;
      h.classList.add("print-report");
      window.addEventListener("afterprint", function () { h.classList.remove("print-report"); }, { once: true });
      window.print();
    }); });
    qa(document, "[data-tab]").forEach(function (tab) {
      tab.addEventListener("click", function (ev) {
        if (tab.getAttribute("aria-disabled") === "true") { ev.preventDefault(); }
      });
    });
  }

  /* ------------------------------------------------------------ loading */

  /* The part on screen first: the current tab, or the part the address points into. */
  function shownPart() {
    var el = document.querySelector(".tabbed .part.current"), t;
    if (!el && location.hash.length > 1) {
      try { t = document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { t = null; }
      el = t && t.closest(".part");
    }
    var id = el && el.getAttribute("data-part");
    return D.parts.filter(function (p) { return p.id === id; })[0] || D.parts[0];
  }
  /* The load computes the part on screen; the others follow one task each after the first
     frame (or when shown, or printed, sooner), so the student sees the page before they run.
     `data-ready` is set when every part is computed. */
  function rest() {
    if (pending.length) { recompute(pending[0]); setTimeout(rest, 0); return; }
/*[records*/
    /* Every part's kept values are computed now: into the course record (a later lab reads
       them there). The lab's own saved progress is not written for them: a visit that changed
       nothing leaves none, so the next visit still paints at once (first-paint.js). */
    record();
/*records]*/
    document.documentElement.setAttribute("data-ready", "1");
  }
  function afterFirstFrame(f) {
    var done = false, go = function () { if (!done) { done = true; f(); } };
    if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(go, 0); });
    /* A tab opened in the background draws no frame until it is looked at. */
    setTimeout(go, 1000);
  }
  function computeNow(id) {
    pending.filter(function (p) { return id === undefined || p.id === id; }).forEach(recompute);
  }
  document.addEventListener("labforge:show", function (ev) {
    var id = ev.target && ev.target.getAttribute && ev.target.getAttribute("data-part");
    if (id) { computeNow(id); queued.filter(function (p) { return p.id === id; }).forEach(apply); }
  });
  /* Print shows every part: all computed, then every chart drawn. */
  function beforePrint() {
    applyQueued();
    computeNow();
    if (window.LFCharts && window.LFCharts.flush) window.LFCharts.flush(true);
  }
  window.addEventListener("beforeprint", beforePrint);
  window.addEventListener("pagehide", applyQueued);
  if (window.matchMedia) {
    var printing = matchMedia("print"), onPrint = function () { if (printing.matches) beforePrint(); };
    if (printing.addEventListener) printing.addEventListener("change", onPrint); else if (printing.addListener) printing.addListener(onPrint);
  }

  wireReset();
  restore();
/*[shared*/
  /* A record whose parts disagree on a lab-level control: the first part showing it wins (as
     ledger.rs refreshes it). */
  var seen = {};
  D.parts.forEach(function (p) { p.controls.forEach(function (c) { if (c.shared && !seen[c.id]) { seen[c.id] = 1; share(p, c, function () {}); } }); });
/*shared]*/
  wire();
/*[questions*/
  /* questions.js comes with the page of a lab that asks questions (a test may load this file alone). */
  if (typeof labforgeQuestions === "function") QS = labforgeQuestions(D, { state: state, save: function () { save(); applyGates(); }, partEl: partEl, announce: announce });
/*questions]*/
/*[tracks*/
  TK.wire();
/*tracks]*/
  pending = D.parts.slice();
  D.parts.forEach(keepControls);
  if (loaded.dropped) save();
  var onScreen = shownPart();
  if (onScreen) recompute(onScreen);
  applyGates();
  record();
  window.LF_READY = (window.performance && performance.now) ? performance.now() : 0;
  afterFirstFrame(rest);
})();
