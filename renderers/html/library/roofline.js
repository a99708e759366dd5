/* roofline:: (attainable throughput): twin of crates/engine/src/library/roofline.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.roofline = function (lib, h) {
  "use strict";
  lib["roofline::attainable"] = function (peak, ai, bw) {
    if (h.bad(peak) || h.bad(ai) || h.bad(bw)) {
      return NaN;
    }
    var memory = ai * bw;
    return memory < peak ? memory : peak;
  };
  lib["roofline::ridge"] = function (peak, bw) {
    if (h.bad(peak) || h.bad(bw)) {
      return NaN;
    }
    return peak / bw;
  };
  lib["roofline::gemm_ai"] = function (m, n, k, bytes) {
    if (h.bad(m) || h.bad(n) || h.bad(k) || h.bad(bytes)) {
      return NaN;
    }
    return 2.0 * m * n * k / (bytes * (m * k + k * n + m * n));
  };
  lib["roofline::time_s"] = function (flops, bytes, peak, bw) {
    if (h.bad(flops) || h.bad(bytes) || h.bad(peak) || h.bad(bw)) {
      return NaN;
    }
    var compute = flops / peak;
    var memory = bytes / bw;
    return compute < memory ? memory : compute;
  };
};
