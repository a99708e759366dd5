/*
 * labforge built-in library, JavaScript side.
 *
 * Mirrors crates/engine/src/library (Rust) function by function: the keys of the object returned by
 * labforgeLibrary(hardware, models) are exactly the FnDoc paths of labforge::library::functions(),
 * and every function performs the same IEEE-754 operations in the same order as its Rust
 * twin, so results agree bit for bit except where a transcendental (exp, ln, expm1, log10,
 * pow) is involved, where they agree to an ulp or two. tests/it/library_js.rs checks this.
 *
 * Plain ES2019 script: no modules, no dependencies, no eval.
 * The argument hardware is the object produced by labforge::library::hardware_json(), models
 * the one produced by labforge::library::models_json() (absent when the page calls no model);
 * the page carries only the entries its formulas name (crates/render/src/render/html/libjs.rs).
 *
 * The namespaces added later (collective::, roofline::, energy::, llm::, carbon::, perf::,
 * train::, privacy::, and stats:: with rand:: in stats.js) live in renderers/html/library/NS.js,
 * each registering itself in labforgeTopics, as do rel::ckpt_bytes_per_param and
 * rel::stacked_availability (reliability.js); a page carries only the ones its formulas call
 * (crates/render/src/render/html/libjs.rs).
 */
function labforgeLibrary(hardware, models) {
  "use strict";

  var INF = Infinity;
  var MAX_SERVERS = 1000000;
  var MAX_LIST = 1000000;
  var MAX_SPARES = 1000000;

  function fail(message) {
    throw new Error(message);
  }

  /* A count argument: a whole number in 0..max, else -1. */
  function whole(x, max) {
    if (typeof x === "number" && isFinite(x) && x >= 0 && x <= max && x === Math.trunc(x)) {
      return x;
    }
    return -1;
  }

  /* A formula list as numbers, or an error naming the function and the element. */
  function floats(path, values) {
    if (!Array.isArray(values)) {
      fail(path + ": expected a list");
    }
    for (var i = 0; i < values.length; i++) {
      if (typeof values[i] !== "number") {
        fail(path + ": element " + i + " is not a number");
      }
    }
    return values;
  }

  /* The value of key in a [[name, value], ...] table, else the same error as Rust's lookup. */
  function lookup(path, what, table, key) {
    var known = [];
    for (var i = 0; i < table.length; i++) {
      if (table[i][0] === key) {
        return table[i][1];
      }
      known.push(table[i][0]);
    }
    return fail(path + ": unknown " + what + " '" + key + "'; known " + what + "s: " + known.join(", "));
  }

  function bad(x) {
    return x !== x || x < 0;
  }

  /* ---------------------------------------------------------------- queue:: */

  function rhoGuard(rho) {
    if (rho !== rho || rho < 0) {
      return NaN;
    }
    if (rho >= 1) {
      return INF;
    }
    return null;
  }

  function mmcGuard(c, rho, unstable) {
    var n = whole(c, MAX_SERVERS);
    if (n <= 0 || rho !== rho || rho < 0) {
      return NaN;
    }
    if (rho >= 1) {
      return unstable;
    }
    return null;
  }

  function erlangCUnchecked(c, rho) {
    var a = c * rho;
    var b = 1.0;
    var k = 1.0;
    while (k <= c) {
      b = a * b / (k + a * b);
      k += 1.0;
    }
    return b / (1.0 - rho * (1.0 - b));
  }

  /* ------------------------------------------------------------------ rel:: */

  var SCHEMES = [
    ["fp16_adam_mixed", 14],
    ["fp32_adam", 12],
    ["bf16_weights", 2],
    ["fp32_weights", 4],
    ["int8_weights", 1]
  ];

  /* ---------------------------------------------------------------- format */

  /* Exact decimal expansion of a finite x >= 0: x = digits * 10^-scale. */
  function exactDecimal(x) {
    var view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    var hi = view.getUint32(0);
    var lo = view.getUint32(4);
    var biased = (hi >>> 20) & 0x7ff;
    var mhi = hi & 0xfffff;
    var e;
    if (biased === 0) {
      e = -1074;
    } else {
      mhi += 0x100000;
      e = biased - 1075;
    }
    var m = mhi * 4294967296 + lo; /* exact: m < 2^53 */
    var BASE = 10000000;
    var limbs = []; /* little-endian, base 1e7 */
    while (m > 0) {
      var r = m % BASE;
      limbs.push(r);
      m = (m - r) / BASE;
    }
    function mul(f) {
      var carry = 0;
      for (var i = 0; i < limbs.length; i++) {
        var v = limbs[i] * f + carry;
        var low = v % BASE;
        limbs[i] = low;
        carry = (v - low) / BASE;
      }
      while (carry > 0) {
        var c = carry % BASE;
        limbs.push(c);
        carry = (carry - c) / BASE;
      }
    }
    var scale = 0;
    if (e > 0) {
      var p = e;
      while (p >= 20) {
        mul(1048576);
        p -= 20;
      }
      if (p > 0) {
        mul(Math.pow(2, p));
      }
    } else if (e < 0) {
      scale = -e;
      var q = scale;
      while (q >= 10) {
        mul(9765625);
        q -= 10;
      }
      if (q > 0) {
        mul(Math.pow(5, q));
      }
    }
    if (limbs.length === 0) {
      return { digits: "0", scale: 0 };
    }
    var s = String(limbs[limbs.length - 1]);
    for (var j = limbs.length - 2; j >= 0; j--) {
      var part = String(limbs[j]);
      s += "0000000".slice(part.length) + part;
    }
    return { digits: s, scale: scale };
  }

  function zeros(n) {
    var z = "";
    while (z.length < n) {
      z += "0";
    }
    return z;
  }

  function incrementDigits(s) {
    var chars = s.split("");
    var i = chars.length - 1;
    while (i >= 0) {
      if (chars[i] === "9") {
        chars[i] = "0";
        i--;
      } else {
        chars[i] = String.fromCharCode(chars[i].charCodeAt(0) + 1);
        return chars.join("");
      }
    }
    return "1" + chars.join("");
  }

/*[sci*/
  /* Rust's format!("{:.d$e}", x) as format::sci writes it: d decimals of the mantissa (the
     exact value, ties to even), a superscript exponent, a sign only for x < 0. */
  function sci(x, d) {
    if (x !== x || x === INF || x === -INF) {
      return fixed(x, 0, false);
    }
    var s = "0", e = 0;
    if (x !== 0) {
      var ex = exactDecimal(Math.abs(x));
      s = ex.digits.replace(/^0+/, "");
      e = s.length - 1 - ex.scale;
    }
    s += zeros(d + 1);
    var keep = s.slice(0, d + 1), rest = s.slice(d + 1);
    var first = rest.charCodeAt(0) - 48;
    var up = first > 5 || (first === 5 && (/[1-9]/.test(rest.slice(1)) || (keep.charCodeAt(d) - 48) % 2 === 1));
    if (up) {
      keep = incrementDigits(keep);
      if (keep.length > d + 1) {
        keep = keep.slice(0, d + 1);
        e += 1;
      }
    }
    var sup = String(e).replace(/./g, function (c) { return "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079".charAt("-0123456789".indexOf(c)); });
    return (x < 0 ? "-" : "") + keep.charAt(0) + (d > 0 ? "." + keep.slice(1) : "") + "\u00d710" + sup;
  }
/*sci]*/

  /* Rust's format!("{:.d$}", x) for finite x >= 0: exact value, ties to even. toFixed rounds
     the exact value to nearest too, and differs only on an exact tie (x has at most d+1 binary
     fraction digits, the last decimal one a 5), which it rounds up: that rare case, and x from
     1e21 (toFixed's exponent), take the exact expansion below. */
  function fixedDigits(x, d) {
    if (x < 1e21 && !(x * Math.pow(2, d + 1) % 1 === 0 && x.toFixed(d + 1).slice(-1) === "5")) {
      var t = x.toFixed(d), dot = t.indexOf(".");
      return dot < 0 ? { intPart: t, fracPart: "" } : { intPart: t.slice(0, dot), fracPart: t.slice(dot) };
    }
    var ex = exactDecimal(x);
    var s = ex.digits;
    var k = ex.scale;
    if (k <= d) {
      s = s + zeros(d - k);
    } else {
      var cut = k - d;
      if (s.length < cut + 1) {
        s = zeros(cut + 1 - s.length) + s;
      }
      var keep = s.slice(0, s.length - cut);
      var rest = s.slice(s.length - cut);
      var first = rest.charCodeAt(0) - 48;
      var up;
      if (first > 5) {
        up = true;
      } else if (first < 5) {
        up = false;
      } else if (/[1-9]/.test(rest.slice(1))) {
        up = true;
      } else {
        up = (keep.charCodeAt(keep.length - 1) - 48) % 2 === 1;
      }
      s = up ? incrementDigits(keep) : keep;
    }
    if (s.length < d + 1) {
      s = zeros(d + 1 - s.length) + s;
    }
    var intPart = s.slice(0, s.length - d).replace(/^0+(?=\d)/, "");
    var fracPart = d > 0 ? "." + s.slice(s.length - d) : "";
    return { intPart: intPart, fracPart: fracPart };
  }

  function fixed(x, digits, thousands) {
    if (x !== x) {
      return "NaN";
    }
    if (x === INF) {
      return "\u221e";
    }
    if (x === -INF) {
      return "-\u221e";
    }
    var parts = fixedDigits(Math.abs(x), digits);
    var allZero = /^[0.]*$/.test(parts.intPart + parts.fracPart);
    var out = x < 0 && !allZero ? "-" : "";
    var ip = parts.intPart;
    if (thousands) {
      var grouped = "";
      var n = ip.length;
      for (var i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 === 0) {
          grouped += ",";
        }
        grouped += ip.charAt(i);
      }
      ip = grouped;
    }
    return out + ip + parts.fracPart;
  }

  function autoDigits(x) {
    var a = Math.abs(x);
    if (!isFinite(x) || (a < 1e15 && x === Math.trunc(x)) || a >= 100) {
      return 0;
    }
    if (a >= 10) {
      return 1;
    }
    return 2;
  }

  function digitsArg(d) {
    if (d !== d) {
      return 0;
    }
    var t = Math.trunc(d);
    return t < 0 ? 0 : t > 20 ? 20 : t;
  }

  /* ------------------------------------------------------------- hardware */

  /* The record name(id) returns from table: the entry's name and numbers, keys in Rhai's order. */
  function entry(table, name, what, id) {
    if (!Object.prototype.hasOwnProperty.call(table, id)) {
      fail(name + ": unknown " + what + " id '" + id + "'; known ids: " + Object.keys(table).join(", "));
    }
    var d = table[id];
    var keys = [];
    for (var k in d) {
      if (Object.prototype.hasOwnProperty.call(d, k) && (k === "name" || typeof d[k] === "number")) {
        keys.push(k);
      }
    }
    keys.sort(); /* Rhai maps iterate in key order */
    var out = {};
    for (var i = 0; i < keys.length; i++) {
      out[keys[i]] = d[keys[i]];
    }
    return out;
  }

  function hw(id) {
    return entry(hardware, "hw", "device", id);
  }
