// Answers a whole lab page as a student would (tests/browser/report.mjs, report-print.mjs):
// every question the parts ask (the first option, the first two of a select-all, a number, the
// given text for a written answer), unlocking as it goes, then moves one slider of each part.
import { unlockAll } from './common.mjs';

export async function answerEverything(page, written) {
  await unlockAll(page);
  for (let round = 0; round < 6; round++) {
    await page.evaluate((text) => {
      for (const box of document.querySelectorAll('[data-question]')) {
        if (box.offsetParent === null || box.hasAttribute('data-t')) continue;
        box.setAttribute('data-t', '');
        const kind = box.getAttribute('data-q-kind');
        if (kind === 'choice') box.querySelector('input[type=radio]').click();
        else if (kind === 'select_all') {
          [...box.querySelectorAll('input[type=checkbox]')].slice(0, 2).forEach((c) => { c.checked = true; });
          box.querySelector('[data-q-submit]').click();
        } else if (kind === 'numeric') {
          const n = box.querySelector('input[type=number]');
          n.value = n.min || '3';
          n.form.requestSubmit();
        } else {
          const t = box.querySelector('textarea');
          t.value = text;
          t.dispatchEvent(new Event('input', { bubbles: true }));
          box.querySelector('[data-q-submit]').click();
        }
      }
    }, written);
    await unlockAll(page);
  }
  // One slider of each part moved (the report prints the settings and the outputs there).
  await page.evaluate(() => {
    for (const sec of document.querySelectorAll('[data-part]')) {
      const s = sec.querySelector('input[type=range][data-control]');
      if (!s) continue;
      s.value = String(Math.min(+s.max, +s.min + 2 * (+s.step || 1)));
      s.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
}
