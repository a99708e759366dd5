/* llm:: (weight and KV-cache memory by precision): twin of crates/engine/src/library/llm.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.llm = function (lib, h) {
  "use strict";
  var PRECISIONS = [
    ["fp32", 4.0],
    ["fp16", 2.0],
    ["bf16", 2.0],
    ["fp8", 1.0],
    ["int8", 1.0],
    ["int4", 0.5]
  ];
  lib["llm::bytes_per"] = function (precision) {
    return h.lookup("llm::bytes_per", "precision", PRECISIONS, precision);
  };
  lib["llm::weight_gb"] = function (params, precision) {
    var b = h.lookup("llm::weight_gb", "precision", PRECISIONS, precision);
    return h.bad(params) ? NaN : params * b / 1e9;
  };
  lib["llm::kv_cache_gb"] = function (layers, kvHeads, headDim, seqLen, batch, precision) {
    var b = h.lookup("llm::kv_cache_gb", "precision", PRECISIONS, precision);
    if (h.bad(layers) || h.bad(kvHeads) || h.bad(headDim) || h.bad(seqLen) || h.bad(batch)) {
      return NaN;
    }
    return 2.0 * layers * kvHeads * headDim * seqLen * batch * b / 1e9;
  };
  lib["llm::max_batch"] = function (memGb, weightsGb, kvGbPerSeq) {
    if (h.bad(memGb) || h.bad(weightsGb) || h.bad(kvGbPerSeq)) {
      return NaN;
    }
    var free = memGb - weightsGb;
    if (free <= 0) {
      return 0.0;
    }
    return Math.floor(free / kvGbPerSeq);
  };
  function pagedTokens(seq, block) {
    if (h.whole(block, 1e9) < 1 || h.bad(seq)) {
      return -1;
    }
    return Math.ceil(seq / block) * block;
  }
  lib["llm::paged_kv_gb"] = function (layers, kvHeads, headDim, seqLen, batch, block, precision) {
    var b = h.lookup("llm::paged_kv_gb", "precision", PRECISIONS, precision);
    var tokens = pagedTokens(seqLen, block);
    if (tokens < 0 || h.bad(layers) || h.bad(kvHeads) || h.bad(headDim) || h.bad(batch)) {
      return NaN;
    }
    return 2.0 * layers * kvHeads * headDim * tokens * batch * b / 1e9;
  };
  lib["llm::paged_kv_waste"] = function (seqLen, block) {
    var t = pagedTokens(seqLen, block);
    if (t < 0) {
      return NaN;
    }
    return t > 0 ? (t - seqLen) / t : 0.0;
  };
};
