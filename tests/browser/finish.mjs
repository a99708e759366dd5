// Finishing a lab: every slider's aria-valuetext follows its displayed value on every input;
// the "lab complete" state appears exactly when every prediction and reflection is answered,
// names the one file to hand in and downloads it; the Markdown report has part titles as
// "Part A: Title", option texts next to the letters, and no HTML escapes.
// Usage: node finish.mjs PAGE OUTDIR
import fs from 'node:fs';
import path from 'node:path';
import { checker, launch, open, reloadSaved, unlockAll } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
const { check, finish } = checker();
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const data = await page.evaluate(() => JSON.parse(document.getElementById('lf-data').textContent));
  const completeShown = () => page.evaluate(() => {
    const c = document.querySelector('[data-complete]');
    return !!c && !c.hidden && c.getBoundingClientRect().height > 0;
  });
  check('a complete section exists', await page.evaluate(() => !!document.querySelector('[data-complete]')));
  check('not complete at first', !(await completeShown()));
  await unlockAll(page);
  // Every slider, moved to three positions: aria-valuetext equals its displayed text.
  const sliders = await page.evaluate(() => [...document.querySelectorAll('input[type=range][data-control]')]
    .filter((s) => s.offsetParent !== null).map((s) => s.id));
  check('some slider', sliders.length > 0);
  for (const id of sliders) {
    for (const at of [0.1, 0.9, 0.5]) {
      const r = await page.evaluate(([id, at]) => {
        const s = document.getElementById(id);
        const lo = +s.min, hi = +s.max, st = s.step === 'any' ? 0 : +s.step;
        let v = lo + (hi - lo) * at;
        if (st > 0) v = lo + Math.round((v - lo) / st) * st;
        s.value = String(v);
        s.dispatchEvent(new Event('input', { bubbles: true }));
        const out = document.querySelector(`output[for="${id}"]`);
        return [s.getAttribute('aria-valuetext'), out ? out.textContent : null];
      }, [id, at]);
      check(`${id} at ${at}: aria-valuetext follows`, r[1] !== null && r[0] === r[1], JSON.stringify(r));
    }
  }
  const l = await page.evaluate(() => window.LF_PAGE.ledger());
  check('complete once everything is answered', l.complete === true, JSON.stringify(l.parts));
  check('the complete state is visible', await completeShown());
  const text = await page.evaluate(() => document.querySelector('[data-complete]').textContent);
  const name = data.lab.id + '-ledger.json';
  check('it names the file to hand in', text.includes(name), text);
  const buttons = await page.evaluate(() => document.querySelectorAll('[data-complete] [data-export-json], [data-complete] a[download]').length);
  check('one file to hand in in the complete state', buttons === 1, String(buttons));
  check('and the report beside it, to download or print', await page.evaluate(() =>
    !!document.querySelector('[data-complete] [data-report]') && !!document.querySelector('[data-complete] [data-export-md]') && !!document.querySelector('[data-complete] [data-print-report]')));
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-complete] [data-export-json]')]);
  check('download file name', dl.suggestedFilename() === name, dl.suggestedFilename());
  const got = JSON.parse(fs.readFileSync(await dl.path(), 'utf8'));
  check('the handed-in record is complete', got.complete === true && got.lab === data.lab.id);
  fs.copyFileSync(await dl.path(), path.join(outDir, 'finish-ledger.json'));
  const md = await page.evaluate(() => window.LF_PAGE.report());
  const norm = (s) => s.replace(/[*_`\\]/g, '').replace(/\s+/g, ' ').trim();
  const nmd = norm(md);
  fs.writeFileSync(path.join(outDir, 'finish-report.md'), md);
  check('no escaping leaks', !/&(amp|lt|gt|quot|#39);/.test(md), md.match(/.{0,30}&(amp|lt|gt|quot|#39);.{0,30}/)?.[0]);
  check('no "Part a"', !/## Part [a-z]\b/.test(md));
  for (const p of data.parts) {
    const a = l.parts[p.id];
    const sec = await page.evaluate((id) => document.getElementById('h-part-' + id).textContent, p.id);
    check(`part ${p.id}: heading as on the page`, nmd.includes('## ' + norm(sec)), sec);
    for (const [what, q] of [['prediction', p.prediction], ['reflection', p.reflection]]) {
      if (!q || q.numeric) continue;
      const o = q.options.find((o) => o.id === a[what]);
      const optText = await page.evaluate(([id, what, v]) => {
        const r = document.querySelector(`input[type=radio][name="${what}-${id}"][value="${v}"]`);
        return r.closest('label').textContent.replace(/^\S+\.\s*/, '');
      }, [p.id, what, a[what]]);
      check(`part ${p.id} ${what}: option text in the report`, o && nmd.includes(norm(optText)), optText);
    }
  }
  // Undoing nothing: a reload keeps the complete state.
  await reloadSaved(page);
  // On a failure, say which answers the reloaded page has (not seen again in 20 runs under load).
  check('complete after a reload', await completeShown(), await page.evaluate(() => JSON.stringify({
    ledger: window.LF_PAGE.ledger().parts,
    hidden: document.querySelector('[data-complete]').hidden,
    saved: Object.keys(localStorage),
  })));
  check('no console errors', log.errors.length === 0, JSON.stringify(log.errors));
} finally {
  await b.close();
}
finish();
