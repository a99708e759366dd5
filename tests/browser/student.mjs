// The student's name for the reports, typed once for the course, in real Chromium from file://:
// typed on the course index, it is in the lab's name box and its report; changed in the lab,
// the index shows the new name. Typed text stays text (no element is made of it).
// Usage: node student.mjs SITE_DIR LAB_ID
import path from 'node:path';
import { checker, launch, open, settle, unlockAll } from './common.mjs';

const [dir, lab] = process.argv.slice(2);
const { check, finish } = checker();
const index = path.join(dir, 'index.html');
const FIRST = 'Ada <i>Lovelace</i>', SECOND = 'Grace Hopper';
const errors = [];
// Polls from node: the pages' Content-Security-Policy forbids eval (page.waitForFunction).
async function until(page, fn, arg) {
  for (let i = 0; i < 200; i++) {
    if (await page.evaluate(fn, arg)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}
const report = (page) => page.evaluate(() => document.querySelector('[data-report]').textContent);

const b = await launch();
try {
  let { page, log } = await open(b.ctx, index);
  const box = '[data-course-student]';
  check('index: a labelled name box', await page.evaluate((s) => {
    const i = document.querySelector(s);
    return !!i && !!i.labels.length && /Your name or student id \(optional\)/.test(i.labels[0].textContent) && i.maxLength === 100;
  }, box));
  check('index: empty before a name is typed', (await page.inputValue(box)) === '');
  await page.fill(box, FIRST);
  check('index: the course record keeps the name', await page.evaluate(() => window.LF_COURSE.student()) === FIRST);
  errors.push(...log.errors);
  // The write reaches a new document before the lab opens (common.mjs settle says why).
  let hold = await settle(page);
  await Promise.all([page.waitForNavigation(), page.click(`a[href="${lab}.html"]`)]);
  await page.waitForSelector('html[data-ready]');
  await hold.close();
  check('lab: its name box shows the name typed on the index', (await page.inputValue('[data-student]')) === FIRST, await page.inputValue('[data-student]'));
  await unlockAll(page);
  check('lab: complete', await page.evaluate(() => window.LF_PAGE.ledger().complete === true));
  await page.evaluate(() => { document.querySelector('[data-report-box]').open = true; });
  check('lab: its report names the student',
    await until(page, () => document.querySelector('[data-report]').textContent.includes('- Student: Ada \\<i\\>Lovelace\\</i\\>\n')), await report(page));
  check('lab: the record names the student', await page.evaluate(() => window.LF_PAGE.ledger().student) === FIRST);
  check('lab: the name made no element', await page.evaluate(() => document.querySelectorAll('[data-report] i, #main i:not([class])').length === 0));
  // Changed in the lab: its report, then the index.
  await page.fill('[data-student]', SECOND);
  check('lab: the report follows the change',
    await until(page, () => document.querySelector('[data-report]').textContent.includes('- Student: Grace Hopper\n')), await report(page));
  errors.push(...log.errors);
  hold = await settle(page);
  await Promise.all([page.waitForNavigation(), page.click('nav.course-nav a[href="index.html"]')]);
  await page.waitForSelector('html[data-ready]');
  await hold.close();
  check('index: shows the name changed in the lab', (await page.inputValue(box)) === SECOND, await page.inputValue(box));
  // Emptied on the index: no name on the lab's report.
  await page.fill(box, '');
  check('index: an empty box takes the name away', await page.evaluate(() => window.LF_COURSE.student()) === null);
  hold = await settle(page);
  await Promise.all([page.waitForNavigation(), page.click(`a[href="${lab}.html"]`)]);
  await page.waitForSelector('html[data-ready]');
  await hold.close();
  check('lab: no name once emptied on the index', (await page.inputValue('[data-student]')) === '');
  await page.evaluate(() => { document.querySelector('[data-report-box]').open = true; });
  check('lab: its report has no Student line',
    await until(page, () => /^# /.test(document.querySelector('[data-report]').textContent) && !document.querySelector('[data-report]').textContent.includes('Student:')), await report(page));
  errors.push(...log.errors);
  check('no requests leave the file', log.requests.length === 0, JSON.stringify(log.requests));
} finally {
  await b.close();
}
check('no page errors', errors.length === 0, JSON.stringify(errors));
finish();
