// Paired before/after of what a drag costs (benches/drag.sh measures long tasks; this, on a
// shared machine, the ratio): two renderings of a page, in one run, alternating A B / B A round
// by round, at full speed and with the CPU throttled 4×. In each page every part unlocked and
// shown in turn, each slider moved to 20 positions across its track, each move a `change`
// event, whose handler recomputes the part synchronously (formulas, outputs, prose, the charts
// on screen): its duration is one recompute. Prints per slider and profile the median over
// rounds of the slowest and the median recompute, before and after, and the median of the
// paired ratios after / before. Usage: node drag-pair.mjs BEFORE.html AFTER.html [ROUNDS]
import path from 'node:path';
import { launch, emptyStorage, unlockAll } from './common.mjs';

const [before, after, roundsArg] = process.argv.slice(2);
const ROUNDS = Number(roundsArg || 5), STEPS = 20;
const PROFILES = [{ name: 'desktop', rate: 1 }, { name: 'desktop 4× CPU', rate: 4 }];
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const b = await launch();

async function measure(file, rate) {
  const page = await b.ctx.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('file://' + path.resolve(file));
  await emptyStorage(page);
  await page.reload();
  await page.waitForSelector('html[data-ready]', { timeout: 60000 });
  await unlockAll(page);
  const cdp = await b.ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const out = await page.evaluate(async (STEPS) => {
    const res = {};
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (const sec of document.querySelectorAll('[data-part]')) {
      const pid = sec.getAttribute('data-part');
      const tab = document.querySelector(`[data-tab="${pid}"]`);
      if (tab) tab.click();
      await frame();
      for (const s of sec.querySelectorAll('input[type=range][data-control]')) {
        const lo = Number(s.min), hi = Number(s.max), st = Number(s.step) || 1, n = Math.round((hi - lo) / st);
        const times = [];
        for (let i = 0; i <= STEPS; i++) {
          s.value = String(lo + Math.round((n * i) / STEPS) * st);
          s.dispatchEvent(new Event('input', { bubbles: true }));
          const t0 = performance.now();
          s.dispatchEvent(new Event('change', { bubbles: true }));
          times.push(performance.now() - t0);
          await frame();
        }
        res[pid + '/' + s.getAttribute('data-control')] = times;
      }
    }
    return res;
  }, STEPS);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.close();
  return out;
}

const rows = [];
try {
  for (const prof of PROFILES) {
    const acc = {};
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [['after', after], ['before', before]] : [['before', before], ['after', after]];
      const got = {};
      for (const [k, f] of order) got[k] = await measure(f, prof.rate);
      for (const id of Object.keys(got.before)) {
        const a = (acc[id] ||= { bmax: [], amax: [], bmed: [], amed: [], rmax: [], rmed: [] });
        const bm = Math.max(...got.before[id]), am = Math.max(...(got.after[id] || [NaN]));
        const bd = med(got.before[id]), ad = med(got.after[id] || [NaN]);
        a.bmax.push(bm); a.amax.push(am); a.bmed.push(bd); a.amed.push(ad); a.rmax.push(am / bm); a.rmed.push(ad / bd);
      }
    }
    for (const [id, a] of Object.entries(acc)) {
      rows.push({ profile: prof.name, slider: id, before_max_ms: med(a.bmax).toFixed(1), after_max_ms: med(a.amax).toFixed(1),
        ratio_max: med(a.rmax).toFixed(2), before_p50_ms: med(a.bmed).toFixed(1), after_p50_ms: med(a.amed).toFixed(1), ratio_p50: med(a.rmed).toFixed(2) });
    }
  }
} finally {
  await b.close();
}
console.table(rows);
