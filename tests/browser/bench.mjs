// Page benchmark: size, external requests, navigation -> first computed output, and the time an
// input event takes to recompute a part (formulas, outputs, banners, panel lines, charts).
// Usage: node bench.mjs PAGE...
import fs from 'node:fs';
import { launch, open, unlockAll } from './common.mjs';

const LOADS = 15, EVENTS = 300;
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const b = await launch();
const rows = [];
try {
  for (const file of process.argv.slice(2)) {
    const size = fs.statSync(file).size;
    const ready = [];
    let requests = 0;
    for (let i = 0; i < LOADS; i++) {
      const { page, log } = await open(b.ctx, file);
      ready.push(await page.evaluate(() => window.LF_READY));
      requests += log.requests.length;
      await page.close();
    }
    const { page, log } = await open(b.ctx, file);
    await unlockAll(page);
    const times = await page.evaluate((n) => {
      const out = [];
      const sliders = [...document.querySelectorAll('[data-part] input[type=range][data-control]')];
      for (let i = 0; i < n; i++) {
        const s = sliders[i % sliders.length];
        const lo = Number(s.min), hi = Number(s.max), st = Number(s.step) || 1;
        const k = Math.floor(((i * 7919) % 1000) / 1000 * ((hi - lo) / st + 1));
        s.value = String(lo + k * st);
        const t0 = performance.now();
        s.dispatchEvent(new Event('input', { bubbles: true }));
        out.push(performance.now() - t0);
      }
      return out;
    }, EVENTS);
    requests += log.requests.length;
    await page.close();
    rows.push({ page: file.split('/').pop(), bytes: size, kib: (size / 1024).toFixed(1), requests,
      ready_median_ms: pct(ready, 0.5).toFixed(1), ready_max_ms: Math.max(...ready).toFixed(1),
      recompute_p50_ms: pct(times, 0.5).toFixed(2), recompute_p95_ms: pct(times, 0.95).toFixed(2), recompute_max_ms: Math.max(...times).toFixed(2) });
  }
} finally {
  await b.close();
}
console.table(rows);
let bad = 0;
for (const r of rows) {
  if (r.bytes >= 150 * 1024) { bad++; console.log(`OVER TARGET ${r.page}: ${r.kib} KiB >= 150 KiB`); }
  if (r.requests) { bad++; console.log(`OVER TARGET ${r.page}: ${r.requests} external requests`); }
  if (Number(r.ready_median_ms) >= 100) { bad++; console.log(`OVER TARGET ${r.page}: first output ${r.ready_median_ms} ms >= 100 ms`); }
  if (Number(r.recompute_p95_ms) >= 8) { bad++; console.log(`OVER TARGET ${r.page}: recompute p95 ${r.recompute_p95_ms} ms >= 8 ms`); }
}
console.log(JSON.stringify(rows));
process.exit(bad ? 1 : 0);
