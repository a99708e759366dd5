// The reading view of `labforge grade`'s report.html as an instructor sees it at a width
// (issue 23.3): for each table of answers, the share of its width each column takes, the
// column heads, and how a student's name is set. Prints a JSON list, one entry a table.
// Usage: node grade-view.mjs REPORT.html WIDTH
import { launch } from './common.mjs';

const [file, width] = process.argv.slice(2);
const { ctx, close } = await launch();
try {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: +width, height: 900 });
  await page.goto('file://' + file);
  console.log(JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('table.answers')].map((t) => {
    const heads = [...t.tHead.rows[0].cells];
    const name = t.tBodies[0].rows[0].cells[0], cs = getComputedStyle(name);
    return {
      heads: heads.map((h) => h.innerText.trim()),
      share: heads.map((h) => h.getBoundingClientRect().width / t.getBoundingClientRect().width),
      name: { text: name.innerText, transform: cs.textTransform, size: parseFloat(cs.fontSize), body: parseFloat(getComputedStyle(document.body).fontSize) },
      overflow: document.documentElement.scrollWidth > innerWidth,
    };
  }))));
} finally {
  await close();
}
