// Commitment on every choice prediction of a page: clicking options only selects; once the
// first option is locked in, clicking through every option (real clicks) shows its feedback
// but keeps the first answer in the HUD, the ledger export, the report and after a reload;
// each other option clicked is recorded as an attempt, in order. Before its lock-in a part is
// `pending` in the export's HUD.
// Usage: node commit.mjs PAGE OUTDIR
import fs from 'node:fs';
import path from 'node:path';
import { launch, open, reloadSaved, unlockAll } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) passed++; else { failed++; console.log(`FAIL ${name} ${detail}`); }
}
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file, { tabs: true });
  const data = await page.evaluate(() => JSON.parse(document.getElementById('lf-data').textContent));
  const ledgerNow = () => page.evaluate(() => window.LF_PAGE.ledger());
  const expected = {};
  for (let round = 0; round < 20; round++) {
    // Parts open with a choice prediction not locked in yet.
    const ids = await page.evaluate(() => [...document.querySelectorAll('[data-part]')]
      .filter((s) => !s.querySelector('[data-part-body]').hidden)
      .filter((s) => { const l = s.querySelector('[data-lock]'); return l && !l.hidden; })
      .map((s) => s.getAttribute('data-part')));
    if (!ids.length) {
      // Numeric predictions and reflections may gate later parts.
      const before = JSON.stringify(await ledgerNow());
      await unlockAll(page);
      if (JSON.stringify(await ledgerNow()) === before) break;
      continue;
    }
    for (const id of ids) {
      // One part at a time: open the part's tab first.
      await page.click(`[data-tab="${id}"]`);
      const radios = page.locator(`[data-part="${id}"] input[type=radio][name="prediction-${id}"]`);
      const values = await radios.evaluateAll((rs) => rs.map((r) => r.value));
      // Before locking: every click only selects (ending on the first option).
      for (let i = values.length - 1; i >= 0; i--) await radios.nth(i).click();
      const pre = await ledgerNow();
      check(`${id}: selecting records nothing`, pre.parts[id].prediction === undefined &&
        await page.isHidden(`[data-part="${id}"] [data-prediction-result]`), JSON.stringify(pre.parts[id]));
      // Not answered yet: the export says pending (as the bar does), not review.
      if (id in pre.hud.parts) check(`${id}: pending in the export's HUD`, pre.hud.parts[id] === 'pending' &&
        await page.getAttribute(`[data-hud-part="${id}"]`, 'data-state') === 'pending', JSON.stringify(pre.hud.parts));
      await page.click(`[data-part="${id}"] [data-lock]`);
      // After locking: click through every option, the first included.
      for (let i = 0; i < values.length; i++) {
        await radios.nth(i).click();
        check(`${id}: option ${values[i]}'s feedback shown`, await page.isVisible(`[data-part="${id}"] [data-prediction-result]`));
      }
      expected[id] = { first: values[0], attempts: values.slice(1) };
    }
  }
  const ids = Object.keys(expected);
  check('some choice prediction was tried', ids.length > 0 || !data.parts.some((p) => p.prediction && !p.prediction.numeric));
  const correctOf = (id, v) => data.parts.find((p) => p.id === id).prediction.options.some((o) => o.correct && o.id === v);
  const partKey = (id) => (Array.from(id).length === 1 ? 'part' + id.toUpperCase() : 'part_' + id);
  const verify = (l, where) => {
    for (const id of ids) {
      const a = l.parts[id], e = expected[id];
      check(`${where} ${id}: the first answer counts`, a.prediction === e.first && a.prediction_correct === correctOf(id, e.first) &&
        l.design[partKey(id) + '_prediction'] === e.first, JSON.stringify(a));
      check(`${where} ${id}: the others are attempts`, JSON.stringify(a.prediction_attempts || []) === JSON.stringify(e.attempts), JSON.stringify(a.prediction_attempts));
      check(`${where} ${id}: lock time`, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(a.prediction_locked_at || ''), a.prediction_locked_at);
      if (id in l.hud.parts) check(`${where} ${id}: HUD`, l.hud.parts[id] === (correctOf(id, e.first) ? 'correct' : 'review'));
    }
  };
  // The downloaded export.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-export-json]')]);
  const ledgerPath = path.join(outDir, 'commit-ledger.json');
  await dl.saveAs(ledgerPath);
  const exported = JSON.parse(fs.readFileSync(ledgerPath, 'utf8'));
  check('format', exported.format === 'labforge-ledger/2', exported.format);
  verify(exported, 'export');
  const [md] = await Promise.all([page.waitForEvent('download'), page.click('[data-export-md]')]);
  const mdPath = path.join(outDir, 'commit-report.md');
  await md.saveAs(mdPath);
  const report = fs.readFileSync(mdPath, 'utf8');
  for (const id of ids) {
    const e = expected[id];
    check(`report ${id}`, report.includes(`- Answer: **${e.first}** — `) &&
      (e.attempts.length === 0 || report.includes('- Looked at after locking in: ' + e.attempts.join(', '))));
  }
  // After a reload the locked answer is the one shown, and still the one recorded.
  await reloadSaved(page);
  for (const id of ids) {
    check(`reload ${id}: locked answer selected`, await page.isChecked(`[data-part="${id}"] input[name="prediction-${id}"][value="${expected[id].first}"]`));
  }
  const failedBefore = failed;
  verify(await ledgerNow(), 'reload');
  // On a failure: the reloaded page's address, what it read and whether it discarded anything
  // (its notice), and what a page in a new tab (its own renderer) reads now.
  if (failed > failedBefore) {
    console.log('reloaded page:', await page.evaluate(() => JSON.stringify({
      url: location.href,
      notice: (document.querySelector('[data-notice]') || {}).textContent || null,
      storage: Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]),
    })));
    const probe = await page.context().newPage(), blank = path.resolve(outDir, 'probe.html');
    fs.writeFileSync(blank, '<!doctype html><title>probe</title>');
    await probe.goto('file://' + blank);
    console.log('a new tab reads:', await probe.evaluate(() => JSON.stringify(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)]))));
    await probe.close();
  }
  check('no errors', log.errors.length === 0, log.errors.join('; '));
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
