/* The page's scripts arrive packed (#lf-z: gzip in base64, html/pack.rs), a third of their
   size. This inflates them with the browser's own DecompressionStream and runs them in order,
   each as an inline script of its own text, which the page's Content-Security-Policy allows by
   its hash, as when they were written out in the page. A page held until its saved progress is
   restored (first-paint.js) is shown once they ran. A browser without DecompressionStream
   (before 2023) keeps the readable text and says why its instruments do not start. */
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
  try {
    var b = atob(document.getElementById("lf-z").textContent), u = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
    new Response(new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(run, fail);
  } catch (e) { fail(); }
})();
