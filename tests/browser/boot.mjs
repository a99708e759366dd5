// The packed scripts (renderers/html/boot.js): in Chromium the page's scripts run and none of
// them is refused by the Content-Security-Policy; in a browser without DecompressionStream (one
// from before 2023, made here by removing it before the page runs) the page keeps its text and
// server-rendered values, says why its instruments do not start, and a return visit that
// first-paint.js holds invisible is shown at once instead of staying blank.
// Usage: node boot.mjs PAGE
import fs from 'node:fs';
import path from 'node:path';
import { launch, checker } from './common.mjs';

const file = path.resolve(process.argv[2]);
const url = 'file://' + file;
const { check, finish } = checker();
const b = await launch();
try {
  // 1. Chromium: the scripts run, every one allowed by its hash.
  const page = await b.ctx.newPage();
  const csp = [], errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => { (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + e.sample); });
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  const ran = await page.evaluate(() => ({ csp: window.__csp || [], notice: !document.getElementById('lf-noboot').hidden, lf: typeof window.LF_MAKE }));
  csp.push(...ran.csp);
  check('the packed scripts ran (LF_MAKE defined, data-ready set)', ran.lf === 'function', JSON.stringify(ran));
  check('no script was refused by the Content-Security-Policy', csp.length === 0, JSON.stringify(csp));
  check('no error in the page', errors.length === 0, JSON.stringify(errors));
  check('no notice in a browser that can run the page', !ran.notice);
  // Something saved: the next visit is a return visit, held until restored.
  await page.evaluate(() => { const s = document.querySelector('input[type=range][data-control]'); if (s) { s.value = s.min; s.dispatchEvent(new Event('input', { bubbles: true })); s.dispatchEvent(new Event('change', { bubbles: true })); } });
  await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('labforge:') && !k.startsWith('labforge:course')), null, { timeout: 15000 });
  await page.close();

  // 2. A browser without DecompressionStream, on a first and on a return visit.
  for (const visit of ['return visit', 'first visit']) {
    const old = await b.ctx.newPage();
    await old.addInitScript(() => { delete window.DecompressionStream; });
    if (visit === 'first visit') await old.addInitScript(() => { try { localStorage.clear(); } catch (e) { /* none */ } });
    await old.goto(url);
    const told = await old.waitForFunction(() => !document.getElementById('lf-noboot').hidden, null, { timeout: 15000 }).then(() => true, () => false);
    const s = await old.evaluate(() => ({
      visible: getComputedStyle(document.documentElement).visibility,
      values: [...document.querySelectorAll('[data-output]')].filter((o) => o.textContent.trim()).length,
      title: document.querySelector('h1') && document.querySelector('h1').textContent,
      ready: document.documentElement.hasAttribute('data-ready'),
    }));
    check(`${visit}, old browser: the notice says why the instruments do not start`, told);
    check(`${visit}, old browser: the page is shown (not held invisible)`, s.visible === 'visible', s.visible);
    check(`${visit}, old browser: the lab's text and server-rendered values are there`, !!s.title && s.values > 0, JSON.stringify(s));
    check(`${visit}, old browser: no runtime ran`, !s.ready);
    await old.close();
  }

  // 3. An instructor's copy of page.html.j2 that writes the packed scripts at the body's end,
  // after the head's script (as the page did before they moved to the head): boot.js unpacks
  // them itself, and they run.
  const html = fs.readFileSync(file, 'utf8');
  const z = html.match(/<script type="application\/gzip" id="lf-z">[^<]*<\/script>/)[0];
  check('the packed scripts come before the head\'s script', html.indexOf(z) < html.indexOf('</head>'));
  const late = path.join(path.dirname(file), 'late-' + path.basename(file));
  const moved = html.replace(z, ''), boot = moved.lastIndexOf('<script>');
  fs.writeFileSync(late, moved.slice(0, boot) + z + moved.slice(boot));
  try {
    const p3 = await b.ctx.newPage();
    const errs = [];
    p3.on('pageerror', (e) => errs.push(e.message));
    await p3.goto('file://' + late);
    const ok = await p3.waitForSelector('html[data-ready]', { timeout: 30000 }).then(() => true, () => false);
    check('packed scripts after the head\'s script: they run', ok && (await p3.evaluate(() => typeof window.LF_MAKE)) === 'function' && errs.length === 0, JSON.stringify(errs));
    await p3.close();
  } finally {
    fs.rmSync(late, { force: true });
  }
} finally {
  await b.close();
}
finish();
