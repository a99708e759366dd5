// Injection corpus: loads every HTML file listed in argv[2] (pages, handouts, keys, indexes and
// Markdown handouts published as a site would) and checks that no payload ran, no request left
// the file system, nothing navigated away and no element carries an on* attribute. Hovers and
// toggles everything so attribute-breaking payloads get their chance.
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './common.mjs';

const files = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const b = await launch();
const failures = [];
let loaded = 0;
try {
  for (const file of files) {
    const page = await b.ctx.newPage();
    const log = { requests: [], dialogs: [], navigations: 0, errors: [] };
    page.on('request', (r) => {
      const u = r.url();
      if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:') && u !== 'about:srcdoc') log.requests.push(u);
    });
    page.on('dialog', async (d) => { log.dialogs.push(d.message()); await d.dismiss(); });
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) log.navigations += 1; });
    page.on('pageerror', (e) => log.errors.push(e.message));
    const url = 'file://' + path.resolve(file);
    await page.goto(url, { waitUntil: 'load' });
    if (await page.evaluate(() => !!document.getElementById('lf-data'))) {
      await page.waitForSelector('html[data-ready]', { timeout: 10000 });
    }
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('body *')) {
        e.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
        if (e.tagName === 'DETAILS') e.open = !e.open;
      }
    });
    await page.waitForTimeout(150);
    const r = await page.evaluate(() => ({
      xss: window.__xss,
      handlers: [...document.querySelectorAll('*')]
        .filter((e) => [...e.attributes].some((a) => a.name.toLowerCase().startsWith('on')))
        .map((e) => e.outerHTML.slice(0, 120)),
      jsLinks: [...document.querySelectorAll('a[href], [src], [data]')]
        .map((e) => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('data') || '')
        .filter((h) => /^\s*(javascript|vbscript|data:text)/i.test(h)),
      // The page's own five script elements (first paint, tabs, data, the packed scripts and
      // boot.js, which runs those and removes them) are expected, and in a SCORM package one
      // more, the adapter.
      foreign: document.querySelectorAll('iframe, object, embed, link[rel=stylesheet], meta[http-equiv=refresh], body style, img[src^=http]').length
        + document.querySelectorAll('script').length - (document.getElementById('lf-data') ? 5 : 0)
        - (document.querySelectorAll('script[data-lf-scorm]').length === 1 ? 1 : 0),
      url: location.href,
    }));
    const name = path.relative(path.dirname(path.dirname(file)), file);
    if (r.xss !== undefined) failures.push(`${name}: a payload ran (window.__xss=${r.xss})`);
    if (r.handlers.length) failures.push(`${name}: elements with on* attributes: ${r.handlers.join(' | ')}`);
    if (r.jsLinks.length) failures.push(`${name}: script URLs: ${r.jsLinks.join(' | ')}`);
    if (r.foreign) failures.push(`${name}: ${r.foreign} foreign elements (iframe/object/embed/link/meta refresh/style/script/remote img)`);
    if (r.url !== url) failures.push(`${name}: navigated to ${r.url}`);
    if (log.navigations > 1) failures.push(`${name}: ${log.navigations} navigations`);
    if (log.dialogs.length) failures.push(`${name}: dialogs: ${log.dialogs.join(', ')}`);
    if (log.requests.length) failures.push(`${name}: requests: ${log.requests.join(', ')}`);
    if (log.errors.length) failures.push(`${name}: page errors: ${log.errors.join('; ')}`);
    loaded += 1;
    await page.close();
  }
} finally {
  await b.close();
}
for (const f of failures) console.log('FAIL ' + f);
console.log(`${loaded} pages loaded, ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
