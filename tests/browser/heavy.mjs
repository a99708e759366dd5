// A lab that checks clean but whose chart becomes heavy at another slider value: the update
// stops at the page's update budget with the budget's error shown in the part, rather than
// freezing the tab; a light setting afterwards recomputes normally. Usage: node heavy.mjs PAGE
import { launch, open } from './common.mjs';

const b = await launch();
let failed = 0;
const check = (cond, what, data) => { if (!cond) { failed++; console.log('FAIL', what, JSON.stringify(data)); } };
try {
  const { page } = await open(b.ctx, process.argv[2]);
  const set = (v) => page.evaluate((v) => {
    const s = document.querySelector('[name="reps"]');
    s.value = String(v);
    const t0 = performance.now();
    s.dispatchEvent(new Event('input', { bubbles: true }));
    const err = document.querySelector('[data-part="a"] [data-error]');
    const D = JSON.parse(document.getElementById('lf-data').textContent);
    return { ms: performance.now() - t0, error: err.hidden ? null : err.textContent,
      ops: window.LF_RUNTIME.ops(), maxOps: D.maxOps, labOps: D.labOps,
      value: document.querySelector('[data-output="per_point"]').getAttribute('data-value') };
  }, v);
  const heavy = await set(50);
  console.log('heavy update:', JSON.stringify(heavy));
  check(heavy.error && heavy.error.includes('operations in total'), 'the heavy update shows the update budget error', heavy);
  // The update stopped at its budget: the work done is the budget (plus the one charge that
  // crossed it), not the 80 million units the chart would need.
  check(heavy.ops[1] > heavy.labOps && heavy.ops[1] <= heavy.labOps + heavy.maxOps, 'work stopped at the budget', heavy);
  // Generous, so that a loaded machine does not fail it; without the budget this update runs
  // four times longer than the budget allows.
  check(heavy.ms < 15000, 'the heavy update returned', heavy);
  const light = await set(1);
  console.log('light update:', JSON.stringify(light));
  check(light.error === null && light.value === '1000', 'a light setting recomputes after it', light);
  check(light.ops[1] < light.labOps / 10, 'the light update is cheap', light);
} finally {
  await b.close();
}
console.log(`${failed ? 0 : 1} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
