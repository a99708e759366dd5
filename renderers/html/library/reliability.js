/* rel::ckpt_bytes_per_param and rel::stacked_availability: twins of src/library/reliability.rs
   (the rest of rel:: is in library.js; a page carries this file only when it calls these two). */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.reliability = function (lib, h) {
  "use strict";
  var SCHEMES = [
    ["fp16_adam_mixed", 14],
    ["fp32_adam", 12],
    ["bf16_weights", 2],
    ["fp32_weights", 4],
    ["int8_weights", 1]
  ];
  lib["rel::ckpt_bytes_per_param"] = function (scheme) {
    return h.lookup("rel::ckpt_bytes_per_param", "scheme", SCHEMES, scheme);
  };
  lib["rel::stacked_availability"] = function (a, k) {
    if (a !== a || a < 0 || a > 1 || h.bad(k)) {
      return NaN;
    }
    var q = 1.0 - a;
    if (q === 1.0) {
      return 0.0;
    }
    return 1.0 - Math.pow(q, k);
  };
};
