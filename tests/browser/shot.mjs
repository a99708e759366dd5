// Screenshot helper for people: `node shot.mjs PAGE.html OUT.png [PART]` answers the part's
// prediction (first option) and captures the part.
import { launch, open } from './common.mjs';
const [file, out, part = 'a'] = process.argv.slice(2);
const { ctx, close } = await launch();
const { page, log } = await open(ctx, file);
await page.setViewportSize({ width: 1100, height: 900 });
await page.check(`input[name="prediction-${part}"] >> nth=2`);
await page.click(`[data-part="${part}"] [data-lock]`);
const el = await page.$(`[data-part="${part}"]`);
await el.screenshot({ path: out });
if (log.errors.length) console.error(log.errors);
await close();
