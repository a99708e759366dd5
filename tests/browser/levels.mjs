// A chart's colours agree with the cards (issue 27 item 7), in the page: on
// tests/inputs/ok_chart_levels.yaml's page, at utilizations where the Wait card is good, warn and
// bad, the bar showing `wait_min` is drawn in the card's level colour, and every bar of both
// charts in the colour Rust draws it (RUST.json maps each utilization to the card's level in
// Rust and the colour classes of each chart's bars in Rust's SVG).
// `node levels.mjs PAGE.html RUST.json`.
import fs from 'node:fs';
import { launch, open, setControl, checker } from './common.mjs';

const [file, rustFile] = process.argv.slice(2);
const rust = JSON.parse(fs.readFileSync(rustFile, 'utf8'));
const COLOR = { good: 'green', warn: 'orange', bad: 'red' };
const { ctx, close } = await launch();
const { check, finish } = checker();
try {
  const { page, log } = await open(ctx, file);
  for (const u of Object.keys(rust)) {
    await setControl(page, 'a', 'utilization', u, 'wait_min');
    await page.waitForFunction(() => document.querySelectorAll('figure[data-chart] svg').length === 2);
    const seen = await page.evaluate(() => {
      const svgs = [...document.querySelectorAll('figure[data-chart] svg')];
      return {
        level: document.querySelector('.metric-value[data-output="wait_min"]').getAttribute('data-level'),
        now: svgs[0].querySelector('rect[class^=fi-]').getAttribute('class'),
        rects: svgs.map((s) => [...s.querySelectorAll('rect[class^=fi-]')].map((r) => r.getAttribute('class'))),
      };
    });
    check(`u=${u}: the Now bar is the card's colour`, seen.now === 'fi-' + COLOR[seen.level], `${seen.now} vs card ${seen.level}`);
    check(`u=${u}: the card's level is Rust's`, seen.level === rust[u].level, `${seen.level} vs ${rust[u].level}`);
    rust[u].rects.forEach((r, i) => check(`u=${u}: chart ${i}'s bars are Rust's colours`, JSON.stringify(seen.rects[i]) === JSON.stringify(r), `page ${seen.rects[i]} vs rust ${r}`));
  }
  check('no page errors', log.errors.length === 0, log.errors.join('; '));
} finally {
  await close();
}
finish();
