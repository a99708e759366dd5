// A redraw writes only what changed (charts.js `morph`, which runtime.js uses for its live
// templates and banners too): the element ends up holding what `innerHTML = html` would give
// (the same serialization, for markup that keeps, adds, drops or changes nodes, attributes
// and text), while the nodes the new markup keeps are the same nodes. On the page: a slider of
// a part with a chart moved, the chart's <svg>, the part's live templates and its outputs' text
// nodes are the nodes they were, and hold what the markup written says; a chart redrawn parses only its groups of nodes
// that changed (charts.js `paint`): less than it draws (a full parse is more).
// Usage: node morph.mjs PAGE
import { launch, open, unlockAll, checker } from './common.mjs';

const { check, finish } = checker();
const b = await launch();
try {
  const { page, log } = await open(b.ctx, process.argv[2], { tabs: true });
  await unlockAll(page);
  // Markup pairs, before -> after: the result must be innerHTML's.
  const pairs = [
    ['<p>a</p>', '<p>b</p>'],
    ['<p class="x" title="t">a<b>c</b></p>', '<p class="y">a<i>c</i>d</p>'],
    ['<ul><li>1</li><li>2</li><li>3</li></ul>', '<ul><li>1</li></ul><p>end</p>'],
    ['text', '<span>el</span>'],
    ['<span>el</span>tail', 'text'],
    ['', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g><rect x="1" width="2"><title>one</title></rect></g></svg>'],
    ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g><rect x="1" width="2"><title>one</title></rect><text>t</text></g></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><g><rect x="3" height="4"><title>two</title></rect><circle r="1"></circle><text>u</text></g><path d="M0 0"></path></svg>'],
    ['<details open=""><summary>s</summary>x</details>', '<details><summary>s</summary></details>'],
    ['<p>a</p><!--c--><p>b</p>', '<p>a</p>'],
  ];
  const got = await page.evaluate((pairs) => pairs.map(([a, z]) => {
    const el = document.createElement('div'), ref = document.createElement('div');
    el.innerHTML = a;
    const first = el.firstChild;
    window.LFCharts.morph(el, z);
    ref.innerHTML = z;
    return { got: el.innerHTML, want: ref.innerHTML, kept: !!first && el.firstChild === first };
  }), pairs);
  got.forEach((g, i) => check(`morph ${i}: what innerHTML gives`, g.got === g.want, JSON.stringify(g)));
  check('morph: a kept first node is the same node', got[0].kept && got[1].kept && got[6].kept, JSON.stringify(got.map((g) => g.kept)));

  // On the page: the first part with a chart and a slider.
  const part = await page.evaluate(() => {
    const sec = [...document.querySelectorAll('[data-part]')].find((s) => s.querySelector('figure.chart svg') || (s.querySelector('figure.chart') && s.querySelector('input[type=range][data-control]')));
    return sec && sec.getAttribute('data-part');
  });
  check('a part with a chart and a slider', !!part);
  await page.click(`[data-tab="${part}"]`);
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
  await frames();
  await page.evaluate((part) => {
    const sec = document.querySelector(`[data-part="${part}"]`);
    window.__morph = { svg: sec.querySelector('figure.chart svg'), tpls: [...sec.querySelectorAll('[data-tpl]')].map((n) => n.firstChild), drawn: [],
      texts: [...sec.querySelectorAll('[data-output]')].map((n) => { const t = (n.querySelector('[data-text]') || n).firstChild; return [t, t && t.data]; }).filter(([t]) => t && t.nodeType === 3) };
    const m = window.LFCharts.morph;
    window.LFCharts.morph = function (el, html) { window.__morph.drawn.push([el, html]); return m.apply(this, arguments); };
    // What the charts parse (a drawing's markup starts with <svg): the groups that changed only.
    const set = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML').set;
    window.__morph.parsed = 0;
    Object.defineProperty(HTMLTemplateElement.prototype, 'innerHTML', { configurable: true,
      set(h) { if (String(h).startsWith('<svg')) window.__morph.parsed += String(h).length; set.call(this, h); } });
  }, part);
  const moved = await page.evaluate(async (part) => {
    const sec = document.querySelector(`[data-part="${part}"]`);
    const out = [];
    const ref = document.createElement('div'), figs = [...sec.querySelectorAll('figure.chart')], drawn = [];
    let charts = 0;
    for (const s of sec.querySelectorAll('input[type=range][data-control]')) {
      const before = figs.map((f) => f.innerHTML);
      for (const v of [s.value === s.min ? s.max : s.min, s.value]) {
        s.value = v;
        s.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
        out.push(figs.some((f, i) => f.innerHTML !== before[i]));
        // Each drawing holds what its markup says, as innerHTML would have written it.
        figs.forEach((f) => {
          ref.innerHTML = f._lf.svg + '<p class="chart-readout" aria-live="polite"></p><details class="chart-data"><summary>Data</summary></details>';
          drawn.push(f.innerHTML === ref.innerHTML);
          charts += f._lf.svg.length;
        });
      }
    }
    const w = window.__morph;
    // Each element's last write: what it holds now.
    const last = new Map(w.drawn);
    const same = [...last].every(([el, html]) => { ref.innerHTML = html; return el.innerHTML === ref.innerHTML; });
    return { changed: out.some(Boolean), svgKept: sec.querySelector('figure.chart svg') === w.svg, writes: w.drawn.length, same, drawn: drawn.every(Boolean) && drawn.length,
      parsed: w.parsed, charts,
      tplsKept: [...sec.querySelectorAll('[data-tpl]')].filter((n, i) => n.firstChild && n.firstChild === w.tpls[i]).length,
      texts: w.texts.length, textsChanged: w.texts.filter(([t, was]) => t.data !== was).length, textsKept: w.texts.filter(([t]) => t.isConnected).length,
      tpls: w.tpls.length };
  }, part);
  check('a slider moved: the drawing changed', moved.changed, JSON.stringify(moved));
  check('each drawing holds what its markup says', moved.drawn > 0, JSON.stringify(moved));
  check('a redraw parses only the groups that changed', moved.parsed > 0 && moved.parsed < moved.charts, JSON.stringify(moved));
  check('the chart keeps its <svg> node', moved.svgKept, JSON.stringify(moved));
  check('each write holds what its markup says', moved.same, JSON.stringify(moved));
  check('the live templates keep their nodes', moved.tpls === 0 || moved.tplsKept > 0, JSON.stringify(moved));
  check('an output\'s text changed in place (its text node kept)', moved.texts > 0 && moved.textsKept === moved.texts, JSON.stringify(moved));
  check('no page errors', log.errors.length === 0, JSON.stringify(log.errors));
} finally {
  await b.close();
}
finish();
