// Paired page benchmark of sim::cluster (benches/sim.sh's cases, as sim-bench.mjs): two pages
// carrying the simulator (e.g. one rendered before a change and one after) open side by side in
// one Chromium, CPU throttled (default 4×, CDP `Emulation.setCPUThrottlingRate`), and for each
// case ROUNDS rounds of a block of ITERS calls on each page, the first page first in even
// rounds and the second in odd ones (each call a new seed, after one warm-up), so that both see
// the same machine load. Prints per case each page's p50 and p95 over all its calls and the
// median of the rounds' p50 ratios (B/A).
// Usage: node sim-pair.mjs A.html B.html [RATE] [ROUNDS] [ITERS] [CASE-PREFIX]
import { launch, open } from './common.mjs';
import { simCases } from './sim-cases.mjs';

const [fa, fb, rateArg, roundsArg, itersArg, only] = process.argv.slice(2);
const RATE = Number(rateArg || 4);
const ROUNDS = Number(roundsArg || 4);
const ITERS = Number(itersArg || 10);
const b = await launch();
try {
  const pages = [];
  for (const f of [fa, fb]) {
    const { page, log } = await open(b.ctx, f);
    const cdp = await b.ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
    pages.push({ page, log });
  }
  const cases = simCases();
  const q = (ms, f) => ms.slice().sort((x, y) => x - y)[Math.floor((ms.length - 1) * f)];
  console.log(`${RATE}× CPU, ${ROUNDS} rounds of ${ITERS} calls per page per case; A = ${fa}, B = ${fb}`);
  console.log(`${'sim::cluster (page)'.padEnd(28)} ${'A p50'.padStart(7)} ${'B p50'.padStart(7)} ${'A p95'.padStart(7)} ${'B p95'.padStart(7)} ${'B/A'.padStart(6)}`);
  for (const [label, config] of cases) {
    if (only && !label.startsWith(only)) continue;
    const all = [[], []];
    const ratios = [];
    for (let r = 0; r < ROUNDS; r++) {
      const p50 = [0, 0];
      for (const k of r % 2 ? [1, 0] : [0, 1]) {
        // The measured page in front (a background tab's renderer runs at a lower priority).
        await pages[k].page.bringToFront();
        const ms = await pages[k].page.evaluate(([cfg, iters, r]) => {
          const L = labforgeLibrary({}, {});
          L['sim::cluster'](cfg);
          const out = [];
          for (let i = 0; i < iters; i++) {
            const c = Object.assign({}, cfg, { seed: 7 + r * iters + i });
            const t = performance.now();
            L['sim::cluster'](c);
            out.push(performance.now() - t);
          }
          return out;
        }, [config, ITERS, r]);
        all[k].push(...ms);
        p50[k] = q(ms, 0.5);
      }
      ratios.push(p50[1] / p50[0]);
    }
    console.log(`${label.padEnd(28)} ${q(all[0], 0.5).toFixed(2).padStart(7)} ${q(all[1], 0.5).toFixed(2).padStart(7)} ${q(all[0], 0.95).toFixed(2).padStart(7)} ${q(all[1], 0.95).toFixed(2).padStart(7)} ${q(ratios, 0.5).toFixed(2).padStart(6)}`);
  }
  for (const { log } of pages) if (log.errors.length) console.log('page errors:', log.errors);
} finally {
  await b.close();
}
