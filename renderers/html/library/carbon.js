/* carbon:: (operational and embodied CO2e): twin of crates/engine/src/library/carbon.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.carbon = function (lib, h) {
  "use strict";
  lib["carbon::energy_kwh"] = function (devices, watts, hours) {
    if (h.bad(devices) || h.bad(watts) || h.bad(hours)) {
      return NaN;
    }
    return devices * watts * hours / 1000.0;
  };
  lib["carbon::operational_t"] = function (itKwh, pue, grid) {
    if (h.bad(itKwh) || pue !== pue || pue < 1 || h.bad(grid)) {
      return NaN;
    }
    return itKwh * pue * grid / 1e6;
  };
  lib["carbon::embodied_t"] = function (embodiedKg, lifetimeYears, hoursUsed) {
    if (h.bad(embodiedKg) || h.bad(lifetimeYears) || h.bad(hoursUsed)) {
      return NaN;
    }
    return embodiedKg * hoursUsed / (lifetimeYears * 8760.0) / 1000.0;
  };
};
