// The cases of the sim::cluster page benchmarks (sim-bench.mjs, sim-pair.mjs; benches/sim.rs has
// the same for the CLI): the issue's size (256 GPUs, 2,000 jobs, five teams of 1-64-GPU jobs,
// C_s = 3) for each policy with and without backfill at load 0.8 and 1.0, then
// fleet-orchestration part B's own call (the mix at its default weights 40/30/30, window 16,
// five teams of 1/64/8/2/32 GPUs, C_s = 1.5, 30-minute jobs) at its default load and at full
// load. Pairs [label, configuration] (seed 7; the benchmarks give each call its own seed).
export function simCases() {
  const issue = (policy, backfill, load) => ({ seed: 7, nodes: 32, gpus_per_node: 8, teams: 5,
    sizes: [1, 2, 8, 32, 64], jobs: 2000, load, cs: 3, policy, backfill });
  const lab = (backfill, load) => ({ seed: 7, nodes: 32, gpus_per_node: 8, teams: 5,
    sizes: [1, 64, 8, 2, 32], jobs: 2000, load, mean: 30, cs: 1.5, policy: 'mix', w_age: 40,
    w_size: 30, w_fair: 30, backfill, window: 16, points: 20 });
  const cases = [];
  for (const policy of ['fifo', 'sjf', 'fair', 'mix']) {
    for (const backfill of [false, true]) {
      for (const load of [0.8, 1.0]) cases.push([`${policy}${backfill ? '+backfill' : ''} load ${load}`, issue(policy, backfill, load)]);
    }
  }
  for (const backfill of [false, true]) {
    for (const load of [0.85, 1.0]) cases.push([`lab B${backfill ? '+backfill' : ''} load ${load}`, lab(backfill, load)]);
  }
  return cases;
}
