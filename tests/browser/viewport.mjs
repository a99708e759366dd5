// The page on any screen (issue 10 items 5 and 6), at one viewport and colour scheme:
// sticky bar height, no horizontal overflow, charts filling their column, touch targets,
// `aria-valuetext` following a slider, the first prediction's position, headings never under
// the sticky bar after a jump, tabs operated by keyboard, readable metric numbers (contrast), no
// console errors. Prints the measured figures as JSON (a line starting `FIGURES`).
// Usage: node viewport.mjs PAGE WIDTH HEIGHT light|dark MAX_PREDICTION_Y
import { launch, checker, emptyStorage, reloadSaved, unlockAll } from './common.mjs';
import path from 'node:path';

const [file, w, h, scheme, maxY] = process.argv.slice(2);
const width = Number(w), height = Number(h), phone = width < 640;
const { check, finish } = checker();
const b = await launch();
const figures = { page: path.basename(file), width, height, scheme };
try {
  const page = await b.ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('file://' + path.resolve(file));
  await emptyStorage(page);
  // A first load: the reloaded page reads the emptied storage (common.mjs reloadSaved says why
  // a bare reload may not).
  await reloadSaved(page);
  const at = (name) => `${name} @${width}x${height} ${scheme}`;

  // Sticky bar, first prediction, overflow on first load.
  const first = await page.evaluate(() => ({
    hud: document.querySelector('.hud').getBoundingClientRect().height,
    y: document.querySelector('.prediction').getBoundingClientRect().top + scrollY,
    over: document.documentElement.scrollWidth - innerWidth,
    tier: (document.querySelector('[data-hud-tier]') || { textContent: 'not started' }).textContent,
  }));
  Object.assign(figures, { hud_px: first.hud, first_prediction_y: Math.round(first.y) });
  check(at('sticky bar <= 56 px'), first.hud <= 56, first.hud);
  check(at('first prediction near the top'), first.y <= Number(maxY), `${first.y} > ${maxY}`);
  check(at('no horizontal overflow on load'), first.over <= 0, first.over);
  check(at('no standing before any answer'), first.tier === 'not started', first.tier);
  // The progress strip fits or shows that it scrolls (a shade at its edge); the part tabs end
  // before "Show all parts" (issue 27.4); no symbol needs an emoji font (27.6).
  const strip = await page.evaluate(() => {
    const h = document.querySelector('.hud'), ol = document.querySelector('nav.tabs ol'), mode = document.querySelector('.tab-mode');
    return { scrolls: h.scrollWidth > h.clientWidth + 1, shade: /gradient/.test(getComputedStyle(h).backgroundImage),
      tabs: ol.getBoundingClientRect().right, button: mode ? mode.getBoundingClientRect().left : Infinity,
      tabsScroll: ol.scrollWidth > ol.clientWidth + 1, tabsFade: /gradient/.test(getComputedStyle(ol).maskImage || getComputedStyle(ol).webkitMaskImage),
      emoji: /[\u23f1\u{1f512}]/u.test(document.body.innerText) };
  });
  check(at('the progress strip fits or shows that it scrolls'), !strip.scrolls || strip.shade, JSON.stringify(strip));
  check(at('the tabs end before "Show all parts" and fit or fade where they scroll'), strip.tabs <= strip.button + 0.5 && (!strip.tabsScroll || strip.tabsFade), JSON.stringify(strip));
  check(at('no ⏱ or 🔒 characters (they need an emoji font)'), !strip.emoji, JSON.stringify(strip));

  // Tabs: one part shown; the arrow keys move to the next part and show it.
  const shown = () => page.evaluate(() => [...document.querySelectorAll('[data-part],#synthesis')]
    .filter((s) => s.offsetParent !== null).map((s) => s.id));
  check(at('one part at a time'), JSON.stringify(await shown()) === '["part-a"]', JSON.stringify(await shown()));
  await page.focus('[data-tab="a"]');
  await page.keyboard.press('ArrowRight');
  const focusTab = await page.evaluate(() => document.activeElement.getAttribute('data-tab'));
  check(at('ArrowRight selects the next tab'), focusTab === 'b' && JSON.stringify(await shown()) === '["part-b"]',
    `${focusTab} ${JSON.stringify(await shown())}`);
  check(at('part b still locked behind its tab'), await page.isVisible('[data-part="b"] [data-locked]'));
  // A reload opens the tab the student left open.
  await reloadSaved(page);
  check(at('a reload opens the tab left open'), JSON.stringify(await shown()) === '["part-b"]', JSON.stringify(await shown()));
  await page.focus('[data-tab="b"]');
  await page.keyboard.press('Home');
  check(at('Home goes back to the first tab'), JSON.stringify(await shown()) === '["part-a"]');

  // Touch targets (phone): option rows, the lock button, buttons in view.
  await page.click('[data-part="a"] .option >> nth=0');
  const sizes = await page.evaluate(() => {
    const hs = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null)
      .map((e) => Math.round(e.getBoundingClientRect().height));
    return { options: hs('[data-part="a"] .option'), buttons: hs('button'), tabs: hs('nav.tabs a') };
  });
  figures.min_touch_px = Math.min(...sizes.options, ...sizes.buttons, ...sizes.tabs);
  if (phone) {
    check(at('option rows >= 44 px'), sizes.options.every((x) => x >= 44), JSON.stringify(sizes.options));
    check(at('buttons >= 44 px'), sizes.buttons.every((x) => x >= 44), JSON.stringify(sizes.buttons));
    check(at('tabs >= 44 px'), sizes.tabs.every((x) => x >= 44), JSON.stringify(sizes.tabs));
  }
  // Locking in from the keyboard keeps the focus in the question, on the answer locked in.
  await page.focus('[data-part="a"] [data-lock]');
  await page.keyboard.press('Enter');
  check(at('focus stays on the answer after Enter on Lock in'), await page.evaluate(() => {
    const a = document.activeElement;
    return a && a.matches('[data-part="a"] input[name="prediction-a"]:checked');
  }), await page.evaluate(() => document.activeElement && document.activeElement.outerHTML.slice(0, 80)));

  // Sliders: tall enough to touch, and aria-valuetext follows the keyboard.
  const slider = page.locator('[data-part="a"] input[type=range]').first();
  const sh = await slider.evaluate((s) => s.getBoundingClientRect().height);
  if (phone) check(at('slider >= 44 px tall'), sh >= 44, sh);
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const vt = await slider.evaluate((s) => [s.getAttribute('aria-valuetext'),
    document.querySelector(`[data-control-display="${s.getAttribute('data-control')}"]`).textContent]);
  check(at('aria-valuetext follows the slider'), vt[0] === vt[1] && vt[0] !== '', JSON.stringify(vt));

  // Metric numbers are readable: contrast against their card >= 4.5.
  const contrast = await page.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    };
    return [...document.querySelectorAll('[data-part="a"] .metric')].map((m) => {
      const fg = getComputedStyle(m.querySelector('.metric-value')).color, bg = getComputedStyle(m).backgroundColor;
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return { fg, bg, ratio: (a + 0.05) / (b + 0.05), font: parseFloat(getComputedStyle(m.querySelector('.metric-value')).fontSize) };
    });
  });
  figures.metric_contrast_min = Math.min(...contrast.map((c) => c.ratio)).toFixed(2);
  check(at('metric numbers contrast >= 4.5'), contrast.length > 0 && contrast.every((c) => c.ratio >= 4.5), JSON.stringify(contrast));
  check(at('metric numbers are large'), contrast.every((c) => c.font >= 24), JSON.stringify(contrast.map((c) => c.font)));
  const bodyBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await page.evaluate((c) => { const v = c.match(/[\d.]+/g).map(Number); return v[0] + v[1] + v[2] < 150; }, bodyBg);
  check(at('colour scheme applied'), dark === (scheme === 'dark'), bodyBg);

  // Everything unlocked, whole document: no overflow, charts fill their column.
  await page.click('.tab-mode');
  await unlockAll(page);
  const wide = await page.evaluate(() => ({
    over: document.documentElement.scrollWidth - innerWidth,
    charts: [...document.querySelectorAll('figure.chart')].filter((f) => f.offsetParent !== null).map((f) => {
      const svg = f.querySelector('svg');
      const col = f.parentElement.getBoundingClientRect().width;
      return { svg: svg ? svg.getBoundingClientRect().width : 0, col };
    }),
  }));
  figures.charts = wide.charts.length;
  figures.chart_fill_min = Math.min(...wide.charts.map((c) => c.svg / c.col)).toFixed(3);
  check(at('no horizontal overflow with every part open'), wide.over <= 0, wide.over);
  // Every other control a thumb meets on a phone: disclosure summaries, links between parts
  // and labs, buttons.
  if (phone) {
    const small = await page.evaluate(() => [...document.querySelectorAll('summary, .next-tab a, nav.course-nav a, button')]
      .filter((e) => e.offsetParent !== null && !e.closest('.hud'))
      .map((e) => [e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height)]).filter((x) => x[1] < 44));
    check(at('summaries, links and buttons >= 44 px'), small.length === 0, JSON.stringify(small));
  }
  // Chart text stays inside its chart, and the labels of one axis row never overlap.
  const text = await page.evaluate(() => [...document.querySelectorAll('figure.chart svg')].filter((s) => s.closest('figure').offsetParent !== null).map((s) => {
    const box = s.getBoundingClientRect(), out = [], rows = {};
    for (const t of s.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`outside: ${t.textContent}`);
      if (t.getAttribute('class') === 'fi-muted' && t.getAttribute('text-anchor') === 'middle') (rows[t.getAttribute('y')] ||= []).push([r.left, r.right, t.textContent]);
    }
    for (const row of Object.values(rows)) {
      row.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < row.length; i++) if (row[i][0] < row[i - 1][1] - 0.5) out.push(`overlap: ${row[i - 1][2]} / ${row[i][2]}`);
    }
    return out;
  }).flat());
  check(at('chart text inside its chart, axis labels apart'), text.length === 0, JSON.stringify(text));
  check(at('charts fill their column'), wide.charts.length > 0 && wide.charts.every((c) => c.svg >= 0.98 * c.col && c.svg <= c.col + 0.5),
    JSON.stringify(wide.charts));

  // A jump to a part never leaves its heading under the sticky bar.
  for (const id of ['part-b', 'synthesis']) {
    if (!(await page.$('#' + id))) continue;
    await page.evaluate((id) => { location.hash = ''; location.hash = '#' + id; }, id);
    await page.waitForTimeout(50);
    const r = await page.evaluate((id) => ({
      h: document.querySelector('#' + id + ' h2').getBoundingClientRect().top,
      bar: document.querySelector('.hud').getBoundingClientRect().bottom,
    }), id);
    check(at(`heading of #${id} below the sticky bar after a jump`), r.h >= r.bar, JSON.stringify(r));
  }
  // Back to tabs: a "Next" link opens the next part with the tabs in view.
  await page.click('.tab-mode');
  await page.click('[data-tab="a"]');
  await page.click('[data-part="a"] .next-tab a');
  const after = await page.evaluate(() => ({
    shown: [...document.querySelectorAll('[data-part]')].filter((s) => s.offsetParent !== null).map((s) => s.id),
    tabs: document.querySelector('nav.tabs').getBoundingClientRect().top,
    bar: document.querySelector('.hud').getBoundingClientRect().bottom,
  }));
  check(at('Next opens part b below the sticky bar'), JSON.stringify(after.shown) === '["part-b"]' && after.tabs >= after.bar - 1,
    JSON.stringify(after));

  check(at('no console errors'), errors.length === 0, errors.join(' | '));
  await page.close();
} finally {
  await b.close();
}
console.log('FIGURES ' + JSON.stringify(figures));
finish();
