// What a load computes, and when (runtime.js "loading"): the part on screen when LF_READY is
// set (the first computed output), the other parts after the first frame (then `data-ready`),
// a part at once when its tab is shown, every part when printing; a chart on screen is drawn
// by its observer after the page's first layout, not before (without an observer, at once).
// A returning student's saved settings (every part answered, each part's first slider at its
// minimum) make each part's outputs differ from the page's markup (Rust's values at the
// defaults), so a part's outputs tell whether it has been computed. The moment LF_READY is set is caught by a setter that an
// init script defines, which also acts there (a tab click, a beforeprint event); each step adds
// its init script after the earlier ones, so its setter, defined last, is the one that runs.
// Usage: node load.mjs PAGE
import fs from 'node:fs';
import { launch, open, unlockAll, reloadSaved, checker } from './common.mjs';

const file = process.argv[2];
const { check, finish } = checker();

/** Each part's outputs in the page's markup: { part: { output: data-value } }. */
function markupValues(html) {
  const out = {};
  for (const sec of html.split('<section class="part"').slice(1)) {
    const part = /data-part="([^"]+)"/.exec(sec)[1];
    out[part] = {};
    for (const m of sec.matchAll(/data-output="([^"]+)" data-value="([^"]*)"/g)) out[part][m[1]] = m[2];
  }
  return out;
}
const ssr = markupValues(fs.readFileSync(file, 'utf8'));

/** In the page: each part's output values, which parts have a drawn chart, and the part shown. */
const snapshot = () => {
  const parts = {};
  for (const sec of document.querySelectorAll('[data-part]')) {
    const v = {};
    for (const o of sec.querySelectorAll('[data-output]')) v[o.getAttribute('data-output')] = o.getAttribute('data-value');
    parts[sec.getAttribute('data-part')] = { values: v, charts: sec.querySelectorAll('figure.chart svg.lf-chart').length,
      figures: sec.querySelectorAll('figure.chart').length };
  }
  const cur = document.querySelector('.tabbed .part.current');
  return { parts, shown: cur && cur.getAttribute('data-part') };
};

/** Catches the moment LF_READY is set: runs `act` (source of a function of the page) there and
 *  keeps the snapshot taken after it in window.__atReady. */
const atReady = (act) => `(() => {
  const snapshot = ${snapshot.toString()};
  let v;
  Object.defineProperty(window, 'LF_READY', { configurable: true, get: () => v, set: (x) => {
    v = x; (${act})(); window.__atReady = snapshot();
  } });
})();`;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const b = await launch();
try {
  // A returning student: every part answered, each part's first slider at its minimum (at its
  // maximum where the minimum is the default: the setting must be one the student changed).
  const { page, log } = await open(b.ctx, file, { tabs: true });
  await unlockAll(page);
  const moved = await page.evaluate(() => [...document.querySelectorAll('[data-part]')].map((sec) => {
    const s = sec.querySelector('input[type=range][data-control]');
    if (!s) return null;
    s.value = s.value === s.min ? s.max : s.min;
    s.dispatchEvent(new Event('input', { bubbles: true }));
    return sec.getAttribute('data-part');
  }).filter(Boolean));
  await page.locator('nav.tabs a').first().click();
  const settled = await page.evaluate(snapshot);
  const parts = Object.keys(settled.parts);
  const first = parts[0];
  const computed = (snap, p) => same(snap.parts[p].values, settled.parts[p].values);
  const fromMarkup = (snap, p) => same(snap.parts[p].values, ssr[p]);
  const telling = moved.filter((p) => !same(settled.parts[p].values, ssr[p]));
  check('the saved settings change the outputs of at least two parts', telling.length >= 2, JSON.stringify({ moved, telling }));
  const later = telling.filter((p) => p !== first);
  check('a part after the first tells', later.length >= 1, JSON.stringify(telling));
  const withChart = parts.filter((p) => settled.parts[p].charts > 0);

  // 1. A plain load: the part shown is computed at LF_READY, the others are not yet; all are
  //    at data-ready, with the values an input gives; the shown chart is drawn after LF_READY.
  await page.addInitScript(atReady('() => {}'));
  await reloadSaved(page);
  const r = await page.evaluate(() => window.__atReady);
  // data-ready, then two frames: the first frame's observer has drawn the chart on screen.
  await page.evaluate(() => new Promise((f) => requestAnimationFrame(() => requestAnimationFrame(f))));
  const done = await page.evaluate(snapshot);
  check('at LF_READY the shown part is the first', r.shown === first, r.shown);
  check('at LF_READY the shown part is computed at the saved settings', computed(r, first), JSON.stringify([r.parts[first], settled.parts[first]]));
  for (const p of later) check(`at LF_READY part ${p} (not shown) still shows the markup's values`, fromMarkup(r, p), JSON.stringify(r.parts[p].values));
  for (const p of parts) check(`at data-ready part ${p} is computed`, computed(done, p), JSON.stringify([done.parts[p].values, settled.parts[p].values]));
  if (withChart.includes(first)) {
    check('at LF_READY the shown chart waits for its first layout', r.parts[first].charts === 0, String(r.parts[first].charts));
    check('after the first frames the shown chart is drawn', done.parts[first].charts === settled.parts[first].charts, JSON.stringify(done.parts[first]));
  }
  for (const p of parts.filter((x) => x !== first)) check(`after the load part ${p}'s charts wait for its tab`, done.parts[p].charts === 0, String(done.parts[p].charts));

  // 2. A tab shown before the others are computed computes its part at once.
  const target = later[later.length - 1];
  await page.addInitScript(atReady(`() => document.querySelector('[data-tab="${target}"]').click()`));
  await reloadSaved(page);
  const t = await page.evaluate(() => window.__atReady);
  check(`a click on tab ${target} before the others are computed shows it`, t.shown === target, t.shown);
  check(`... and computes part ${target} at once`, computed(t, target), JSON.stringify([t.parts[target].values, settled.parts[target].values]));

  // 3. Printing before the others are computed computes and draws every part.
  await page.addInitScript(atReady(`() => window.dispatchEvent(new Event('beforeprint'))`));
  await reloadSaved(page);
  const pr = await page.evaluate(() => window.__atReady);
  for (const p of parts) check(`printing computes part ${p} at once`, computed(pr, p), JSON.stringify(pr.parts[p].values));
  for (const p of withChart) check(`printing draws part ${p}'s charts`, pr.parts[p].charts === settled.parts[p].charts, JSON.stringify(pr.parts[p]));

  // 4. A browser without ResizeObserver (nothing reports a figure as it appears) draws every
  //    chart as its part is computed, shown or not.
  await page.addInitScript(atReady('() => {}'));
  await page.addInitScript(() => { window.ResizeObserver = undefined; });
  await reloadSaved(page);
  const old = await page.evaluate(snapshot);
  const figured = parts.filter((p) => old.parts[p].figures > 0);
  check('parts with charts', figured.length >= 2, JSON.stringify(figured));
  for (const p of figured) check(`without ResizeObserver part ${p}'s charts are drawn`, old.parts[p].charts === old.parts[p].figures, JSON.stringify(old.parts[p]));

  check('no console errors', log.errors.length === 0, log.errors.join('; '));
} finally {
  await b.close();
}
finish();
