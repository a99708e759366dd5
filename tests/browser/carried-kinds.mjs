// The two kinds of carried number that need nothing from the earlier lab's author, in real
// Chromium from file:// (tests/inputs/carried_kinds): the later lab (plan) reads the earlier
// lab's (queue) part-A slider (`control: a.rho`) and its part-B locked numeric prediction
// (`prediction: b`). Before the earlier lab is touched, both show their defaults and say so;
// once the slider is moved and the prediction locked, the later lab shows the student's numbers,
// says where each came from, and computes with them (the outputs the Rust side expects); moving
// the slider again changes the later lab, while the locked prediction stays.
// Usage: node carried-kinds.mjs SITE_DIR
import path from 'node:path';
import { checker, launch, open, settle } from './common.mjs';

const [dir] = process.argv.slice(2);
const { check, finish } = checker();
const plan = path.join(dir, 'plan.html'), queue = path.join(dir, 'queue.html');
const shown = (page) => page.evaluate(() => {
  const one = (name) => {
    const li = document.querySelector(`[data-carried="${name}"]`);
    return { value: li?.querySelector('[data-carried-value]')?.textContent, from: li?.querySelector('[data-carried-from]')?.textContent };
  };
  const out = (id) => document.querySelector(`[data-output="${id}"]`)?.getAttribute('data-value');
  return { load: one('their_load'), guess: one('their_guess'), loadShare: out('load_share'), guessShare: out('guess_share') };
});
const ready = (page) => page.waitForSelector('html[data-ready]', { timeout: 15000 });
const setSlider = (page, value) => page.evaluate((value) => {
  const s = document.querySelector('[data-part="a"] input[type=range][data-control="rho"]');
  s.value = String(value);
  s.dispatchEvent(new Event('input', { bubbles: true }));
  s.dispatchEvent(new Event('change', { bubbles: true }));
}, value);
const errors = [];
const b = await launch();
try {
  let { page, log } = await open(b.ctx, plan);
  await ready(page);
  const before = await shown(page);
  console.log('BEFORE ' + JSON.stringify(before));
  check('later lab: the slider\'s default, not done yet', before.load.value === '0.5' && /not done yet/.test(before.load.from || ''), JSON.stringify(before.load));
  check('later lab: the prediction\'s default, not done yet', before.guess.value === '100' && /not done yet/.test(before.guess.from || ''), JSON.stringify(before.guess));
  check('later lab: computed with the defaults', before.loadShare === '0.25' && before.guessShare === '50', JSON.stringify(before));
  errors.push(...log.errors);
  await page.close();

  // The earlier lab: the slider moved, the numeric prediction typed and locked.
  ({ page, log } = await open(b.ctx, queue));
  await ready(page);
  await setSlider(page, 0.8);
  await page.fill('input[type=number][name="prediction-b"]', '150');
  await page.evaluate(() => document.querySelector('input[type=number][name="prediction-b"]').form.requestSubmit());
  await page.waitForFunction(() => window.LF_PAGE.ledger().parts.b && window.LF_PAGE.ledger().parts.b.prediction !== undefined, null, { timeout: 15000 });
  const kept = await page.evaluate(() => window.LF_PAGE.ledger().parts);
  check('earlier lab: the slider and the prediction are kept', String(kept.a?.controls?.rho) === '0.8' && String(kept.b?.prediction) === '150', JSON.stringify(kept));
  let hold = await settle(page);
  errors.push(...log.errors);
  await page.close();

  ({ page, log } = await open(b.ctx, plan));
  await hold.close();
  await ready(page);
  const after = await shown(page);
  console.log('AFTER ' + JSON.stringify(after));
  check('later lab: the student\'s setting, and where it came from', after.load.value === '0.8' && after.load.from === '(from “The queue”, your setting)', JSON.stringify(after.load));
  check('later lab: the locked prediction, and where it came from', after.guess.value === '150' && after.guess.from === '(from “The queue”, your locked prediction)', JSON.stringify(after.guess));
  check('later lab: computes with them', after.loadShare === '0.4' && after.guessShare === '75', JSON.stringify(after));
  errors.push(...log.errors);
  await page.close();

  // The slider moved again in the earlier lab: the later lab follows; the prediction is locked.
  ({ page, log } = await open(b.ctx, queue));
  await ready(page);
  await setSlider(page, 0.6);
  await page.waitForFunction(() => String(window.LF_PAGE.ledger().parts.a.controls.rho) === '0.6', null, { timeout: 15000 });
  hold = await settle(page);
  errors.push(...log.errors);
  await page.close();
  ({ page, log } = await open(b.ctx, plan));
  await hold.close();
  await ready(page);
  const again = await shown(page);
  console.log('AGAIN ' + JSON.stringify(again));
  check('later lab: follows the earlier lab\'s new setting', again.load.value === '0.6' && again.loadShare === '0.3', JSON.stringify(again));
  check('later lab: the locked prediction stays', again.guess.value === '150' && again.guessShare === '75', JSON.stringify(again));
  errors.push(...log.errors);
  await page.close();
  check('no page error', errors.length === 0, JSON.stringify(errors));
} finally {
  await b.close();
}
finish();
