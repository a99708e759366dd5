/* train:: (training compute, pipeline bubble, memory): twin of crates/engine/src/library/train.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.train = function (lib, h) {
  "use strict";
  var STATE = [
    ["fp16_adam_mixed", 16.0],
    ["bf16_adam_mixed", 16.0],
    ["fp32_adam", 16.0]
  ];
  lib["train::flops"] = function (params, tokens) {
    return h.bad(params) || h.bad(tokens) ? NaN : 6.0 * params * tokens;
  };
  lib["train::chinchilla_tokens"] = function (params) {
    return h.bad(params) ? NaN : 20.0 * params;
  };
  lib["train::pipeline_bubble"] = function (p, m) {
    if (h.whole(p, 1e9) < 1 || h.whole(m, 1e9) < 1) {
      return NaN;
    }
    return (p - 1.0) / (p - 1.0 + m);
  };
  lib["train::activation_gb"] = function (seq, batch, hidden, heads, layers) {
    if (h.bad(seq) || h.bad(batch) || h.bad(hidden) || h.bad(heads) || h.bad(layers)) {
      return NaN;
    }
    return layers * (seq * batch * hidden * (34.0 + 5.0 * heads * seq / hidden)) / 1e9;
  };
  lib["train::state_bytes_per_param"] = function (scheme) {
    return h.lookup("train::state_bytes_per_param", "scheme", STATE, scheme);
  };
};
