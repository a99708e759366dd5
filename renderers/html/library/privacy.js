/* privacy:: (differential-privacy noise and composition): twin of crates/engine/src/library/privacy.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.privacy = function (lib, h) {
  "use strict";
  function prob(d) {
    return d > 0 && d < 1;
  }
  lib["privacy::laplace_scale"] = function (sens, eps) {
    return h.bad(sens) || eps !== eps || eps <= 0 ? NaN : sens / eps;
  };
  lib["privacy::gaussian_sigma"] = function (sens, eps, delta) {
    if (h.bad(sens) || eps !== eps || eps <= 0 || !prob(delta)) {
      return NaN;
    }
    return sens * Math.sqrt(2.0 * Math.log(1.25 / delta)) / eps;
  };
  lib["privacy::compose_basic"] = function (eps, k) {
    return h.bad(eps) || h.bad(k) ? NaN : k * eps;
  };
  lib["privacy::compose_advanced"] = function (eps, k, dp) {
    if (h.bad(eps) || h.bad(k) || !prob(dp)) {
      return NaN;
    }
    return eps * Math.sqrt(2.0 * k * Math.log(1.0 / dp)) + k * eps * Math.expm1(eps);
  };
};