/*[model*/

  var modelTable = models || {};

  function model(id) {
    return entry(modelTable, "model", "model", id);
  }
/*model]*/

  /* ------------------------------------------------------------- library */

  var lib = {
    /* queue:: */
    "queue::mm1_wait": function (rho, service) {
      var g = rhoGuard(rho);
      if (g !== null) {
        return g;
      }
      return rho / (1.0 - rho) * service;
    },
    "queue::mm1_sojourn": function (rho, service) {
      var g = rhoGuard(rho);
      if (g !== null) {
        return g;
      }
      return service / (1.0 - rho);
    },
    "queue::pk_wait": function (rho, cs, service) {
      var g = rhoGuard(rho);
      if (g !== null) {
        return g;
      }
      return rho / (1.0 - rho) * ((1.0 + cs * cs) / 2.0) * service;
    },
    "queue::pk_amplification": function (cs) {
      return (1.0 + cs * cs) / 2.0;
    },
    "queue::erlang_c": function (c, rho) {
      var g = mmcGuard(c, rho, 1.0);
      if (g !== null) {
        return g;
      }
      return erlangCUnchecked(c, rho);
    },
    "queue::mmc_wait": function (c, rho, service) {
      var g = mmcGuard(c, rho, INF);
      if (g !== null) {
        return g;
      }
      return erlangCUnchecked(c, rho) * service / (c * (1.0 - rho));
    },
    "queue::mmc_wait_p": function (c, rho, service, p) {
      var g = mmcGuard(c, rho, INF);
      if (g !== null) {
        return g;
      }
      if (p !== p || p < 0 || p > 1) {
        return NaN;
      }
      var cw = erlangCUnchecked(c, rho);
      if (p <= 1.0 - cw) {
        return 0.0;
      }
      return -Math.log((1.0 - p) / cw) * service / (c * (1.0 - rho));
    },
    "queue::kingman_wait": function (rho, ca, cs, service) {
      var g = rhoGuard(rho);
      if (g !== null) {
        return g;
      }
      return rho / (1.0 - rho) * ((ca * ca + cs * cs) / 2.0) * service;
    },

    /* rel:: */
    "rel::system_mtbf": function (mttf, n) {
      if (bad(mttf) || bad(n)) {
        return NaN;
      }
      return mttf / n;
    },
    "rel::failure_prob": function (duration, mtbf) {
      if (bad(duration) || bad(mtbf)) {
        return NaN;
      }
      return -Math.expm1(-duration / mtbf);
    },
    "rel::young_daly": function (tWrite, mtbf) {
      if (bad(tWrite) || bad(mtbf)) {
        return NaN;
      }
      return Math.sqrt(2.0 * tWrite * mtbf);
    },
    "rel::daly": function (tWrite, mtbf) {
      if (bad(tWrite) || bad(mtbf)) {
        return NaN;
      }
      if (tWrite >= 2.0 * mtbf) {
        return mtbf;
      }
      var r = tWrite / (2.0 * mtbf);
      return Math.sqrt(2.0 * tWrite * mtbf) * (1.0 + Math.sqrt(r) / 3.0 + r / 9.0) - tWrite;
    },
    "rel::ckpt_waste": function (tWrite, interval, mtbf) {
      if (bad(tWrite) || bad(interval) || bad(mtbf)) {
        return NaN;
      }
      return tWrite / interval + interval / (2.0 * mtbf);
    },
    "rel::ckpt_waste_opt": function (tWrite, mtbf) {
      if (bad(tWrite) || bad(mtbf)) {
        return NaN;
      }
      return Math.sqrt(2.0 * tWrite / mtbf);
    },
    "rel::ckpt_bytes": function (params, bytesPerParam) {
      return params * bytesPerParam;
    },
    "rel::bytes_per_param": function (scheme) {
      return lookup("rel::bytes_per_param", "scheme", SCHEMES, scheme);
    },
    "rel::availability": function (mtbf, mttr) {
      if (bad(mtbf) || bad(mttr)) {
        return NaN;
      }
      if (mtbf === INF && isFinite(mttr)) {
        return 1.0;
      }
      return mtbf / (mtbf + mttr);
    },

    /* fleet:: */
    "fleet::jain": function (values) {
      var xs = floats("fleet::jain", values);
      if (xs.length === 0) {
        return 1.0;
      }
      var sum = 0.0;
      var sumSq = 0.0;
      for (var i = 0; i < xs.length; i++) {
        var x = xs[i];
        if (x < 0) {
          return NaN;
        }
        sum += x;
        sumSq += x * x;
      }
      if (sumSq === 0) {
        return 1.0;
      }
      return sum * sum / (xs.length * sumSq);
    },
    "fleet::preempt_cost": function (gpus, hoursSinceCkpt, priceHr) {
      return gpus * hoursSinceCkpt * priceHr;
    },
    "fleet::gang_fragmentation": function (freePerNode, gpusPerNode) {
      var free = floats("fleet::gang_fragmentation", freePerNode);
      if (gpusPerNode !== gpusPerNode || gpusPerNode <= 0) {
        return NaN;
      }
      var total = 0.0;
      var stranded = 0.0;
      for (var i = 0; i < free.length; i++) {
        var f = free[i];
        if (f !== f || f < 0) {
          return NaN;
        }
        total += f;
        if (f > 0 && f < gpusPerNode) {
          stranded += f;
        }
      }
      if (total === 0) {
        return 0.0;
      }
      return stranded / total;
    },
    "fleet::schedulable_gang": function (freePerNode, gpusPerNode, jobGpus) {
      var free = floats("fleet::schedulable_gang", freePerNode);
      if (gpusPerNode !== gpusPerNode || gpusPerNode <= 0 || jobGpus !== jobGpus) {
        return false;
      }
      if (jobGpus <= 0) {
        return true;
      }
      var wholeNodes = 0.0;
      for (var i = 0; i < free.length; i++) {
        if (free[i] >= gpusPerNode) {
          wholeNodes += 1.0;
        }
      }
      return wholeNodes * gpusPerNode >= jobGpus;
    },
    "fleet::spares_needed": function (replicas, qps, maxQpsPerReplica, limit) {
      if (whole(limit, MAX_SPARES) < 0) {
        return NaN;
      }
      var s = 0.0;
      while (s < limit) {
        var survivors = replicas + s - 1.0;
        if (survivors > 0 && qps / survivors <= maxQpsPerReplica) {
          return s;
        }
        s += 1.0;
      }
      return limit;
    },

    /* cost:: */
    "cost::gpu_hours_cost": function (gpus, hours, priceHr) {
      return gpus * hours * priceHr;
    },
    "cost::daily": function (gpus, priceHr) {
      return gpus * priceHr * 24.0;
    },

    /* units:: */
    "units::s_to_min": function (x) { return x / 60.0; },
    "units::min_to_s": function (x) { return x * 60.0; },
    "units::s_to_h": function (x) { return x / 3600.0; },
    "units::h_to_s": function (x) { return x * 3600.0; },
    "units::min_to_h": function (x) { return x / 60.0; },
    "units::h_to_min": function (x) { return x * 60.0; },
    "units::h_to_days": function (x) { return x / 24.0; },
    "units::days_to_h": function (x) { return x * 24.0; },
    "units::s_to_days": function (x) { return x / 86400.0; },
    "units::days_to_s": function (x) { return x * 86400.0; },
    "units::ms_to_s": function (x) { return x / 1000.0; },
    "units::s_to_ms": function (x) { return x * 1000.0; },
    "units::gb_to_gib": function (x) { return x * 1e9 / 1073741824.0; },
    "units::gib_to_gb": function (x) { return x * 1073741824.0 / 1e9; },
    "units::gb_to_tb": function (x) { return x / 1000.0; },
    "units::tb_to_gb": function (x) { return x * 1000.0; },
    "units::mb_to_gb": function (x) { return x / 1000.0; },
    "units::gb_to_mb": function (x) { return x * 1000.0; },
    "units::bytes_to_gb": function (x) { return x / 1e9; },
    "units::gb_to_bytes": function (x) { return x * 1e9; },
    "units::bytes_to_tb": function (x) { return x / 1e12; },
    "units::tb_to_bytes": function (x) { return x * 1e12; },
    "units::gbps_to_gbs": function (x) { return x / 8.0; },
    "units::gbs_to_gbps": function (x) { return x * 8.0; },
    "units::tflops_to_flops": function (x) { return x * 1e12; },
    "units::flops_to_tflops": function (x) { return x / 1e12; },
    "units::pflops_to_tflops": function (x) { return x * 1000.0; },
    "units::tflops_to_pflops": function (x) { return x / 1000.0; },

    /* globals */
    "hw": hw,
/*[model*/
    "model": model,
/*model]*/
    "fmt": function (x, digits, style) {
/*[sci*/
      if (style !== undefined) {
        if (style !== "sci") {
          fail("fmt: unknown style \"" + style + "\" (the style is \"sci\")");
        }
        return sci(x, digitsArg(digits));
      }
/*sci]*/
      if (digits === undefined) {
        return fixed(x, autoDigits(x), true);
      }
      return fixed(x, digitsArg(digits), true);
    },
    "fmt_pct": function (x, digits) {
      return fixed(x * 100.0, digitsArg(digits), true) + "%";
    },
    "clamp": function (x, lo, hi) {
      if (x < lo) {
        return lo;
      }
      if (x > hi) {
        return hi;
      }
      return x;
    },
    "range": function (from, to) {
      var out = [];
      var i = 0.0;
      while (from + i < to) {
        if (out.length >= MAX_LIST) {
          fail("range: more than 1000000 elements");
        }
        out.push(from + i);
        i += 1.0;
      }
      return out;
    },
    "linspace": function (a, b, n) {
      var count = whole(n, MAX_LIST);
      if (count < 0) {
        fail("linspace: n must be a whole number from 0 to 1000000");
      }
      if (count === 0) {
        return [];
      }
      if (count === 1) {
        return [a];
      }
      var div = n - 1.0;
      var delta = b - a;
      var step = delta / div;
      var out = new Array(count);
      for (var i = 0; i < count; i++) {
        out[i] = step === 0 ? i / div * delta + a : i * step + a;
      }
      out[count - 1] = b;
      return out;
    },
/*[logspace*/
    "logspace": function (lo, hi, n) {
      if (!(lo > 0 && hi > 0 && isFinite(lo) && isFinite(hi))) {
        fail("logspace: lo and hi must be positive and finite");
      }
      var count = whole(n, MAX_LIST);
      if (count < 0) {
        fail("logspace: n must be a whole number from 0 to 1000000");
      }
      var ratio = hi / lo;
      var out = new Array(count);
      for (var i = 0; i < count; i++) {
        out[i] = lo * Math.pow(ratio, i / (n - 1.0));
      }
      if (count > 0) {
        out[0] = lo;
      }
      if (count > 1) {
        out[count - 1] = hi;
      }
      return out;
    },
/*logspace]*/
    "ceil": function (x) {
      return Math.ceil(x);
    },
    "log10": function (x) {
      return Math.log10(x);
    },
/*[log2*/
    "log2": function (x) {
      return Math.log2(x);
    },
/*log2]*/
    "pow": function (x, y) {
      /* C99 pow, as Rust's powf: these two cases differ from Math.pow. */
      if (x === 1) {
        return 1;
      }
      if (x === -1 && (y === INF || y === -INF)) {
        return 1;
      }
      return Math.pow(x, y);
    },
    /* Rhai standard functions, with Rhai's semantics. */
    "min": function (a, b) {
      return a <= b ? a : b;
    },
    "max": function (a, b) {
      return a >= b ? a : b;
    },
    "abs": function (x) {
      return Math.abs(x);
    },
    "floor": function (x) {
      return Math.floor(x);
    },
    "round": function (x) {
      /* Rust f64::round: halves away from zero (Math.round rounds them up). */
      var r = Math.round(Math.abs(x));
      return x < 0 || Object.is(x, -0) ? -r : r;
    },
    "sqrt": function (x) {
      return Math.sqrt(x);
    },
    "exp": function (x) {
      return Math.exp(x);
    },
    "ln": function (x) {
      return Math.log(x);
    }
  };
  /* The namespaces whose scripts this page carries (see the header). */
  var topics = typeof labforgeTopics === "object" ? labforgeTopics : {};
  var helpers = { fail: fail, whole: whole, bad: bad, lookup: lookup };
  Object.keys(topics).sort().forEach(function (name) {
    topics[name](lib, helpers);
  });
  return lib;
}
