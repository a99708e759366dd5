/* The page's scripts arrive packed (#lf-z: gzip in base64, html/pack.rs), a third of their
   size. first-paint.js, in the <head>, starts inflating them with the browser's own
   DecompressionStream (`LF_Z`), so they are ready by the time the body is parsed; this, at the
   body's end, runs them in order, each as an inline script of its own text, which the page's
   Content-Security-Policy allows by its hash, as when they were written out in the page. Ready
   here, they run before this script's parse step ends (a microtask checkpoint), as the written-out
   scripts ran. A page held until its saved progress is restored (first-paint.js) is shown once
   they ran. A browser without DecompressionStream (before 2023) keeps the readable text and says
   why its instruments do not start. */
(function () {
  function shown() { if (window.LF_SHOW) window.LF_SHOW(); }
  function fail() {
    var p = document.getElementById("lf-noboot");
    if (p) p.hidden = false;
    shown();
  }
  function run(text) {
    /* While they run, the document counts as loading for the charts (charts.js `now`). */
    window.LF_BOOT = true;
    text.split("\0").forEach(function (s) {
      var e = document.createElement("script");
      e.textContent = s;
      /* Run (an inserted inline script runs at once), then gone: the document keeps only the
         page's own five script elements, as a page whose scripts were written out kept its. */
      document.body.appendChild(e);
      e.remove();
    });
    window.LF_BOOT = false;
    shown();
  }
  /* A page whose template puts #lf-z after the head's script: inflated from here. */
  var z = window.LF_Z || (window.LF_INFLATE && window.LF_INFLATE());
  if (z) z.then(run, fail); else fail();
})();
