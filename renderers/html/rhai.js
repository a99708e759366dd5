/*
 * Rhai's semantics for the page (plain ES2019, no dependencies, no eval): the lab's formulas
 * arrive as JavaScript functions translated from Rhai at render time (crates/engine/src/formula/js.rs, the
 * page's `LF_MAKE`), and this file reproduces what Rhai does with them: real arithmetic, strict
 * booleans, Rhai's number-to-text rules and comparisons, the built-ins, the operation budget and
 * the error words (crates/engine/src/formula/messages.rs). `labforgeRhai(D, L)` makes one, for the page data D
 * (limits, message templates) and the library L; runtime.js runs the page with it.
 */
function labforgeRhai(D, L) {
  "use strict";
  var MAX_OPS = D.maxOps, LAB_OPS = D.labOps || D.maxOps;
  var FN = [];

  /* The work budget (crates/engine/src/formula/budget.rs): `_tick(w)` calls translated from the `__tick(w)`
     the compiler puts first in a formula and in every loop body, plus the built-ins' charges
     for the items or bytes they scan or copy. `_ops` is one evaluation's, `_total` one page
     update's (all its evaluations). */
  var _ops = 0, _total = 0;
  var MAX = D.maxSize;
  function fail(m) { throw new Error(m); }
  /* An error in the words Rust gives it (crates/engine/src/formula/messages.rs, the data's `msg`), final: the
     page shows it as it is. */
  function msg(k) {
    var a = arguments;
    return D.msg[k].replace(/\{(\d)\}/g, function (_, i) { return a[+i + 1]; });
  }
  function final(m) { var e = new Error(m); e.lf = 1; return e; }
  function over(m) { var e = new Error(m); e.budget = 1; throw e; }
  function _tick(n) {
    _ops += n; _total += n;
    if (_ops > MAX_OPS) over("the formula ran more than " + MAX_OPS + " operations");
    if (_total > LAB_OPS) over("the lab's formulas ran more than " + LAB_OPS + " operations in total");
  }
  /* An error leaving a lab function's body at its line `l` (formula::labfn::native): a budget
     overrun, or an error a nested function already named, passes as it is. */
  function _in(e, path, l) {
    return e.budget || e.message.indexOf("in `") === 0 ? e : new Error(msg("in_function", path, l, e.message));
  }
  /* A variable read inside a loop charges the items of the list or record it copies in Rust
     (budget::READ; strings are shared there, not copied). */
  function _rd(v) {
    if (Array.isArray(v)) _tick(v.length);
    else if (v !== null && typeof v === "object") _tick(Object.keys(v).length);
    return v;
  }
  /* A string's UTF-8 bytes, the size Rust charges for it. */
  function u8len(s) {
    var n = 0, c;
    for (var i = 0; i < s.length; i++) {
      c = s.charCodeAt(i);
      /* A surrogate pair is 4 bytes: its high half counts them, its low half nothing. */
      n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0xD800 || c >= 0xE000 ? 3 : c < 0xDC00 ? 4 : 0;
    }
    return n;
  }
  function isMap(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  /* Every number is an f64 (labforge's Rhai has no integers: literals and `len` are real). */
  function isNum(x) { return typeof x === "number"; }
  function typeName(x) {
    if (x === undefined || x === null) return "()";
    if (isNum(x)) return "f64";
    if (typeof x === "boolean") return "bool";
    if (typeof x === "string") return "string";
    return Array.isArray(x) ? "array" : "map";
  }
  function _bool(x) { if (typeof x !== "boolean") fail("boolean expected, found " + typeName(x)); return x; }
  /* Rhai's error for a call no function signature matches. */
  function nomatch(name, args) { return fail("no function matches `" + name + " (" + Array.prototype.map.call(args, typeName).join(", ") + ")`"); }
  function num(x, what) { return isNum(x) ? x : nomatch(what, [x]); }
  var F32_MAX = Math.fround(1e13), F32_MIN = Math.fround(1e-13);
  /* Rust's `Display` for f64 (shortest round-trip digits, never an exponent). */
  function plain(x) {
    var s = String(x);
    var e = s.indexOf("e");
    if (e < 0) return s;
    var neg = s[0] === "-";
    var mant = s.slice(neg ? 1 : 0, e), exp = parseInt(s.slice(e + 1), 10);
    var dot = mant.indexOf("."), digits = mant.replace(".", "");
    var point = (dot < 0 ? mant.length : dot) + exp;
    var out;
    if (point <= 0) out = "0." + "0".repeat(-point) + digits;
    else if (point >= digits.length) out = digits + "0".repeat(point - digits.length);
    else out = digits.slice(0, point) + "." + digits.slice(point);
    return (neg ? "-" : "") + out;
  }
  /* Rhai's FloatWrapper Display. */
  function fstr(x) {
    if (x !== x) return "NaN";
    if (x === Infinity) return "inf";
    if (x === -Infinity) return "-inf";
    var a = Math.abs(x);
    if (a === 0) return "0.0";
    if (a > F32_MAX || a < F32_MIN) return x.toExponential().replace("e+", "e");
    var s = plain(x);
    return (a % 1 === 0) ? s + ".0" : s;
  }
  /* Rust's Debug, which Rhai uses for the items of a list or record: `()`, floats with an
     exponent below 1e-4 and from 1e16, strings quoted with escapes (control characters only:
     Rust also escapes other non-printable characters, such as U+00A0). */
  var ESC = { "\0": "\\0", "\t": "\\t", "\r": "\\r", "\n": "\\n", '"': '\\"', "\\": "\\\\" };
  function dbg(x) {
    if (x === undefined || x === null) return "()";
    if (typeof x === "string") return '"' + x.replace(/[\0-\x1f\x7f-\x9f"\\]/g, function (c) { return ESC[c] || "\\u{" + c.charCodeAt(0).toString(16) + "}"; }) + '"';
    if (!isNum(x) || x !== x || Math.abs(x) === Infinity) return tostr(x);
    var a = Math.abs(x);
    if (a !== 0 && (a < 1e-4 || a >= 1e16)) return x.toExponential().replace("e+", "e");
    return (Object.is(x, -0) ? "-" : "") + plain(x) + (a % 1 === 0 ? ".0" : "");
  }
  /* Rhai's `to_string` / string conversion. */
  function tostr(x) {
    if (x === undefined || x === null) return "";
    if (isNum(x)) return fstr(x);
    if (typeof x === "boolean" || typeof x === "string") return String(x);
    if (Array.isArray(x)) return "[" + x.map(dbg).join(", ") + "]";
    return "#{" + keys(x).map(function (k) { return dbg(k) + ": " + dbg(x[k]); }).join(", ") + "}";
  }
  /* Code point order, as Rust compares strings (JS compares UTF-16 units). */
  function scmp(a, b) {
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
    return x.length - y.length;
  }
  function keys(m) { return Object.keys(m).sort(scmp); }
  /* Rhai's data limits, counted as Rhai does: list elements and map entries (nested ones
     included) and string bytes; the walk stops once a limit is passed. */
  function size(x, c) {
    var i, k;
    if (typeof x === "string") c[2] += u8len(x);
    else if (Array.isArray(x)) for (i = 0; i < x.length && c[0] <= MAX[1]; i++) { c[0]++; size(x[i], c); }
    else if (isMap(x)) for (k in x) { if (++c[1] > MAX[2]) break; size(x[k], c); }
    return c;
  }
  function _sz(x) {
    var c = size(x, [0, 0, 0]);
    if (c[2] > MAX[0]) fail("Length of string grew too large");
    if (c[0] > MAX[1]) fail("Size of array grew too large");
    if (c[1] > MAX[2]) fail("Size of object map grew too large");
    return x;
  }
  function opErr(op) { return nomatch(op, Array.prototype.slice.call(arguments, 1)); }
  function _add(a, b) {
    if (isNum(a) && isNum(b)) return a + b;
    if (typeof a === "string" && typeof b === "string") _tick(u8len(a) + u8len(b));
    if (typeof a === "string" || typeof b === "string") return _sz(tostr(a) + tostr(b));
    if (Array.isArray(a) && Array.isArray(b)) { _tick(a.length + b.length); return _sz(a.concat(b)); }
    if (isMap(a) && isMap(b)) return _sz(_map(keys(a).concat(keys(b)), keys(a).map(function (k) { return a[k]; }).concat(keys(b).map(function (k) { return b[k]; }))));
    return opErr("+", a, b);
  }
  /* `+=`: as `+`, except that a list takes any other value as one more element. */
  function _adda(a, b) {
    if (!Array.isArray(a) || Array.isArray(b)) return _add(a, b);
    _tick(a.length + 1);
    return _sz(a.concat([b]));
  }
  function arith(op, f) {
    return function (a, b) { return isNum(a) && isNum(b) ? f(a, b) : opErr(op, a, b); };
  }
  var _sub = arith("-", function (a, b) { return a - b; });
  var _mul = arith("*", function (a, b) { return a * b; });
  var _div = arith("/", function (a, b) { return a / b; });
  var _rem = arith("%", function (a, b) { return a % b; });
  /* Rust's powf (C99 pow): 1 ** y and (-1) ** ±inf are 1, where Math.pow gives NaN. */
  var _pow = arith("**", function (a, b) { return a === 1 || (a === -1 && Math.abs(b) === Infinity) ? 1 : Math.pow(a, b); });
  /* Rhai (a checked build) compares two numbers relative to the larger's magnitude (absolutely
     when either is 0): within f64::EPSILON they are equal, so 4600 / 10 / (4600 / 13) is not
     `< 1.3` in Rust. rel(x, y, atZero, f) is Rhai's rule, f tests the difference against the
     scale; Rust's max ignores a NaN (so NaN == 0 holds), Math.max does not. */
  var EPS = 2.220446049250313e-16;
  function rel(x, y, atZero, f) {
    var ax = Math.abs(x), ay = Math.abs(y);
    var m = x * y === 0 ? 1 : ax !== ax ? ay : ay !== ay ? ax : Math.max(ax, ay);
    return m === 0 ? atZero : f(x, y, m);
  }
  function feq(x, y) { return rel(x, y, true, function (x, y, m) { return Math.abs(x - y) / m <= EPS; }); }
  function fne(x, y) { return rel(x, y, false, function (x, y, m) { return Math.abs(x - y) / m > EPS; }); }
  function flt(x, y) { return rel(x, y, false, function (x, y, m) { return (y - x) / m > EPS; }); }
  function fle(x, y) { return rel(x, y, true, function (x, y, m) { return (y - x) / m > -EPS; }); }
  function fgt(x, y) { return rel(x, y, false, function (x, y, m) { return (x - y) / m > EPS; }); }
  function fge(x, y) { return rel(x, y, true, function (x, y, m) { return (x - y) / m > -EPS; }); }
  /* Rhai's `==` (lists and records element by element, through `==`). */
  function same(a, b) {
    if (typeName(a) !== typeName(b)) return false;
    if (isNum(a)) return feq(a, b);
    if (Array.isArray(a)) return a.length === b.length && a.every(function (x, i) { return same(x, b[i]); });
    if (isMap(a)) {
      var ka = keys(a);
      return same(ka, keys(b)) && ka.every(function (k) { return same(a[k], b[k]); });
    }
    return a === b;
  }
  function _eq(a, b) { return same(a, b); }
  /* Two numbers: Rhai's own `!=` (NaN != NaN is false); otherwise not `==`. */
  function _ne(a, b) { return isNum(a) && isNum(b) ? fne(a, b) : !same(a, b); }
  /* Rhai orders numbers (relatively, see rel), strings and booleans; values of two types
     compare as false. */
  function cmp(op, f, fnum) {
    return function (a, b) {
      var t = typeName(a);
      if (t !== typeName(b) || t === "()") return false;
      if (t === "string") return f(scmp(a, b), 0);
      if (t === "f64") return fnum(a, b);
      return t === "bool" ? f(a, b) : opErr(op, a, b);
    };
  }
  var _lt = cmp("<", function (a, b) { return a < b; }, flt);
  var _le = cmp("<=", function (a, b) { return a <= b; }, fle);
  var _gt = cmp(">", function (a, b) { return a > b; }, fgt);
  var _ge = cmp(">=", function (a, b) { return a >= b; }, fge);
  function bop(op, f) {
    return function (a, b) { return typeof a === "boolean" && typeof b === "boolean" ? f(a, b) : opErr(op, a, b); };
  }
  var _band = bop("&", function (a, b) { return a && b; });
  var _bor = bop("|", function (a, b) { return a || b; });
  var _bxor = bop("^", function (a, b) { return a !== b; });
  function _neg(a) { return isNum(a) ? -a : opErr("-", a); }
  function _pos(a) { return isNum(a) ? a : opErr("+", a); }
  function _not(a) { return typeof a === "boolean" ? !a : opErr("!", a); }
  function _bad() { fail("unsupported construct"); }
  function _cat(parts) { return _sz(parts.map(tostr).join("")); }
  function _map(ks, vals) {
    var m = Object.create(null);
    for (var i = 0; i < ks.length; i++) m[ks[i]] = vals[i];
    return _sz(m);
  }
  function fromJson(v) {
    if (Array.isArray(v)) return v.map(fromJson);
    if (v !== null && typeof v === "object") {
      var m = Object.create(null);
      Object.keys(v).forEach(function (k) { m[k] = fromJson(v[k]); });
      return m;
    }
    if (v === null) return NaN;
    return v;
  }
  function _json(s) { return fromJson(JSON.parse(s)); }
  function _iter(x) {
    if (Array.isArray(x)) return x.slice();
    if (typeof x === "string") return Array.from(x);
    return fail("`for` needs a list, found " + typeName(x));
  }
  function _prop(o, k) {
    if (isMap(o)) return has(o, k) ? o[k] : undefined;
    if (has(GETTERS, k)) return GETTERS[k](o);
    return fail("Unknown property '" + k + "' - a getter is not registered for type '" + typeName(o) + "'");
  }
  function _idx(o, k) {
    if (isMap(o) && typeof k === "string") return has(o, k) ? o[k] : undefined;
    if (Array.isArray(o)) return fail("a list was indexed with a number, but numbers in formulas are real");
    return fail("cannot index " + typeName(o) + " with " + typeName(k));
  }
  var T = { n: "f64", s: "string", a: "array", m: "map" };
  /* A built-in (B), or a library function (L) whose arguments must have the types of `sig`
     (numbers when absent) and whose result counts toward the size limits, as in Rhai. */
  var WRAPPED = Object.create(null);
  function _fn(table, name, sig) {
    var f = table[name];
    if (typeof f !== "function") fail("no function `" + name + "` in this page");
    if (table === B) return f;
    /* One wrapper per function and signature, made once (a formula calls _fn at every call). */
    var w = WRAPPED[name] || (WRAPPED[name] = Object.create(null)), k = sig || "";
    return w[k] || (w[k] = function () {
      for (var i = 0; i < arguments.length; i++) {
        if (typeName(arguments[i]) !== T[sig ? sig[i] : "n"]) nomatch(name, Array.prototype.slice.call(arguments));
      }
      /* Draws and list statistics charge their work first (crates/engine/src/library/random.rs, stats.rs). */
/*[rand*/
      if (name.indexOf("rand::") === 0) {
        var n = arguments[1], lam = arguments[2];
        if (n >= 0 && n <= 1e6 && n === Math.floor(n)) {
          _tick(name === "rand::poisson" && lam >= 0 && lam <= 1e6 ? n * (1 + Math.ceil(lam)) : n);
        }
      }
/*rand]*/
/*[stats*/
      if (name.indexOf("stats::") === 0 && Array.isArray(arguments[0])) _tick(arguments[0].length);
/*stats]*/
/*[sim*/
      if (name === "sim::cluster") _tick(f.cost(arguments[0]));
/*sim]*/
      var r = f.apply(null, arguments);
      /* Lists the library builds charge their length (crates/engine/src/formula/charged.rs). */
      if (name === "range" || name === "linspace" || name === "logspace") _tick(r.length);
      return _sz(r);
    });
  }
  function m1(name, f) { return function (x) { if (arguments.length !== 1) nomatch(name, arguments); return f(num(x, name)); }; }
  /* Rhai's built-ins not in the library (which has abs, floor, round, sqrt, exp, ln, min, max). */
  var B = Object.create(null);
  [["ceiling", Math.ceil], ["sin", Math.sin], ["cos", Math.cos], ["tan", Math.tan], ["asin", Math.asin],
   ["acos", Math.acos], ["atan", Math.atan], ["sinh", Math.sinh], ["cosh", Math.cosh], ["tanh", Math.tanh],
   ["is_nan", function (x) { return x !== x; }],
   ["is_infinite", function (x) { return Math.abs(x) === Infinity; }],
   ["is_finite", isFinite],
   ["sign", function (x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }]
  ].forEach(function (p) { B[p[0]] = m1(p[0], p[1]); });
  var atan = B.atan;
  B.atan = function (x, y) { return arguments.length === 1 ? atan(x) : Math.atan2(num(x, "atan"), num(y, "atan")); };
  B.log = function (x, base) {
    num(x, "log");
    if (arguments.length === 1) return Math.log10(x);
    return Math.log(x) / Math.log(num(base, "log"));
  };
  B.to_string = tostr;
  B.len = function (x) {
    if (typeof x === "string") { _tick(u8len(x)); return Array.from(x).length; }
    if (Array.isArray(x)) return x.length;
    if (isMap(x)) return Object.keys(x).length;
    return nomatch("len", [x]);
  };
  B.contains = function (x, v) {
    if (typeof x === "string" && typeof v === "string") { _tick(u8len(x)); return x.indexOf(v) >= 0; }
    if (Array.isArray(x)) {
      _tick(x.length);
      /* Rust's `contains` compares a number exactly, a list or a record through Rhai's `==`. */
      return x.some(function (e) { return isNum(v) ? e === v : same(e, v); });
    }
    if (isMap(x) && typeof v === "string") return has(x, v);
    return nomatch("contains", [x, v]);
  };
  B.at = function (a, i) {
    if (!Array.isArray(a) || !isNum(i)) nomatch("at", [a, i]);
    if (i % 1 !== 0 || i < 0 || i >= a.length) fail("index " + plain(i) + " is outside the list (length " + a.length + ")");
    return a[i];
  };
  B.to_upper = function (s) { if (typeof s !== "string") nomatch("to_upper", [s]); return s.toUpperCase(); };
  B.to_lower = function (s) { if (typeof s !== "string") nomatch("to_lower", [s]); return s.toLowerCase(); };
  B.keys = function (m) { if (!isMap(m)) nomatch("keys", [m]); return keys(m); };
  B.values = function (m) { if (!isMap(m)) nomatch("values", [m]); return keys(m).map(function (k) { return m[k]; }); };
  B.sum = function (a) {
    if (!Array.isArray(a)) nomatch("sum", [a]);
    _tick(a.length);
    var s = 0;
    for (var i = 0; i < a.length; i++) s += isNum(a[i]) ? a[i] : fail("sum() needs numbers, found " + typeName(a[i]));
    return s;
  };
  /* Rhai's property getters on non-map values. */
  var GETTERS = Object.create(null);
  ["len", "is_nan", "is_finite", "is_infinite", "ceiling"].forEach(function (k) { GETTERS[k] = B[k]; });
  GETTERS.floor = m1("floor", L.floor); GETTERS.round = m1("round", L.round);

  /* Runs one compiled expression with a fresh evaluation budget (the update's total goes on). */
  function run(i, S) {
    _ops = 0;
    return FN[i](S);
  }
  /* Starts one page update's total budget. */
  function startUpdate() { _total = 0; }
  var H = { _tick, _rd, _bool, _add, _sub, _mul, _div, _rem, _pow, _eq, _ne, _lt, _le, _gt, _ge, _band, _bor,
    _bxor, _neg, _pos, _not, _cat, _map, _json, _iter, _prop, _idx, _fn, _bad, _adda, _sz, _in };
  FN = (typeof window.LF_MAKE === "function") ? window.LF_MAKE(H, B, L) : [];
  return {
    run: run, tostr: tostr, fromJson: fromJson, startUpdate: startUpdate, has: has, isMap: isMap,
    isNum: isNum, keys: keys, msg: msg, final: final, over: over, plain: plain, same: same,
    /* One page update's total so far; with an argument, sets it (a chart drawn later). */
    total: function (t) { if (t !== undefined) _total = t; return _total; },
    ops: function () { return [_ops, _total]; }
  };
}
