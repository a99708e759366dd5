/*
 * labforge course record (docs/instructors.md, "Publish a course"), run before runtime.js on a
 * lab page of a course and on the course index. One record per course in localStorage,
 * `labforge-course:<course id>`: { format: "labforge-course/1", course, labs: { <lab id>: <that
 * lab's ledger> } }. A lab page writes its ledger there on every save and seeds its own saved
 * progress from it. Links marked `data-course-link` carry the record in the URL fragment
 * (`#lf-course=<base64 JSON>`), so labs opened from file:// in a browser that gives each file its
 * own storage (Firefox, Safari) still see each other's progress.
 *
 * Whatever comes in (storage, a link, an imported file) is data to check: `core` is the merge
 * rule of docs/formats.md ("How course records merge"), the same as crates/engine/src/record/merge.rs (the
 * tests run both on the same cases): bounded before parsing, cleaned against each lab's shape
 * (C.labs[i][3]), merged part by part; answers that would replace the student's wait for their
 * confirmation in the page. A lab page has only its own lab's shape: another lab's ledger
 * (C.labs[i][3] null, [4] its part ids) passes through it as it came, merged part by part over
 * those ids, and is cleaned by that lab's page and by the index, which have its shape; a merge
 * that would leave the record past its bounds is refused, so the stored record always parses.
 */
