// The first frame a student sees (renderers/html/first-paint.js). The page is served over
// HTTP in two pieces, with a pause before its data and scripts (`#lf-tabs`, then `lf-data`), so
// whether the browser may paint before the scripts run does not depend on how fast it parses:
// - a first visit (nothing saved) paints during the pause, before the runtime ran, showing one
//   part (the tab picked by tabs.js) with the server-rendered values;
// - a visit with only a tab saved paints during the pause too, on that tab;
// - a return visit (saved settings) paints only after the runtime ran, and its first frame
//   already shows the saved settings in the part on screen: no frame of the defaults.
// What the first frame shows is read in the first animation frame callback of a visible page (an init script
// asks for it before any of the page's scripts run), which runs in the first rendering update,
// right before that frame is painted; a render-blocked document runs none.
// Usage: node paint.mjs PAGE
import fs from 'node:fs';
import http from 'node:http';
import { launch, unlockAll, settle, checker } from './common.mjs';

const file = process.argv[2];
const html = fs.readFileSync(file, 'utf8');
const split = html.indexOf('<script type="application/json" id="lf-data">');
if (split < 0) throw new Error(`${file}: no page data`);
// Long enough for any machine to paint during it when allowed to; only the order is checked.
const PAUSE_MS = 3000;
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  // A page of the origin that reads the storage (common.mjs `settle`).
  if (req.url === '/probe') { res.end('<!doctype html><title>storage probe</title>'); return; }
  res.write(html.slice(0, split));
  setTimeout(() => res.end(html.slice(split)), PAUSE_MS);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/page.html`, probeUrl = url.replace('page.html', 'probe');
const { check, finish } = checker();

/** In the page: the shown part, the parts laid out, and each output's value and text. */
const snapshot = () => {
  const laid = [...document.querySelectorAll('[data-part]')].filter((s) => s.getClientRects().length > 0).map((s) => s.getAttribute('data-part'));
  const cur = document.querySelector('.tabbed .part.current');
  const values = {};
  for (const o of document.querySelectorAll('[data-part] [data-output]')) {
    values[o.closest('[data-part]').getAttribute('data-part') + '.' + o.getAttribute('data-output')] = [o.getAttribute('data-value'), (o.querySelector('[data-text]') || o).textContent];
  }
  const readouts = {};
  for (const o of document.querySelectorAll('[data-control-display]')) readouts[o.getAttribute('data-control-display')] = o.textContent;
  return { ran: window.LF_READY !== undefined, shown: cur && cur.getAttribute('data-part'), laid, values, readouts };
};
const FIRST_FRAME = `(() => {
  const snapshot = ${snapshot.toString()};
  // A frame of a page held invisible (first-paint.js, a return visit) shows the student nothing:
  // the first frame is the first one drawn visible.
  const frame = () => {
    if (getComputedStyle(document.documentElement).visibility === 'hidden') { requestAnimationFrame(frame); return; }
    window.__firstFrame = snapshot(); window.__firstFrameAt = performance.now();
  };
  requestAnimationFrame(frame);
})();`;

/** Loads the page in a new tab; returns the first frame's snapshot, the first contentful paint
 *  and LF_READY (ms since navigation), and the page once it is ready. */
async function visit(ctx) {
  const page = await ctx.newPage();
  await page.addInitScript(FIRST_FRAME);
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  const r = await page.evaluate(() => new Promise((done) => {
    const fcp = () => performance.getEntriesByName('first-contentful-paint')[0];
    (function wait() {
      if (fcp() && window.__firstFrame) done({ frame: window.__firstFrame, frameAt: window.__firstFrameAt, paint: fcp().startTime, ready: window.LF_READY });
      else setTimeout(wait, 10);
    })();
  }));
  return { ...r, page };
}
const b = await launch();
try {
  // 1. A first visit: painted in the pause, before any script but the head's and the tabs ran.
  const first = await visit(b.ctx);
  const parts = await first.page.evaluate(() => [...document.querySelectorAll('[data-part]')].map((s) => s.getAttribute('data-part')));
  const settled = await first.page.evaluate(snapshot);
  check('first visit: the first frame comes before the runtime ran', !first.frame.ran, JSON.stringify(first.frame));
  check('first visit: first contentful paint before the first computed output', first.paint < first.ready, `${first.paint} >= ${first.ready}`);
  check('first visit: the first paint comes in the pause, before the rest of the page arrived', first.paint < PAUSE_MS, String(first.paint));
  check('first visit: the first frame lays out one part, the first', JSON.stringify(first.frame.laid) === JSON.stringify([parts[0]]), JSON.stringify(first.frame.laid));
  check('first visit: the first frame already shows the values the page computes', JSON.stringify(first.frame.values) === JSON.stringify(settled.values),
    JSON.stringify(Object.entries(settled.values).filter(([k, v]) => JSON.stringify(first.frame.values[k]) !== JSON.stringify(v))));

  // 2. Only the tab saved (the student looked at another part, answered nothing; tabs.js keeps
  //    the part shown under its own key): still early, on that tab.
  const tab = parts[parts.length - 1];
  await first.page.evaluate((tab) => localStorage.setItem('labforge-view:' + location.pathname + ':tab', 'part-' + tab), tab);
  const probe = await settle(first.page, probeUrl);
  await first.page.close();
  const tabbed = await visit(b.ctx);
  await probe.close();
  check('tab saved: the first frame comes before the runtime ran', !tabbed.frame.ran, JSON.stringify(tabbed.frame));
  check(`tab saved: the first frame shows part ${tab}`, tabbed.frame.shown === tab && JSON.stringify(tabbed.frame.laid) === JSON.stringify([tab]), JSON.stringify(tabbed.frame));

  // 3. A return visit: every part answered, the shown part's sliders moved (saved).
  const page = tabbed.page;
  await page.click(`[data-tab="${parts[0]}"]`);
  await unlockAll(page);
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('.part.current input[type=range][data-control]')) {
      s.value = s.min;
      s.dispatchEvent(new Event('input', { bubbles: true }));
      s.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
  const saved = await page.evaluate(snapshot);
  const mine = (snap) => Object.fromEntries(Object.entries(snap.values).filter(([k]) => k.startsWith(parts[0] + '.')));
  const differs = JSON.stringify(mine(saved)) !== JSON.stringify(mine(settled));
  check('the saved settings change what the first part shows', differs, JSON.stringify(mine(saved)));
  const probe2 = await settle(page, probeUrl);
  await page.close();
  const back = await visit(b.ctx);
  await probe2.close();
  check('return visit: the first frame comes after the runtime ran', back.frame.ran, JSON.stringify(back.frame));
  check('return visit: first contentful paint after the first computed output', back.paint >= back.ready, `${back.paint} < ${back.ready}`);
  check('return visit: the first frame shows the saved outputs', JSON.stringify(mine(back.frame)) === JSON.stringify(mine(saved)),
    JSON.stringify([mine(back.frame), mine(saved)]));
  check('return visit: the first frame shows the saved read-outs', JSON.stringify(back.frame.readouts) === JSON.stringify(saved.readouts),
    JSON.stringify([back.frame.readouts, saved.readouts]));
  await back.page.close();
} finally {
  await b.close();
  server.close();
}
finish();
