// Keys left to the claims (issue 25), on each track's page: a choice question keyed by its
// claims (tests/inputs/ok_question_claim_key.yaml) is graded, not recorded as an opinion —
// `comm` is right on Phone and wrong on Cloud Fleet — and a prediction keyed by its claims
// (tests/inputs/ok_claim_key.yaml) is judged by its track's key the same way.
// Usage: node claim_key.mjs QUESTION_PAGES_DIR PREDICTION_PAGES_DIR
import path from 'node:path';
import { launch, open } from './common.mjs';

const [qdir, pdir] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) passed++; else { failed++; console.log(`FAIL ${name} ${detail}`); }
}
const b = await launch();
try {
  for (const [track, right] of [['phone', true], ['cloud', false]]) {
    const { page, log } = await open(b.ctx, path.join(qdir, `ok_question_claim_key.${track}.html`));
    const sel = '[data-part="a"] [data-question="binds"]';
    await page.click('#pred-a-grows');
    await page.click('[data-part="a"] [data-lock]');
    await page.click(`${sel} input[value="comm"]`);
    const said = await page.textContent(`${sel} [data-q-result]`);
    check(`question on ${track}: ${right ? 'right' : 'wrong'}, not recorded`, (right ? /Correct\./ : /Not quite\./).test(said), said);
    const q = (await page.evaluate(() => window.LF_PAGE.ledger())).parts.a.questions.binds;
    check(`question on ${track}: the record's verdict`, q && q.answer === 'comm' && q.correct === right, JSON.stringify(q));
    check(`question on ${track}: no page errors`, log.errors.length === 0, log.errors.join('; '));
    await page.evaluate(() => localStorage.clear());
    await page.close();
  }
  for (const [track, right] of [['phone', true], ['cloud', false]]) {
    const { page, log } = await open(b.ctx, path.join(pdir, `ok_claim_key.${track}.html`));
    await page.click('#pred-a-comm');
    await page.click('[data-part="a"] [data-lock]');
    const a = (await page.evaluate(() => window.LF_PAGE.ledger())).parts.a;
    check(`prediction on ${track}: judged by the track's key`, a.prediction === 'comm' && a.prediction_correct === right, JSON.stringify(a));
    check(`prediction on ${track}: no page errors`, log.errors.length === 0, log.errors.join('; '));
    await page.evaluate(() => localStorage.clear());
    await page.close();
  }
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
