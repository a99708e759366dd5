// Where a page's time goes, with Chromium's CPU throttled 4× (benches/profile.sh): a trace
// (CDP Tracing, devtools.timeline) of one load, navigation -> LF_READY, and of 60 slider input
// events (every part unlocked, one part at a time shown, sliders of every part as in bench.mjs),
// summed by event (HTML parse, script compile and run, style, layout, ResizeObserver, paint),
// plus the JavaScript functions with the most self time (CDP Profiler samples).
// Usage: node profile.mjs [--phone] PAGE...
import path from 'node:path';
import { launch, slide, unlockAll } from './common.mjs';

const phone = process.argv.includes('--phone');
const files = process.argv.slice(2).filter((a) => a !== '--phone');
const VIEW = phone ? { width: 390, height: 844 } : { width: 1366, height: 900 };
const EVENTS = 60;
const NAMES = ['ParseHTML', 'v8.compile', 'v8.compileModule', 'EvaluateScript', 'FunctionCall', 'EventDispatch',
  'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'HitTest', 'ResizeObserver::deliverObservations',
  'TimerFire', 'FireAnimationFrame', 'ParseAuthorStyleSheet', 'v8.parseOnBackground'];

/** Runs `act` between Tracing.start and end; sums durations (inclusive, ms) of the main
 *  thread's events named in NAMES, counting an event nested in one of the same name once. */
async function trace(cdp, act) {
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'v8', 'blink', 'disabled-by-default-devtools.timeline'] } });
  await act();
  await cdp.send('Tracing.end');
  await done;
  // The renderer main thread that did the most (other tabs' renderers are idle).
  const mains = events.filter((e) => e.name === 'thread_name' && e.args && e.args.name === 'CrRendererMain');
  const count = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid && NAMES.includes(e.name)).length;
  const main = mains.sort((a, b) => count(b) - count(a))[0];
  const sums = {};
  const open = {};
  const mine = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && NAMES.includes(e.name))
    .sort((a, b) => a.ts - b.ts);
  const stack = [];
  for (const e of mine) {
    if (e.ph === 'X') {
      while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
      const nestedSame = stack.some((s) => s.name === e.name);
      if (!nestedSame) sums[e.name] = (sums[e.name] || 0) + (e.dur || 0) / 1000;
      stack.push({ name: e.name, end: e.ts + (e.dur || 0) });
    } else if (e.ph === 'B') open[e.name] = e.ts;
    else if (e.ph === 'E' && open[e.name] !== undefined) { sums[e.name] = (sums[e.name] || 0) + (e.ts - open[e.name]) / 1000; delete open[e.name]; }
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, +v.toFixed(1)]).sort((a, b) => b[1] - a[1]));
}

/** Self time (ms) per JavaScript function over `act`, the top `n`. */
async function profile(cdp, act, n = 15) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  await act();
  const { profile: p } = await cdp.send('Profiler.stop');
  const self = {};
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const dt = p.timeDeltas;
  p.samples.forEach((id, i) => {
    const nd = byId.get(id), f = nd.callFrame;
    const key = (f.functionName || '(anonymous)') + (f.lineNumber >= 0 ? ':' + (f.lineNumber + 1) : '');
    self[key] = (self[key] || 0) + (dt[i + 1] || 0) / 1000;
  });
  return Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, +v.toFixed(1)]);
}

const inputs = (page) => slide(page, EVENTS);

const b = await launch();
try {
  for (const file of files) {
    const url = 'file://' + path.resolve(file);
    const page = await b.ctx.newPage();
    await page.setViewportSize(VIEW);
    const cdp = await b.ctx.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Warm the disk cache, then trace one load.
    await page.goto(url);
    await page.waitForSelector('html[data-ready]');
    await page.evaluate(() => { if (!document.body.classList.contains('tabbed')) document.querySelector('.tab-mode').click(); });
    let ready = 0;
    const load = await trace(cdp, async () => {
      await page.goto(url);
      await page.waitForSelector('html[data-ready]');
      ready = await page.evaluate(() => window.LF_READY);
      await page.waitForTimeout(300);
    });
    const loadJs = await profile(cdp, async () => { await page.reload(); await page.waitForSelector('html[data-ready]'); });
    await unlockAll(page);
    const ev = await trace(cdp, async () => { await inputs(page); await page.waitForTimeout(200); });
    const evJs = await profile(cdp, () => inputs(page));
    console.log(`\n## ${path.basename(file)} (${phone ? 'phone' : 'desktop'}, 4× CPU): LF_READY ${ready.toFixed(1)} ms`);
    console.log('load, trace (ms, inclusive):', JSON.stringify(load));
    console.log('load, JS self time (ms):', JSON.stringify(loadJs));
    console.log(`${EVENTS} inputs, trace (ms, inclusive):`, JSON.stringify(ev));
    console.log(`${EVENTS} inputs, JS self time (ms):`, JSON.stringify(evJs));
    await page.close();
  }
} finally {
  await b.close();
}
