/* The course index (after course.js): each lab's progress from the course record, and the
   record's import (checked and merged by course.js, LF_COURSE.incoming) and export. */
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
  progress();
  /* A link's record (read by course.js) or an import changed the record: show it. */
  document.addEventListener("labforge:course", progress);
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
