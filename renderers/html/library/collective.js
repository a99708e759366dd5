/* collective:: (collective communication, alpha-beta model): twin of crates/engine/src/library/collective.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.collective = function (lib, h) {
  "use strict";
  var MAX_RANKS = 1e9;

  function invalid(n, p, alpha, bw) {
    return h.whole(p, MAX_RANKS) <= 0 || h.bad(n) || h.bad(alpha) || h.bad(bw);
  }

  function ring(n, p, alpha, bw) {
    if (invalid(n, p, alpha, bw)) {
      return NaN;
    }
    return 2.0 * (p - 1.0) / p * (n / bw) + 2.0 * (p - 1.0) * alpha;
  }

  function half(n, p, alpha, bw) {
    if (invalid(n, p, alpha, bw)) {
      return NaN;
    }
    return (p - 1.0) / p * (n / bw) + (p - 1.0) * alpha;
  }

  lib["collective::alltoall_s"] = function (n, p, alpha, bw) {
    if (invalid(n, p, alpha, bw)) {
      return NaN;
    }
    return (p - 1.0) * alpha + (p - 1.0) / p * (n / bw);
  };
  lib["collective::p2p_s"] = function (n, alpha, bw) {
    if (h.bad(n) || h.bad(alpha) || h.bad(bw)) {
      return NaN;
    }
    return alpha + n / bw;
  };
  lib["collective::ring_allreduce_s"] = ring;
  lib["collective::allgather_s"] = half;
  lib["collective::reduce_scatter_s"] = half;
  lib["collective::tree_allreduce_s"] = function (n, p, alpha, bw) {
    if (invalid(n, p, alpha, bw)) {
      return NaN;
    }
    var steps = 0.0;
    var reach = 1.0;
    while (reach < p) {
      reach *= 2.0;
      steps += 1.0;
    }
    return 2.0 * steps * (alpha + n / bw);
  };
  lib["collective::hier_allreduce_s"] = function (n, g, nodes, alphaIntra, bwIntra, alphaInter, bwInter) {
    if (invalid(n, g, alphaIntra, bwIntra) || invalid(n, nodes, alphaInter, bwInter)) {
      return NaN;
    }
    return ring(n, g, alphaIntra, bwIntra) + ring(n / g, nodes, alphaInter, bwInter);
  };
  lib["collective::scaling_efficiency"] = function (tCompute, tComm, overlap) {
    if (h.bad(tCompute) || h.bad(tComm) || overlap !== overlap || overlap < 0 || overlap > 1) {
      return NaN;
    }
    return tCompute / (tCompute + (1.0 - overlap) * tComm);
  };
};
