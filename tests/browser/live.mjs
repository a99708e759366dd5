// Live feedback in the page: lock in an answer, move a control, and the feedback and the banners
// show the new values and name the answer. Input: a JSON file written by tests/chromium/predict_browser.rs:
// { page, steps: [{ part, pick | type, set: [[control, position]], reload, want: [[selector, text|null]] }] }
// (`null`: the element is hidden or absent; `[part, selector, text]` looks in another part, as
// tests/chromium/xpart_browser.rs does; `reload: true` reloads the page first). Steps run in order on one page.
import fs from 'node:fs';
import { launch, open, reloadSaved } from './common.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = await launch();
let passed = 0, failed = 0;
const norm = (s) => s.replace(/\s+/g, ' ').trim();
try {
  const { page, log } = await open(b.ctx, spec.page);
  for (const s of spec.steps) {
    const sec = `[data-part="${s.part}"]`;
    if (s.pick) {
      await page.locator(`${sec} input[type=radio][name="prediction-${s.part}"][value="${s.pick}"]`).click();
      await page.locator(`${sec} [data-lock]`).click();
    }
    if (s.type) {
      await page.locator(`${sec} input[name="prediction-${s.part}"]`).fill(s.type);
      await page.locator(`${sec} [data-numeric-form] button`).click();
    }
    for (const [id, pos] of s.set || []) {
      await page.locator(`${sec} [data-control="${id}"]`).first().fill(String(pos));
    }
    if (s.reload) {
      await reloadSaved(page);
    }
    for (const w of s.want) {
      const [part, sel, want] = w.length === 3 ? w : [s.part, ...w];
      const got = await page.evaluate(([sec, sel]) => {
        const n = document.querySelector(`${sec} ${sel}`);
        return n && !n.hidden && n.offsetParent !== null ? n.textContent : null;
      }, [`[data-part="${part}"]`, sel]);
      const ok = want === null ? got === null : got !== null && norm(got) === norm(want);
      if (ok) passed++; else { failed++; console.log(`FAIL ${part} ${sel}: page ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`); }
    }
  }
  if (log.errors.length) { failed++; console.log('FAIL page errors: ' + log.errors.join('; ')); }
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
