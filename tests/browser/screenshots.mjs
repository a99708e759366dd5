// Reference screenshots for reviewers: `node screenshots.mjs PAGE.html OUTDIR` writes
// NAME-{desktop,phone}-{light,dark}-{top,part}.png: the top of the page as a student first sees
// it, and part A after locking in a prediction (its instruments). Desktop 1366×900, phone
// 390×844 (device scale 1, PNGs kept small). README "Screenshots" runs it for fault-tolerance.
import path from 'node:path';
import { launch, emptyStorage, open } from './common.mjs';

const [file, outDir] = process.argv.slice(2);
const name = path.basename(file, '.html');
const { ctx, close } = await launch();
let errors = 0;
try {
  for (const [vp, width, height] of [['desktop', 1366, 900], ['phone', 390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const { page, log } = await open(ctx, file);
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await emptyStorage(page);
      await page.reload(); // at the viewport's size, as a phone would load it
      await page.waitForSelector('html[data-ready]');
      await page.screenshot({ path: path.join(outDir, `${name}-${vp}-${scheme}-top.png`) });
      await page.check('input[name="prediction-a"] >> nth=2');
      await page.click('[data-part="a"] [data-lock]');
      await page.locator('[data-part="a"] .metrics').first().scrollIntoViewIfNeeded();
      await page.evaluate(() => {
        const m = document.querySelector('[data-part="a"] .explore');
        window.scrollTo(0, m.getBoundingClientRect().top + window.scrollY - 60);
      });
      // The pointer leaves the page, so no chart under where the lock button was shows a read-out.
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(outDir, `${name}-${vp}-${scheme}-part.png`) });
      errors += log.errors.length;
      if (log.errors.length) console.error(log.errors);
      await page.close();
    }
  }
} finally {
  await close();
}
process.exit(errors ? 1 : 0);
