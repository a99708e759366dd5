// sim::cluster in Chromium (tests/chromium/sim_browser.rs): opens a rendered page whose formulas
// call sim::cluster, calls the library that page carries (its minified library.js, stats.js and
// sim.js) for each configuration, then moves the page's sliders and reads its outputs.
// Writes {runs, outputs: [{read, ms}], errors} as JSON to the path given; every number as String(x).
import fs from 'node:fs';
import { launch, open, setControl } from './common.mjs';

const [file, casesPath, outPath] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'));
const b = await launch();
try {
  const { page, log } = await open(b.ctx, file);
  const runs = await page.evaluate((list) => {
    const L = labforgeLibrary({}, {});
    const str = (x) => (Array.isArray(x) ? x.map(String) : String(x));
    return list.map((c) => {
      const r = L['sim::cluster'](c);
      const o = {};
      for (const k of Object.keys(r)) o[k] = str(r[k]);
      return o;
    });
  }, cases.configs);
  const outputs = [];
  for (const s of cases.settings) {
    const ms = [];
    for (const [name, value] of s.set) {
      const r = await setControl(page, 'a', name, value, s.outputs[0]);
      if (r.error) log.errors.push(r.error);
      ms.push(r.ms);
    }
    const read = await page.evaluate((names) => names.map((n) =>
      document.querySelector(`[data-output="${n}"]`).getAttribute('data-value')), s.outputs);
    outputs.push({ read, ms });
    console.log(`sim.mjs: updates took ${ms.map((x) => x.toFixed(1)).join(', ')} ms (measured, not asserted)`);
  }
  fs.writeFileSync(outPath, JSON.stringify({ runs, outputs, errors: log.errors }));
  console.log(`sim.mjs: ${runs.length} simulations, ${outputs.length} settings; all passed`);
} finally {
  await b.close();
}
