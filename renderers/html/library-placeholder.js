/* Placeholder until renderers/html/library.js lands from the library branch: fmt only. */
function labforgeLibrary(hardware) {
  "use strict";
  function fixed(x, d, thousands) {
    if (x !== x) return "NaN";
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    var s = x.toFixed(d);
    if (/^-[0.]+$/.test(s)) s = s.slice(1);
    if (!thousands) return s;
    var neg = s[0] === "-", r = neg ? s.slice(1) : s, dot = r.indexOf(".");
    var int = dot < 0 ? r : r.slice(0, dot), frac = dot < 0 ? "" : r.slice(dot);
    return (neg ? "-" : "") + int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + frac;
  }
  function autoDigits(x) {
    var a = Math.abs(x);
    if (!isFinite(x) || (a < 1e15 && x === Math.trunc(x)) || a >= 100) return 0;
    return a >= 10 ? 1 : 2;
  }
  return {
    "fmt": function (x, digits) {
      return digits === undefined ? fixed(x, autoDigits(x), true) : fixed(x, Math.max(0, Math.min(20, Math.round(digits))), true);
    }
  };
}
