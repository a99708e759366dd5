// The lab report on the page (issue 23.2): answer everything (every prediction and reflection,
// every question of every kind, a written answer and a decision log that try Markdown and HTML
// injection), move a slider of each part, then: "Your report" shows once the lab is complete
// and reads as the page's report; it is text, never markup (no element made of the student's
// words); printing it prints the report alone; the report and the record download, and both
// land in OUTDIR (report.md, ledger.json) for the Rust side to run `render --to report` on the
// record and compare byte for byte.
// Usage: node report.mjs PAGE OUTDIR
import fs from 'node:fs';
import path from 'node:path';
import { checker, launch, open, unlockAll } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
const { check, finish } = checker();
const HOSTILE = '# Heading\n<img src=x onerror="window.__xss=1"> *bold* [x](javascript:window.__xss=2)\n- item\n12. twelve\n    indented';
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  await unlockAll(page);
  // Every question the parts ask: the first option, the first two of a select-all, a number, the hostile text.
  for (let round = 0; round < 6; round++) {
    await page.evaluate((hostile) => {
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
          t.value = hostile;
          t.dispatchEvent(new Event('input', { bubbles: true }));
          box.querySelector('[data-q-submit]').click();
        }
      }
    }, HOSTILE);
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
  // "Your report" opens; the name on the report, typed once (hostile too).
  await page.evaluate(() => { document.querySelector('[data-complete] [data-report-box]').open = true; });
  await page.fill('[data-student]', 'Ada <i>L.</i>');
  const log_ = await page.$('[name="decision-log"]');
  if (log_) await page.fill('[name="decision-log"]', 'Decide: <b>this</b> & *that*\n> not a quote\n1) not a list');
  await page.waitForTimeout(400);
  const l = await page.evaluate(() => window.LF_PAGE.ledger());
  check('complete', l.complete === true, JSON.stringify(l.parts));
  check('the record names the student', l.student === 'Ada <i>L.</i>', JSON.stringify(l.student));
  const shown = await page.evaluate(() => {
    const c = document.querySelector('[data-complete]'), r = c && c.querySelector('[data-report]');
    return { visible: !!c && !c.hidden && !!r && r.getBoundingClientRect().height > 0, text: r ? r.textContent : '',
      heading: document.getElementById('h-report') ? document.getElementById('h-report').textContent : '',
      elements: r ? r.children.length : -1 };
  });
  const report = await page.evaluate(() => window.LF_PAGE.report());
  check('"Your report" shows once complete', shown.visible && shown.heading === 'Your report', JSON.stringify(shown).slice(0, 200));
  check('it reads as the report', shown.text === report, shown.text.slice(0, 200));
  check('the student\'s words make no element', shown.elements === 0 && await page.evaluate(() => window.__xss === undefined));
  check('the written answer is in it, escaped', !/[^\\]</.test(report) && (!l.parts || !JSON.stringify(l.parts).includes('# Heading') || report.includes('> \\# Heading')));
  // Printing: only the report (the print class set around window.print).
  await page.evaluate(() => { window.print = () => { window.__printed = getComputedStyle(document.querySelector('main > *:not(#lab-complete)') || document.body).display; }; });
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => document.querySelector('[data-complete] [data-print-report]').click());
  const printed = await page.evaluate(() => ({ other: window.__printed, report: getComputedStyle(document.querySelector('[data-report]')).display }));
  check('printing shows the report alone', printed.other === 'none' && printed.report !== 'none', JSON.stringify(printed));
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await page.emulateMedia({ media: 'screen' });
  check('the page comes back after printing', !(await page.evaluate(() => document.documentElement.classList.contains('print-report'))));
  // The two downloads.
  const [dm] = await Promise.all([page.waitForEvent('download'), page.click('[data-complete] [data-export-md]')]);
  const id = l.lab;
  check('report file name', dm.suggestedFilename() === id + '-report.md', dm.suggestedFilename());
  fs.copyFileSync(await dm.path(), path.join(outDir, 'report.md'));
  check('the download is the report', fs.readFileSync(path.join(outDir, 'report.md'), 'utf8') === report);
  const [dj] = await Promise.all([page.waitForEvent('download'), page.click('[data-complete] [data-export-json]')]);
  fs.copyFileSync(await dj.path(), path.join(outDir, 'ledger.json'));
  check('no console errors', log.errors.length === 0, JSON.stringify(log.errors));
  check('nothing leaves the file', log.requests.length === 0, JSON.stringify(log.requests));
} finally {
  await b.close();
}
finish();
