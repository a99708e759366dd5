// Where one slider drag's time goes (a Chromium trace, CDP Tracing): the mouse pressed on one
// slider and moved across its track 40 times 16 ms apart, as drag.mjs does, with the CPU
// throttled (4× by default). Prints the main thread's time by event (inclusive, an event nested
// in one of the same name counted once), the long tasks (RunTask over 50 ms) with what they
// held, the layouts (forced ones, i.e. inside script, apart; dirty objects of total), the
// nodes whose layout was invalidated most and why (invalidation tracking), and the JavaScript
// functions with the most self and total time (CDP Profiler samples, a second drag). Given two
// pages or more (renderings of one page), it drags each in turn, alternating the order by round,
// and prints per slider and kind (script, style, layout, paint, compositing, HTML parse, tasks;
// `_cpu`: thread CPU time, which other load on the machine barely moves) the median over rounds
// per page and the median of the paired ratios to the first page.
// Usage: node drag-trace.mjs [--rate 4] --sliders PART/CONTROL PAGE
//        node drag-trace.mjs [--rate 4] [--rounds N] --sliders P/C,P/C... BEFORE AFTER...  (paired)
import path from 'node:path';
import { launch, dragPage } from './common.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args.splice(i, 2)[1] : d; };
const RATE = Number(opt('--rate', 4)), ROUNDS = Number(opt('--rounds', 1)), MOVES = 40, GAP_MS = 16;
const sliders = opt('--sliders', '').split(',').filter(Boolean).map((x) => x.split('/'));
const files = args;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SCRIPT = ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'EvaluateScript', 'ResizeObserver::deliverObservations', 'v8.callFunction'];
/* What the main thread did, by kind (ms, top-level events of each name). */
const KINDS = { js: ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame'], style: ['UpdateLayoutTree'], layout: ['Layout'],
  paint: ['PrePaint', 'Paint'], composite: ['Layerize', 'Commit', 'LocalFrameView::RunCompositingInputsLifecyclePhase'], parse: ['ParseHTML'], hit: ['HitTest'], task: ['RunTask'] };
const med = (a) => { const v = [...a].sort((x, y) => x - y); return v[Math.floor(v.length / 2)]; };
const r1 = (o, n = 14) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +v.toFixed(1)]).sort((x, y) => y[1] - x[1]).slice(0, n));

const b = await launch();

const open = (file) => dragPage(b.ctx, file, RATE);

/* Shows the part and the slider; returns the drag (press, moves, release, 300 ms). */
async function ready(page, part, control) {
  await page.click(`[data-tab="${part}"]`);
  const s = page.locator(`[data-part="${part}"] input[type=range][data-control="${control}"]`);
  await s.scrollIntoViewIfNeeded();
  await sleep(300);
  return () => drag(page, s);
}
async function drag(page, s) {
  const box = await s.boundingBox();
  const y = box.y + box.height / 2, x0 = box.x + 4, x1 = box.x + box.width - 4;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) { await page.mouse.move(x0 + (x1 - x0) * i / MOVES, y); await sleep(GAP_MS); }
  await page.mouse.up();
  await sleep(300);
}

