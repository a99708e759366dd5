// The page's runtime in Node with the DOM stubbed out, for the parity tests (tests/it/formula_js.rs,
// tests/it/display_js.rs): runs `scripts` (library, formulas, runtime) in one context whose page
// data is `page` (limits, hardware) and returns the runtime's `window.LF_RUNTIME`.
const vm = require('vm');
module.exports = function runtime(scripts, page) {
  const none = () => null;
  const el = { textContent: JSON.stringify({ ...page, constants: {}, parts: [], lab: { id: 't', version: 1 } }) };
  const document = { getElementById: () => el, querySelector: none, querySelectorAll: () => [],
    documentElement: { setAttribute: none }, dispatchEvent: none, addEventListener: none };
  const cx = { document, localStorage: { getItem: none, setItem: none }, console, TextEncoder, CustomEvent: function () {},
    location: { hash: '', pathname: '/', search: '' }, addEventListener: none, setTimeout: none,
    // the runtime schedules coalesced input through a MessageChannel (never fired here)
    MessageChannel: function () { return { port1: {}, port2: { postMessage: none } }; } };
  cx.window = cx;
  vm.createContext(cx);
  for (const src of scripts) vm.runInContext(src, cx);
  return cx.LF_RUNTIME;
};
