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
import { checker, launch, open } from './common.mjs';
import { answerEverything } from './answer.mjs';

const [file, outDir] = process.argv.slice(2);
const { check, finish } = checker();
const HOSTILE = '# Heading\n<img src=x onerror="window.__xss=1"> *bold* [x](javascript:window.__xss=2)\n- item\n12. twelve\n    indented';
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  await answerEverything(page, HOSTILE);
  // "Your report" opens; the name on the report, typed once (hostile too).
  await page.evaluate(() => { document.querySelector('[data-complete] [data-report-box]').open = true; });
  await page.fill('[data-student]', 'Ada <i>L.</i>');
  const log_ = await page.$('[name="decision-log"]');
  if (log_) await page.fill('[name="decision-log"]', 'Decide: <b>this</b> & *that*\n> not a quote\n1) not a list \u001b]52;c;QQ==\u0007 \u202eend');
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
  await page.evaluate(() => { window.print = () => { window.__printed = [...document.body.children].filter((e) => !e.matches('[data-print-doc]') && getComputedStyle(e).display !== 'none').map((e) => e.tagName + '.' + e.className).join(' ') || 'none'; }; });
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => document.querySelector('[data-complete] [data-print-report]').click());
  const printed = await page.evaluate(() => ({ other: window.__printed, report: getComputedStyle(document.querySelector('[data-print-doc]')).display }));
  check('printing shows the report alone', printed.other === 'none' && printed.report !== 'none', JSON.stringify(printed));
  // The print view is the report typeset: the student's words are text there too.
  const typeset = await page.evaluate(() => { const d = document.querySelector('[data-print-doc]'); return { xss: window.__xss, img: d.querySelectorAll('img, a, script').length, text: d.innerText }; });
  check('the print view makes no element of the student\'s words', typeset.xss === undefined && typeset.img === 0, JSON.stringify(typeset).slice(0, 300));
  check('the print view names the student', typeset.text.includes('Ada <i>L.</i>'), typeset.text.slice(0, 300));
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
