// A SCORM 1.2 package in a real LMS run-time: serves a parent page on 127.0.0.1 that runs
// scorm-again's Scorm12API as `window.API` and opens the package's index.html in an iframe, as
// an LMS does. The parent records every call the SCO makes and keeps what was set across
// launches (in its localStorage, as an LMS keeps it in its database).
//
// usage: node scorm.mjs UNZIPPED_DIR   -> prints one JSON object:
//   { offline, launch1, launch2 } (see tests/it/scorm.rs for what is asserted)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open } from './common.mjs';

const dir = path.resolve(process.argv[2]);
const here = path.dirname(fileURLToPath(import.meta.url));
const runtime = fs.readFileSync(path.join(here, 'node_modules/scorm-again/dist/scorm12.js'));

const PARENT = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>LMS</title>
<script src="/scorm12.js"></script>
<script>
  var store = JSON.parse(localStorage.getItem('lms-store') || '{}');
  var log = JSON.parse(localStorage.getItem('lms-log') || '[]');
  function note(entry) { log.push(entry); localStorage.setItem('lms-log', JSON.stringify(log)); }
  window.API = new Scorm12API({ autocommit: false, logLevel: 4,
    onLogMessage: function (level, msg) { note(['LOG', String(level), String(msg)]); } });
  var mode = new URLSearchParams(location.search).get('mode') || 'normal';
  if (store['cmi.suspend_data'] !== undefined) {
    // A relaunch: what the SCO saved last time, as an LMS hands it back.
    window.API.loadFromJSON({ core: { entry: 'resume', lesson_mode: mode,
      lesson_status: store['cmi.core.lesson_status'] || 'incomplete' }, suspend_data: store['cmi.suspend_data'] });
  }
  ['LMSInitialize', 'LMSCommit', 'LMSFinish'].forEach(function (n) {
    window.API.on(n, function () { note([n]); });
  });
  window.API.on('LMSGetValue.cmi.*', function (k) { note(['LMSGetValue', k]); });
  window.API.on('LMSSetValue.cmi.*', function (k, v) {
    note(['LMSSetValue', k, v]);
    store[k] = v;
    localStorage.setItem('lms-store', JSON.stringify(store));
  });
