// A formula with a loop is not run again while what it reads is unchanged (runtime.js
// `remembered`, crates/render/src/render/html/part.rs `scope_reads`): the page of
// tests/inputs/ok_memo_search.yaml, whose part B searches a loop (`best`, reading `n_teams`, not
// `weight`). Moving the weight reuses it (LF_RUNTIME.reused() counts reuses) and the outputs
// follow the weight; moving `n_teams` runs it again; moving the weight back to where it was
// shows what it showed then.
// Usage: node memo.mjs PAGE
import { launch, open, unlockAll, checker } from './common.mjs';

const { check, finish } = checker();
const b = await launch();
try {
  const { page, log } = await open(b.ctx, process.argv[2], { tabs: true });
  await unlockAll(page);
  await page.click('[data-tab="b"]');
  const set = (id, v) => page.evaluate(async ([id, v]) => {
    const el = document.querySelector(`[data-part="b"] input[data-control="${id}"]`);
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await new Promise((r) => setTimeout(r, 50));
    const out = Object.fromEntries([...document.querySelectorAll('[data-part="b"] [data-output]')].map((n) => [n.getAttribute('data-output'), n.getAttribute('data-value')]));
    return { reused: window.LF_RUNTIME.reused(), out };
  }, [id, v]);
  const a = await set('n_teams', 6);
  const w1 = await set('weight', 80);
  check('a weight moved: the search is reused', w1.reused === a.reused + 1, JSON.stringify([a.reused, w1.reused]));
  check('a weight moved: the outputs follow it', w1.out.score !== a.out.score, JSON.stringify([a.out, w1.out]));
  const n = await set('n_teams', 7);
  check('n_teams moved: the search runs again', n.reused === w1.reused, JSON.stringify([w1.reused, n.reused]));
  await set('n_teams', 6);
  const w2 = await set('weight', 80);
  check('the same settings again: the same outputs', JSON.stringify(w2.out) === JSON.stringify(w1.out), JSON.stringify([w1.out, w2.out]));
  check('no page errors', log.errors.length === 0, JSON.stringify(log.errors));
} finally {
  await b.close();
}
finish();
