// Drag benchmark (benches/drag.sh): every slider of every part of each page dragged with the
// mouse across its track, a move every 16 ms (40 moves, press to release), with the part shown
// (one part at a time, every part unlocked), at full speed and with Chromium's CPU throttled 4×
// (CDP `Emulation.setCPUThrottlingRate`). Long tasks (over 50 ms) come from a PerformanceObserver
// (`longtask`) in the page, counted from the press to 300 ms after the release. Targets: no long
// task at full speed (none over 50 ms) and none over 100 ms at 4×. Prints a row per page,
// profile and slider, then the worst per page and profile; exits non-zero when a target is
// missed. `--json FILE` also writes the rows. Usage: node drag.mjs [--json FILE] PAGE...
import fs from 'node:fs';
import path from 'node:path';
import { launch, dragPage } from './common.mjs';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : null;
const MOVES = 40, GAP_MS = 16;
const PROFILES = [{ name: 'desktop', rate: 1, max: 50 }, { name: 'desktop 4× CPU', rate: 4, max: 100 }];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const OBSERVE = `(() => {
  window.__long = [];
  try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true }); } catch (e) {}
})();`;

const b = await launch();
const rows = [];
try {
  for (const file of args) {
    for (const prof of PROFILES) {
      const { page, cdp } = await dragPage(b.ctx, file, prof.rate, OBSERVE);
      const sliders = await page.evaluate(() => [...document.querySelectorAll('[data-part]')].flatMap((sec) =>
        [...sec.querySelectorAll('input[type=range][data-control]')].map((s, k) => [sec.getAttribute('data-part'), k, s.getAttribute('data-control')])));
      for (const [part, k, id] of sliders) {
        await page.click(`[data-tab="${part}"]`);
        const s = page.locator(`[data-part="${part}"] input[type=range][data-control]`).nth(k);
        await s.scrollIntoViewIfNeeded();
        await sleep(300);
        const box = await s.boundingBox();
        if (!box) continue;
        const y = box.y + box.height / 2, x0 = box.x + 4, x1 = box.x + box.width - 4;
        const t0 = await page.evaluate(() => performance.now());
        await page.mouse.move(x0, y);
        await page.mouse.down();
        for (let i = 1; i <= MOVES; i++) {
          await page.mouse.move(x0 + (x1 - x0) * i / MOVES, y);
          await sleep(GAP_MS);
        }
        await page.mouse.up();
        await sleep(300);
        const long = await page.evaluate((t0) => window.__long.filter(([at]) => at >= t0).map(([, d]) => d), t0);
        rows.push({ page: path.basename(file), profile: prof.name, slider: `${part}/${id}`, long_tasks: long.length,
          longest_ms: long.length ? Math.max(...long).toFixed(0) : '0', total_ms: long.reduce((a, x) => a + x, 0).toFixed(0), target_ms: prof.max });
      }
      await page.close();
    }
  }
} finally {
  await b.close();
}
console.table(rows);
const worst = {};
for (const r of rows) {
  const k = `${r.page} (${r.profile})`;
  const w = worst[k] || (worst[k] = { page: r.page, profile: r.profile, sliders: 0, long_tasks: 0, longest_ms: 0, slider: '', target_ms: r.target_ms });
  w.sliders++;
  w.long_tasks += r.long_tasks;
  if (Number(r.longest_ms) > w.longest_ms) { w.longest_ms = Number(r.longest_ms); w.slider = r.slider; }
}
console.table(Object.values(worst));
let bad = 0;
for (const w of Object.values(worst)) {
  if (w.longest_ms > w.target_ms) { bad++; console.log(`OVER TARGET ${w.page} (${w.profile}): a long task of ${w.longest_ms} ms (${w.slider}) > ${w.target_ms} ms`); }
}
if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(rows, null, 1));
process.exit(bad ? 1 : 0);
