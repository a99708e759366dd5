// Hostile saved progress: for each malformed record in localStorage the page still starts,
// says that it discarded what it could not read, keeps what it could, and Reset works.
import { launch, open } from './common.mjs';

const file = process.argv[2];
const CASES = [
  ['parts is a string', '{"parts":"x"}'],
  ['not JSON', '{"parts":'],
  ['an array', '[1,2,3]'],
  ['wrong shapes', '{"parts":{"a":{"prediction":{"x":1},"controls":"zz"},"b":7},"decision_log":5}'],
  ['a control of the wrong type', '{"parts":{"a":{"controls":{"utilization":{"deep":[1]},"cs":null}}},"decision_log":"kept"}'],
  ['prototype keys', '{"parts":{"__proto__":{"polluted":1},"a":{"__proto__":{"prediction":"B"}}},"__proto__":{"decision_log":1}}'],
];
const b = await launch();
const failures = [];
let passed = 0;
try {
  for (const [name, saved] of CASES) {
    const { page, log } = await open(b.ctx, file);
    const key = await page.evaluate(() => Object.keys(localStorage).find((k) => k.startsWith('labforge:')) ||
      ('labforge:' + JSON.parse(document.getElementById('lf-data').textContent).lab.id + ':v' + JSON.parse(document.getElementById('lf-data').textContent).lab.version));
    // The record is put in place by the reloaded document itself, before the page's scripts
    // run: a write from the old document may not have reached the storage a new renderer
    // process reads (seen on a loaded machine). Once per tab, so Reset's reload is clean.
    await page.addInitScript(([k, v]) => {
      if (!sessionStorage.getItem('lf-test-injected')) {
        sessionStorage.setItem('lf-test-injected', '1');
        localStorage.setItem(k, v);
      }
    }, [key, saved]);
    await page.reload();
    await page.waitForSelector('html[data-ready]', { timeout: 10000 });
    const r = await page.evaluate(() => ({
      notice: (document.querySelector('[data-notice]') || {}).textContent || '',
      visible: !!document.querySelector('[data-notice]') && document.querySelector('[data-notice]').offsetParent !== null,
      polluted: ({}).polluted !== undefined || ({}).prediction !== undefined,
      log: (document.querySelector('textarea[name="decision-log"]') || {}).value,
      exported: JSON.stringify(window.LF_PAGE.ledger()),
    }));
    const fail = (m) => failures.push(`${name}: ${m}`);
    // Unknown keys (prototype names included) are ignored; anything malformed is announced.
    if (name === 'prototype keys') {
      if (r.notice) fail('a notice for keys that are simply unknown');
      if (/"prediction":"B"/.test(r.exported)) fail('an answer came in through __proto__');
    } else if (!/could not be read/.test(r.notice) || !r.visible) fail('no visible notice: ' + JSON.stringify(r.notice));
    if (r.polluted) fail('Object.prototype was polluted');
    if (name === 'a control of the wrong type' && r.log !== 'kept') fail('the readable decision log was not kept: ' + r.log);
    if (!r.exported.includes('"design"')) fail('the export is broken: ' + r.exported);
    const errors = log.errors.filter((e) => !/Content Security Policy/.test(e));
    if (errors.length) fail('page errors: ' + errors.join('; '));
    // Reset works: confirm, the record is gone, the page comes back clean.
    page.removeAllListeners('dialog');
    page.on('dialog', (d) => d.accept());
    await Promise.all([page.waitForEvent('load'), page.click('[data-reset]')]);
    await page.waitForSelector('html[data-ready]', { timeout: 10000 });
    const after = await page.evaluate((k) => ({
      stored: localStorage.getItem(k),
      notice: !!document.querySelector('[data-notice]'),
    }), key);
    if (after.notice) fail('the notice is still shown after Reset');
    if (after.stored !== null && /"x"|zz|\[1,2,3\]/.test(after.stored)) fail('Reset kept the bad record: ' + after.stored);
    if (!failures.some((f) => f.startsWith(name + ':'))) passed += 1;
    await page.close();
  }
} finally {
  await b.close();
}
for (const f of failures) console.log('FAIL ' + f);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
