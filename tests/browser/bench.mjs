// Page benchmark: size, external requests, navigation -> first computed output, and the time an
// input event takes to recompute a part (formulas, outputs, banners, panel lines, charts), at
// three profiles: a desktop (1366×900) at full speed, and a desktop and a phone (390×844) with
// Chromium's CPU throttled 4× (CDP `Emulation.setCPUThrottlingRate`, a student's cheap laptop).
// "First output" is navigation -> LF_READY, set when the part on screen is computed (the others
// follow after the first frame; `data-ready` marks all). It is measured twice per page: a first
// visit (nothing saved) and a return visit (every part answered, sliders moved, saved in
// localStorage), which restores and draws more. First paint (first-contentful-paint) is shown
// beside each; a first visit paints before the page's data and scripts are parsed, a return
// visit once the runtime restored the part on screen (first-paint.js). A second table gives the
// paint and the first output of each visit as ratios to the same page's markup only (below)
// and to the baseline pages' mean. Reference rows per profile: an empty page (a paragraph and the script that sets
// LF_READY), the browser's own floor; the baseline, the seed labs' pages as they were when the
// throttled target was set (benches/baseline/, measured there at "~115 ms"), loaded the same way;
// and per page, "markup only": the page with every script and its data removed and that script
// at the end (no CSP, which would block it), what parsing the page's HTML and CSS alone costs.
// Recompute is an input event's update, applied by the page in the next animation frame, timed
// from a frame callback asked for before the event to one asked for after it.
// Targets: size < 150 KiB (176 KiB until the page's scripts were packed, html/pack.rs), no requests; at
// full speed first output < 100 ms and recompute p95
// < 8 ms; throttled, recompute p95 <= 16 ms and first output <= 100/115 of the baseline's first
// output in the same run (the target's "<= 100 ms, today ~115 ms" on the machine at hand; see
// benches/baseline/README.md). The throttled first output is also shown against 100 ms itself.
// Usage: node bench.mjs PAGE...
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, markupOnly, slide, unlockAll } from './common.mjs';

const LOADS = 15, EVENTS = 300;
const PROFILES = [
  { name: 'desktop', width: 1366, height: 900, rate: 1, ready: 100, p95: 8 },
  // Throttled, the first-output target comes from the baseline (null until it is measured).
  { name: 'desktop 4× CPU', width: 1366, height: 900, rate: 4, ready: null, p95: 16 },
  { name: 'phone 4× CPU', width: 390, height: 844, rate: 4, ready: null, p95: 16 },
];
/** The seed labs' pages when issue 10 set the throttled target (labforge at 4217663). */
const BASE_DIR = fileURLToPath(new URL('../../benches/baseline/', import.meta.url));
const BASELINE = fs.readdirSync(BASE_DIR).filter((f) => f.endsWith('.html')).sort().map((f) => path.join(BASE_DIR, f));
/** The target's own figures: first output <= 100 ms where the baseline took ~115 ms. */
const TARGET_MS = 100, BASELINE_MS = 115;
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** A page at the profile's viewport and CPU rate, loaded; counts requests leaving the file. */
async function load(ctx, file, prof, counter) {
  const page = await ctx.newPage();
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:')) counter.n++;
  });
  await page.setViewportSize({ width: prof.width, height: prof.height });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: prof.rate });
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  return page;
}

const EMPTY = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'labforge-bench-')), 'empty page.html');
fs.writeFileSync(EMPTY, '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Empty</title></head><body><p>Empty.</p>' +
  '<script>document.documentElement.setAttribute("data-ready", "1"); window.LF_READY = performance.now();</script></body></html>');

