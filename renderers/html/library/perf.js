/* perf:: (Amdahl's law, light in fibre): twin of crates/engine/src/library/perf.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.perf = function (lib, h) {
  "use strict";
  lib["perf::amdahl"] = function (p, s) {
    if (p !== p || p < 0 || p > 1 || s !== s || s <= 0) {
      return NaN;
    }
    return 1.0 / ((1.0 - p) + p / s);
  };
  lib["perf::fibre_rtt_ms"] = function (km) {
    return h.bad(km) ? NaN : 2.0 * km / 200000.0 * 1000.0;
  };
};
