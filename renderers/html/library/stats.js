/* stats:: and rand:: (error function and CDFs, list statistics, seeded draws): twin of
   crates/engine/src/library/stats.rs and crates/engine/src/library/random.rs. exp and ln are the library's own (expA, lnA:
   arithmetic and exact scalings only, in the order of the Rust twin), and the generator is
   32-bit xoshiro128** with Math.imul, so every result is the same bits as in Rust.
   The work the list functions and the draws charge is charged by rhai.js's _fn. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.stats = function (lib, h) {
  "use strict";
  var LN2_HI = 0.6931471803691238;
  var LN2_LO = 1.9082149292705877e-10;
  var LOG2_E = 1.4426950408889634;
  var SQRT_2 = 1.4142135623730951;
  var FRAC_1_SQRT_PI = 0.5641895835477563;
  var dv = new DataView(new ArrayBuffer(8));

  function pow2(j) {
    dv.setUint32(0, (j + 1023) << 20);
    dv.setUint32(4, 0);
    return dv.getFloat64(0);
  }

  function expA(x) {
    if (x !== x) {
      return x;
    }
    if (x > 709.782712893384) {
      return Infinity;
    }
    if (x < -745.1332191019412) {
      return 0;
    }
    var k = Math.floor(x * LOG2_E + 0.5);
    var r = (x - k * LN2_HI) - k * LN2_LO;
    var p = 1.0;
    for (var n = 14.0; n >= 1.0; n -= 1.0) {
      p = 1.0 + r / n * p;
    }
    var k1 = Math.trunc(k / 2.0);
    return p * pow2(k1) * pow2(k - k1);
  }

  function lnA(x) {
    if (x !== x || x < 0) {
      return NaN;
    }
    if (x === 0) {
      return -Infinity;
    }
    if (x === Infinity) {
      return x;
    }
    var y = x;
    var e = 0.0;
    if (y < 2.2250738585072014e-308) {
      y *= 18014398509481984.0;
      e = -54.0;
    }
    dv.setFloat64(0, y);
    var hi = dv.getUint32(0);
    e += ((hi >>> 20) & 0x7ff) - 1023;
    dv.setUint32(0, (hi & 0xfffff) | 0x3ff00000);
    var m = dv.getFloat64(0);
    if (m > SQRT_2) {
      m /= 2.0;
      e += 1.0;
    }
    var f = (m - 1.0) / (m + 1.0);
    var s = f * f;
    var p = 0.0;
    for (var k = 23.0; k >= 3.0; k -= 2.0) {
      p = (1.0 / k + p) * s;
    }
    var lnM = 2.0 * f + 2.0 * f * p;
    return e * LN2_HI + (e * LN2_LO + lnM);
  }

  function expNegSq(x) {
    var hi = Math.floor(x * 65536.0) / 65536.0;
    var lo = x - hi;
    return expA(-(hi * hi)) * expA(-((hi + x) * lo));
  }

  function erfcTail(a) {
    if (a > 27.3) {
      return 0.0;
    }
    var k = a < 2.0 ? 120.0 : (a < 3.0 ? 60.0 : 30.0);
    var t = a;
    for (; k >= 1.0; k -= 1.0) {
      t = a + k / 2.0 / t;
    }
    return expNegSq(a) * FRAC_1_SQRT_PI / t;
  }

  function erf(x) {
    if (x !== x) {
      return x;
    }
    var a = Math.abs(x);
    var v;
    if (a < 1.5) {
      var x2 = a * a;
      var t = a;
      var sum = a;
      var n = 0.0;
      while (n < 60.0) {
        n += 1.0;
        t = t * 2.0 * x2 / (2.0 * n + 1.0);
        var next = sum + t;
        if (next === sum) {
          break;
        }
        sum = next;
      }
      v = 2.0 * FRAC_1_SQRT_PI * expNegSq(a) * sum;
    } else {
      v = 1.0 - erfcTail(a);
    }
    return x < 0 ? -v : v;
  }

  function erfc(x) {
    if (x !== x) {
      return x;
    }
    return x < 1.5 ? 1.0 - erf(x) : erfcTail(x);
  }

  function normalCdf(x, mu, sigma) {
    if (sigma !== sigma || sigma <= 0 || x !== x || mu !== mu) {
      return NaN;
    }
    return 0.5 * erfc(-((x - mu) / (sigma * SQRT_2)));
  }

  /* A list argument as numbers (the library's floats, for this script alone). */
  function floats(path, values) {
    if (!Array.isArray(values)) {
      h.fail(path + ": expected a list");
    }
    for (var i = 0; i < values.length; i++) {
      if (typeof values[i] !== "number") {
        h.fail(path + ": element " + i + " is not a number");
      }
    }
    return values;
  }

  /* A numeric typed-array sort: ascending, -0 before 0, NaN last (as the Rust twin). */
  function sorted(values) {
    return Array.prototype.slice.call(Float64Array.from(values).sort());
  }

  function total(xs) {
    var s = 0.0;
    for (var i = 0; i < xs.length; i++) {
      s += xs[i];
    }
    return s;
  }

  lib["stats::erf"] = erf;
  lib["stats::erfc"] = erfc;
  lib["stats::normal_cdf"] = normalCdf;
  lib["stats::lognormal_cdf"] = function (x, mu, sigma) {
    if (sigma !== sigma || sigma <= 0 || x !== x || mu !== mu) {
      return NaN;
    }
    return x <= 0 ? 0.0 : normalCdf(lnA(x), mu, sigma);
  };
  lib["stats::psi"] = function (expected, actual) {
    floats("stats::psi", expected);
    floats("stats::psi", actual);
    if (expected.length !== actual.length) {
      h.fail("stats::psi: expected has " + expected.length + " bins and actual " + actual.length +
        "; they must be the same bins");
    }
    var te = total(expected);
    var ta = total(actual);
    var all = expected.concat(actual);
    for (var i = 0; i < all.length; i++) {
      if (all[i] !== all[i] || all[i] < 0) {
        return NaN;
      }
    }
    if (expected.length === 0 || !(te > 0 && isFinite(te) && ta > 0 && isFinite(ta))) {
      return NaN;
    }
    var sum = 0.0;
    for (var j = 0; j < expected.length; j++) {
      var e = Math.max(expected[j] / te, 1e-4);
      var a = Math.max(actual[j] / ta, 1e-4);
      sum += (a - e) * lnA(a / e);
    }
    return sum;
  };
  lib["stats::sort"] = function (values) {
    return sorted(floats("stats::sort", values));
  };
  lib["stats::percentile"] = function (values, p) {
    floats("stats::percentile", values);
    if (values.length === 0 || p !== p || p < 0 || p > 100) {
      return NaN;
    }
    for (var i = 0; i < values.length; i++) {
      if (values[i] !== values[i]) {
        return NaN;
      }
    }
    return percentileSorted(sorted(values), p);
  };
  /* The value at p % of ascending values without NaN (stats::percentile_sorted). */
  function percentileSorted(v, p) {
    var hh = (v.length - 1.0) * (p / 100.0);
    var lo = Math.floor(hh);
    var frac = hh - lo;
    if (frac === 0 || lo + 1 >= v.length) {
      return v[lo];
    }
    return v[lo] + frac * (v[lo + 1] - v[lo]);
  }
  lib["stats::histogram"] = function (values, lo, hi, bins) {
    floats("stats::histogram", values);
    var n = h.whole(bins, 1e6);
    if (n < 1) {
      h.fail("stats::histogram: bins must be a whole number from 1 to 1000000");
    }
    if (!(isFinite(lo) && isFinite(hi) && lo < hi)) {
      h.fail("stats::histogram: lo and hi must be finite numbers with lo < hi");
    }
    var counts = [];
    for (var c = 0; c < n; c++) {
      counts.push(0.0);
    }
    var width = hi - lo;
    for (var k = 0; k < values.length; k++) {
      var x = values[k];
      if (!(x >= lo && x <= hi)) {
        continue;
      }
      var b = Math.floor((x - lo) / width * bins);
      if (b >= bins) {
        b = bins - 1;
      }
      counts[b] += 1.0;
    }
    return counts;
  };

  /* ------------------------------------------------------------------ rand:: */

  function mix(x) {
    x ^= x >>> 16;
    x = Math.imul(x, 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    x ^= x >>> 16;
    return x >>> 0;
  }

  function rotl(x, k) {
    return (x << k) | (x >>> (32 - k));
  }

  /* xoshiro128** seeded as crates/engine/src/library/random.rs; returns the uniform-draw function. */
  function generator(seed) {
    var G = 0x9e3779b9;
    var lo = seed % 4294967296;
    var hi = Math.floor(seed / 4294967296);
    /* The state as int32 (every use is a 32-bit operation, so the same bits as the unsigned
       words): in an Int32Array, a step stores no heap numbers, where closure variables
       holding values beyond 2^30 would allocate one per store. */
    var s = new Int32Array(4);
    s[0] = mix((lo + G) >>> 0);
    s[1] = mix((hi + 2 * G) >>> 0);
    s[2] = mix((lo + 3 * G) >>> 0);
    s[3] = mix((hi + 4 * G) >>> 0);
    function next() {
      var r = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
      var t = s[1] << 9;
      s[2] ^= s[0];
      s[3] ^= s[1];
      s[1] ^= s[2];
      s[0] ^= s[3];
      s[2] ^= t;
      s[3] = rotl(s[3], 11);
      return r;
    }
    return function () {
      var a = next() >>> 5;
      var b = next() >>> 6;
      return (a * 67108864.0 + b) / 9007199254740992.0;
    };
  }

  function start(path, seed, n) {
    if (h.whole(seed, 9007199254740991) < 0) {
      h.fail(path + ": the seed must be a whole number from 0 to 9007199254740991");
    }
    if (h.whole(n, 1e6) < 0) {
      h.fail(path + ": n must be a whole number from 0 to 1000000");
    }
    return generator(seed);
  }

  function nans(n) {
    var out = [];
    for (var i = 0; i < n; i++) {
      out.push(NaN);
    }
    return out;
  }

  function normals(u, n) {
    var out = [];
    while (out.length < n) {
      var a = 2.0 * u() - 1.0;
      var b = 2.0 * u() - 1.0;
      var s = a * a + b * b;
      if (s >= 1.0 || s === 0) {
        continue;
      }
      var f = Math.sqrt(-2.0 * lnA(s) / s);
      out.push(a * f);
      if (out.length < n) {
        out.push(b * f);
      }
    }
    return out;
  }

  function each(n, draw) {
    var out = [];
    for (var i = 0; i < n; i++) {
      out.push(draw());
    }
    return out;
  }

  /* For sim.js (sim::cluster draws from the same generator with the same exp and ln). */
  h.generator = generator;
  h.expA = expA;
  h.lnA = lnA;
  h.percentileSorted = percentileSorted;

  lib["rand::uniform"] = function (seed, n) {
    return each(n, start("rand::uniform", seed, n));
  };
  lib["rand::normal"] = function (seed, n, mu, sigma) {
    var u = start("rand::normal", seed, n);
    if (mu !== mu || sigma !== sigma || sigma < 0) {
      return nans(n);
    }
    return normals(u, n).map(function (z) {
      return mu + sigma * z;
    });
  };
  lib["rand::lognormal"] = function (seed, n, mu, sigma) {
    var u = start("rand::lognormal", seed, n);
    if (mu !== mu || sigma !== sigma || sigma < 0) {
      return nans(n);
    }
    return normals(u, n).map(function (z) {
      return expA(mu + sigma * z);
    });
  };
  lib["rand::exponential"] = function (seed, n, mean) {
    var u = start("rand::exponential", seed, n);
    if (mean !== mean || mean < 0) {
      return nans(n);
    }
    return each(n, function () {
      return 0.0 - mean * lnA(1.0 - u());
    });
  };
  lib["rand::pareto"] = function (seed, n, xm, alpha) {
    var u = start("rand::pareto", seed, n);
    if (xm !== xm || alpha !== alpha || xm <= 0 || alpha <= 0) {
      return nans(n);
    }
    return each(n, function () {
      return xm * expA(0.0 - lnA(1.0 - u()) / alpha);
    });
  };
  lib["rand::poisson"] = function (seed, n, lambda) {
    var u = start("rand::poisson", seed, n);
    if (!(lambda >= 0 && lambda <= 1e6)) {
      return nans(n);
    }
    return each(n, function () {
      var k = 0.0;
      var left = lambda;
      while (left > 0) {
        var c = left < 500.0 ? left : 500.0;
        left -= c;
        var limit = expA(-c);
        var p = 1.0;
        for (;;) {
          p *= u();
          if (p <= limit) {
            break;
          }
          k += 1.0;
        }
      }
      return k;
    });
  };
};
