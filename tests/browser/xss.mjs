// XSS corpus: a lab whose every text field holds a payload, plus a payload typed into the decision
// log and the numeric answer. Nothing may execute: no global set, no dialog, no foreign element.
import { launch, open, unlockAll } from './common.mjs';

const PAYLOAD = '<img src=x onerror="window.__xss=99"><script>window.__xss=98</script>';
const b = await launch();
const failures = [];
try {
  const { page, log } = await open(b.ctx, process.argv[2]);
  await unlockAll(page);
  await page.fill('textarea[name="decision-log"]', PAYLOAD);
  // Move every control so every live template is redrawn.
  await page.evaluate(() => {
    for (const e of document.querySelectorAll('[data-control]')) {
      if (e.type === 'range') e.value = '7';
      if (e.type === 'checkbox') e.checked = !e.checked;
      if (e.tagName === 'SELECT') e.selectedIndex = 1;
      e.dispatchEvent(new Event('input', { bubbles: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
  // Hover and click everything clickable in the lab text.
  await page.evaluate(() => {
    for (const e of document.querySelectorAll('main *')) {
      e.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      if (e.tagName === 'A') e.click();
    }
  });
  await page.reload();
  await page.waitForSelector('html[data-ready]');
  await page.waitForTimeout(200);
  const r = await page.evaluate(() => ({
    xss: window.__xss,
    scripts: document.querySelectorAll('script').length,
    foreign: document.querySelectorAll('main img, main iframe, main object, main embed, main style, body style:not(head style)').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href').trim().toLowerCase().startsWith('javascript')).length,
    log: document.querySelector('textarea[name="decision-log"]').value,
    shown: document.body.textContent.includes('<script>window.__xss=1</script>'),
  }));
  if (r.xss !== undefined) failures.push('a payload ran: window.__xss=' + r.xss);
  // The page's own five: first paint, tabs, data, the packed scripts and boot.js, which runs
  // and removes them (renderers/html/boot.js).
  if (r.scripts !== 5) failures.push('script elements: ' + r.scripts);
  if (r.foreign) failures.push('foreign elements: ' + r.foreign);
  if (r.handlers) failures.push('elements with on* attributes: ' + r.handlers);
  if (r.jsLinks) failures.push('javascript: links: ' + r.jsLinks);
  if (r.log !== PAYLOAD) failures.push('decision log not kept as text');
  if (!r.shown) failures.push('payload text is not shown as text');
  if (log.dialogs.length) failures.push('dialogs: ' + log.dialogs.join(', '));
  if (log.requests.length) failures.push('network requests: ' + log.requests.join(', '));
  const pageErrors = log.errors.filter((e) => !/Content Security Policy/.test(e));
  if (pageErrors.length) failures.push('page errors: ' + pageErrors.join('; '));
} finally {
  await b.close();
}
for (const f of failures) console.log('FAIL ' + f);
console.log(`${failures.length ? 0 : 1} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
