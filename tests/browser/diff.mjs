// Differential test: the numbers in the page after input events equal `labforge eval --format json`.
// Input: a JSON file written by tests/chromium/html_browser.rs: { cases: [{ page, part, sets, expected }] }.
import fs from 'node:fs';
import { launch, open, unlockAll, close } from './common.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = await launch();
// Record each chart's SVG text as charts.js returns it (innerHTML would reserialize it), from the
// page's first drawing on: a case at the settings the page already shows recomputes nothing, and
// its drawing is the one made before.
await b.ctx.addInitScript(() => {
  let lf;
  window.__svgs = {};
  Object.defineProperty(window, 'LFCharts', { configurable: true, get: () => lf, set: (L) => {
    lf = L;
    // The page draws at its column's width; the model is compared as drawn 640 wide.
    const draw = L.svg, table = L.table;
    // The Data table is built when opened: it is recorded with each drawing.
    L.svg = (ch, uid, w, lean) => {
      window.__svgs[uid] = draw(ch, uid);
      window.__svgs[uid + ' table'] = table(ch);
      return draw(ch, uid, w, lean);
    };
  } });
});
// Each page starts from no saved progress: pages of one course share file://'s storage, and a
// number one lab keeps for a later one (`records:`) would otherwise reach the later page, which
// is compared with `labforge eval` at the read's default.
await b.ctx.addInitScript(() => { try { localStorage.clear(); } catch (e) { /* none */ } });
let passed = 0, failed = 0;
const pages = new Map();
// Each page's cases run in order (a case starts from the settings the one before left). Pages
// run one at a time: three at once took twice as long (a page not in front waits longer for its
// frames).
const groups = new Map();
for (const c of spec.cases) {
  if (!groups.has(c.page)) groups.set(c.page, []);
  groups.get(c.page).push(c);
}
async function runCase(c) {
    if (!pages.has(c.page)) {
      const o = await open(b.ctx, c.page);
      // The live templates as the renderer wrote them (evaluated in Rust at the defaults, before
      // any answer: `answer` is unset) against the page's first paint, part by part.
      const served = fs.readFileSync(c.page, 'utf8');
      await o.page.evaluate((served) => {
        const doc = new DOMParser().parseFromString(served, 'text/html');
        // Text and the levels of `{{ @output }}` spans.
        const sig = (n) => n && n.textContent + [...n.querySelectorAll('[data-level]')].map((x) => ' [' + x.getAttribute('data-level') + ']').join('');
        window.__tpls = {};
        for (const sec of document.querySelectorAll('[data-part]')) {
          const part = sec.getAttribute('data-part'), diffs = [];
          const want = [...doc.querySelectorAll(`[data-part="${part}"] [data-tpl]`)];
          const now = [...sec.querySelectorAll('[data-tpl]')];
          want.forEach((w, i) => { if (sig(now[i]) !== sig(w)) diffs.push([sig(w), sig(now[i])]); });
          window.__tpls[part] = diffs;
        }
      }, served);
      await unlockAll(o.page);
      pages.set(c.page, o);
    }
    const { page, log } = pages.get(c.page);
    const served = c.name === 'defaults';
    const want = Object.keys(c.charts || {});
    const got = await page.evaluate(async ({ part, sets, served, want }) => {
      const sec = document.querySelector(`[data-part="${part}"]`);
      for (const s of sets) {
        const els = [...sec.querySelectorAll(`[name="${s.id}"]`)];
        if (s.kind === 'radio') { const r = sec.querySelectorAll(`[data-control="${s.id}"]`)[s.index]; r.checked = true; r.dispatchEvent(new Event('change', { bubbles: true })); }
        else if (s.kind === 'select') { els[0].selectedIndex = s.index; els[0].dispatchEvent(new Event('change', { bubbles: true })); }
        else if (s.kind === 'switch') { els[0].checked = s.checked; els[0].dispatchEvent(new Event('change', { bubbles: true })); }
        else if (s.kind === 'checkboxes') { for (const e of els) { e.checked = !!s.boxes[e.value]; e.dispatchEvent(new Event('change', { bubbles: true })); } }
        else { els[0].value = s.value; els[0].dispatchEvent(new Event('input', { bubbles: true })); }
      }
      // Input is applied in a task the page posts at once or from its next frame callback: this
      // task, posted from a frame callback asked for after, runs after either.
      await new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
      const out = {}, shown = {};
      for (const e of sec.querySelectorAll('[data-output]')) {
        out[e.getAttribute('data-output')] = e.getAttribute('data-value');
        shown[e.getAttribute('data-output')] = [(e.querySelector('[data-text]') || e).textContent, e.getAttribute('data-level')];
      }
      const err = sec.querySelector('[data-error]');
      const tpls = served ? window.__tpls[part] : [];
      const svgs = {};
      for (const k of want) if (k in window.__svgs) svgs[k] = window.__svgs[k];
      return { out, shown, tpls, error: err && !err.hidden ? err.textContent : null, svgs };
    }, { part: c.part, sets: c.sets, served, want });
    const problems = [];
    for (const [want, now] of got.tpls) problems.push(`template: page ${JSON.stringify(now)}, renderer ${JSON.stringify(want)}`);
    if (got.error) problems.push('page error: ' + got.error);
    if (Object.keys(got.out).length === 0) problems.push('no data-output elements');
    for (const [name, shown] of Object.entries(got.out)) {
      if (!(name in c.expected)) { problems.push(`${name}: not in CLI output`); continue; }
      const want = c.expected[name];
      let ok;
      if (typeof want === 'number') ok = close(Number(shown), want);
      else if (want === null) ok = !Number.isFinite(Number(shown));
      else if (typeof want === 'boolean') ok = shown === String(want);
      else if (typeof want === 'string') ok = shown === want;
      else ok = true; // records and lists are not shown as single values
      if (!ok) problems.push(`${name}: page ${shown} vs CLI ${JSON.stringify(want)}`);
    }
    for (const [name, [text, level]] of Object.entries(got.shown)) {
      const want = (c.shown || {})[name];
      if (!want) continue;
      if (text !== want[0]) problems.push(`${name}: page shows ${JSON.stringify(text)}, CLI ${JSON.stringify(want[0])}`);
      if (level !== want[1]) problems.push(`${name}: page level ${level}, CLI ${want[1]}`);
    }
    for (const [uid, want] of Object.entries(c.charts || {})) {
      const shown = got.svgs[uid];
      if (shown === want) continue;
      let at = 0;
      while (shown && at < want.length && shown[at] === want[at]) at++;
      problems.push(`chart ${uid}: ` + (shown === undefined ? 'not drawn'
        : `differs at ${at}:\n    page …${shown.slice(Math.max(0, at - 60), at + 60)}…\n    rust …${want.slice(Math.max(0, at - 60), at + 60)}…`));
    }
    if (log.errors.length) problems.push('errors: ' + log.errors.join('; '));
    if (log.requests.length) problems.push('requests: ' + log.requests.join(', '));
    if (problems.length) {
      failed++;
      console.log(`FAIL ${c.page} part ${c.part} case ${c.name}: ${JSON.stringify(c.sets)}\n  ` + problems.join('\n  '));
    } else passed++;
}
try {
  const queue = [...groups.values()];
  const worker = async () => {
    for (let g = queue.shift(); g; g = queue.shift()) for (const c of g) await runCase(c);
  };
  await worker();
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
