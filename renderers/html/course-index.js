/* The course index (after course.js): each lab's progress from the course record, the
   student's track (a course with tracks), the student's name for the reports, and the record's import (checked and merged by course.js, LF_COURSE.incoming) and export. */
(function () {
  "use strict";
  var K = window.LF_COURSE;
  function progress() {
    var R = K.record();
    document.querySelectorAll("[data-progress]").forEach(function (el) {
      var r = R.labs[el.getAttribute("data-progress")];
      var s = !r ? "not started" : r.complete ? "done" : K.score(r) ? "in progress" : "not started";
      el.textContent = s;
      el.setAttribute("data-state", s.replace(" ", "-"));
    });
    document.querySelector("[data-no-record]").hidden = Object.keys(R.labs).some(function (id) { return K.score(R.labs[id]) > 0; });
  }
  /* A course with tracks: the picker until a track is picked, then the track (with a way to
     change it), and links to labs with tracks that lead to the track's page (STEM.TRACK.html). */
  var pick = document.querySelector("[data-track-pick]"), changing = false;
  function label(id) {
    var b = pick.querySelector('[data-track-choose="' + id + '"] b');
    return b ? b.textContent : id;
  }
  function tracks() {
    if (!pick) return;
    var t = K.track(), mine = document.querySelector("[data-track-mine]");
    pick.hidden = !!t && !changing;
    mine.hidden = !t || changing;
    mine.querySelector("[data-track-label]").textContent = t ? label(t) : "";
    pick.querySelectorAll("[data-track-choose]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-track-choose") === t)); });
    document.querySelectorAll("a[data-tracked]").forEach(function (a) {
      a.setAttribute("href", a.getAttribute("data-tracked") + (t ? "." + t : "") + ".html");
      /* Its title on the track (a title may read the track). */
      var own = a.querySelector('[data-track-title="' + t + '"]');
      a.querySelectorAll("[data-track-title]").forEach(function (s) { s.hidden = own ? s !== own : s.getAttribute("data-track-title") !== ""; });
    });
  }
  if (pick) {
    pick.querySelectorAll("[data-track-choose]").forEach(function (b) {
      b.addEventListener("click", function () {
        var before = K.track(), id = b.getAttribute("data-track-choose");
        changing = false;
        K.setTrack(id);
        document.querySelector("[data-track-msg]").textContent = before && before !== id ?
          "Your track is now " + label(id) + " (was " + label(before) + "). Labs with tracks now show its numbers, questions and right answers; the predictions you locked keep the track they were answered on." : "";
        tracks();
      });
    });
    document.querySelector("[data-track-change]").addEventListener("click", function () {
      changing = true;
      tracks();
      var on = pick.querySelector('[aria-pressed="true"]') || pick.querySelector("[data-track-choose]");
      on.focus();
    });
  }
  /* The student's name or id for the reports, typed once for the course: course.js keeps it in
     the record, where each lab's name box and report read it (and a name typed in a lab shows
     here). Not rewritten while the student types in it. */
  var who = document.querySelector("[data-course-student]");
  function student() { if (who && document.activeElement !== who) who.value = K.student() || ""; }
  if (who) who.addEventListener("input", function () { K.setStudent(who.value); });
  function shown() { progress(); tracks(); student(); }
  shown();
  /* A link's record (read by course.js) or an import changed the record: show it. */
  document.addEventListener("labforge:course", shown);
  var imp = document.querySelector("[data-course-import]");
  imp.addEventListener("change", function () {
    var f = imp.files[0];
    if (!f) return;
    imp.value = "";
    /* Refused by its size before it is read. */
    if (f.size > K.MAX_BYTES) { K.incoming({ error: f.size + " bytes is too large for a course record (at most " + K.MAX_BYTES + ")" }, "The file"); return; }
    f.text().then(function (text) { K.incoming(K.parse(text), "The file"); });
  });
  document.querySelector("[data-course-export]").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(K.record(), null, 2) + "\n"], { type: "application/json" }));
    a.download = K.id + "-course.json";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  });
  document.documentElement.setAttribute("data-ready", "1");
})();
