// Tracks in real Chromium from file:// (tests/chromium/tracks_browser.rs): the course of
// tests/inputs/tracks_course rendered to SITE_DIR, and the lab on its own of
// tests/inputs/ok_tracks.yaml rendered to ALONE_DIR.
// The index asks for a track; the choice shows in lab 1 and lab 2 and leads their links; a
// prediction locked on one track keeps that track (and its verdict) after the student changes
// track; STEM.html moves the student to their track's page; a page of another track says so and
// switches the course track on request; a lab on its own asks on its page.
// Usage: node tracks.mjs SITE_DIR ALONE_DIR
import path from 'node:path';
import { checker, launch, open, settle } from './common.mjs';

const [dir, alone] = process.argv.slice(2);
const { check, finish } = checker();
const index = path.join(dir, 'index.html');
const errors = [];
const visible = (page, sel) => page.evaluate((sel) => { const e = document.querySelector(sel); return !!e && !e.hidden; }, sel);
const text = (page, sel) => page.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, sel);
const hrefs = (page) => page.evaluate(() => [...document.querySelectorAll('.lab-list a')].map((a) => a.getAttribute('href')));
const file = (page) => decodeURIComponent(new URL(page.url()).pathname).split('/').pop();
async function follow(page, sel) {
  await Promise.all([page.waitForNavigation(), page.click(sel)]);
  await page.waitForSelector('html[data-ready]', { timeout: 10000 });
}
const record = (page) => page.evaluate(() => window.LF_COURSE.record());