</script></head><body>
<iframe id="sco" src="/sco/index.html" style="width:100%;height:90vh"></iframe>
</body></html>`;

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/') return send(res, 'text/html', PARENT);
  if (url.pathname === '/scorm12.js') return send(res, 'text/javascript', runtime);
  if (url.pathname === '/favicon.ico') { res.writeHead(204); return res.end(); }
  if (url.pathname === '/next') return send(res, 'text/html', '<!DOCTYPE html><title>next</title><p>next</p>');
  if (url.pathname.startsWith('/sco/')) {
    const f = path.join(dir, decodeURIComponent(url.pathname.slice(5)));
    if (f.startsWith(dir + path.sep) && fs.existsSync(f)) return send(res, 'text/html', fs.readFileSync(f));
  }
  res.writeHead(404); res.end();
});
function send(res, type, body) { res.writeHead(200, { 'content-type': type + '; charset=utf-8' }); res.end(body); }
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const { ctx, close } = await launch();
const errors = [];
const out = {};
try {
  // 0. Without an LMS (from disk): the page works as before, calling nothing.
  const off = await open(ctx, path.join(dir, 'index.html'));
  await off.page.locator('input[name="prediction-a"]').first().check();
  await off.page.locator('[data-part="a"] [data-lock]').click();
  out.offline = {
    errors: off.log.errors, requests: off.log.requests,
    resumeHook: await off.page.evaluate(() => window.LF_RESUME === undefined),
    resetShown: await off.page.evaluate(() => !document.querySelector('[data-reset]').hidden),
    unlocked: await off.page.evaluate(() => !document.querySelector('[data-part="a"] [data-gated]').hidden),
  };
  await off.page.close();

  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  const sco = () => page.frameLocator('#sco');
  const frameReady = async () => {
    await page.waitForFunction(() => {
      const f = document.getElementById('sco');
      return f && f.contentDocument && f.contentDocument.documentElement.hasAttribute('data-ready');
    }, null, { timeout: 15000 });
  };
  const lmsLog = () => page.evaluate(() => JSON.parse(localStorage.getItem('lms-log') || '[]'));
  const mark = async (label) => page.evaluate((l) => note(['MARK', l]), label);

  // 1. First launch: a student answers a right, b wrong, c (numeric) right, d right, the
  //    reflection, writes the decision log, then the LMS moves the frame away.
  // A copy left in this browser from outside the LMS: a new attempt must not start from it.
  await page.goto(base + '/next');
  await page.evaluate(() => localStorage.setItem('labforge:scorm-demo:v3',
    JSON.stringify({ parts: { a: { prediction: 'A', reflection: 'A' } }, decision_log: 'stale' })));
  await page.goto(base + '/');
  await frameReady();
  await mark('loaded');
  // The bar's Reset and the phone's copy of it: neither is offered in an LMS.
  out.resetShownInLms = await sco().locator('[data-reset]').evaluateAll((bs) => bs.some((b) => !b.hidden));
  // Every part at once (the page remembers the choice on later launches).
  await sco().locator('.tab-mode').click();
  const lockIn = async (part, nth) => {
    await sco().locator(`input[name="prediction-${part}"]`).nth(nth).check();
    await sco().locator(`[data-part="${part}"] [data-lock]`).click();
  };
  await sco().locator('input[name="prediction-a"]').nth(0).check();
  await mark('a-selected');
  await sco().locator('[data-part="a"] [data-lock]').click();
  await mark('a-right');
  await lockIn('b', 0);
  // After locking in, looking at the right answer is an attempt: the first answer counts.
  await sco().locator('input[name="prediction-b"]').nth(1).check();
  await mark('b-wrong');
  await sco().locator('input[name="prediction-c"]').fill('5');
  await sco().locator('[data-part="c"] [data-numeric-form] button[type="submit"]').click();
  await mark('c-right');
  await lockIn('d', 1);
  await mark('d-right');
  await sco().locator('input[name="reflection-a"]').nth(0).check();
  await mark('reflected');
  // Part e's questions: a choice (right), a select-all (half right), a number, a written answer.
  const q = (id) => `[data-part="e"] [data-question="${id}"]`;
  await sco().locator(`${q('pick')} input[value="B"]`).click();
  await sco().locator(`${q('both')} input[value="A"]`).check();
  await sco().locator(`${q('both')} input[value="B"]`).check();
  await sco().locator(`${q('both')} [data-q-submit]`).click();
  await sco().locator(`${q('third')} input`).fill('3');
  await sco().locator(`${q('third')} [data-q-submit]`).click();
  await sco().locator(`${q('essay')} textarea`).fill('Twice as much in,\ntwice as much out.');
  await sco().locator(`${q('essay')} [data-q-submit]`).click();
  await mark('questioned');
  await sco().locator('#decision-log').fill('Doubling is linear; I chose x = 3.');
  await mark('logged');
  out.beforeLeave = await page.evaluate(() => ({
    status: window.API.cmi.core.lesson_status, raw: window.API.cmi.core.score.raw,
  }));
  await page.evaluate(() => { document.getElementById('sco').src = '/next'; });
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('lms-log')).some((e) => e[0] === 'LMSFinish'), null, { timeout: 10000 });
  out.launch1 = {
    log: await lmsLog(),
    cmi: await page.evaluate(() => ({
      status: window.API.cmi.core.lesson_status, raw: window.API.cmi.core.score.raw,
      min: window.API.cmi.core.score.min, max: window.API.cmi.core.score.max,
      suspend: window.API.cmi.suspend_data, lastError: String(window.API.LMSGetLastError()),
    })),
  };

  // 2. Relaunch: the page's own browser copy is gone (another computer); the LMS hands back
  //    suspend_data; the page shows the answers again and reports the same status and score.
  //    Then the whole LMS page is left (top-level navigation): LMSFinish again.
  await page.evaluate(() => {
    localStorage.setItem('lms-log', '[]');
    Object.keys(localStorage).filter((k) => k.startsWith('labforge:')).forEach((k) => localStorage.removeItem(k));
  });
  await page.goto(base + '/');
  await frameReady();
  const restored = await sco().locator('html').evaluate(() => ({
    a: document.querySelector('input[name="prediction-a"]:checked')?.value ?? null,
    aFirst: document.querySelectorAll('input[name="prediction-a"]')[0].value,
    b: document.querySelector('input[name="prediction-b"]:checked')?.value ?? null,
    bFirst: document.querySelectorAll('input[name="prediction-b"]')[0].value,
    c: document.querySelector('input[name="prediction-c"]').value,
    log: document.getElementById('decision-log').value,
    complete: window.LF_PAGE.ledger().complete,
    essay: document.querySelector('[data-question="essay"] textarea').value,
  }));
  // A written answer changed after resuming: reported again (a new journal entry).
  await sco().locator('[data-part="e"] [data-question="essay"] textarea').fill('Output is proportional to input.');
  await sco().locator('[data-part="e"] [data-question="essay"] [data-q-submit]').click();
  // A decision log too long for SCORM 1.2's 4096 characters.
  const long = 'Ünïcode 🙂 and a long justification. '.repeat(150);
  await sco().locator('#decision-log').fill(long);
  await page.goto(base + '/next');
  out.longLog = long;
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem('lms-log') || '[]'));
  out.launch2 = { restored, log: after };

  // 3. Review: the LMS opens the attempt read-only; the page shows the record, reports nothing.
  await page.evaluate(() => localStorage.setItem('lms-log', '[]'));
  await page.goto(base + '/?mode=review');
  await frameReady();
  await sco().locator('#decision-log').fill('changed in review');
  const shown = await sco().locator('html').evaluate(() => document.querySelector('input[name="prediction-c"]').value);
  await page.goto(base + '/next');
  out.review = { shown, log: await page.evaluate(() => JSON.parse(localStorage.getItem('lms-log') || '[]')) };
} catch (e) {
  errors.push('driver: ' + (e && e.stack || e));
} finally {
  out.errors = errors;
  await close();
  server.close();
}
console.log(JSON.stringify(out));
