/*
 * labforge page record: the HUD's standing, the student's ledger (the record handed in, the
 * format crates/engine/src/ledger.rs writes and `labforge grade` reads) and the Markdown progress report, from
 * the page's state. `labforgeLedger(D, P)` takes the page's data and, from runtime.js, its state
 * and the helpers that read it (P).
 */
function labforgeLedger(D, P) {
  "use strict";
  var state = P.state, answered = P.answered, predictionCorrect = P.predictionCorrect,
    reflectionCorrect = P.reflectionCorrect, run = P.run, startUpdate = P.startUpdate,
    LAB_CONST = P.consts, q = P.q, qa = P.qa, partEl = P.partEl, ctlInputs = P.ctlInputs,
    controlText = P.controlText;
  function hudState() {
    if (!D.hud) return { parts: {}, tier: null };
    startUpdate();
    var correct = Object.create(null), count = 0, parts = {}, started = false;
    D.hud.parts.forEach(function (pid) {
      if (answered(pid, "prediction")) started = true;
      var p = D.parts.filter(function (x) { return x.id === pid; })[0];
      var ok = !!(p && predictionCorrect(p, state.parts[pid].prediction));
      if (ok) count += 1;
      correct[pid] = ok;
      parts[pid] = !answered(pid, "prediction") ? "pending" : ok ? "correct" : "review";
    });
    var S = Object.create(null);
    for (var k in LAB_CONST) S[k] = LAB_CONST[k];
    S.correct = correct; S.correct_count = count;
    var tier = null;
    /* No standing before any listed prediction is answered (crates/engine/src/ledger.rs `hud`). */
    for (var i = 0; started && i < D.hud.tiers.length; i++) {
      var t = D.hud.tiers[i], on = false;
      if (t.when === null || t.when === undefined) on = true;
      else { try { on = run(t.when, S) === true; } catch (e) { on = false; } }
      if (on) { tier = t.name; break; }
    }
    return { parts: parts, tier: tier };
  }
  function updateHud() {
    var h = hudState();
    Object.keys(h.parts).forEach(function (pid) {
      var n = document.querySelector('[data-hud-part="' + pid + '"]');
      if (n) {
        var st = h.parts[pid];
        n.setAttribute("data-state", st);
        var w = q(n, "[data-hud-word]");
        if (w) w.textContent = st === "correct" ? "✓ CORRECT" : st === "review" ? "⚠ REVIEW" : "… pending";
      }
    });
    var tier = document.querySelector("[data-hud-tier]");
    if (tier) tier.textContent = h.tier || "not started";
  }
  function complete() {
    return D.parts.every(function (p) {
      return (!p.prediction || answered(p.id, "prediction")) && (!p.reflection || answered(p.id, "reflection"))/*[questions*/ && (!P.qs() || P.qs().done(p))/*questions]*/;
    });
  }
  function partKey(id) { return Array.from(id).length === 1 ? "part" + id.toUpperCase() : "part_" + id; }
  function ledger() {
    var design = Object.create(null), parts = Object.create(null);
    D.parts.forEach(function (p) {
      var a = state.parts[p.id], rec = Object.create(null);
      var pc = predictionCorrect(p, a.prediction), rc = reflectionCorrect(p, a.reflection);
      if (answered(p.id, "prediction")) rec.prediction = String(a.prediction);
      if (pc !== null && answered(p.id, "prediction")) rec.prediction_correct = pc;
      if (answered(p.id, "prediction") && a.prediction_locked_at) rec.prediction_locked_at = String(a.prediction_locked_at);
/*[tracks*/
      if (answered(p.id, "prediction") && a.track) rec.track = a.track;
/*tracks]*/
      if (answered(p.id, "prediction") && Array.isArray(a.prediction_attempts) && a.prediction_attempts.length) rec.prediction_attempts = a.prediction_attempts.map(String);
      if (answered(p.id, "reflection")) rec.reflection = String(a.reflection);
      if (rc !== null && answered(p.id, "reflection")) rec.reflection_correct = rc;
      if (a.controls && Object.keys(a.controls).length) rec.controls = a.controls;
/*[questions*/
      var qr = P.qs() && P.qs().record(p);
      if (qr) rec.questions = qr;
/*questions]*/
      parts[p.id] = rec;
    });
    D.parts.forEach(function (p) {
      var key = partKey(p.id), a = parts[p.id];
      if (p.prediction) {
        design[key + "_prediction"] = a.prediction !== undefined ? a.prediction : "no_selection";
        design[key + "_correct"] = a.prediction_correct === true;
      }
      if (p.reflection) design[key + "_reflection"] = a.reflection !== undefined ? a.reflection : "no_selection";
    });
    design[D.lab.justKey] = state.decision_log;
    return {
      format: D.ledgerFormat, lab: D.lab.id, version: D.lab.version, chapter: D.lab.chapter,
      design: design, parts: parts, decision_log: state.decision_log, hud: hudState(), complete: complete()
    };
  }
  function report() {
    var l = ledger(), out = [];
    out.push("# " + D.lab.title + " — progress report", "");
    out.push("- Lab: `" + l.lab + "` v" + l.version + " (chapter " + l.chapter + ")");
    if (l.hud.tier) out.push("- Standing: **" + l.hud.tier + "**");
    out.push("- Complete: " + (l.complete ? "yes" : "no"), "");
    D.parts.forEach(function (p) {
      var a = l.parts[p.id];
      out.push("## " + p.label + ": " + p.title, "");
      /* An option as its label reads, after its letter (the page's data holds no option text). */
      var said = function (what, v) {
        var r = qa(partEl(p), 'input[name="' + what + "-" + p.id + '"]').filter(function (x) { return x.value === String(v); })[0];
        var l = r && r.closest("label"), b = l && q(l, "b");
        return l && b ? v + " — " + md(l.textContent.slice(b.textContent.length).trim()) : v;
      };
      if (p.prediction) out.push("- Prediction: " + (a.prediction !== undefined ? said("prediction", a.prediction) + (a.prediction_correct ? " (correct)" : " (review)") +
        (a.prediction_locked_at ? ", locked in " + a.prediction_locked_at : "") +
        (a.prediction_attempts ? "; looked at after locking in: " + a.prediction_attempts.join(", ") : "") : "not answered"));
      if (p.reflection) out.push("- Reflection: " + (a.reflection !== undefined ? said("reflection", a.reflection) + (a.reflection_correct ? " (correct)" : " (review)") : "not answered"));
/*[questions*/
      /* Each question: the answer (a written one quoted, line by line), and its verdict. */
      (p.questions || []).forEach(function (qq) {
        var x = a.questions && a.questions[qq.id], v = x ? x.answer : null;
        var how = !x || x.correct === undefined ? "" : x.correct ? " (correct)" : x.score !== undefined ? " (" + Math.round(x.score * 100) + "% credit)" : " (review)";
        if (v === null) out.push("- Question `" + qq.id + "`: not answered");
        else if (qq.kind === "text") out.push("- Question `" + qq.id + "`:", "", md(v).split("\n").map(function (s) { return "  > " + s; }).join("\n"), "");
        else out.push("- Question `" + qq.id + "`: " + (Array.isArray(v) ? v.join(", ") : md(v)) + how);
      });
/*questions]*/
      p.controls.forEach(function (c) { var r = ctlReport(p, c); out.push("- " + md(r[0]) + ": " + md(r[1])); });
      out.push("");
    });
    out.push("## Decision log", "", l.decision_log ? md(l.decision_log).split("\n").map(function (s) { return "> " + s; }).join("\n") : "_(empty)_", "");
    return out.join("\n");
  }
  /* The student's text as text in Markdown: no HTML tag or entity of its own. */
  function md(s) { return String(s).replace(/[\\<>&]/g, "\\$&"); }
  /* A control as the page shows it: its label and its setting (the slider's read-out, the
     option's label, the boxes ticked). */
  function ctlReport(p, c) {
    var els = ctlInputs(p, c), el = els[0], lab = function (e) { return (document.querySelector('label[for="' + e.id + '"]') || e).textContent.trim(); };
    var name = el.closest("fieldset") ? el.closest("fieldset").querySelector("legend").textContent.trim() : lab(el);
    var on = els.filter(function (e) { return e.checked; }).map(lab);
    var o = q(partEl(p), '[data-control-display="' + c.id + '"]');
    var v = c.kind === "slider" && o ? o.textContent : c.kind === "number" ? controlText(c, parseFloat(el.value)) :
      c.kind === "select" ? el.options[el.selectedIndex].text : c.kind === "switch" ? (el.checked ? "on" : "off") : on.join(", ") || "none";
    return [name, v];
  }
  function download(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  return { updateHud: updateHud, complete: complete, ledger: ledger, report: report, download: download };
}
