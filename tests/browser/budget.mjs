// The page enforces the formula operation budget too: a runaway loop stops with an error instead
// of freezing the tab, and a short loop still runs. Usage: node budget.mjs PAGE
import { launch, open, setControl } from './common.mjs';

const b = await launch();
let failed = 0;
try {
  const { page } = await open(b.ctx, process.argv[2]);
  const set = (v) => setControl(page, 'a', 'reps', v, 'count');
  const ok = await set(20);
  if (ok.error || ok.value !== '20000') { failed++; console.log('FAIL short loop', JSON.stringify(ok)); }
  const bad = await set(2000);
  if (!bad.error || !bad.error.includes('operations')) { failed++; console.log('FAIL runaway loop not stopped', JSON.stringify(bad)); }
  if (bad.ms > 2000) { failed++; console.log('FAIL runaway loop took', bad.ms, 'ms'); }
} finally {
  await b.close();
}
console.log(`${failed ? 0 : 1} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
