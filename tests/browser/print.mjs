// Prints handout pages to PDF as a user does (Chromium's print, the page's own @page size), and
// reports each page's headings and answer lines as the reader sees them (innerText).
// `node print.mjs OUT_DIR FILE.html...` writes OUT_DIR/<name>.pdf and prints a JSON object
// {file: {pdf, headings: [...], answers: [...], questions: [{question, option, last, box}],
// cards: [{card, row}], text}}.
import { launch } from './common.mjs';
import path from 'node:path';

const [outDir, ...files] = process.argv.slice(2);
const { ctx, close } = await launch();
const report = {};
try {
  const page = await ctx.newPage();
  for (const file of files) {
    await page.goto('file://' + path.resolve(file));
    await page.emulateMedia({ media: 'print' });
    const seen = await page.evaluate(() => {
      const text = (el) => el.innerText.replace(/\s+/g, ' ').trim();
      return {
        headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, p.lead')].map(text).filter(Boolean),
        answers: [...document.querySelectorAll('.answer')].map(text).filter(Boolean),
        // Each multiple-choice question: its text, its first and last option, and the box to
        // write in under it (its prompt), if any.
        questions: [...document.querySelectorAll('section.prediction, section.reflection')]
          .map((sec) => [sec.querySelector('.question'), sec.querySelectorAll('ul.options > li'), sec.querySelector('.answer-space')])
          .filter(([q, o]) => q && o.length)
          .map(([q, o, box]) => ({ question: text(q), option: text(o[0]), last: text(o[o.length - 1]), box: box ? text(box) : null })),
        // Each instrument card (a panel) with the output table right under it: the card's last
        // line and the table's first row.
        cards: [...document.querySelectorAll('.panel')]
          .filter((p) => p.nextElementSibling && p.nextElementSibling.matches('table.outputs') && p.nextElementSibling.querySelector('tbody tr'))
          .map((p) => ({ card: text([...p.children].pop()), row: text(p.nextElementSibling.querySelector('tbody tr')) })),
        // All the text a reader sees, the charts' included.
        text: document.body.innerText,
      };
    });
    const pdf = path.join(outDir, path.basename(file).replace(/\.html$/, '.pdf'));
    await page.pdf({ path: pdf, preferCSSPageSize: true });
    report[file] = { pdf, ...seen };
  }
} finally {
  await close();
}
console.log(JSON.stringify(report));
