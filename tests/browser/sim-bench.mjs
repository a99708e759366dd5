// Page benchmark of sim::cluster (benches/sim.sh): opens a rendered page that carries the
// simulator (tests/inputs/ok_cluster_sim.yaml), and times the page's own library call at the
// fleet lab's size (256 GPUs, 2,000 jobs, five teams of 1-64-GPU jobs, C_s = 3) for each policy
// with and without backfill, at full speed and with Chromium's CPU throttled 4× (CDP
// `Emulation.setCPUThrottlingRate`). Target: <= 16 ms a call throttled. Usage: node sim-bench.mjs PAGE
import { launch, open } from './common.mjs';

const [file] = process.argv.slice(2);
const ITERS = 30;
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const cdp = await b.ctx.newCDPSession(page);
  console.log(`${'sim::cluster (page)'.padEnd(30)} ${'iters'.padStart(6)} ${'ms p50'.padStart(9)} ${'ms p95'.padStart(9)}`);
  for (const rate of [1, 4]) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    for (const policy of ['fifo', 'sjf', 'fair', 'mix']) {
      for (const backfill of [false, true]) {
        for (const load of [0.8, 1.0]) {
          const ms = await page.evaluate(([policy, backfill, load, iters]) => {
            const L = labforgeLibrary({}, {});
            const cfg = { seed: 7, nodes: 32, gpus_per_node: 8, teams: 5, sizes: [1, 2, 8, 32, 64],
              jobs: 2000, load, cs: 3, policy, backfill };
            L['sim::cluster'](cfg);
            const out = [];
            for (let i = 0; i < iters; i++) {
              const t = performance.now();
              L['sim::cluster'](cfg);
              out.push(performance.now() - t);
            }
            return out.sort((a, b) => a - b);
          }, [policy, backfill, load, ITERS]);
          const p = (q) => ms[Math.floor((ms.length - 1) * q)];
          const name = `${policy}${backfill ? '+backfill' : ''} load ${load} ${rate}× CPU`;
          console.log(`${name.padEnd(30)} ${String(ITERS).padStart(6)} ${p(0.5).toFixed(2).padStart(9)} ${p(0.95).toFixed(2).padStart(9)}`);
        }
      }
    }
  }
  if (log.errors.length) console.log('page errors:', log.errors);
} finally {
  await b.close();
}
