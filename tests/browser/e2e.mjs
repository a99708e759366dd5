// End-to-end behaviour of the page for tests/inputs/html_demo.yaml: gating, reveal, live update,
// keyboard operation, persistence across reload, ledger and report export, print and dark mode.
// Usage: node e2e.mjs PAGE OUTDIR (the exported ledger is saved as OUTDIR/ledger.json).
import fs from 'node:fs';
import path from 'node:path';
import { launch, open, close, reloadSaved } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(name, cond, detail = '') {
  if (cond) passed++; else { failed++; console.log(`FAIL ${name} ${detail}`); }
}
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file, { tabs: true });
  const vis = (sel) => page.isVisible(sel);
  const val = (name, part = 'a') => page.getAttribute(`[data-part="${part}"] [data-output="${name}"]`, 'data-value');

  // One part at a time (tabs) first; the whole document after the mode button.
  check('tabs: part a shown, part b behind its tab', (await vis('[data-part="a"] h2')) && !(await vis('[data-part="b"] h2')) &&
    (await page.getAttribute('[data-tab="a"]', 'aria-selected')) === 'true');
  await page.click('.tab-mode');
  check('whole document shows every part', await vis('[data-part="b"] h2'));

  // Gating on first load.
  check('instruments hidden before the prediction', !(await vis('#c-a-utilization')) && !(await vis('[data-part="a"] [data-gated]')));
  check('gate note shown', await vis('[data-part="a"] [data-gate-note]'));
  check('part b locked', !(await vis('[data-part="b"] [data-part-body]')) && (await vis('[data-part="b"] [data-locked]')));
  check('HUD pending', (await page.textContent('[data-hud-part="a"] [data-hud-word]')).includes('pending'));

  // Commitment: selecting (Space, arrow keys) only selects; "Lock in" records the answer.
  await page.focus('#pred-a-A');
  await page.keyboard.press('Space');
  check('selecting does not answer', !(await vis('#c-a-utilization')) && !(await vis('[data-part="a"] [data-prediction-result]')) &&
    (await page.textContent('[data-hud-part="a"] [data-hud-word]')).includes('pending'));
  check('lock button enabled by a selection', await page.isEnabled('[data-part="a"] [data-lock]'));
  await page.keyboard.press('ArrowDown');
  check('arrow key selects B without locking', (await page.isChecked('#pred-a-B')) && !(await vis('#c-a-utilization')) &&
    (await page.evaluate(() => window.LF_PAGE.ledger().parts.a.prediction)) === undefined);
  await page.focus('[data-part="a"] [data-lock]');
  await page.keyboard.press('Enter');
  check('locked in: instruments revealed', await vis('#c-a-utilization'));
  check('locked in: part b unlocked by a.prediction', await vis('[data-part="b"] [data-part-body]'));
  check('correct answer shows success', (await page.getAttribute('[data-part="a"] [data-prediction-result]', 'class')).includes('success'));
  check('option B feedback with value', (await page.textContent('[data-part="a"] [data-prediction-feedback="B"]')).includes('Correct: 5x.'));
  check('result region is live', (await page.getAttribute('[data-part="a"] [data-prediction-result]', 'aria-live')) === 'polite');
  check('lock button gone, locked answer named', !(await vis('[data-part="a"] [data-lock]')) &&
    (await page.textContent('[data-part="a"] [data-locked-answer]')) === 'B');
  // After locking, looking at another option shows its feedback and is recorded as an attempt.
  await page.focus('#pred-a-B');
  await page.keyboard.press('ArrowUp');
  check('a look shows that option\'s warn feedback', (await page.getAttribute('[data-part="a"] [data-prediction-result]', 'class')).includes('warn') &&
    (await vis('[data-part="a"] [data-prediction-feedback="A"]')));
  check('result word is not colour only', (await page.textContent('[data-part="a"] [data-prediction-result] [data-result-word]')).includes('Not quite'));
  check('a look is not a new answer', (await page.textContent('[data-hud-part="a"] [data-hud-word]')).includes('CORRECT') &&
    JSON.stringify(await page.evaluate(() => { const a = window.LF_PAGE.ledger().parts.a; return [a.prediction, a.prediction_correct, a.prediction_attempts]; })) === '["B",true,["A"]]');
  await page.keyboard.press('ArrowDown');

  // Live update from the keyboard.
  const before = Number(await val('wait_min'));
  check('default wait is the CLI value', close(before, 600.0000000000001), String(before));
  await page.focus('#c-a-utilization');
  await page.keyboard.press('ArrowRight');
  const u = 0.81;
  const want = u / (1 - u) * 5 * 30;
  check('slider moved by keyboard', (await page.inputValue('#c-a-utilization')) === '0.81');
  check('wait recomputed immediately', close(Number(await val('wait_min')), want), await val('wait_min'));
  check('control display updated', (await page.textContent('[data-control-display="utilization"]')) === '0.81');
  check('banner recomputed', (await page.textContent('[data-part="a"] [data-feedback-area]')).includes('At 81% the wait is'));
  check('banner announced', (await page.getAttribute('[data-part="a"] [data-feedback-area]', 'aria-live')) === 'polite');
  check('metric level bad with a word', (await page.getAttribute('.metric-value[data-output="wait_min"]', 'data-level')) === 'bad' &&
    (await page.textContent('.metric-value[data-output="wait_min"] [data-level-word]')).includes('bad'));
  check('panel line recomputed', (await page.textContent('[data-part="a"] .panel')).includes('wait = ' + want.toFixed(1).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' min'));
  check('chart marker recomputed', (await page.innerHTML('[data-part="a"] [data-chart="0"]')).includes('Current: (81, '));
  check('caption template recomputed', (await page.textContent('.metric-caption')).includes('0.81'));
  const shown = want.toFixed(1).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' min ✗ bad';
  check('{{ @output }} in a panel line recomputed with its level', (await page.textContent('[data-part="a"] .panel')).includes('shown: ' + shown + ' (high ✗ bad)') &&
    (await page.getAttribute('[data-part="a"] .panel strong > span', 'data-level')) === 'bad');
  check('{{ @output }} in a banner title', (await page.textContent('[data-part="a"] [data-feedback-area] strong')).includes('Too slow (' + shown + ')'));
  await page.focus('#c-a-cs');
  await page.keyboard.press('ArrowUp');
  check('select by keyboard', (await val('amplification')) === '1', await val('amplification'));
  await page.focus('#c-a-priority');
  await page.keyboard.press('Space');
  const halved = u / (1 - u) * 1 * 30 / 2;
  check('switch by keyboard', close(Number(await val('wait_min')), halved), await val('wait_min'));
  check('every control has a label', await page.evaluate(() => [...document.querySelectorAll('[data-control]')].every((e) => document.querySelector(`label[for="${e.id}"]`))));

  // Numeric prediction (typed, Enter submits), reflection, decision log.
  await page.fill('#pred-b', '960');
  await page.press('#pred-b', 'Enter');
  check('numeric prediction graded', (await page.getAttribute('[data-part="b"] [data-prediction-result]', 'class')).includes('success'));
  check('numeric feedback', await vis('[data-part="b"] [data-numeric-feedback="correct"]'));
  await page.fill('#pred-b', '100');
  await page.press('#pred-b', 'Enter');
  check('a numeric look is graded but not the answer', (await page.getAttribute('[data-part="b"] [data-prediction-result]', 'class')).includes('warn') &&
    JSON.stringify(await page.evaluate(() => { const b = window.LF_PAGE.ledger().parts.b; return [b.prediction, b.prediction_correct, b.prediction_attempts]; })) === '["960",true,["100"]]');
  await page.check('#refl-a-A');
  check('reflection feedback', (await page.textContent('[data-part="a"] [data-reflection-result]')).includes('Yes.'));
  await page.fill('textarea[name="decision-log"]', '<script>alert(1)</script> chose 16 GPUs');
  check('HUD tier', (await page.textContent('[data-hud-tier]')) === 'Optimal', await page.textContent('[data-hud-tier]'));
  check('HUD parts non-colour', (await page.textContent('[data-hud-part="a"]')).includes('CORRECT'));
  const snapshot = await page.evaluate(() => [...document.querySelectorAll('[data-output]')].map((e) => e.getAttribute('data-value')).join('|'));

  // Persistence across reload.
  await reloadSaved(page);
  check('prediction kept', await page.isChecked('#pred-a-B'));
  check('slider kept', (await page.inputValue('#c-a-utilization')) === '0.81');
  check('select kept', (await page.$eval('#c-a-cs', (e) => e.selectedIndex)) === 0);
  check('switch kept', await page.isChecked('#c-a-priority'));
  check('decision log kept', (await page.inputValue('textarea[name="decision-log"]')).includes('chose 16'));
  check('instruments still open', await vis('#c-a-utilization'));
  check('numeric answer kept', (await page.inputValue('#pred-b')) === '960');
  const after = await page.evaluate(() => [...document.querySelectorAll('[data-output]')].map((e) => e.getAttribute('data-value')).join('|'));
  check('same numbers after reload', after === snapshot);

  // Export.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-export-json]')]);
  const ledgerPath = path.join(outDir, 'ledger.json');
  await dl.saveAs(ledgerPath);
  const ledger = JSON.parse(fs.readFileSync(ledgerPath, 'utf8'));
  check('ledger keys', JSON.stringify(Object.keys(ledger)) === JSON.stringify(['format', 'lab', 'version', 'chapter', 'design', 'parts', 'decision_log', 'hud', 'complete']), JSON.stringify(Object.keys(ledger)));
  check('ledger design', ledger.design.partA_prediction === 'B' && ledger.design.partA_correct === true && ledger.design.partB_prediction === '960' && ledger.design.partA_reflection === 'A');
  check('ledger commitment', ledger.format === 'labforge-ledger/2' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(ledger.parts.a.prediction_locked_at) &&
    JSON.stringify(ledger.parts.a.prediction_attempts) === '["A"]' && JSON.stringify(ledger.parts.b.prediction_attempts) === '["100"]', JSON.stringify(ledger.parts));
  check('ledger complete', ledger.complete === false, 'part b reflection unanswered');
  check('ledger controls', ledger.parts.a.controls.utilization === 0.81 && ledger.parts.a.controls.priority === true);
  const [md] = await Promise.all([page.waitForEvent('download'), page.click('[data-export-md]')]);
  const mdPath = path.join(outDir, 'report.md');
  await md.saveAs(mdPath);
  const report = fs.readFileSync(mdPath, 'utf8');
  check('report', report.includes(' — report\n') && report.includes('chose 16 GPUs') && /- Answer: \*\*B\*\* — .+\n- Held: yes\n- Locked in: /.test(report) && report.includes('- Looked at after locking in: A'), report);
  // Controls by their labels and settings as the page shows them; the student's text stays text.
  check('report controls', ['- Utilization: 0.81', '- Workload: Uniform (C_s=1)', '- Priority lane: on', '- Servers: 4'].every((x) => report.includes(x)) &&
    !/^- `/m.test(report), report);
  check('report escapes HTML', report.includes('\\<script\\>alert(1)\\</script\\>') && !report.includes('<script>'), report);

  // Dark mode and print.
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.$eval('[data-part="a"] .lf-chart .bg', (e) => getComputedStyle(e).fill);
  check('chart follows dark mode', bg !== 'rgb(255, 255, 255)', bg);
  await page.emulateMedia({ media: 'print' });
  check('print hides the HUD', !(await vis('.hud')));
  check('no errors', log.errors.length === 0, log.errors.join('; '));
  check('no network', log.requests.length === 0, log.requests.join(', '));
} finally {
  await b.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
