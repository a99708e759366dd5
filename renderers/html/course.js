/*
 * labforge course record (docs/instructors.md, "Publish a course"), run before runtime.js on a
 * lab page of a course and on the course index. One record per course in localStorage,
 * `labforge-course:<course id>`: { format: "labforge-course/1", course, labs: { <lab id>: <that
 * lab's ledger, as its page exports it> } }. A lab page writes its ledger there on every save
 * and seeds its own saved progress from it. Links marked `data-course-link` carry the record in
 * the URL fragment (`#lf-course=<base64 JSON>`), so labs opened from file:// in a browser that
 * gives each file its own storage (Firefox, Safari) still see each other's progress.
 */
(function () {
  "use strict";
  var C = JSON.parse(document.getElementById("lf-data").textContent).course;
  var KEY = "labforge-course:" + C.id, TAG = "#lf-course=", FMT = "labforge-course/1";
  function isRec(o) { return !!o && typeof o === "object" && !Array.isArray(o); }
  function get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } }
  function put(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* storage off */ } }
  function blank() { return { format: FMT, course: C.id, labs: {} }; }
  /* C.labs: [id, version, title] in course order. */
  function lab(id) { return C.labs.filter(function (l) { return l[0] === id; })[0]; }
  /* Predictions, reflections and a decision log answered in a lab's ledger. */
  function score(r) {
    var n = r.decision_log ? 1 : 0, p;
    for (p in r.parts) if (isRec(r.parts[p])) n += (r.parts[p].prediction != null) + (r.parts[p].reflection != null);
    return n;
  }
  /* A record from outside (storage, a link, a file): { rec } with only this course's labs of
     the right version, or { error }. A single lab's ledger counts as a record of that lab. */
  function parse(text) {
    var j, r = blank();
    try { j = JSON.parse(text); } catch (e) { return { error: "not a JSON file" }; }
    if (isRec(j) && /^labforge-ledger\//.test(j.format)) { r.labs[j.lab] = j; j = r; r = blank(); }
    if (!isRec(j) || j.format !== FMT || !isRec(j.labs)) return { error: "not a labforge course record" };
    if (j.course !== C.id) return { error: "this record is for another course (" + j.course + ")" };
    Object.keys(j.labs).forEach(function (id) {
      var x = j.labs[id], l = lab(id);
      if (l && isRec(x) && x.lab === id && x.version === l[1] && isRec(x.parts)) r.labs[id] = x;
    });
    return { rec: r };
  }
  var R = parse(get(KEY)).rec || blank();
  /* Per lab, the record with more answers wins (a tie keeps this browser's); a lab taken also
     becomes that lab page's saved progress. Returns what happened, per lab. */
  function merge(inc) {
    var said = Object.keys(inc.labs).map(function (id) {
      var mine = R.labs[id], t = inc.labs[id], l = lab(id);
      if (mine && score(mine) >= score(t)) return l[2] + ": kept this browser's (" + score(mine) + " answers)";
      R.labs[id] = t;
      put("labforge:" + id + ":v" + l[1], JSON.stringify(t));
      return l[2] + ": " + score(t) + " answers taken";
    });
    put(KEY, JSON.stringify(R));
    return said;
  }
  if (location.hash.indexOf(TAG) === 0) {
    try { merge(parse(decodeURIComponent(escape(atob(location.hash.slice(TAG.length))))).rec); } catch (e) { /* a damaged link */ }
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* ignore */ }
  }
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[data-course-link]");
    if (a) a.href = a.getAttribute("href").split("#")[0] + TAG + btoa(unescape(encodeURIComponent(JSON.stringify(R))));
  });
  var me = C.labs[C.me];
  if (me) {
    var mk = "labforge:" + me[0] + ":v" + me[1];
    if (get(mk) === null && R.labs[me[0]]) put(mk, JSON.stringify(R.labs[me[0]]));
    document.addEventListener("labforge:record", function (ev) { R.labs[me[0]] = ev.detail.ledger; put(KEY, JSON.stringify(R)); });
  }
  document.querySelectorAll("[data-earlier]").forEach(function (el) {
    var r = R.labs[el.getAttribute("data-earlier")];
    if (r && r.decision_log) el.lastChild.textContent = r.decision_log;
  });
  window.LF_COURSE = { record: function () { return R; }, parse: parse, merge: merge, score: score, id: C.id };
})();
