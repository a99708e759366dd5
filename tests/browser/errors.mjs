// The page's error at live values (tests/it/errors_js.rs): for each case, sets a control as a
// student would and reports the part's error text (null when none), then puts the control back.
// Input: a JSON file { page, cases: [{ part, control, value, back, output }] }; prints the
// results as one JSON array.
import fs from 'node:fs';
import { launch, open, setControl } from './common.mjs';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = await launch();
const out = [];
try {
  const { page, log } = await open(b.ctx, spec.page);
  for (const c of spec.cases) {
    const r = await setControl(page, c.part, c.control, c.value, c.output);
    // The instruments below the error box are dimmed while it shows (they hold the last values
    // that computed), and not once the error is gone.
    const dim = (part) => page.evaluate((part) => [...document.querySelectorAll(`[data-part="${part}"] .explore > :is(.metrics, .chart, .panel)`)]
      .map((n) => getComputedStyle(n).opacity), part);
    const dimmed = await dim(c.part);
    // The control's read-out and its aria-valuetext follow the slider whatever the formulas do.
    const readout = await page.evaluate(({ part, control }) => {
      const s = document.querySelector(`[data-part="${part}"] input[data-control="${control}"]`);
      const d = document.querySelector(`[data-part="${part}"] [data-control-display="${control}"]`);
      return [d ? d.textContent : null, s.getAttribute('aria-valuetext')];
    }, c);
    const back = await setControl(page, c.part, c.control, c.back, c.output);
    out.push({ error: r.error, dimmed, readout, after: back.error, clear: await dim(c.part) });
  }
  out.push({ pageErrors: log.errors, requests: log.requests });
} finally {
  await b.close();
}
process.stdout.write(JSON.stringify(out));