const b = await launch();
try {
  // 1. The index asks first: each track's label, icon and summary (Markdown, sanitised).
  let { page, log } = await open(b.ctx, index);
  check('index: the picker shows before a track is picked', await visible(page, '[data-track-pick]'));
  check('index: no track shown yet', !(await visible(page, '[data-track-mine]')));
  const choices = await page.evaluate(() => [...document.querySelectorAll('[data-track-choose]')].map((b) => b.textContent));
  check('index: the three tracks with label, icon and summary', choices.length === 3 && choices[0].includes('📱') && choices[0].includes('Phone') && choices[0].includes('One user'), JSON.stringify(choices));
  check('index: a summary\'s Markdown is rendered', await page.evaluate(() => !!document.querySelector('[data-track-choose="phone"] em')));
  check('index: links lead to STEM.html before a choice', JSON.stringify(await hrefs(page)) === JSON.stringify(['batching.html', 'memory.html']), JSON.stringify(await hrefs(page)));
  await page.click('[data-track-choose="phone"]');
  check('index: the picker goes once a track is picked', !(await visible(page, '[data-track-pick]')));
  check('index: shows the track', (await text(page, '[data-track-label]')) === 'Phone', await text(page, '[data-track-label]'));
  check('index: the track is in the course record', (await record(page)).track === 'phone');
  check('index: links lead to the track\'s pages', JSON.stringify(await hrefs(page)) === JSON.stringify(['batching.phone.html', 'memory.phone.html']), JSON.stringify(await hrefs(page)));
  const title1 = () => page.evaluate(() => document.querySelector('.lab-list a').innerText);
  check('index: a lab\'s title on the track', (await title1()) === '1. Batching on Phone', await title1());
  errors.push(...log.errors);

  // 2. Lab 1 on the track: its header, its numbers; a prediction locked keeps the track.
  await follow(page, '.lab-list a[data-tracked="batching"]');
  check('lab 1: the phone page', file(page) === 'batching.phone.html', page.url());
  check('lab 1: the header shows the track', (await text(page, '[data-track-now]')).includes('Phone'), await text(page, '[data-track-now]'));
  check('lab 1: the title reads the track', (await text(page, 'h1')) === 'Batching on Phone', await text(page, 'h1'));
  check('lab 1: neither picker nor notice', !(await visible(page, '[data-track-ask]')) && !(await visible(page, '[data-track-other]')));
  check('lab 1: the switcher links the other tracks', JSON.stringify(await page.evaluate(() => [...document.querySelectorAll('.track-switch a')].map((a) => a.getAttribute('href')))) === '["batching.ring.html","batching.cloud.html"]');
  check('lab 1: the phone\'s numbers (2 × 30 ms)', (await page.evaluate(() => document.querySelector('[data-output="latency_ms"]')?.getAttribute('data-value'))) === '60');
  await page.evaluate(() => {
    document.querySelector('input[name="prediction-a"][value="B"]').click();
    document.querySelector('[data-lock]').click();
  });
  let l = await page.evaluate(() => window.LF_PAGE.ledger());
  check('lab 1: the locked prediction keeps its track', l.parts.a.track === 'phone' && l.parts.a.prediction === 'B' && l.parts.a.prediction_correct === true, JSON.stringify(l.parts.a));
  check('lab 1: no other-track note on its own track', !(await visible(page, '[data-locked-track]')));
  check('lab 1: Next leads to lab 2 on the track', (await page.getAttribute('a[rel=next]', 'href')) === 'memory.phone.html');
  errors.push(...log.errors);

  // 3. Lab 2 on the track.
  await follow(page, 'a[rel=next]');
  check('lab 2: the phone page', file(page) === 'memory.phone.html', page.url());
  check('lab 2: the header shows the track', (await text(page, '[data-track-now]')).includes('Phone'));
  check('lab 2: the phone\'s numbers (3000 M parameters)', (await page.evaluate(() => document.querySelector('[data-output="weights_mb"]')?.getAttribute('data-value'))) === '6000');
  check('lab 2: Previous leads to lab 1 on the track', (await page.getAttribute('a[rel=prev]', 'href')) === 'batching.phone.html');

  // 4. Back on the index: change the track; it says what changes.
  await follow(page, 'nav.course-nav a[href="index.html"]');
  check('index: the track kept', (await text(page, '[data-track-label]')) === 'Phone');
  await page.click('[data-track-change]');
  check('index: Change track shows the picker', await visible(page, '[data-track-pick]'));
  check('index: the picker marks the current track', (await page.getAttribute('[data-track-choose="phone"]', 'aria-pressed')) === 'true');
  await page.click('[data-track-choose="ring"]');
  const said = await text(page, '[data-track-msg]');
  check('index: says what changing track changes', said.includes('Smart Ring') && said.includes('was Phone') && said.includes('right answers') && said.includes('keep the track they were answered on'), said);
  check('index: links lead to the new track\'s pages', JSON.stringify(await hrefs(page)) === JSON.stringify(['batching.ring.html', 'memory.ring.html']));
  check('index: the record has the new track', (await record(page)).track === 'ring');

  // 5. Lab 1 on the new track: the old answer keeps its track and its verdict, and says so.
  await follow(page, '.lab-list a[data-tracked="batching"]');
  check('lab 1 (ring): the ring page', file(page) === 'batching.ring.html', page.url());
  check('lab 1 (ring): the header shows the new track', (await text(page, '[data-track-now]')).includes('Smart Ring'));
  l = await page.evaluate(() => window.LF_PAGE.ledger());
  check('lab 1 (ring): the prediction locked on phone stays phone\'s', l.parts.a.track === 'phone' && l.parts.a.prediction === 'B' && l.parts.a.prediction_correct === true, JSON.stringify(l.parts.a));
  const note = await text(page, '[data-locked-track]');
  check('lab 1 (ring): says the answer was locked on another track', await visible(page, '[data-locked-track]') && note.includes('Phone'), note);
  check('lab 1 (ring): the verdict is the phone track\'s', (await text(page, '[data-prediction-result] [data-result-word]'))?.includes('Correct'), await text(page, '[data-prediction-result] [data-result-word]'));
  check('lab 1 (ring): the ring\'s numbers (1 × 150 ms)', (await page.evaluate(() => document.querySelector('[data-output="latency_ms"]')?.getAttribute('data-value'))) === '150');
  const hold = await settle(page);
  await page.close();

  // 6. STEM.html, opened directly, moves to the record's track (no history entry: as many as
  // a page opened directly that stays).
  ({ page, log } = await open(b.ctx, path.join(dir, 'batching.ring.html')));
  const entries = await page.evaluate(() => history.length);
  await page.close();
  ({ page, log } = await open(b.ctx, path.join(dir, 'batching.html')));
  check('batching.html moves to the ring page', file(page) === 'batching.ring.html', page.url());
  check('the move left no history entry', (await page.evaluate(() => history.length)) === entries, entries);
  await hold.close();
  // The page moved to wrote the course record (merged with the one its link carried): the next
  // page opened reads it once it is what a new document reads (common.mjs `settle`).
  const hold1 = await settle(page);
  errors.push(...log.errors);
  await page.close();

  // 7. Another track's page says so: go to mine, or switch the course track to this one.
  ({ page, log } = await open(b.ctx, path.join(dir, 'memory.cloud.html')));
  await hold1.close();
  check('memory.cloud.html is not moved', file(page) === 'memory.cloud.html');
  const other = await text(page, '[data-track-other-text]');
  check('another track\'s page says so', await visible(page, '[data-track-other]') && other.includes('Smart Ring') && other.includes('Cloud Fleet'), other);
  check('... offers my track\'s page', (await page.getAttribute('[data-track-mine]', 'href')) === 'memory.ring.html');
  await page.click('[data-track-switch]');
  check('... and switches the course track', (await record(page)).track === 'cloud' && !(await visible(page, '[data-track-other]')));
  errors.push(...log.errors);
  await page.close();

  // 8. A lab on its own asks on its page, and keeps the choice: its link carries the track to
  // the track's page, which keeps it (a browser that gives each file its own storage, as
  // Firefox does from file://, shows that page nothing the asking page saved).
  ({ page, log } = await open(b.ctx, path.join(alone, 'ok_tracks.html')));
  check('a lab on its own asks for a track', await visible(page, '[data-track-ask]'));
  await Promise.all([page.waitForNavigation(), page.click('[data-track-choose="phone"]')]);
  await page.waitForSelector('html[data-ready]');
  check('... and opens the track\'s page', file(page) === 'ok_tracks.phone.html', page.url());
  check('... its link carried the track, then dropped it from the address', new URL(page.url()).hash === '', page.url());
  check('... which asks no more', !(await visible(page, '[data-track-ask]')) && (await text(page, '[data-track-now]')).includes('Phone'));
  const hold2 = await settle(page);
  await page.close();
  ({ page, log } = await open(b.ctx, path.join(alone, 'ok_tracks.html')));
  check('... and its STEM.html moves to the chosen track', file(page) === 'ok_tracks.phone.html', page.url());
  await hold2.close();
  errors.push(...log.errors);
  await page.close();

  // 9. What such a link carries is checked: a track the lab does not have is not kept; one it
  // has is, and its page then says it is another track's.
  const saved = (page) => page.evaluate(() => {
    const k = Object.keys(localStorage).find((k) => k.startsWith('labforge:ok-tracks:'));
    return k ? JSON.parse(localStorage.getItem(k)).track : null;
  });
  ({ page, log } = await open(b.ctx, path.join(alone, 'ok_tracks.phone.html') + '#lf-track=mars'));
  check('a link\'s unknown track is not kept', (await saved(page)) !== 'mars', await saved(page));
  check('... and the page stays the student\'s', !(await visible(page, '[data-track-other]')) && new URL(page.url()).hash === '');
  await page.close();
  ({ page, log } = await open(b.ctx, path.join(alone, 'ok_tracks.phone.html') + '#lf-track=cloud'));
  check('a link\'s track of the lab is kept', (await saved(page)) === 'cloud', await saved(page));
  check('... and this page says it is another track\'s', await visible(page, '[data-track-other]') && (await text(page, '[data-track-other-text]')).includes('Cloud'), await text(page, '[data-track-other-text]'));
  errors.push(...log.errors);
} finally {
  await b.close();
}
check('no page errors', errors.length === 0, errors.join('\n'));
finish();
