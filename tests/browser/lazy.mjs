// A chart in a hidden tab is drawn when it is shown (its tab, "Show all parts") or printed, and
// then equals the handout's drawing (render/svg, from Rust) at the settings made while it was
// hidden; while hidden, inputs do not draw it. Input: a JSON file written by
// tests/chromium/charts_browser.rs: { page, cases: [{ part, control, value, charts: { uid: svg } }] }.
import fs from 'node:fs';
import { launch, open, unlockAll } from './common.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = await launch();
let failed = 0;
const check = (name, ok, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ' ' + detail}`);
  if (!ok) failed++;
};
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
try {
  const { page, log } = await open(b.ctx, spec.page, { tabs: true });
  await unlockAll(page);
  await page.locator('nav.tabs a').first().click();
  // Record each drawing as charts.js makes it, at the handout's 640 px (the page draws at its
  // figure's width), and count the drawings per chart.
  await page.evaluate(() => {
    const L = window.LFCharts, svg = L.svg;
    window.__svgs = {};
    window.__drawn = {};
    L.svg = (ch, uid, w, lean) => {
      window.__svgs[uid] = svg(ch, uid);
      window.__drawn[uid] = (window.__drawn[uid] || 0) + 1;
      return svg(ch, uid, w, lean);
    };
  });
  const drawn = () => page.evaluate(() => ({ ...window.__drawn }));
  const set = (c) => page.evaluate(({ part, control, value }) => {
    const s = document.querySelector(`[data-part="${part}"] input[data-control="${control}"]`);
    s.value = value;
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, c);
  const compare = async (at, c) => {
    const svgs = await page.evaluate(() => window.__svgs);
    for (const [uid, want] of Object.entries(c.charts)) {
      check(`${at}: ${uid} equals the handout's drawing`, svgs[uid] === want, svgs[uid] === undefined ? 'not drawn' : 'differs');
    }
  };
  for (const c of spec.cases) {
    const at = `part ${c.part}, ${c.control} = ${c.value}`;
    const before = await drawn();
    await set(c);
    const hidden = await drawn();
    check(`${at}: not drawn while its tab is hidden`, Object.keys(c.charts).every((u) => hidden[u] === before[u]), JSON.stringify([before, hidden]));
    await page.click(`[data-tab="${c.part}"]`);
    await frames(page);
    const shown = await drawn();
    check(`${at}: drawn once when shown`, Object.keys(c.charts).every((u) => shown[u] === (hidden[u] || 0) + 1), JSON.stringify([hidden, shown]));
    await compare(`${at}, shown`, c);
    const fits = await page.evaluate((part) => [...document.querySelectorAll(`[data-part="${part}"] figure.chart`)]
      .map((f) => [f.querySelector('svg').getAttribute('width'), Math.round(f.clientWidth).toFixed(1)]), c.part);
    check(`${at}: drawn at its figure's width`, fits.length > 0 && fits.every(([a, w]) => a === w), JSON.stringify(fits));
    await page.locator('nav.tabs a').first().click();
  }
  // Hidden charts with inputs pending are drawn when every part is shown, and for print.
  const last = spec.cases[spec.cases.length - 1];
  for (const [how, act] of [
    ['"Show all parts"', async () => { await page.click('.tab-mode'); await frames(page); await page.click('.tab-mode'); }],
    // A media query's change is reported in the next frame's rendering steps, before its
    // animation frame callbacks: two frames later it has been (and the media is still print).
    ['print media', async () => { await page.emulateMedia({ media: 'print' }); await frames(page); await page.emulateMedia({ media: 'screen' }); }],
    ['printing to PDF', async () => { await page.pdf(); }],
  ]) {
    await page.locator('nav.tabs a').first().click();
    await page.evaluate(() => { window.__svgs = {}; });
    const before = await drawn();
    // Another setting first: the page recomputes nothing for the settings it already has.
    await page.evaluate(({ part, control }) => {
      const s = document.querySelector(`[data-part="${part}"] input[data-control="${control}"]`);
      s.value = s.value === s.min ? s.max : s.min;
      s.dispatchEvent(new Event('input', { bubbles: true }));
    }, last);
    await frames(page);
    await set(last);
    await act();
    const after = await drawn();
    check(`${how}: every pending chart drawn`, Object.keys(last.charts).every((u) => after[u] === (before[u] || 0) + 1), JSON.stringify([before, after]));
    await compare(how, last);
  }
  check('every figure has a drawing', await page.evaluate(() => [...document.querySelectorAll('figure.chart')].every((f) => f.querySelector('svg.lf-chart'))));
  check('no console errors', log.errors.length === 0, log.errors.join('; '));
} finally {
  await b.close();
}
console.log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
