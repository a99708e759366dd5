// Input is applied once per animation frame (runtime.js "recompute"): in the part on screen
// with a chart and sliders (every part unlocked), counting recomputes (the `labforge:record`
// event each one saves with; the chart drawings, LFCharts.svg) against the frames the page drew
// (an animation frame loop started before the inputs, so it runs first in each frame):
// - 50 input events in one task: one recompute, after the task, by the next frame, at the last value;
// - 50 input events each in its own task, one right after the other, and 2 ms apart: at most
//   one recompute per frame, and the last value applied;
// - two sliders moved in one frame: one recompute and one drawing of each chart;
// - input that leaves the settings as they are (the same position again, or a `change` at the
//   end of a drag already applied): no recompute.
// Usage: node burst.mjs PAGE
import { launch, open, unlockAll, checker } from './common.mjs';

const { check, finish } = checker();
const b = await launch();
try {
  const { page, log } = await open(b.ctx, process.argv[2], { tabs: true });
  await unlockAll(page);
  const part = await page.evaluate(() => {
    const sec = [...document.querySelectorAll('[data-part]')].find((s) => s.querySelector('figure.chart') && s.querySelectorAll('input[type=range][data-control]').length >= 2);
    return sec && sec.getAttribute('data-part');
  });
  // A page without such a part has nothing here to test (the other shipped pages have one;
  // tests/chromium/speed_browser.rs asks that at least one does).
  if (!part) {
    console.log('SKIPPED: no part with a chart and two sliders');
    await b.close();
    finish();
  }
  await page.click(`[data-tab="${part}"]`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // The counters: frames drawn, recomputes (and the frame each came in), chart drawings.
  await page.evaluate(() => {
    const w = window.__burst = { frame: 0, recomputes: [], drawn: 0 };
    (function tick() { w.frame++; requestAnimationFrame(tick); })();
    document.addEventListener('labforge:record', () => w.recomputes.push(w.frame));
    const svg = window.LFCharts.svg;
    window.LFCharts.svg = function () { w.drawn++; return svg.apply(this, arguments); };
  });
  const reset = () => page.evaluate(() => { window.__burst.recomputes = []; window.__burst.drawn = 0; });
  const counts = () => page.evaluate(() => ({ ...window.__burst }));
  const frames = (n) => page.evaluate((n) => new Promise((r) => { const f = (k) => (k ? requestAnimationFrame(() => f(k - 1)) : r()); f(n); }), n);
  /** The part's output values and the value of slider `i`. */
  const values = (i) => page.evaluate(([part, i]) => {
    const sec = document.querySelector(`[data-part="${part}"]`);
    return { slider: sec.querySelectorAll('input[type=range][data-control]')[i].value,
      out: [...sec.querySelectorAll('[data-output]')].map((o) => o.getAttribute('data-value')) };
  }, [part, i]);
  /** Positions (37 k + o) mod n of slider `i` (0..n-1 across its range; `i` a list: the k-th
   *  event moves the slider i[k mod length]), one input event each, `gap` ms
   *  apart (0: all in one task); the slider's value at the end (and, in one task, the number of
   *  recomputes by then and the frame it ran in). */
  const burst = (i, n, gap, same = false, o = 0) => page.evaluate(([part, i, n, gap, same, o]) => new Promise((done) => {
    const all = document.querySelector(`[data-part="${part}"]`).querySelectorAll('input[type=range][data-control]');
    const each = [].concat(i).map((j) => all[j]);
    let k = 0, s = each[0];
    const one = () => {
      s = each[k % each.length];
      const lo = Number(s.min), hi = Number(s.max), st = Number(s.step) || (hi - lo) / 100;
      if (!same) s.value = String(lo + Math.round(((k * 37 + o) % n) / (n - 1) * Math.round((hi - lo) / st)) * st);
      s.dispatchEvent(new Event('input', { bubbles: true }));
      k++;
    };
    if (gap === 0) { while (k < n) one(); done([s.value, window.__burst.recomputes.length, window.__burst.frame]); return; }
    // Each event its own task: a timer `gap` ms on, or (gap < 0) a message, the next task.
    const ch = new MessageChannel();
    const next = () => { one(); if (k >= n) done([s.value]); else if (gap < 0) ch.port2.postMessage(0); else setTimeout(next, gap); };
    ch.port1.onmessage = next;
    next();
  }), [part, i, n, gap, same, o]);

  // 1. One task, 50 events: one recompute, in the frame after, at the last value.
  await reset();
  const [last, during, at] = await burst(0, 50, 0);
  await frames(3);
  const one = await counts();
  check('50 inputs in one task: nothing recomputed in the task', during === 0, String(during));
  check('50 inputs in one task: one recompute', one.recomputes.length === 1, JSON.stringify(one.recomputes));
  check('... before the next frame or in it', one.recomputes[0] <= at + 1, JSON.stringify([at, one.recomputes]));
  const applied = await values(0);
  check('... at the last value', applied.slider === last, JSON.stringify([applied.slider, last]));
  // The same settings through `change` (what a drag's end sends) compute nothing more, and the
  // outputs are those of the last value: a recompute there would give the same.
  await page.evaluate((part) => document.querySelector(`[data-part="${part}"] input[type=range][data-control]`).dispatchEvent(new Event('change', { bubbles: true })), part);
  await frames(2);
  check('a change at the settings already applied: no recompute', (await counts()).recomputes.length === 1);

  // 2. 50 events, each in its own task: at most one recompute per frame.
  for (const [how, gap, o] of [['one task each', -1, 7], ['2 ms apart', 2, 19]]) {
    await reset();
    const [last2] = await burst(0, 50, gap, false, o);
    await frames(3);
    const paced = await counts();
    const perFrame = {};
    for (const f of paced.recomputes) perFrame[f] = (perFrame[f] || 0) + 1;
    check(`50 inputs ${how}: at most one recompute per frame`, paced.recomputes.length >= 1 && Object.values(perFrame).every((n) => n === 1), JSON.stringify(perFrame));
    const applied2 = await values(0);
    check(`... the last value applied`, applied2.slider === last2, JSON.stringify([applied2.slider, last2]));
  }

  // 3. Two sliders moved in one task: one recompute, each chart drawn once.
  const charts = await page.evaluate((part) => document.querySelectorAll(`[data-part="${part}"] figure.chart`).length, part);
  await reset();
  await burst([0, 1], 10, 0, false, 3);
  await frames(3);
  const both = await counts();
  check('two sliders in one frame: one recompute', both.recomputes.length === 1, JSON.stringify(both.recomputes));
  check('... each chart drawn at most once', both.drawn <= charts, JSON.stringify([both.drawn, charts]));

  // 4. The same position again: nothing recomputed.
  await reset();
  await burst(1, 20, 0, true);
  await frames(3);
  check('20 inputs at the same position: no recompute', (await counts()).recomputes.length === 0, JSON.stringify((await counts()).recomputes));
  check('no console errors', log.errors.length === 0, log.errors.join('; '));
} finally {
  await b.close();
}
finish();
