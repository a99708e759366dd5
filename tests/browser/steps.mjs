// Drives a page as a student would and reports what it shows. Input: a JSON file written by a
// Rust test (tests/chromium/compat_browser.rs): { page, steps: [{ click: SEL } | { fill: [SEL, TEXT] } |
// { reload: true } | { read: [NAME, SEL] }] }, run in order on one page. Prints one JSON line:
// { reads: { NAME: text | null }, errors: [...] } (`null`: the element is absent or not shown).
import fs from 'node:fs';
import { launch, open, reloadSaved } from './common.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = await launch();
const reads = {};
let errors = [];
try {
  const { page, log } = await open(b.ctx, spec.page);
  for (const s of spec.steps) {
    if (s.click) await page.locator(s.click).first().click();
    if (s.fill) await page.locator(s.fill[0]).first().fill(s.fill[1]);
    if (s.reload) await reloadSaved(page);
    if (s.read) {
      reads[s.read[0]] = await page.evaluate((sel) => {
        const n = document.querySelector(sel);
        return n && !n.hidden && n.offsetParent !== null ? n.textContent.replace(/\s+/g, ' ').trim() : null;
      }, s.read[1]);
    }
  }
  errors = log.errors;
} finally {
  await b.close();
}
console.log(JSON.stringify({ reads, errors }));
