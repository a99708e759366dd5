/*
 * Tracks on a lab's page (the page data of crates/render/src/render/html/tracks.rs; docs/tracks.md),
 * joined to runtime.js on the page of a lab with tracks. The page is one track's (TR.now); TR.list
 * holds every track as [id, label, page file]; TR.home: this is STEM.html, the page links lead
 * to; TR.one: rendered alone (render --track), no sibling pages. The student's track is the
 * course record's (course.js) or, for a lab on its own, kept with the lab's progress.
 * `api`: state() (the lab's saved progress), save(), q(root, sel), qa(root, sel).
 */
function labforgeTracks(D, api) {
  "use strict";
  var ID = /^[a-z][a-z0-9-]{0,39}$/, TR = D.track || { now: null, list: [], one: true };
  var COURSE = window.LF_COURSE, inCourse = !!(COURSE && COURSE.track);
  function of(id) { return TR.list.filter(function (t) { return t[0] === id; })[0]; }
  /* The student's track: the course record's, or this lab's own; null before one is picked. */
  function mine() {
    var t = inCourse ? COURSE.track() : api.state().track;
    return of(t) ? t : null;
  }
  function setMine(id) { if (inCourse) COURSE.setTrack(id); else { api.state().track = id; api.save(); } }
  /* A lab on its own carries the student's track to the track's page in its link (`#lf-track=`,
     as a course's links carry its record, course.js): a browser that gives each file its own
     storage (Firefox, Safari) does not show that page what this one saved, and Chromium may not
     yet either when the page that saved it has just gone. */
  var TAG = "#lf-track=";
  function link(id) { return of(id)[2] + (inCourse ? "" : TAG + id); }
  function page(id) { return inCourse && COURSE.carry ? COURSE.carry(of(id)[2]) : link(id); }
  /* A track carried in: kept when the lab has it, and dropped from the address either way. */
  function arrive() {
    if (inCourse || typeof location === "undefined" || location.hash.indexOf(TAG) !== 0) return;
    var id = location.hash.slice(TAG.length);
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* ignore */ }
    if (of(id) && api.state().track !== id) setMine(id);
  }
  /* STEM.html moves a student on another track to that track's page, with no history entry:
     true when it does (the runtime then stops). */
  function move() {
    if (!(TR.home && mine() && mine() !== TR.now)) return false;
    location.replace(page(mine()));
    return true;
  }
  /* Asked when no track is picked yet; on another track's page, said, with a link to the
     student's own track's page and a switch to this one. */
  function wire() {
    if (TR.one) return;
    var ask = document.querySelector("[data-track-ask]"), other = document.querySelector("[data-track-other]");
    if (!ask || !other) return;
    function show() {
      var m = mine(), now = of(TR.now);
      ask.hidden = !!m;
      other.hidden = !m || m === TR.now;
      if (other.hidden) return;
      api.q(other, "[data-track-other-text]").textContent = "You follow the " + of(m)[1] + " track; this page shows the " + now[1] + " track: its numbers, questions and right answers.";
      var go = api.q(other, "[data-track-mine]");
      go.textContent = "Go to the " + of(m)[1] + " page";
      go.setAttribute("href", link(m));
      api.q(other, "[data-track-switch]").textContent = "Switch my track to " + now[1];
    }
    api.qa(ask, "[data-track-choose]").forEach(function (a) {
      a.addEventListener("click", function (ev) {
        var id = a.getAttribute("data-track-choose");
        ev.preventDefault();
        setMine(id);
        if (id === TR.now) show(); else location.href = page(id);
      });
    });
    api.q(other, "[data-track-switch]").addEventListener("click", function () { setMine(TR.now); show(); });
    show();
  }
  return { ID: ID, TR: TR, of: of, arrive: arrive, move: move, wire: wire };
}
