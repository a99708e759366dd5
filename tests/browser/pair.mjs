// Before/after comparison of two renderings of the same pages (benches/pair.sh), in one run:
// per page and profile (a desktop at full speed, and with the CPU throttled 4×), ROUNDS rounds,
// each loading in a new tab the page without its scripts ("markup"), the page from BEFORE and
// the page from AFTER, in an order that alternates round by round (A B / B A), each as a first
// visit (nothing saved) and a return visit (a saved record: every part answered, sliders moved,
// the same record for both). Per load: first contentful paint and first computed output
// (LF_READY). Prints medians and the median of the paired ratios (after / before, after /
// markup), first and return visits apart. Usage: node pair.mjs BEFORE_DIR AFTER_DIR NAME.html...
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, markupOnly, settle, unlockAll } from './common.mjs';

const [beforeDir, afterDir, ...names] = process.argv.slice(2);
const ROUNDS = Number(process.env.PAIR_ROUNDS || 15);
const PROFILES = [{ name: 'desktop', rate: 1 }, { name: 'desktop 4× CPU', rate: 4 }];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labforge-pair-'));
const HOLD = path.join(tmp, 'hold.html');
fs.writeFileSync(HOLD, '<!doctype html><title>hold</title>');
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const b = await launch();
// A page of the origin kept open, through which the storage is set (see common.mjs `settle`).
const hold = await b.ctx.newPage();
await hold.goto('file://' + HOLD);

/** Makes the storage hold exactly `entries` ([key, value]) for a new document. */
async function storage(entries) {
  await hold.evaluate((e) => { localStorage.clear(); for (const [k, v] of e) localStorage.setItem(k, v); }, entries);
  (await settle(hold)).close();
}
async function load(file, rate) {
  const page = await b.ctx.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  const cdp = await b.ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  const r = await page.evaluate(() => new Promise((done) => {
    const fcp = () => performance.getEntriesByName('first-contentful-paint')[0];
    (function wait() { if (fcp()) done([fcp().startTime, window.LF_READY]); else setTimeout(wait, 10); })();
  }));
  await page.close();
  return { paint: r[0], ready: r[1] };
}
/** The saved record of a returning student on `file`: its lab's storage entry. */
async function record(file) {
  await storage([]);
  const page = await b.ctx.newPage();
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('html[data-ready]');
  await unlockAll(page);
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('[data-part] input[type=range][data-control]')) {
      s.value = s.min;
      s.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
  const entry = await page.evaluate(() => {
    const k = 'labforge:' + JSON.parse(document.getElementById('lf-data').textContent).lab.id;
    return Object.entries(localStorage).find(([key]) => key.startsWith(k + ':v'));
  });
  await page.close();
  return entry;
}
const rows = [];
try {
  for (const name of names) {
    const before = path.join(beforeDir, name), after = path.join(afterDir, name);
    const markup = markupOnly(after, tmp);
    const saved = await record(after);
    for (const prof of PROFILES) {
      const m = { markup: [], before: [], after: [] }, back = { before: [], after: [] };
      for (let i = 0; i < ROUNDS; i++) {
        m.markup.push(await load(markup, prof.rate));
        const order = i % 2 ? ['after', 'before'] : ['before', 'after'];
        for (const v of order) {
          await storage([]);
          m[v].push(await load(v === 'before' ? before : after, prof.rate));
        }
        for (const v of [...order].reverse()) {
          await storage([saved]);
          back[v].push(await load(v === 'before' ? before : after, prof.rate));
        }
      }
      const ratio = (x, y, k) => med(x.map((a, i) => a[k] / y[i][k])).toFixed(2);
      for (const [visit, set] of [['first', m], ['return', { ...back, markup: m.markup }]]) {
        rows.push({ page: name, profile: prof.name, visit,
          'paint markup ms': med(set.markup.map((x) => x.paint)).toFixed(0),
          'paint before ms': med(set.before.map((x) => x.paint)).toFixed(0), 'paint after ms': med(set.after.map((x) => x.paint)).toFixed(0),
          'paint after/before': ratio(set.after, set.before, 'paint'), 'paint after/markup': ratio(set.after, set.markup, 'paint'),
          'output before ms': med(set.before.map((x) => x.ready)).toFixed(1), 'output after ms': med(set.after.map((x) => x.ready)).toFixed(1),
          'output after/before': ratio(set.after, set.before, 'ready'), 'output after/markup': ratio(set.after, set.markup, 'ready') });
      }
    }
  }
} finally {
  await b.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.table(rows);
console.log(JSON.stringify(rows));
