#!/usr/bin/env bash
# sim::cluster at the fleet lab's size in the CLI (cargo bench --bench sim, release) and in the
# page (tests/browser/sim-bench.mjs: full speed and 4× CPU throttle), one after the other in one
# run, with the machine's load average printed before each. Usage: benches/sim.sh
source "$(dirname "$0")/page-setup.sh" tests/inputs/ok_cluster_sim.yaml
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo bench --quiet --bench sim
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd tests/browser && node sim-bench.mjs "${pages[0]}")
