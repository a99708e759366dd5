// Seeded draws in Chromium (tests/chromium/random_browser.rs): opens a rendered page whose
// formulas call rand:: and stats::, calls the library that page carries (its minified
// library.js and stats.js) for each case, then moves the page's sliders and reads its outputs.
// Writes {draws, outputs: [{read, bars}], errors} as JSON to the path given; every number as String(x).
import fs from 'node:fs';
import { launch, open, setControl } from './common.mjs';

const [file, casesPath, outPath] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const draws = await page.evaluate((list) => {
    const L = labforgeLibrary({}, {});
    return list.map((c) => L[c.path].apply(null, c.args).map(String));
  }, cases.draws);
  const outputs = [];
  for (const s of cases.settings) {
    const ms = [];
    for (const [name, value] of s.set) ms.push((await setControl(page, 'a', name, value, s.outputs[0])).ms);
    // Each update draws 10,000 lognormals, takes two percentiles and a histogram (measured, not
    // asserted: the machine is shared).
    console.log(`random.mjs: updates took ${ms.map((x) => x.toFixed(1)).join(', ')} ms`);
    const read = await page.evaluate((names) => names.map((n) =>
      document.querySelector(`[data-output="${n}"]`).getAttribute('data-value')), s.outputs);
    // The histogram's bars, as drawn ("label: count" in each bar's tooltip).
    const bars = await page.evaluate(() => [...document.querySelectorAll('[data-chart] svg rect title')]
      .map((t) => t.textContent));
    outputs.push({ read, bars });
  }
  fs.writeFileSync(outPath, JSON.stringify({ draws, outputs, errors: log.errors }));
  console.log(`random.mjs: ${draws.length} draw lists, ${outputs.length} settings; all passed`);
} finally {
  await b.close();
}
