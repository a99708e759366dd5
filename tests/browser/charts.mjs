// Charts people can read, in the page: at a phone's width and a desktop's, every chart fills its
// figure with text of at least 11 px, redraws when the figure is resized, names itself from the
// lab's words (title, description), carries a Data table of its values, reads out the nearest
// point under the pointer and with the arrow keys, and places reference-line labels inside the
// plot without overlaps. Usage: node charts.mjs PAGE.html
import { launch, open, unlockAll } from './common.mjs';

const b = await launch();
let failed = 0;
const check = (name, ok, detail = '') => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ' ' + detail}`);
  if (!ok) failed++;
};
try {
  for (const [w, h] of [[390, 844], [1366, 900]]) {
    const { page, log } = await open(b.ctx, process.argv[2]);
    await page.setViewportSize({ width: w, height: h });
    await unlockAll(page);
    // Open every Data section (its table is written when opened), then recompute: it stays open.
    await page.evaluate(() => document.querySelectorAll('details.chart-data summary').forEach((x) => x.click()));
    await page.waitForTimeout(100);
    const closed = await page.evaluate(() => [...document.querySelectorAll('details.chart-data')].filter((x) => !x.open || !x.querySelector('tbody tr')).length);
    check(`${w}px: every Data section opens with its table`, closed === 0, String(closed));
    await page.evaluate(() => { const s = document.querySelector('input[type=range][data-control]'); s.value = s.min; s.dispatchEvent(new Event('input', { bubbles: true })); });
    await page.waitForTimeout(100);
    const charts = await page.evaluate(() => [...document.querySelectorAll('figure.chart')].map((f) => {
      const svg = f.querySelector('svg.lf-chart');
      if (!svg) return { missing: true };
      const box = svg.getBoundingClientRect(), fig = f.getBoundingClientRect();
      const sizes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '')
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * box.width / svg.viewBox.baseVal.width);
      const clip = svg.querySelector('clipPath rect');
      const plot = clip ? clip.getBBox() : { x: 0, y: 0, width: box.width, height: box.height };
      const labels = [...svg.querySelectorAll('text[paint-order]')].map((t) => {
        const r = t.getBBox();
        return [r.x, r.y, r.x + r.width, r.y + r.height, t.textContent];
      });
      const title = document.getElementById(svg.getAttribute('aria-labelledby'));
      const desc = document.getElementById(svg.getAttribute('aria-describedby'));
      return {
        width: box.width, figWidth: fig.width, minText: Math.min(...sizes),
        name: title && title.textContent, desc: desc && desc.textContent,
        rows: f.querySelectorAll('details.chart-data tbody tr').length,
        plot: [plot.x, plot.y, plot.x + plot.width, plot.y + plot.height], labels,
      };
    }));
    check(`${w}px: charts drawn`, charts.length > 0 && charts.every((c) => !c.missing), JSON.stringify(charts));
    for (const [i, c] of charts.entries()) {
      const at = `${w}px chart ${i}`;
      check(`${at} fills its figure`, Math.abs(c.width - c.figWidth) <= 2, `${c.width} vs ${c.figWidth}`);
      check(`${at} text >= 11 px`, c.minText >= 11 - 1e-6, String(c.minText));
      check(`${at} has a name and description from the lab`, !!c.name && !/^(p-|chart )/.test(c.name) && !!c.desc, `${c.name} / ${c.desc}`);
      check(`${at} has a Data table`, c.rows > 0, String(c.rows));
      // Reference-line and marker labels inside the plot (the clip rect is 8 px larger), none overlapping.
      for (const l of c.labels) {
        check(`${at} label "${l[4]}" inside the plot`, l[0] >= c.plot[0] && l[2] <= c.plot[2] + 0.5 && l[1] >= c.plot[1] && l[3] <= c.plot[3] + 0.5, JSON.stringify([l, c.plot]));
      }
      for (let a = 0; a < c.labels.length; a++) for (let k = a + 1; k < c.labels.length; k++) {
        const p = c.labels[a], q = c.labels[k];
        const overlap = p[0] < q[2] - 0.5 && q[0] < p[2] - 0.5 && p[1] < q[3] - 0.5 && q[1] < p[3] - 0.5;
        check(`${at} labels "${p[4]}" and "${q[4]}" do not overlap`, !overlap, JSON.stringify([p, q]));
      }
    }
    // The read-out: the pointer over a point shows its values; the arrow keys step through them.
    const fig = page.locator('figure.chart').first();
    // A long line's invisible hover points are drawn once the pointer is on the chart.
    const points = () => fig.evaluate((f) => f.querySelectorAll('svg g[fill-opacity="0"] circle').length);
    const away = await points();
    await fig.hover({ position: { x: 2, y: 2 } });
    const over = await points();
    const long = await fig.evaluate((f) => f._lf.ch.kind === 'line' && f._lf.ch.series.some((s) => s.points.length > 30));
    check(`${w}px: hover points drawn only with the pointer on the chart`, away === 0 && (!long || over > 0), `${away} / ${over}`);
    // A point inside the plot area (points beyond an axis bound are clipped away).
    const target = await page.evaluate(() => {
      const f = document.querySelector('figure.chart');
      const plot = f.querySelector('clipPath').parentElement.querySelector('g[clip-path]');
      const [xa, ya] = [...f.querySelectorAll('svg .st-axis')].map((e) => e.getBoundingClientRect());
      const clip = { left: xa.left - 8, right: xa.right + 8, top: ya.top - 8, bottom: xa.bottom + 8 };
      const inside = (r) => r.left >= clip.left + 8 && r.right <= clip.right - 8 && r.top >= clip.top + 8 && r.bottom <= clip.bottom - 8;
      const n = [...plot.querySelectorAll('circle, rect[class^=fi-], path.mk')]
        .find((e) => e.querySelector('title') && inside(e.getBoundingClientRect()));
      n.scrollIntoView({ block: 'center' });
      const r = n.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, title: n.querySelector('title').textContent };
    });
    await page.mouse.move(target.x, target.y);
    const said = await fig.locator('.chart-readout').textContent();
    check(`${w}px: hover reads out the point`, said === target.title, `${JSON.stringify(said)} vs ${JSON.stringify(target.title)}`);
    await fig.focus();
    await page.keyboard.press('ArrowRight');
    const first = await fig.locator('.chart-readout').textContent();
    await page.keyboard.press('ArrowRight');
    const second = await fig.locator('.chart-readout').textContent();
    check(`${w}px: arrow keys read out points`, first !== '' && second !== '' && first !== second, `${first} / ${second}`);
    // Redraw on resize: a narrower figure gets a narrower drawing, text still >= 11 px.
    const before = await page.evaluate(() => document.querySelector('figure.chart svg').getAttribute('width'));
    await page.evaluate(() => { document.querySelector('figure.chart').style.width = '320px'; });
    // (Polled with evaluate: waitForFunction would eval a string, which the page's CSP forbids.)
    let after = null;
    for (let i = 0; i < 60 && after !== '320.0'; i++) {
      await page.waitForTimeout(50);
      after = await page.evaluate(() => document.querySelector('figure.chart svg').getAttribute('width'));
    }
    check(`${w}px: redraws on resize`, after === '320.0' && before !== after, `${before} -> ${after}`);
    check(`${w}px: no console errors`, log.errors.length === 0, log.errors.join('; '));
    await page.close();
  }
} finally {
  await b.close();
}
console.log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
