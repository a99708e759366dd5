/* One part at a time: the parts' nav becomes tabs (the WAI-ARIA tabs pattern: arrow keys, Home
   and End move between tabs and show the tab's part; Tab moves into the part), with a button
   switching to the whole document and back (remembered for the page, as is the tab last shown,
   so a reload or a return opens the part the student was on). Print always shows the whole
   document (style.css).
   A locked part's tab still opens: its panel says what to answer first (runtime.js gates it).
   A link to something inside another part (a jump, the address's #fragment) opens that part. */
(function () {
  "use strict";
  var list = document.querySelector("nav.tabs ol"), body = document.body, cur = 0;
  if (!list) return;
  var tabs = [].slice.call(list.querySelectorAll("a[href^='#']"));
  var panels = tabs.map(function (t) { return document.getElementById(t.hash.slice(1)); });
  if (!tabs.length || panels.indexOf(null) >= 0) return;
  var KEY = "labforge-view:" + location.pathname, store = window.localStorage;
  var mode = document.createElement("button");
  mode.type = "button";
  mode.className = "tab-mode";
  list.parentNode.appendChild(mode);
  function attr(n, k, v) { if (v === null) n.removeAttribute(k); else n.setAttribute(k, v); }
  function select(i, focus) {
    /* Kept when it changes (not at load, which shows the tab it just read). */
    if (i !== cur) try { store.setItem(KEY + ":tab", panels[i].id); } catch (e) { /* private mode */ }
    cur = i;
    tabs.forEach(function (t, j) {
      attr(t, "aria-selected", String(j === i));
      t.tabIndex = j === i ? 0 : -1;
      panels[j].classList.toggle("current", j === i);
    });
    /* The runtime computes a part it has not yet computed as it is shown. */
    panels[i].dispatchEvent(new CustomEvent("labforge:show", { bubbles: true }));
    if (focus) tabs[i].focus();
  }
  function setMode(on) {
    body.classList.toggle("tabbed", on);
    attr(list, "role", on ? "tablist" : null);
    tabs.forEach(function (t, j) {
      attr(t.parentNode, "role", on ? "presentation" : null);
      attr(t, "role", on ? "tab" : null);
      attr(t, "aria-selected", null);
      attr(t, "tabindex", null);
      attr(panels[j], "role", on ? "tabpanel" : null);
    });
    if (on) select(cur);
    else panels.forEach(function (pl) { pl.dispatchEvent(new CustomEvent("labforge:show", { bubbles: true })); });
    mode.textContent = on ? "Show all parts" : "One part at a time";
  }
  function tabbed() { return body.classList.contains("tabbed"); }
  /* Opens the part holding the element `id` and scrolls to it (to the tabs for a whole part). */
  function go(id) {
    var el = id && document.getElementById(id), i = panels.length;
    while (el && i-- && !panels[i].contains(el));
    if (!el || i < 0 || !tabbed()) return false;
    select(i);
    (el === panels[i] ? list.parentNode : el).scrollIntoView();
    return true;
  }
  tabs.forEach(function (t, i) {
    t.id = "tab-" + panels[i].id;
    t.setAttribute("aria-controls", panels[i].id);
    if (i + 1 < tabs.length) {
      var p = document.createElement("p"), a = document.createElement("a");
      p.className = "next-tab";
      a.href = tabs[i + 1].hash;
      a.textContent = "Next: " + tabs[i + 1].textContent + " →";
      p.appendChild(a);
      panels[i].appendChild(p);
    }
    t.addEventListener("keydown", function (ev) {
      var n = tabs.length, k = ev.key;
      var j = { ArrowRight: (i + 1) % n, ArrowLeft: (i + n - 1) % n, Home: 0, End: n - 1 }[k];
      if (j === undefined || !tabbed()) return;
      ev.preventDefault();
      select(j, true);
    });
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[href^='#']"), i = tabs.indexOf(a);
    if (!a || !tabbed()) return;
    if (i >= 0) select(i, true);
    else if (!go(a.hash.slice(1))) return;
    ev.preventDefault();
  });
  /* The student's choice of mode is kept for this page. */
  mode.addEventListener("click", function () {
    setMode(!tabbed());
    try { store.setItem(KEY, tabbed() ? "tabs" : "all"); } catch (e) { /* private mode */ }
  });
  window.addEventListener("hashchange", function () { go(location.hash.slice(1)); });
  /* A phone shows the lab's objectives folded, so the first part starts near the top. */
  var about = document.querySelector("details.about");
  if (about && window.matchMedia && matchMedia("(max-width:640px)").matches) about.open = false;
  var saved = null, last = null;
  try { saved = store.getItem(KEY); last = store.getItem(KEY + ":tab"); } catch (e) { /* private mode */ }
  panels.forEach(function (pl, i) { if (pl.id === last) cur = i; });
  setMode(saved !== "all");
  go(location.hash.slice(1));
})();
