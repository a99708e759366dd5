// A course link's fragment as the page reads it (renderers/html/course.js: LF_COURSE.core.linkText,
// then LF_COURSE.parse), in Node with the DOM stubbed out, for tests/it/fuzz.rs.
// Usage: node link-core.cjs COURSE_JS CASES_JSON — CASES_JSON: { course, frags: [fragment…] }
// with `course` the index's data (`lf-data`'s `course`); prints, per fragment, one of
// { link: error } (not decoded), { text, error } (decoded, refused) or { text, labs, left }.
const fs = require('fs');
const vm = require('vm');
const [src, casesFile] = process.argv.slice(2).map((p) => fs.readFileSync(p, 'utf8'));
const spec = JSON.parse(casesFile);
const none = () => null;
const data = { textContent: JSON.stringify({ course: spec.course }) };
const document = { getElementById: () => data, querySelector: none, querySelectorAll: () => [],
  addEventListener: none, dispatchEvent: none, createElement: none };
const cx = { document, localStorage: { getItem: none, setItem: none }, location: { hash: '', pathname: '/', search: '' },
  history: { replaceState: none }, CustomEvent: function () {}, console, atob, escape, unescape };
cx.window = cx;
vm.createContext(cx);
vm.runInContext(src, cx);
const C = cx.LF_COURSE;
const out = spec.frags.map((frag) => {
  const l = C.core.linkText(frag);
  if (l.error) return { link: l.error };
  const p = C.parse(l.text);
  if (p.error) return { text: l.text, error: p.error };
  return { text: l.text, labs: JSON.parse(JSON.stringify(p.rec.labs)), left: p.left, track: p.rec.track === undefined ? null : p.rec.track };
});
console.log(JSON.stringify(out));
