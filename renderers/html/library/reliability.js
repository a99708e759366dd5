/* rel::ckpt_bytes_per_param and rel::stacked_availability: twins of crates/engine/src/library/reliability.rs
   (the rest of rel:: is in library.js; a page carries this file only when it calls these two). */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.reliability = function (lib, h) {
  "use strict";
  /* The table of rel::bytes_per_param (library.js), under its new name in errors too. */
  lib["rel::ckpt_bytes_per_param"] = function (scheme) {
    try {
      return lib["rel::bytes_per_param"](scheme);
    } catch (e) {
      return h.fail(e.message.replace("rel::bytes_per_param", "rel::ckpt_bytes_per_param"));
    }
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
