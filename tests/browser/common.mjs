// Shared helpers for the page tests: launch the Debian Chromium through playwright-core (never a
// downloaded browser), open a page from disk, unlock every part.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function launch() {
  const exe = process.env.LABFORGE_CHROMIUM || '/usr/bin/chromium';
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labforge-chromium-'));
  const ctx = await chromium.launchPersistentContext(userDir, {
    executablePath: exe,
    headless: true,
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { ctx, userDir, close: async () => { await ctx.close(); fs.rmSync(userDir, { recursive: true, force: true }); } };
}

/** Opens a page; records page errors, console errors and any request that leaves the file.
 *  The page shows the whole document (every part at once, as the page's mode button leaves
 *  it, remembered across reloads) unless `tabs` is true: one part at a time, the default. */
export async function open(ctx, file, { tabs = false } = {}) {
  const page = await ctx.newPage();
  const log = { errors: [], requests: [], dialogs: [], csp: [] };
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') log.errors.push('console: ' + m.text()); });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:')) log.requests.push(u);
  });
  page.on('dialog', async (d) => { log.dialogs.push(d.message()); await d.dismiss(); });
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('html[data-ready]', { timeout: 10000 });
  const tabbed = await page.evaluate(() => document.body.classList.contains('tabbed'));
  if (tabbed !== tabs) await page.click('.tab-mode');
  return { page, log };
}

/** Answers every prediction (first option locked in, or a number) and reflection until no part is locked. */
export async function unlockAll(page) {
  for (let round = 0; round < 20; round++) {
    const progressed = await page.evaluate(() => {
      let changed = false;
      for (const sec of document.querySelectorAll('[data-part]')) {
        if (sec.querySelector('[data-part-body]').hidden) continue;
        const id = sec.getAttribute('data-part');
        for (const what of ['prediction', 'reflection']) {
          const radios = sec.querySelectorAll(`input[type=radio][name="${what}-${id}"]`);
          const lock = what === 'prediction' ? sec.querySelector('[data-lock]') : null;
          if (radios.length && ![...radios].some((r) => r.checked)) {
            radios[0].click();
            changed = true;
          }
          // A prediction counts once it is locked in.
          if (lock && !lock.hidden && !lock.disabled) {
            lock.click();
            changed = true;
          }
        }
        const num = sec.querySelector(`input[type=number][name="prediction-${id}"]`);
        if (num && !num.hasAttribute('data-tried')) {
          // A number the box takes (its default, else its minimum, else 1).
          if (num.value === '') num.value = num.min || '1';
          num.setAttribute('data-tried', '');
          num.form.requestSubmit();
          changed = true;
        }
      }
      return changed;
    });
    if (!progressed) return;
  }
}

/** Moves sliders of every part `n` times, one `input` event each (a slider in turn, to spread
 *  positions), as the benchmarks do; returns the time each event's update took in ms: from the
 *  event to the `labforge:record` that ends the page's update (0 for a setting already
 *  computed), one event per frame, so that each is applied in the task it posts at once. */
export function slide(page, n) {
  return page.evaluate(async (n) => {
    const out = [];
    const sliders = [...document.querySelectorAll('[data-part] input[type=range][data-control]')];
    for (let i = 0; i < n; i++) {
      const s = sliders[i % sliders.length];
      const lo = Number(s.min), hi = Number(s.max), st = Number(s.step) || 1;
      const k = Math.floor(((i * 7919) % 1000) / 1000 * ((hi - lo) / st + 1));
      let t1 = 0;
      const done = () => { t1 = performance.now(); };
      document.addEventListener('labforge:record', done);
      s.value = String(lo + k * st);
      const t0 = performance.now();
      s.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
      document.removeEventListener('labforge:record', done);
      out.push(t1 ? t1 - t0 : 0);
    }
    return out;
  }, n);
}

export function close(a, b, rel = 1e-9) {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

/** Sets the control `name` to `value` as a student would (an input event, which the page
 *  applies in a task of its own, at most once per frame) and reports, from inside the page after that frame: how
 *  long the update took (ms, with the wait for the frame), the part's error text (or null), the
 *  work it charged (`[evaluation, update]` units), the budgets, and `output`'s data-value. */
export async function setControl(page, part, name, value, output) {
  return page.evaluate(async ([part, name, value, output]) => {
    const s = document.querySelector(`[name="${name}"]`);
    s.value = String(value);
    const t0 = performance.now();
    s.dispatchEvent(new Event('input', { bubbles: true }));
    // The page applies input in a task posted at once, or (within a frame of the last) posted
    // by its next frame callback; a task posted from a frame callback asked for after that runs
    // after either (posted messages run in order).
    await new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); }));
    const ms = performance.now() - t0;
    const err = document.querySelector(`[data-part="${part}"] [data-error]`);
    const D = JSON.parse(document.getElementById('lf-data').textContent);
    return { ms, error: err.hidden ? null : err.textContent, ops: window.LF_RUNTIME.ops(),
      maxOps: D.maxOps, labOps: D.labOps,
      value: document.querySelector(`[data-output="${output}"]`).getAttribute('data-value') };
  }, [part, name, value, output]);
}

