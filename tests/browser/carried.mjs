// A number carried between labs of a course, in real Chromium from file:// (one storage for the
// folder): the later lab shows the default and says the earlier lab is not done; the earlier
// lab's slider is moved and kept in the course record; the later lab then shows the student's
// number, says where it came from, and computes with it. A record edited to hold a number
// outside the range is refused: the default again, with the reason.
// Usage: node carried.mjs SITE_DIR EARLIER_ID LATER_ID CONTROL VALUE NAME OUTPUT
//   the earlier lab's part-a CONTROL is set to VALUE; the later lab reads it as NAME and shows
//   OUTPUT (its data-value printed for the Rust side to compare).
import path from 'node:path';
import { checker, launch, open, settle, unlockAll } from './common.mjs';

const [dir, earlierId, laterId, control, value, name, output] = process.argv.slice(2);
const { check, finish } = checker();
const earlier = path.join(dir, earlierId + '.html'), later = path.join(dir, laterId + '.html');
const shown = (page) => page.evaluate(([name, output]) => {
  const li = document.querySelector(`[data-carried="${name}"]`);
  const out = document.querySelector(`[data-output="${output}"]`);
  return {
    value: li?.querySelector('[data-carried-value]')?.textContent,
    from: li?.querySelector('[data-carried-from]')?.textContent,
    output: out?.getAttribute('data-value'),
  };
}, [name, output]);
const ready = (page) => page.waitForSelector('html[data-ready]', { timeout: 15000 });
const errors = [];
const b = await launch();
try {
  let { page, log } = await open(b.ctx, later);
  await ready(page);
  const before = await shown(page);
  console.log('BEFORE ' + JSON.stringify(before));
  check('later lab: the default, not done yet', /not done yet/.test(before.from || ''), JSON.stringify(before));
  errors.push(...log.errors);
  await page.close();

  ({ page, log } = await open(b.ctx, earlier));
  await ready(page);
  await unlockAll(page);
  await page.locator(`[data-part="a"] [data-control="${control}"]`).first().fill(String(value));
  const kept = await page.evaluate(() => window.LF_PAGE.ledger().parts.a.controls);
  check('earlier lab: the value kept beside the settings', Object.values(kept).some((v) => String(v) === String(value)) && Object.keys(kept).some((k) => k.startsWith('@')), JSON.stringify(kept));
  const hold = await settle(page);
  errors.push(...log.errors);
  await page.close();

  ({ page, log } = await open(b.ctx, later));
  await hold.close();
  await ready(page);
  const after = await shown(page);
  console.log('AFTER ' + JSON.stringify(after));
  check('later lab: the student\'s number', after.value === String(value), JSON.stringify(after));
  check('later lab: says where it came from', /^\(from “.*”, your recorded value\)$/.test(after.from || ''), JSON.stringify(after));
  check('later lab: computes with it', after.output !== before.output, JSON.stringify([before, after]));

  // A record holding a number outside the range: refused.
  await page.evaluate(([id, value]) => {
    for (const k of Object.keys(localStorage)) {
      if (!k.startsWith('labforge-course:')) continue;
      const r = JSON.parse(localStorage.getItem(k));
      for (const a of Object.values(r.labs[id].parts)) {
        for (const c of Object.keys(a.controls || {})) if (c.startsWith('@')) a.controls[c] = 1e12;
      }
      localStorage.setItem(k, JSON.stringify(r));
    }
  }, [earlierId, value]);
  const hold2 = await settle(page);
  await page.reload();
  await hold2.close();
  await ready(page);
  const bad = await shown(page);
  console.log('REFUSED ' + JSON.stringify(bad));
  check('hostile record: the default again', bad.value === before.value && bad.output === before.output, JSON.stringify(bad));
  check('hostile record: says why', /holds no number from/.test(bad.from || ''), JSON.stringify(bad));
  errors.push(...log.errors);
} finally {
  await b.close();
}
check('no page errors', errors.length === 0, errors.join('; '));
finish();
