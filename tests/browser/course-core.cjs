// The course record's merge rule as the page runs it (renderers/html/course.js, LF_COURSE.core),
// in Node with the DOM stubbed out, for tests/it/record_merge.rs and tests/it/fuzz.rs.
// Usage: node course-core.cjs COURSE_JS CASES_JSON  — CASES_JSON: [{ shape, mine, theirs, replace }]
// with `mine` a ledger (or null) and `theirs` the text of a ledger; prints one result per case:
// { bounds, json, clean, dropped, mine, merged, o } (see tests/common/merge.rs, the same in Rust),
// and `track` (core.mergeTrack) for a case with `tracks`, `mine_track` and `theirs_track`.
const fs = require('fs');
const vm = require('vm');
const [src, casesFile] = process.argv.slice(2).map((p) => fs.readFileSync(p, 'utf8'));
const none = () => null;
const data = { textContent: JSON.stringify({ course: { id: 'c', labs: [], me: -1 } }) };
const document = { getElementById: () => data, querySelector: none, querySelectorAll: () => [],
  addEventListener: none, dispatchEvent: none, createElement: none };
const cx = { document, localStorage: { getItem: none, setItem: none }, location: { hash: '', pathname: '/', search: '' },
  history: { replaceState: none }, CustomEvent: function () {}, console };
cx.window = cx;
vm.createContext(cx);
vm.runInContext(src, cx);
const core = cx.LF_COURSE.core;
// Plain objects for the output (the page builds records without a prototype).
const plain = (v) => JSON.parse(JSON.stringify(v));
const out = JSON.parse(casesFile).map((c) => {
  const r = lab(c);
  if (Array.isArray(c.tracks)) r.track = core.mergeTrack(c.mine_track, c.theirs_track, c.tracks);
  return r;
});
function lab(c) {
  const r = { bounds: core.bounds(c.theirs) };
  if (r.bounds) return r;
  let j;
  try { j = JSON.parse(c.theirs); } catch (e) { r.json = false; return r; }
  r.json = true;
  if (!core.isRec(j)) return r;
  const t = core.clean(j, c.shape);
  r.clean = plain(t.ledger);
  r.dropped = t.dropped;
  const mine = c.mine === null ? null : core.clean(c.mine, c.shape).ledger;
  r.mine = mine === null ? null : plain(mine);
  const m = core.mergeLab(mine, t.ledger, c.shape, c.replace);
  r.merged = plain(m.ledger);
  r.o = plain(m.o);
  return r;
}
process.stdout.write(JSON.stringify(out));