(function () {
  "use strict";
  var core = (function () {
    var MAX_BYTES = 524288, MAX_KEYS = 10000, MAX_DEPTH = 32, FORMAT = "labforge-ledger/2";
    function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
    function isRec(o) { return !!o && typeof o === "object" && !Array.isArray(o); }
    /* Size (UTF-8 bytes), keys and nesting, before any parsing: an error or null. Texts are
       skipped with one native pass (what is inside a string never counts), the rest scanned. */
    function bounds(text) {
      var big = function (n) { return n + " bytes is too large for a course record (at most " + MAX_BYTES + ")"; };
      if (text.length > MAX_BYTES) return big(text.length);
      var bytes = text.length, depth = 0, keys = 0, inStr = false, esc = false, i, c, s;
      if (text.length * 3 > MAX_BYTES) {
        try { bytes = unescape(encodeURIComponent(text)).length; } catch (e) { return "not text"; }
      }
      if (bytes > MAX_BYTES) return big(bytes);
      s = text.replace(/"(?:[^"\\]|\\[\s\S])*"/g, '""');
      for (i = 0; i < s.length; i++) {
        c = s.charCodeAt(i);
        if (inStr) {
          if (esc) esc = false; else if (c === 92) esc = true; else if (c === 34) inStr = false;
        } else if (c === 34) inStr = true;
        else if (c === 123 || c === 91) { if (++depth > MAX_DEPTH) return "nested deeper than " + MAX_DEPTH + " levels"; }
        else if (c === 125 || c === 93) { if (depth > 0) depth--; }
        else if (c === 58 && ++keys > MAX_KEYS) return "more than " + MAX_KEYS + " keys";
      }
      return null;
    }
    function plainId(k) { return /^[A-Za-z0-9_-]{1,64}$/.test(k); }
    function named(what, k) { return plainId(k) ? what + " `" + k + "`" : what + " with an unusual name"; }
    function letter(id) { return "Part " + (Array.from(id).length === 1 ? id.toUpperCase() : id); }
    /* Keys of `o` not in `known`: the plain ones named in order, the others counted. */
    function unknown(o, known, what, pre, tail) {
      var plain = [], odd = 0;
      Object.keys(o).forEach(function (k) {
        if (known.indexOf(k) >= 0) return;
        if (plainId(k)) plain.push(k); else odd++;
      });
      plain.sort();
      var out = plain.map(function (k) { return pre + named(what, k) + " " + tail; });
      if (odd) out.push(pre + odd + " × " + what + " with an unusual name " + tail);
      return out;
    }
    var WS = /^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
    function isNumberText(s) {
      var t = s.replace(WS, "").replace(/[,_]/g, "");
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && isFinite(Number(t));
    }
    function answers(pred, x) {
      if (typeof x !== "string") return false;
      if (typeof pred === "string") return isNumberText(x);
      return Array.isArray(pred) && pred.indexOf(x) >= 0;
    }
    function slack(a) { return 1e-9 * Math.max(Math.abs(a), 1); }
    function same(a, b) {
      if (typeof a === "number" || typeof b === "number") return a === b;
      if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(function (x, i) { return same(x, b[i]); });
      }
      if (isRec(a) && isRec(b)) {
        var ka = Object.keys(a);
        return ka.length === Object.keys(b).length && ka.every(function (k) { return has(b, k) && same(a[k], b[k]); });
      }
      return a === b;
    }
    function controlOk(spec, v) {
      switch (spec[0]) {
        case "n": return typeof v === "number" && (spec[1] === null || v >= spec[1]) && (spec[2] === null || v <= spec[2]);
        case "v": return typeof v === "number" && spec[1].some(function (a) { return Math.abs(a - v) <= slack(a); });
        case "o": return spec[1].some(function (o) { return same(o, v); });
        case "b": return typeof v === "boolean";
        case "k": return isRec(v) && Object.keys(v).every(function (k) { return typeof v[k] === "boolean" && spec[1].indexOf(k) >= 0; });
      }
      return false;
    }
/*[questions*/
    /* A part's question answers (crates/engine/src/record/questions.rs): [id, kind, ids?] with kind c(hoice),
       s(elect-all), n(umber), t(ext); words are runs of other than space, tab, CR, LF. */
    function words(s) { return s.split(/[ \t\n\r]+/).filter(Boolean).length; }
    function admitQ(spec, x) {
      var ids = spec[2] || [];
      if (spec[1] === "c") return typeof x === "string" && ids.indexOf(x) >= 0 ? x : null;
      if (spec[1] === "s") {
        if (!Array.isArray(x) || !x.every(function (a, i) { return typeof a === "string" && ids.indexOf(a) >= 0 && x.indexOf(a) === i; })) return null;
        return ids.filter(function (i) { return x.indexOf(i) >= 0; });
      }
      if (spec[1] === "n") return typeof x === "string" && isNumberText(x) ? x : null;
      return typeof x === "string" && words(x) ? Array.from(x).slice(0, 10000).join("") : null;
    }
    function cleanQ(a, specs, part, dropped) {
      if (!has(a, "questions")) return null;
      if (!isRec(a.questions)) { dropped.push(part + ": question answers that are not a record"); return null; }
      var g = a.questions, out = Object.create(null), n = 0;
      dropped.push.apply(dropped, unknown(g, specs.map(function (s) { return s[0]; }), "an answer to a question", part + ": ", "the part does not ask"));
      specs.forEach(function (s) {
        if (!has(g, s[0])) return;
        var v = g[s[0]], x = isRec(v) && has(v, "answer") ? admitQ(s, v.answer) : null;
        if (x === null) { dropped.push(part + ": an answer to the question `" + s[0] + "` that is none of its answers"); return; }
        var q = { answer: x };
        if (typeof v.correct === "boolean") q.correct = v.correct;
        if (typeof v.score === "number" && v.score >= 0 && v.score <= 1) q.score = v.score;
        if (typeof v.answered_at === "string" && Array.from(v.answered_at).length <= 64) q.answered_at = v.answered_at;
        out[s[0]] = q; n++;
      });
      return n ? out : null;
    }
    function doneQ(a, specs) { return (specs || []).every(function (s) { return isRec(a.questions) && has(a.questions, s[0]); }); }
    function mergeQ(out, t, specs, part, o, replace) {
      if (!isRec(t.questions)) return false;
      var mine = isRec(out.questions) ? out.questions : {}, m = Object.create(null), took = false, n = 0;
      (specs || []).forEach(function (s) {
        var id = s[0], a = has(mine, id) ? mine[id] : null, b = has(t.questions, id) ? t.questions[id] : null;
        if (!a && b) { m[id] = b; took = true; }
        else if (a && b && !same(a.answer, b.answer)) { o.conflicts.push(part + "'s question `" + id + "`"); m[id] = replace ? b : a; }
        else if (a) m[id] = a; else return;
        n++;
      });
      if (n) out.questions = m; else delete out.questions;
      return took;
    }
/*questions]*/
    /* A ledger of the lab of `shape` with only what the lab can have, and what was dropped. */
    function clean(l, shape) {
      var dropped = [], given = isRec(l.parts) ? l.parts : {}, parts = Object.create(null), complete = true;
      dropped.push.apply(dropped, unknown(given, shape.map(function (p) { return p[0]; }), "a part", "", "the lab does not have"));
      shape.forEach(function (p) {
        var pid = p[0], part = letter(pid), out = Object.create(null), a = {};
        if (has(given, pid)) {
          if (isRec(given[pid])) a = given[pid]; else dropped.push(part + ": answers that are not a part's");
        }
        if (has(a, "prediction")) {
          if (answers(p[1], a.prediction)) {
            out.prediction = a.prediction;
            if (has(a, "prediction_correct") && typeof a.prediction_correct === "boolean") out.prediction_correct = a.prediction_correct;
            if (has(a, "prediction_locked_at") && typeof a.prediction_locked_at === "string") out.prediction_locked_at = a.prediction_locked_at;
            if (has(a, "track") && typeof a.track === "string" && /^[a-z][a-z0-9-]{0,39}$/.test(a.track)) out.track = a.track;
            var looks = Array.isArray(a.prediction_attempts) ? a.prediction_attempts.filter(function (x) { return answers(p[1], x); }) : [];
            if (looks.length) out.prediction_attempts = looks;
          } else dropped.push(part + ": a prediction that is none of its answers");
        }
        if (has(a, "reflection")) {
          if (Array.isArray(p[2]) && answers(p[2], a.reflection)) {
            out.reflection = a.reflection;
            if (has(a, "reflection_correct") && typeof a.reflection_correct === "boolean") out.reflection_correct = a.reflection_correct;
          } else dropped.push(part + ": a reflection that is none of its answers");
        }
/*[questions*/
        var qs = p[4] ? cleanQ(a, p[4], part, dropped) : null;
        if (qs) out.questions = qs;
/*questions]*/
        if (has(a, "controls")) {
          var c = isRec(a.controls) ? a.controls : {}, ctl = Object.create(null), n = 0;
          dropped.push.apply(dropped, unknown(c, p[3].map(function (s) { return s[0]; }), "a control", part + ": ", "the part does not have"));
          p[3].forEach(function (s) {
            if (!has(c, s[0])) return;
            if (controlOk(s[1], c[s[0]])) { ctl[s[0]] = c[s[0]]; n++; } else dropped.push(part + ": " + named("the control", s[0]) + " out of its range");
          });
          if (n) out.controls = ctl;
        }
        parts[pid] = out;
        complete = complete && (p[1] === null || has(out, "prediction")) && (p[2] === null || has(out, "reflection"))/*[questions*/ && doneQ(out, p[4])/*questions]*/;
      });
      var log = "";
      if (typeof l.decision_log === "string") log = l.decision_log;
      else if (l.decision_log !== undefined && l.decision_log !== null) dropped.push("a decision log that is not text");
      var r = { format: FORMAT, lab: l.lab === undefined ? null : l.lab, version: l.version === undefined ? null : l.version, chapter: typeof l.chapter === "string" ? l.chapter : "", parts: parts, decision_log: log, complete: complete };
      if (typeof l.position === "string") r.position = l.position;
      return { ledger: r, dropped: dropped };
    }
    function copy(o) { var r = Object.create(null), k; for (k in o) if (has(o, k)) r[k] = o[k]; return r; }
    function answered(a) { return has(a, "prediction") || has(a, "reflection")/*[questions*/ || isRec(a.questions)/*questions]*/; }
    /* Merges the cleaned `theirs` into the cleaned `mine` (null: not started here), part by part:
       { ledger, o: { taken, conflicts, locked } }; a conflict is replaced only when `replace`. */
    function mergeLab(mine, theirs, shape, replace) {
      var o = { taken: [], conflicts: [], locked: [] }, base = mine || { parts: {}, decision_log: "" };
      var r = JSON.parse(JSON.stringify(mine || theirs)), parts = Object.create(null), complete = true;
      shape.forEach(function (p) {
        var pid = p[0], part = letter(pid);
        var m = has(base.parts, pid) && isRec(base.parts[pid]) ? copy(base.parts[pid]) : Object.create(null);
        var t = has(theirs.parts, pid) && isRec(theirs.parts[pid]) ? theirs.parts[pid] : {};
        var out = copy(m), had = answered(m), takeControls = false, took = false;
        if (!has(m, "prediction") && has(t, "prediction")) {
          ["prediction", "prediction_correct", "prediction_locked_at", "prediction_attempts", "track"].forEach(function (k) { if (has(t, k)) out[k] = t[k]; });
          took = true;
        } else if (has(m, "prediction") && has(t, "prediction") && m.prediction !== t.prediction) o.locked.push(part);
        if (has(t, "reflection") && (!has(m, "reflection") || m.reflection !== t.reflection)) {
          var fill = !has(m, "reflection");
          if (!fill) o.conflicts.push(part + "'s reflection");
          if (fill || replace) {
            out.reflection = t.reflection;
            delete out.reflection_correct;
            if (has(t, "reflection_correct")) out.reflection_correct = t.reflection_correct;
            if (fill) took = true; else takeControls = true;
          }
        }
/*[questions*/
        if (mergeQ(out, t, p[4], part, o, replace)) took = true;
/*questions]*/
        if (took) { o.taken.push(part); takeControls = takeControls || !had; }
        if (takeControls) { delete out.controls; if (has(t, "controls")) out.controls = t.controls; }
        complete = complete && (p[1] === null || has(out, "prediction")) && (p[2] === null || has(out, "reflection"))/*[questions*/ && doneQ(out, p[4])/*questions]*/;
        parts[pid] = out;
      });
      var ml = typeof base.decision_log === "string" ? base.decision_log : "", tl = typeof theirs.decision_log === "string" ? theirs.decision_log : "", log = ml;
      if (!ml && tl) { o.taken.push("the decision log"); log = tl; }
      else if (tl && ml !== tl) { o.conflicts.push("the decision log"); if (replace) log = tl; }
      r.parts = parts;
      r.decision_log = log;
      r.complete = complete;
      /* Where the terminal resumes: this copy's, else the incoming one's. */
      if (typeof r.position !== "string" && typeof theirs.position === "string") r.position = theirs.position;
      return { ledger: r, o: o };
    }
    /* The record's `track` after a merge: mine when it is one of the course's tracks (`ids`),
       else theirs when it is one, else none (crates/engine/src/record/merge.rs, merge_track). */
    function mergeTrack(mine, theirs, ids) {
      if (typeof mine === "string" && ids.indexOf(mine) >= 0) return mine;
      if (typeof theirs === "string" && ids.indexOf(theirs) >= 0) return theirs;
      return null;
    }
    /* The record's `student` after a merge: mine when it is a name (a string, not blank, at most
       100 long), else theirs when it is one, else none (merge.rs, merge_student). */
    function mergeStudent(mine, theirs) {
      var ok = function (s) { return typeof s === "string" && s.trim() !== "" && s.length <= 100; };
      return ok(mine) ? mine : ok(theirs) ? theirs : null;
    }
    /* A link's fragment (after `#lf-course=`) as the record's text, or an error: base64 of the
       record's UTF-8, at most MAX_BYTES, refused by its length before it is decoded. */
    function linkText(frag) {
      if (frag.length > Math.ceil(MAX_BYTES / 3) * 4) return { error: "it is too large (at most " + MAX_BYTES + " bytes)" };
      try { return { text: decodeURIComponent(escape(atob(decodeURIComponent(frag)))) }; } catch (e) { return { error: "the link is damaged (not a course record in base64)" }; }
    }
    return { linkText: linkText, bounds: bounds, clean: clean, mergeLab: mergeLab, mergeTrack: mergeTrack, mergeStudent: mergeStudent, unknown: unknown, plainId: plainId, isRec: isRec, has: has, MAX_BYTES: MAX_BYTES };
  })();

  var C = JSON.parse(document.getElementById("lf-data").textContent).course;
  var TRACKS = C.tracks || [];
  var KEY = "labforge-course:" + C.id, TAG = "#lf-course=", FMT = "labforge-course/1", isRec = core.isRec, has = core.has;
  function get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } }
  function put(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* storage off */ } }
  function blank() { return { format: FMT, course: C.id, labs: Object.create(null) }; }
  function ownKey(l) { return "labforge:" + l[0] + ":v" + l[1]; }
  /* Predictions, reflections and a decision log answered in a lab's ledger. */
  function score(r) {
    var n = r.decision_log ? 1 : 0, p;
    for (p in r.parts) if (has(r.parts, p) && isRec(r.parts[p])) n += has(r.parts[p], "prediction") + has(r.parts[p], "reflection")/*[questions*/ + (isRec(r.parts[p].questions) ? Object.keys(r.parts[p].questions).length : 0)/*questions]*/;
    return n;
  }
  /* A record from outside (storage, a link, a file): { rec, left } with only this course's labs
     of the right version, each cleaned against its lab, and what was left out; or { error }. A
     single lab's ledger counts as a record of that lab. */
  function parse(text) {
    if (typeof text !== "string") return { error: "no record" };
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    var j, b = core.bounds(text), r = blank(), left = [];
    if (b) return { error: b };
    try { j = JSON.parse(text); } catch (e) { return { error: "not a JSON file" }; }
    if (isRec(j) && typeof j.format === "string" && j.format.indexOf("labforge-ledger/") === 0) {
      var w = { format: FMT, course: C.id, labs: {} };
      w.labs[typeof j.lab === "string" ? j.lab : ""] = j;
      j = w;
    }
    if (!isRec(j) || j.format !== FMT || !isRec(j.labs)) return { error: "not a labforge course record" };
    if (j.course !== C.id) return { error: "this record is for another course (" + (typeof j.course === "string" && core.plainId(j.course) ? j.course : "…") + ")" };
    var tr = core.mergeTrack(j.track, null, TRACKS), st = core.mergeStudent(j.student, null);
    if (tr) r.track = tr;
    if (st) r.student = st;
    left = core.unknown(j.labs, C.labs.map(function (l) { return l[0]; }), "a lab", "", "this course does not have");
    C.labs.forEach(function (l) {
      if (!has(j.labs, l[0])) return;
      var x = j.labs[l[0]];
      if (isRec(x) && x.lab === l[0] && x.version === l[1] && isRec(x.parts) && typeof x.format === "string" && x.format.indexOf("labforge-ledger/") === 0) {
        if (!l[3]) { r.labs[l[0]] = x; return; }
        var c = core.clean(x, l[3]);
        r.labs[l[0]] = c.ledger;
        c.dropped.forEach(function (d) { left.push(l[2] + ": " + d); });
      } else left.push(l[2] + ": not a ledger of version " + l[1] + " of this lab");
    });
    return { rec: r, left: left };
  }
  var R = parse(get(KEY)).rec || blank();
  /* A lab's shape, or for another lab on a lab page its parts with nothing asked. */
  function shapeOf(l) { return l[3] || l[4].map(function (id) { return [id, null, null]; }); }
  /* Merges the parsed record `inc` into R lab by lab (course order); writes what changed to R
     and to each changed lab's own saved progress. Returns [title, outcome] per lab of `inc`, or
     { error } when the merged record would be past the bounds (nothing is written then). */
  function merge(inc, replace, dry) {
    var said = [], next = JSON.parse(JSON.stringify(R)), own = [], tr = core.mergeTrack(R.track, inc.track, TRACKS);
    if (tr && tr !== R.track) {
      said.push(["The course", { taken: ["your track (" + tr + ")"], conflicts: [], locked: [] }]);
      next.track = tr;
    }
    var st = core.mergeStudent(R.student, inc.student);
    if (st && st !== R.student) next.student = st;
    C.labs.forEach(function (l) {
      if (!has(inc.labs, l[0])) return;
      var m = core.mergeLab(has(R.labs, l[0]) ? R.labs[l[0]] : null, inc.labs[l[0]], shapeOf(l), replace);
      said.push([l[2], m.o]);
      if (m.o.taken.length || (replace && m.o.conflicts.length)) {
        /* Another lab's `complete` is its page's and the index's to compute. */
        if (!l[3]) m.ledger.complete = false;
        next.labs[l[0]] = m.ledger;
        own.push([ownKey(l), JSON.stringify(m.ledger)]);
      }
    });
    var text = JSON.stringify(next), b = core.bounds(text);
    if (b) return { error: "with this browser's record it would break a bound (" + b + ")" };
    if (!dry && (own.length || next.track !== R.track || next.student !== R.student)) {
      R = next;
      own.forEach(function (o) { put(o[0], o[1]); });
      put(KEY, text);
    }
    return said;
  }
  function unchanged(o) { return !o.taken.length && !o.conflicts.length; }
  function told(said, replace) {
    return said.map(function (s) {
      var o = s[1], t = [];
      if (o.taken.length) t.push("took " + o.taken.join(", "));
      if (o.conflicts.length) t.push((replace ? "replaced " : "kept yours for ") + o.conflicts.join(", "));
      if (o.locked.length) t.push("kept your locked prediction in " + o.locked.join(", "));
      return s[0] + ": " + (t.length ? t.join("; ") : "nothing new");
    }).join("; ");
  }
  function leftOut(left) {
    if (!left.length) return "";
    return " Left out: " + left.slice(0, 10).join("; ") + (left.length > 10 ? " (and " + (left.length - 10) + " more)" : "") + ".";
  }
  /* Where the page tells the student what a link or an import did: the index's message line, or
     a notice at the top of a lab page. */
  function note() {
    var n = document.querySelector("[data-course-msg]") || document.querySelector("[data-course-note]");
    if (!n) {
      n = document.createElement("div");
      n.setAttribute("data-course-note", "");
      n.setAttribute("role", "status");
      n.className = "lf-notice";
      var main = document.getElementById("main") || document.body;
      main.insertBefore(n, main.firstChild);
    }
    while (n.firstChild) n.removeChild(n.firstChild);
    return n;
  }
  function say(text) { note().appendChild(document.createTextNode(text)); }
  function changedEvent(ids) { document.dispatchEvent(new CustomEvent("labforge:course", { detail: { labs: ids } })); }
  /* A record from a link or a file (`what`): refused visibly, or merged; answers that would
     replace the student's own wait for "Replace mine" / "Keep mine" in the page. */
  function incoming(p, what) {
    if (p.error) { say(what + " was not imported: " + p.error + "."); return; }
    if (!Object.keys(p.rec.labs).length) { say(what + " was not imported: it holds no lab of this course." + leftOut(p.left)); return; }
    var trial = merge(p.rec, false, true);
    if (trial.error) { say(what + " was not imported: " + trial.error + "." + leftOut(p.left)); return; }
    if (trial.every(function (s) { return unchanged(s[1]); })) {
      say("Nothing changed: " + what + " holds no answer this browser does not already have." + leftOut(p.left));
      return;
    }
    function apply(replace) {
      var said = merge(p.rec, replace, false);
      if (said.error) { say(what + " was not imported: " + said.error + "."); return said; }
      say("Imported from " + what + ". " + told(said, replace) + "." + leftOut(p.left));
      changedEvent(said.map(function (s) { return s[0]; }));
      return said;
    }
    var conflicts = trial.filter(function (s) { return s[1].conflicts.length; });
    if (!conflicts.length) { apply(false); return; }
    var n = note(), me = C.labs[C.me];
    n.setAttribute("data-course-confirm", "");
    n.appendChild(document.createTextNode(what + " has other answers than yours for " +
      conflicts.map(function (s) { return s[0] + " (" + s[1].conflicts.join(", ") + ")"; }).join("; ") + ". Replace yours?" + leftOut(p.left) + " "));
    [["Replace mine", true], ["Keep mine", false]].forEach(function (b) {
      var btn = document.createElement("button");
      btn.type = "button";
      btn.textContent = b[0];
      btn.setAttribute("data-course-choice", b[1] ? "replace" : "keep");
      btn.addEventListener("click", function () {
        n.removeAttribute("data-course-confirm");
        var before = me && get(ownKey(me));
        apply(b[1]);
        /* This lab's own answers changed after its page read them: read them again. */
        if (me && get(ownKey(me)) !== before) location.reload();
      });
      n.appendChild(btn);
    });
  }
  var me = C.labs[C.me];
  if (me) {
    /* This page's own saved progress and the record's copy of it: each fills what the other
       lacks (nothing answered is replaced); the record follows the page from then on. */
    var mk = ownKey(me), own = null, cur = has(R.labs, me[0]) ? R.labs[me[0]] : null;
    try { own = JSON.parse(get(mk)); } catch (e) { /* none */ }
    if (isRec(own) && isRec(own.parts)) {
      var c = core.clean({ lab: me[0], version: me[1], parts: own.parts, decision_log: own.decision_log }, me[3]), mine = c.ledger;
      var m = cur ? core.mergeLab(mine, cur, me[3], false) : { ledger: mine, o: { taken: [] } };
      /* Saved progress another lab's page passed on uncleaned is stored cleaned before the
         runtime reads it. */
      if (m.o.taken.length || c.dropped.length) put(mk, JSON.stringify(m.ledger));
      R.labs[me[0]] = m.ledger;
    } else if (cur) put(mk, JSON.stringify(cur));
    document.addEventListener("labforge:record", function (ev) { R.labs[me[0]] = ev.detail.ledger; put(KEY, JSON.stringify(R)); });
  }
  if (location.hash.indexOf(TAG) === 0) {
    var link = core.linkText(location.hash.slice(TAG.length));
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* ignore */ }
    incoming(link.error ? { error: link.error } : parse(link.text), "This link's course record");
  }
  /* `href` with the record in its fragment. */
  function carry(href) { return href.split("#")[0] + TAG + btoa(unescape(encodeURIComponent(JSON.stringify(R)))); }
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[data-course-link]");
    if (a) a.href = carry(a.getAttribute("href"));
  });
  document.querySelectorAll("[data-earlier]").forEach(function (el) {
    var id = el.getAttribute("data-earlier"), r = has(R.labs, id) ? R.labs[id] : null;
    if (r && typeof r.decision_log === "string" && r.decision_log) el.lastChild.textContent = r.decision_log;
  });
  /* The student's track (one of the course's, or null) and its change, kept in the record. */
  function track() { return core.mergeTrack(R.track, null, TRACKS); }
  function setTrack(id) {
    if (TRACKS.indexOf(id) < 0) return;
    R.track = id;
    put(KEY, JSON.stringify(R));
    changedEvent([]);
  }
  /* The student's name or identifier, typed once for the course (shown in each lab's report). */
  function student() { return core.mergeStudent(R.student, null); }
  function setStudent(s) {
    if (s.trim() === "") delete R.student; else if (s.length <= 100) R.student = s; else return;
    put(KEY, JSON.stringify(R));
  }
  window.LF_COURSE = { track: track, setTrack: setTrack, student: student, setStudent: setStudent, carry: carry, record: function () { return R; }, parse: parse, incoming: incoming, score: score, id: C.id, core: core, MAX_BYTES: core.MAX_BYTES };
})();
