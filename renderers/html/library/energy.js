/* energy:: (energy per operation, Horowitz 2014): twin of crates/engine/src/library/energy.rs. */
var labforgeTopics = labforgeTopics || {};
labforgeTopics.energy = function (lib, h) {
  "use strict";
  var OPS = [
    ["int8_add", 0.03],
    ["int16_add", 0.05],
    ["int32_add", 0.1],
    ["fp16_add", 0.4],
    ["fp32_add", 0.9],
    ["int8_mult", 0.2],
    ["int32_mult", 3.1],
    ["fp16_mult", 1.1],
    ["fp32_mult", 3.7],
    ["sram_read_32b", 5.0],
    ["dram_read_32b", 640.0]
  ];
  lib["energy::op_pj"] = function (op) {
    return h.lookup("energy::op_pj", "operation", OPS, op);
  };
  lib["energy::ops_j"] = function (count, op) {
    var pj = h.lookup("energy::ops_j", "operation", OPS, op);
    return h.bad(count) ? NaN : count * pj / 1e12;
  };
  lib["energy::workload_j"] = function (ops, op, dramWords, sramWords) {
    var pj = h.lookup("energy::workload_j", "operation", OPS, op);
    if (h.bad(ops) || h.bad(dramWords) || h.bad(sramWords)) {
      return NaN;
    }
    return (ops * pj + dramWords * 640.0 + sramWords * 5.0) / 1e12;
  };
};
