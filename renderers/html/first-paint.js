/* The page's first paint, decided in its <head> before anything is drawn. The first frame
   waits for `#lf-tabs` (render-blocking, `<link rel="expect" blocking="render">`): the markup
   and tabs.js (the part shown) are in, so no frame lays out every part. With nothing saved for
   this lab, the server-rendered markup is what the runtime would show, so that frame is the
   page. With saved progress (or a course link carrying it, `#lf-course=`, or inside an LMS's
   frame, which hands the record over), the page is held invisible until the runtime has
   restored and computed the part on screen (boot.js calls LF_SHOW), so no frame shows the
   defaults first; if the scripts never run, it shows itself after 10 s. */
(function () {
  /* The lab's storage key (runtime.js `KEY`), written in when the page is rendered. */
  var end = self !== top || location.hash.indexOf("#lf-course=") === 0;
  try { end = end || localStorage.getItem("LF_KEY") !== null; } catch (e) { /* no storage: nothing saved */ }
  var root = document.documentElement;
  if (end) {
    var t = setTimeout(show, 10000);
    root.style.visibility = "hidden";
    window.LF_SHOW = show;
  }
  function show() { clearTimeout(t); root.style.visibility = ""; window.LF_SHOW = null; }
  var l = document.createElement("link");
  l.rel = "expect";
  l.href = "#lf-tabs";
  l.setAttribute("blocking", "render");
  document.head.appendChild(l);
})();
/* The page's packed scripts (#lf-z, just above; boot.js runs them): inflating starts here, while
   the body parses. `LF_Z` is the promise of their text, null without DecompressionStream. */
(function () {
  window.LF_INFLATE = function () {
    try {
      var z = document.getElementById("lf-z");
      if (!z) return null;
      var u;
      /* Native base64 where there is one (2025 on), else a loop over atob's bytes. */
      if (Uint8Array.fromBase64) u = Uint8Array.fromBase64(z.textContent.trim());
      else {
        var b = atob(z.textContent);
        u = new Uint8Array(b.length);
        for (var i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
      }
      /* A stream of the bytes in memory (a Blob's stream is read through the browser process). */
      var bytes = new ReadableStream({ start: function (c) { c.enqueue(u); c.close(); } });
      return new Response(bytes.pipeThrough(new DecompressionStream("gzip"))).text();
    } catch (e) { return null; }
  };
  window.LF_Z = window.LF_INFLATE();
})();