/** Counts checks: `check(name, cond, detail)` prints a failure; `finish()` prints the tally and exits. */
export function checker() {
  let passed = 0, failed = 0;
  return {
    check(name, cond, detail = '') {
      if (cond) passed++; else { failed++; console.log(`FAIL ${name} ${detail}`); }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

/** All of localStorage as a new document of the page's origin (file://) reads it. */
const storageText = () => JSON.stringify(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]));

/** Reloads `page` once what it saved is what a new document reads, with another page of the
 *  origin open across the reload. Chromium on file:// (measured with 80-120 writes each followed
 *  at once by a new document, the machine loaded by another browser test): a document that
 *  loads right after a localStorage write may read the storage from before it (the write
 *  travels to the browser process on its own channel; 2-6 in 100), or read it empty (the
 *  record gone; 2-4 in 100 when no other document of the origin stayed open, none when one
 *  did). A student's reload comes seconds later; the tests wait for the write to reach a new
 *  document (a probe page in a new tab) and keep that probe open until the reloaded page has
 *  read its record, instead of racing either. */
export async function reloadSaved(page) {
  const probe = await settle(page);
  try {
    await page.reload();
    await page.waitForSelector('html[data-ready]', { timeout: 10000 });
  } finally {
    await probe.close();
  }
}

/** Empties the origin's storage once `page` has written all it writes on load (its deferred
 *  parts write the course record before `data-ready`; a clear before that is undone by it). */
/** A page as the drag benchmarks use it (drag.mjs, drag-trace.mjs): 1366×900, nothing saved
 *  (file: pages share one localStorage), one part at a time, every part unlocked, the CPU
 *  throttled `rate`×; `init` is a script run before the page's own (an observer). */
export async function dragPage(ctx, file, rate, init = null) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  if (init) await page.addInitScript(init);
  await page.goto('file://' + path.resolve(file));
  await emptyStorage(page);
  await page.reload();
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  await page.evaluate(() => { if (!document.body.classList.contains('tabbed')) document.querySelector('.tab-mode').click(); });
  await unlockAll(page);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return { page, cdp };
}

export async function emptyStorage(page) {
  await page.waitForSelector('html[data-ready]', { timeout: 30000 });
  await page.evaluate(() => localStorage.clear());
}

/** Waits until what `page` saved is what a new document reads (see reloadSaved); returns that
 *  probe page, open, to be closed once the next document of the origin has read the record.
 *  The probe is a file (the origin of pages opened from disk), or `url`, a page of another. */
export async function settle(page, url = null) {
  let want = await page.evaluate(storageText);
  // The probe sits beside the page it checks (a file of the same folder), and a probe that reads
  // the storage empty is replaced by a new tab: a CI run (idle machine, Chromium 156) had one
  // probe read `[]` for 15 s, reloaded every 100 ms, while the page it checked held the record.
  const here = page.url().startsWith('file://') ? path.dirname(fileURLToPath(page.url())) : os.tmpdir();
  const probeFile = path.join(here, `labforge-storage-probe-${process.pid}.html`);
  fs.writeFileSync(probeFile, '<!doctype html><title>storage probe</title>');
  let probe = await page.context().newPage();
  const until = Date.now() + 15000;
  for (;;) {
    await probe.goto(url || pathToFileURL(probeFile).href);
    const got = await probe.evaluate(storageText);
    // What the page holds now: it may write again while the probe loads (its deferred parts
    // write the course record once computed; a CI run compared against the storage of before).
    want = await page.evaluate(storageText);
    if (got === want) { fs.rmSync(probeFile, { force: true }); return probe; }
    if (Date.now() > until) {
      await probe.close();
      fs.rmSync(probeFile, { force: true });
      throw new Error(`the page's saved progress never reached a new document:\n${want}\nread:\n${got}`);
    }
    if (got === '[]') {
      await probe.close();
      probe = await page.context().newPage();
    }
    await page.waitForTimeout(100);
  }
}

/** The page as it loads before any script: LF_READY and `data-ready` set at its end. */
const TINY = '<script>document.documentElement.setAttribute("data-ready", "1"); window.LF_READY = performance.now();</script>';
/** The page without its scripts (the head's, the tabs', its data and the rest) and CSP, TINY at
 *  `#lf-end`. */
export function markupOnly(file, dir) {
  const html = fs.readFileSync(file, 'utf8');
  if (html.indexOf('<i id="lf-end"></i>') < 0) throw new Error(`${file}: no #lf-end`);
  const out = path.join(dir, 'markup only ' + path.basename(file));
  fs.writeFileSync(out, html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '').replace('<i id="lf-end"></i>', TINY + '<i id="lf-end"></i>')
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''));
  return out;
}
