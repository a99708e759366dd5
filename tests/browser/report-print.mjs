// The lab report printed (issue 23.2, "printable, one clean document"): answer a lab page as a
// student would (written answers of several paragraphs, a name, a decision log), press "Print
// the report" (window.print stubbed: the PDF is made by playwright while the page is in its
// printing state) and print to PDF on Letter and on A4. Prints a JSON object for the Rust side
// to read the PDFs against: {letter, a4, headings, rows: [[key, value]], text, ui: [labels of
// buttons, tabs and the HUD], shown: [elements outside the report that print]}.
// Usage: node report-print.mjs PAGE OUTDIR WRITTEN_ANSWER DECISION_LOG
import path from 'node:path';
import { launch, open } from './common.mjs';
import { answerEverything } from './answer.mjs';

const [file, outDir, written, decision] = process.argv.slice(2);
const b = await launch();
const out = {};
try {
  const { page, log } = await open(b.ctx, file);
  await answerEverything(page, written);
  await page.evaluate(() => { document.querySelector('[data-complete] [data-report-box]').open = true; });
  await page.fill('[data-student]', 'Ada Lovelace (s1234567)');
  if (await page.$('[name="decision-log"]')) await page.fill('[name="decision-log"]', decision);
  await page.waitForFunction(() => window.LF_PAGE.ledger().complete === true);
  // The page's own words a printed report must not carry: buttons, the HUD, summaries.
  out.ui = await page.evaluate(() => [...document.querySelectorAll('button, .hud *, summary')]
    .map((e) => e.innerText.replace(/\s+/g, ' ').trim()).filter((t) => t.length > 3));
  // Print the report: the button, then the PDF (Chromium's print ends with `afterprint`,
  // which takes the page out of its printing state: each paper is printed from the button).
  await page.evaluate(() => { window.print = () => { window.__printed = true; }; });
  const print = async (format, pdf) => {
    await page.evaluate(() => { window.__printed = false; document.querySelector('[data-complete] [data-print-report]').click(); });
    await page.waitForFunction(() => window.__printed === true);
    await page.pdf({ path: pdf, format });
  };
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => document.querySelector('[data-complete] [data-print-report]').click());
  Object.assign(out, await page.evaluate(() => {
    const doc = document.querySelector('[data-print-doc]');
    const t = (e) => e.innerText.replace(/\s+/g, ' ').trim();
    return {
      headings: [...doc.querySelectorAll('h1, h2, h3')].map(t),
      rows: [...doc.querySelectorAll('tr')].map((r) => [t(r.cells[0]), t(r.cells[1])]),
      text: doc.innerText,
      shown: [...document.body.children].filter((e) => e !== doc && getComputedStyle(e).display !== 'none').map((e) => e.tagName),
    };
  }));
  out.letter = path.join(outDir, 'report-letter.pdf');
  out.a4 = path.join(outDir, 'report-a4.pdf');
  await print('Letter', out.letter);
  await print('A4', out.a4);
  out.errors = log.errors;
  out.requests = log.requests;
} finally {
  await b.close();
}
console.log(JSON.stringify(out));