async function traced(cdp, act) {
  const events = [];
  const on = (d) => events.push(...d.value);
  cdp.on('Tracing.dataCollected', on);
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['devtools.timeline', 'toplevel',
    'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'blink', 'v8'] } });
  await act();
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', on);
  const mains = events.filter((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
  const n = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid).length;
  const main = mains.sort((x, y) => n(y) - n(x))[0];
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid).sort((x, y) => x.ts - y.ts || (y.dur || 0) - (x.dur || 0));
  const sums = {}, cpu = {}, count = {}, stack = [], tasks = [], layouts = [], inval = {};
  let cur = null;
  for (const e of mine) {
    if (e.ph === 'X') {
      while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
      const names = stack.map((x) => x.name);
      if (!names.includes(e.name)) { sums[e.name] = (sums[e.name] || 0) + (e.dur || 0) / 1000; cpu[e.name] = (cpu[e.name] || 0) + (e.tdur || 0) / 1000; count[e.name] = (count[e.name] || 0) + 1; }
      if (e.name === 'RunTask' && !names.includes('RunTask')) { cur = { ms: (e.dur || 0) / 1000, in: {} }; tasks.push(cur); }
      else if (cur && !names.includes(e.name) && stack.length) cur.in[e.name] = (cur.in[e.name] || 0) + (e.dur || 0) / 1000;
      if (e.name === 'Layout') {
        const bd = (e.args && e.args.beginData) || {};
        layouts.push({ ms: (e.dur || 0) / 1000, forced: names.some((x) => SCRIPT.includes(x)), dirty: bd.dirtyObjects, total: bd.totalObjects });
      }
      stack.push({ name: e.name, end: e.ts + (e.dur || 0) });
    }
    if (/InvalidationTracking$/.test(e.name)) {
      const d = (e.args && e.args.data) || {};
      const k = `${e.name.replace('InvalidationTracking', '')} ${d.nodeName || '?'} ${d.reason || d.invalidationSet || ''}`;
      inval[k] = (inval[k] || 0) + 1;
    }
  }
  const kinds = {};
  for (const [k, names] of Object.entries(KINDS)) { kinds[k] = names.reduce((a, x) => a + (sums[x] || 0), 0); kinds[k + '_cpu'] = names.reduce((a, x) => a + (cpu[x] || 0), 0); }
  kinds.frames = count['WebFrameWidgetImpl::UpdateLifecycle'] || 0;
  kinds.recomputes = count['MessagePort::Accept'] || 0;
  const long = tasks.filter((t) => t.ms > 50);
  kinds.long_n = long.length;
  kinds.long_max = Math.max(0, ...tasks.map((t) => t.ms));
  kinds.long_sum = long.reduce((a, t) => a + t.ms, 0);
  return { sums, cpu, kinds, tasks, long, layouts, inval };
}

function report(label, t) {
  console.log(`## ${label}`);
  console.log('main thread (ms, inclusive):', JSON.stringify(r1(t.sums, 40)));
  console.log('main thread CPU (ms, inclusive):', JSON.stringify(r1(t.cpu, 60)));
  console.log(`tasks: ${t.tasks.length}, long: ${t.long.length}, longest ${t.kinds.long_max.toFixed(0)} ms, long sum ${t.kinds.long_sum.toFixed(0)} ms`);
  for (const x of [...t.long].sort((p, q) => q.ms - p.ms).slice(0, 6)) console.log(`  ${x.ms.toFixed(0)} ms:`, JSON.stringify(r1(x.in)));
  const forced = t.layouts.filter((l) => l.forced);
  console.log(`layouts: ${t.layouts.length} (${t.layouts.reduce((a, l) => a + l.ms, 0).toFixed(0)} ms), forced: ${forced.length} (${forced.reduce((a, l) => a + l.ms, 0).toFixed(0)} ms); dirty/total of the 8 longest:`,
    [...t.layouts].sort((x, y) => y.ms - x.ms).slice(0, 8).map((l) => `${l.ms.toFixed(1)}ms ${l.dirty}/${l.total}${l.forced ? ' forced' : ''}`).join(', '));
  console.log('invalidations (count):', JSON.stringify(r1(t.inval, 20)));
}

async function jsProfile(page, cdp, part, control) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const go = await ready(page, part, control);
  await cdp.send('Profiler.start');
  await go();
  const { profile: p } = await cdp.send('Profiler.stop');
  const self = {}, total = {}, parent = new Map();
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  for (const x of p.nodes) for (const c of x.children || []) parent.set(c, x.id);
  const key = (f) => (f.functionName || '(anonymous)') + (f.lineNumber >= 0 ? ':' + (f.lineNumber + 1) : '');
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i + 1] || 0) / 1000, k = key(byId.get(id).callFrame);
    self[k] = (self[k] || 0) + dt;
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) seen.add(key(byId.get(n).callFrame));
    for (const s of seen) total[s] = (total[s] || 0) + dt;
  });
  return { self: r1(self, 20), total: r1(Object.fromEntries(Object.entries(total).filter(([k]) => !/^\((root|program|idle)\)/.test(k))), 30) };
}

try {
  if (files.length === 1) {
    const [part, control] = sliders[0];
    const { page, cdp } = await open(files[0]);
    report(`${path.basename(files[0])} ${part}/${control} at ${RATE}× CPU, ${MOVES} moves`, await traced(cdp, await ready(page, part, control)));
    const js = await jsProfile(page, cdp, part, control);
    console.log('JS self time (ms):', JSON.stringify(js.self));
    console.log('JS total time (ms):', JSON.stringify(js.total));
  } else {
    // Paired: the pages in turn, order alternating by round; medians of the sums over rounds
    // and of the paired ratios to the first page.
    const acc = {};
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? [...files.keys()].reverse() : [...files.keys()];
      const got = {};
      for (const i of order) {
        const { page, cdp } = await open(files[i]);
        for (const [part, control] of sliders) (got[part + '/' + control] ||= {})[i] = (await traced(cdp, await ready(page, part, control))).kinds;
        await page.close();
      }
      for (const [sl, byPage] of Object.entries(got)) for (const [i, k] of Object.entries(byPage)) for (const [name, v] of Object.entries(k)) {
        const a = ((acc[sl] ||= {})[name] ||= files.map(() => ({ v: [], ratio: [] })));
        a[i].v.push(v);
        a[i].ratio.push(byPage[0][name] ? v / byPage[0][name] : NaN);
      }
    }
    const rows = [];
    for (const [sl, byName] of Object.entries(acc)) for (const [name, per] of Object.entries(byName)) {
      const row = { slider: sl, what: name };
      per.forEach((x, i) => { row[`p${i}`] = +med(x.v).toFixed(1); if (i) row[`p${i}/p0`] = +med(x.ratio).toFixed(2); });
      rows.push(row);
    }
    console.log(`${ROUNDS} rounds at ${RATE}× CPU; p0..: ${files.map((f) => f).join(' | ')}`);
    if (rows.length) console.log(Object.keys(rows[0]).join('\t'));
    for (const r of rows) console.log(Object.values(r).join('\t'));
  }
} finally {
  await b.close();
}
