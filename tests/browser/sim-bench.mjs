// Page benchmark of sim::cluster (benches/sim.sh): opens a rendered page that carries the
// simulator (tests/inputs/ok_cluster_sim.yaml), and times the page's own library call at the
// fleet lab's size (256 GPUs, 2,000 jobs, five teams of 1-64-GPU jobs, C_s = 3) for each policy
// with and without backfill, at full speed and with Chromium's CPU throttled 4× (CDP
// `Emulation.setCPUThrottlingRate`); then fleet-orchestration part B's own call (the mix at its
// default weights 40/30/30, window 16, five teams of 1/64/8/2/32 GPUs, C_s = 1.5, 30-minute
// jobs) at its default load and at full load; each call with a new seed (7, 8, ..., as
// benches/sim.rs, where the library keeps the runs it has seen). Target: <= 16 ms a call throttled.
// Usage: node sim-bench.mjs PAGE
import { launch, open } from './common.mjs';

const [file] = process.argv.slice(2);
const ITERS = 30;
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const cdp = await b.ctx.newCDPSession(page);
  console.log(`${'sim::cluster (page)'.padEnd(30)} ${'iters'.padStart(6)} ${'ms p50'.padStart(9)} ${'ms p95'.padStart(9)}`);
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
  for (const rate of [1, 4]) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    for (const [label, config] of cases) {
      const ms = await page.evaluate(([cfg, iters]) => {
        const L = labforgeLibrary({}, {});
        L['sim::cluster'](cfg);
        const out = [];
        for (let i = 0; i < iters; i++) {
          const c = Object.assign({}, cfg, { seed: 7 + i });
          const t = performance.now();
          L['sim::cluster'](c);
          out.push(performance.now() - t);
        }
        return out.sort((a, b) => a - b);
      }, [config, ITERS]);
      const p = (q) => ms[Math.floor((ms.length - 1) * q)];
      const name = `${label} ${rate}× CPU`;
      console.log(`${name.padEnd(30)} ${String(ITERS).padStart(6)} ${p(0.5).toFixed(2).padStart(9)} ${p(0.95).toFixed(2).padStart(9)}`);
    }
  }
  if (log.errors.length) console.log('page errors:', log.errors);
} finally {
  await b.close();
}
