// A course site walked in order, in real Chromium from file://: lab 1 completed (predictions
// locked in, decision log written), "Next" followed, lab 2 shows lab 1's decision, the index
// shows lab 1 done and lab 2 in progress; the course record exported, then imported into a
// fresh browser profile (what a student does when a browser keeps each file's storage apart),
// and carried in a link's fragment into another fresh profile.
// Usage: node course.mjs SITE_DIR LAB1_ID LAB2_ID
import fs from 'node:fs';
import path from 'node:path';
import { checker, launch, open, settle, unlockAll } from './common.mjs';

const [dir, lab1, lab2] = process.argv.slice(2);
const { check, finish } = checker();
const DECISION = 'Checkpoint every ~30 min, asynchronously: a failure then costs minutes, not hours.';
const page1 = path.join(dir, lab1 + '.html'), page2 = path.join(dir, lab2 + '.html');
const index = path.join(dir, 'index.html');
const progress = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-progress]')]
  .map((el) => [el.getAttribute('data-progress'), el.textContent])));
const earlier = (page, id) => page.evaluate((id) => document.querySelector(`[data-earlier="${id}"] blockquote`)?.textContent, id);
const visible = (page, sel) => page.evaluate((sel) => { const e = document.querySelector(sel); return !!e && !e.hidden; }, sel);
const errors = [];
// Polls from node: the pages' Content-Security-Policy forbids eval, which page.waitForFunction
// needs whenever its predicate is not already true at the first check.
async function until(page, fn) {
  for (let i = 0; i < 200; i++) {
    if (await page.evaluate(fn)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out waiting for ' + fn);
}
let exported = null;

// 1. One browser profile: Chromium gives file:// pages one origin, so one storage.
let b = await launch();
try {
  let { page, log } = await open(b.ctx, index);
  const p0 = await progress(page);
  check('index: every lab, not started', !!p0[lab1] && !!p0[lab2] && Object.values(p0).every((s) => s === 'not started'), JSON.stringify(p0));
  check('index: offers import when it sees no record', await visible(page, '[data-no-record]'));
  errors.push(...log.errors);
  await page.close();

  ({ page, log } = await open(b.ctx, page1));
  check('lab 1: a Next link to lab 2', await page.evaluate((l2) => document.querySelector('a[rel=next]')?.getAttribute('href') === l2 + '.html', lab2));
  check('lab 1: its Previous link is not lab 2', await page.evaluate((l2) => document.querySelector('a[rel=prev]')?.getAttribute('href') !== l2 + '.html', lab2));
  await unlockAll(page);
  const l = await page.evaluate(() => window.LF_PAGE.ledger());
  const preds = Object.entries(l.parts).filter(([, a]) => a.prediction !== undefined);
  check('lab 1: predictions locked in', preds.length > 0 && preds.every(([, a]) => typeof a.prediction_locked_at === 'string'), JSON.stringify(l.parts));
  await page.fill('[name="decision-log"]', DECISION);
  check('lab 1: complete', await page.evaluate(() => window.LF_PAGE.ledger().complete === true));
  errors.push(...log.errors);
  await Promise.all([page.waitForNavigation(), page.click('a[rel=next]')]);
  await page.waitForSelector('html[data-ready]');
  check('Next: lab 2 opened', page.url().endsWith('/' + lab2 + '.html'), page.url());
  check('lab 2: shows lab 1\'s decision', (await earlier(page, lab1)) === DECISION, await earlier(page, lab1));
  check('lab 2: a Previous link to lab 1', await page.evaluate((l1) => document.querySelector('a[rel=prev]')?.getAttribute('href') === l1 + '.html', lab1));
  // Lab 2 started: its first prediction locked in.
  await page.evaluate(() => {
    const sec = document.querySelector('[data-part]');
    sec.querySelector('input[type=radio][name^="prediction-"]').click();
    sec.querySelector('[data-lock]').click();
  });
  // What lab 2 saved reaches a new document, and a page of the origin stays open meanwhile
  // (common.mjs reloadSaved says why).
  const hold = await settle(page);
  await page.close();

  // Opened directly, without a link's fragment: the shared storage alone carries the decision.
  ({ page, log } = await open(b.ctx, page2));
  check('lab 2 opened directly (Chromium shares file:// storage): shows the decision', (await earlier(page, lab1)) === DECISION);
  errors.push(...log.errors);
  await Promise.all([page.waitForNavigation(), page.click('nav.course-nav a[href="index.html"]')]);
  await page.waitForSelector('[data-progress]');
  const p = await progress(page);
  check('index: lab 1 done, lab 2 in progress', p[lab1] === 'done' && p[lab2] === 'in progress', JSON.stringify(p));
  check('index: no import notice once there is progress', !(await visible(page, '[data-no-record]')));
  await hold.close();
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-course-export]')]);
  exported = path.join(dir, 'exported-course.json');
  fs.copyFileSync(await dl.path(), exported);
  const rec = JSON.parse(fs.readFileSync(exported, 'utf8'));
  check('export: one course record with both labs', rec.format === 'labforge-course/1' && rec.labs[lab1]?.decision_log === DECISION && !!rec.labs[lab2], JSON.stringify(Object.keys(rec.labs || {})));
  check('export: the file name says the course', /-course\.json$/.test(dl.suggestedFilename()), dl.suggestedFilename());
  errors.push(...log.errors);
} finally {
  await b.close();
}

// 2. A fresh profile (a new browser, or Firefox's per-file storage): nothing until imported.
b = await launch();
try {
  let { page, log } = await open(b.ctx, page2);
  check('fresh profile: lab 2 says the decision is not recorded yet', /Not recorded yet/.test(await earlier(page, lab1)));
  await page.close();
  ({ page, log } = await open(b.ctx, index));
  check('fresh profile: index offers import', await visible(page, '[data-no-record]'));
  const foreign = path.join(dir, 'foreign.json');
  fs.writeFileSync(foreign, JSON.stringify({ format: 'labforge-course/1', course: 'another-course-00000000', labs: {} }));
  await page.setInputFiles('[data-course-import]', foreign);
  await until(page, () => document.querySelector('[data-course-msg]').textContent !== '');
  const m1 = await page.evaluate(() => document.querySelector('[data-course-msg]').textContent);
  check('import of another course\'s record is refused, saying why', /^The file was not imported: this record is for another course/.test(m1), m1);
  await page.evaluate(() => { document.querySelector('[data-course-msg]').textContent = ''; });
  await page.setInputFiles('[data-course-import]', exported);
  await until(page, () => document.querySelector('[data-course-msg]').textContent !== '');
  const m2 = await page.evaluate(() => document.querySelector('[data-course-msg]').textContent);
  check('import says what it took', /^Imported from The file\. .*took Part A/.test(m2), m2);
  const p = await progress(page);
  check('after import: lab 1 done, lab 2 in progress', p[lab1] === 'done' && p[lab2] === 'in progress', JSON.stringify(p));
  errors.push(...log.errors);
  // On to lab 1 from the index, as a student would (the link carries the record).
  await Promise.all([page.waitForNavigation(), page.click(`a[href="${lab1}.html"]`)]);
  await page.waitForSelector('html[data-ready]');
  check('after import: lab 1 restores the decision log', (await page.inputValue('[name="decision-log"]')) === DECISION);
  check('after import: lab 1 is complete', await page.evaluate(() => window.LF_PAGE.ledger().complete === true));
  errors.push(...log.errors);
} finally {
  await b.close();
}

// 3. Another fresh profile, entered through a link carrying the record in its fragment.
b = await launch();
try {
  const rec = fs.readFileSync(exported, 'utf8');
  const page = await b.ctx.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('file://' + path.resolve(page2) + '#lf-course=' + Buffer.from(rec, 'utf8').toString('base64'));
  await page.waitForSelector('html[data-ready]');
  check('fragment: lab 2 shows the decision', (await earlier(page, lab1)) === DECISION);
  check('fragment: lab 2 restores its locked prediction', await page.evaluate(() => Object.values(window.LF_PAGE.ledger().parts).some((a) => a.prediction_locked_at)));
  check('fragment: removed from the address', !page.url().includes('#'), page.url());
} finally {
  await b.close();
}
check('no page errors', errors.length === 0, JSON.stringify(errors));
finish();
