// A part's questions in the page (tests/inputs/ok_questions.yaml): lock in the prediction,
// answer every kind (a choice, a select-all partly right, a numeric question that waits for it,
// an opinion, a written answer shorter than its minimum, a one-line written answer), export
// the record, reload (every answer back in its box, the same record), and write both records
// to OUTDIR for the Rust side to compare with its own.
// Usage: node questions.mjs PAGE OUTDIR
import fs from 'node:fs';
import path from 'node:path';
import { launch, open, reloadSaved } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) passed++; else { failed++; console.log(`FAIL ${name} ${detail}`); }
}
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const sel = (id) => `[data-part="a"] [data-question="${id}"]`;
  const rec = () => page.evaluate(() => window.LF_PAGE.ledger());
  check('questions wait for the prediction', await page.isHidden(sel('lever')));
  await page.click('#pred-a-B');
  await page.click('[data-part="a"] [data-lock]');
  check('the choice opens with the prediction', await page.isVisible(sel('lever')));
  check('the numeric question waits for the select-all', await page.isHidden(sel('amp')));
  await page.click(`${sel('lever')} input[value="A"]`);
  check('choice: correct', /Correct/.test(await page.textContent(`${sel('lever')} [data-q-result]`)));
  await page.check(`${sel('levers')} input[value="A"]`);
  await page.click(`${sel('levers')} [data-q-submit]`);
  check('select-all: partial credit said', /50% credit/.test(await page.textContent(`${sel('levers')} [data-q-result]`)),
    await page.textContent(`${sel('levers')} [data-q-result]`));
  check('the numeric question opens', await page.isVisible(sel('amp')));
  await page.fill(`${sel('amp')} input`, '5.2');
  await page.click(`${sel('amp')} [data-q-submit]`);
  await page.click(`${sel('worry')} input[value="B"]`);
  check('opinion: recorded, not graded', /Recorded/.test(await page.textContent(`${sel('worry')} [data-q-result]`)));
  const essay = 'Utilization binds:\nthe queue grows without bound.';
  await page.fill(`${sel('why')} textarea`, essay);
  check('words counted as typed', /^7 words \(at least 12\)$/.test(await page.textContent(`${sel('why')} [data-q-words]`)),
    await page.textContent(`${sel('why')} [data-q-words]`));
  await page.click(`${sel('why')} [data-q-submit]`);
  check('too short: said', /shorter than 12 words/.test(await page.textContent(`${sel('why')} [data-q-result]`)));
  check('the model answer is not on the page', !(await page.content()).includes('rho/(1-rho)'));
  // Left without its button: saved when the box loses the focus.
  await page.fill(`${sel('q6')} textarea`, 'Keep the cluster below 70% busy.');
  await page.focus(`${sel('amp')} input`);
  const before = await rec();
  const q = before.parts.a.questions || {};
  check('choice recorded', q.lever && q.lever.answer === 'A' && q.lever.correct === true, JSON.stringify(q.lever));
  check('select-all recorded with its score', q.levers && JSON.stringify(q.levers.answer) === '["A"]' && q.levers.score === 0.5 && q.levers.correct === false, JSON.stringify(q.levers));
  check('numeric recorded', q.amp && q.amp.answer === '5.2' && q.amp.correct === true, JSON.stringify(q.amp));
  check('opinion has no correct', q.worry && q.worry.answer === 'B' && !('correct' in q.worry), JSON.stringify(q.worry));
  check('text recorded as typed', q.why && q.why.answer === essay && !('correct' in q.why), JSON.stringify(q.why));
  check('every answer has its time', Object.values(q).every((x) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(x.answered_at || '')));
  check('in the lab\'s order', JSON.stringify(Object.keys(q)) === '["lever","levers","amp","worry","why","q6"]', JSON.stringify(Object.keys(q)));
  check('complete', before.complete === true);
  fs.writeFileSync(path.join(outDir, 'before.json'), JSON.stringify(before, null, 2));
  // The lab report: each answer, a written one quoted line by line.
  const report = await page.evaluate(() => window.LF_PAGE.report());
  check('the report lists the answers', report.includes('### Question `levers`\n\nWhich of these lower the wait?\n\n- Answer: **A** — Lower utilization\n- Credit: 50%\n') &&
    report.includes('\n> Utilization binds:\n> the queue grows without bound.\n') && report.includes('### Question `worry`\n\nWhich effect surprised you most?\n\n- Answer: **B** — The variance term\n\n'), report);
  await reloadSaved(page);
  const after = await rec();
  check('the same record after a reload', JSON.stringify(after.parts.a.questions) === JSON.stringify(before.parts.a.questions),
    JSON.stringify(after.parts.a.questions));
  check('choice restored', await page.isChecked(`${sel('lever')} input[value="A"]`));
  check('select-all restored', await page.isChecked(`${sel('levers')} input[value="A"]`) && !(await page.isChecked(`${sel('levers')} input[value="B"]`)));
  check('number restored', (await page.inputValue(`${sel('amp')} input`)) === '5.2');
  check('text restored', (await page.inputValue(`${sel('why')} textarea`)) === essay);
  check('feedback shown again', await page.isVisible(`${sel('levers')} [data-q-result]`) && await page.isVisible(sel('amp')));
  // A hostile saved record: an unknown question, a select-all with an unknown option, an overlong text.
  await page.evaluate(() => {
    const k = Object.keys(localStorage).find((x) => x.startsWith('labforge:questions-demo'));
    const s = JSON.parse(localStorage.getItem(k));
    s.parts.a.questions.nope = { answer: 'x' };
    s.parts.a.questions.levers = { answer: ['A', 'Z'] };
    s.parts.a.questions.q6 = { answer: 'w '.repeat(6000) };
    localStorage.setItem(k, JSON.stringify(s));
  });
  await page.reload();
  await page.waitForSelector('html[data-ready]', { timeout: 10000 });
  const hostile = (await rec()).parts.a.questions;
  check('unknown question dropped', !('nope' in hostile), JSON.stringify(Object.keys(hostile)));
  check('bad select-all dropped', !('levers' in hostile));
  check('text bounded', hostile.q6 && Array.from(hostile.q6.answer).length === 10000, hostile.q6 && hostile.q6.answer.length);
  fs.writeFileSync(path.join(outDir, 'after.json'), JSON.stringify(after, null, 2));
  check('no page errors', log.errors.length === 0, log.errors.join('; '));
  check('no requests', log.requests.length === 0, log.requests.join(' '));
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
