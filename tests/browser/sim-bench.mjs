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
import { simCases } from './sim-cases.mjs';

const [file] = process.argv.slice(2);
const ITERS = 30;
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const cdp = await b.ctx.newCDPSession(page);
  console.log(`${'sim::cluster (page)'.padEnd(30)} ${'iters'.padStart(6)} ${'ms p50'.padStart(9)} ${'ms p95'.padStart(9)}`);
  const cases = simCases();
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
