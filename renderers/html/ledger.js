/*
 * labforge page record: the HUD's standing and the student's ledger (the record handed in, the
 * format crates/engine/src/ledger.rs writes and `labforge grade` reads), from the page's state
 * (the report made of it is report.js's). `labforgeLedger(D, P)` takes the page's data and, from runtime.js, its state
 * and the helpers that read it (P).
 */
function labforgeLedger(D, P) {
  "use strict";
  var state = P.state, answered = P.answered, predictionCorrect = P.predictionCorrect,
    reflectionCorrect = P.reflectionCorrect, run = P.run, startUpdate = P.startUpdate,
    LAB_CONST = P.consts, q = P.q;
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
    var out = {
      format: D.ledgerFormat, lab: D.lab.id, version: D.lab.version, chapter: D.lab.chapter,
      design: design, parts: parts, decision_log: state.decision_log, hud: hudState(), complete: complete()
    };
    var who = P.student();
    if (who) out.student = who;
/*[tracks*/
    /* The track this page is (the report, made from the record, is on it). */
    if (P.track) out.track = P.track;
/*tracks]*/
    return out;
  }
  function download(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  return { updateHud: updateHud, complete: complete, ledger: ledger, download: download };
}