const b = await launch();
const rows = [], ratios = [];
/** Navigation -> LF_READY and -> first paint of LOADS loads of `file`. */
async function loads(file, prof, counter) {
  const ready = [], paint = [];
  for (let i = 0; i < LOADS; i++) {
    const page = await load(b.ctx, file, prof, counter);
    ready.push(await page.evaluate(() => window.LF_READY));
    paint.push(await page.evaluate(() => new Promise((done) => {
      const fcp = () => performance.getEntriesByName('first-contentful-paint')[0];
      (function wait() { if (fcp()) done(fcp().startTime); else setTimeout(wait, 10); })();
    })));
    await page.close();
  }
  return { ready, paint };
}
const ms = (a, p) => pct(a, p).toFixed(1);
/** What the pages saved, erased (file: pages share one localStorage): a first visit finds nothing. */
async function forget() {
  const page = await b.ctx.newPage();
  await page.goto('file://' + path.resolve(EMPTY));
  await page.evaluate(() => localStorage.clear());
  await page.close();
}
try {
  for (const prof of PROFILES) {
    const { ready, paint } = await loads(EMPTY, prof, { n: 0 });
    rows.push({ page: '(empty page)', profile: prof.name, ready_median_ms: ms(ready, 0.5), ready_max_ms: Math.max(...ready).toFixed(1), paint_median_ms: ms(paint, 0.5) });
    // The baseline's pages share this lab's storage keys: each first visit starts from nothing,
    // and nothing they save is left for the pages measured after them.
    const base = [], basePaint = [];
    for (const file of BASELINE) {
      await forget();
      const m = await loads(file, prof, { n: 0 });
      await forget();
      base.push(pct(m.ready, 0.5));
      basePaint.push(pct(m.paint, 0.5));
      rows.push({ page: '(baseline) ' + path.basename(file), profile: prof.name, ready_median_ms: ms(m.ready, 0.5), ready_max_ms: Math.max(...m.ready).toFixed(1), paint_median_ms: ms(m.paint, 0.5) });
    }
    const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
    prof.base = { ready: mean(base), paint: mean(basePaint) };
    if (prof.ready === null) prof.ready = prof.base.ready * TARGET_MS / BASELINE_MS;
  }
  for (const file of process.argv.slice(2)) {
    const size = fs.statSync(file).size;
    const bare = markupOnly(file, path.dirname(EMPTY));
    for (const prof of PROFILES) {
      const counter = { n: 0 };
      const m = await loads(bare, prof, { n: 0 });
      rows.push({ page: '(markup only) ' + file.split('/').pop(), profile: prof.name, ready_median_ms: ms(m.ready, 0.5), ready_max_ms: Math.max(...m.ready).toFixed(1), paint_median_ms: ms(m.paint, 0.5) });
      await forget();
      const first = await loads(file, prof, counter);
      const page = await load(b.ctx, file, prof, counter);
      // Every part open, one part at a time shown (the page's default mode).
      await page.evaluate(() => { if (!document.body.classList.contains('tabbed')) document.querySelector('.tab-mode').click(); });
      await unlockAll(page);
      const times = await slide(page, EVENTS);
      await page.close();
      const back = await loads(file, prof, counter);
      await forget();
      const r = (a, b) => (pct(a, 0.5) / b).toFixed(2);
      const mp = pct(m.paint, 0.5), mr = pct(m.ready, 0.5);
      ratios.push({ page: file.split('/').pop(), profile: prof.name,
        'paint first / markup': r(first.paint, mp), 'paint return / markup': r(back.paint, mp),
        'paint first / baseline': r(first.paint, prof.base.paint), 'paint return / baseline': r(back.paint, prof.base.paint),
        'output first / markup': r(first.ready, mr), 'output return / markup': r(back.ready, mr),
        'output first / baseline': r(first.ready, prof.base.ready), 'output return / baseline': r(back.ready, prof.base.ready) });
      rows.push({ page: file.split('/').pop(), profile: prof.name, bytes: size, kib: (size / 1024).toFixed(1), requests: counter.n,
        ready_median_ms: ms(first.ready, 0.5), ready_max_ms: Math.max(...first.ready).toFixed(1), paint_median_ms: ms(first.paint, 0.5),
        return_ready_median_ms: ms(back.ready, 0.5), return_ready_max_ms: Math.max(...back.ready).toFixed(1), return_paint_median_ms: ms(back.paint, 0.5),
        recompute_p50_ms: pct(times, 0.5).toFixed(2), recompute_p95_ms: pct(times, 0.95).toFixed(2), recompute_max_ms: Math.max(...times).toFixed(2),
        target_ready_ms: prof.ready.toFixed(1), target_p95_ms: prof.p95 });
    }
  }
} finally {
  await b.close();
  fs.rmSync(path.dirname(EMPTY), { recursive: true, force: true });
}
console.table(rows);
// Medians' ratios, first visits and return visits apart: against the same page without its
// scripts ("markup", loaded just before it) and the baseline pages' mean (same profile).
console.table(ratios);
let bad = 0;
for (const r of rows.filter((x) => x.bytes !== undefined)) {
  const at = `${r.page} (${r.profile})`;
  if (r.bytes >= 150 * 1024) { bad++; console.log(`OVER TARGET ${at}: ${r.kib} KiB >= 150 KiB`); }
  if (r.requests) { bad++; console.log(`OVER TARGET ${at}: ${r.requests} external requests`); }
  if (Number(r.ready_median_ms) > Number(r.target_ready_ms)) { bad++; console.log(`OVER TARGET ${at}: first output ${r.ready_median_ms} ms > ${r.target_ready_ms} ms`); }
  if (Number(r.return_ready_median_ms) > Number(r.target_ready_ms)) { bad++; console.log(`OVER TARGET ${at}: first output on a return visit ${r.return_ready_median_ms} ms > ${r.target_ready_ms} ms`); }
  if (r.profile !== PROFILES[0].name && Number(r.ready_median_ms) > TARGET_MS) console.log(`(not a target) ${at}: first output ${r.ready_median_ms} ms > ${TARGET_MS} ms on this machine; the baseline's scaled target is ${r.target_ready_ms} ms`);
  if (Number(r.recompute_p95_ms) > r.target_p95_ms) { bad++; console.log(`OVER TARGET ${at}: recompute p95 ${r.recompute_p95_ms} ms > ${r.target_p95_ms} ms`); }
}
console.log(JSON.stringify(rows));
console.log(JSON.stringify(ratios));
process.exit(bad ? 1 : 0);
