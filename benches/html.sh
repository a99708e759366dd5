#!/usr/bin/env bash
# Benchmark of the static HTML page in headless Chromium: page size (target < 150 KiB), external
# requests (target 0), navigation -> first computed output (target < 100 ms, median of 15 loads),
# recompute after an input event (target p95 < 8 ms over 300 events). Exits non-zero when a
# target is missed. Usage: benches/html.sh [LAB.yaml|DIR ...]   (default: labs/)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo build --quiet
BIN="${LABFORGE_BIN:-$CARGO_TARGET_DIR/debug/labforge}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$BIN" render "${@:-labs}" --to html -o "$OUT"
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
pages=()
for f in "$OUT"/*.html; do
  [ "$(basename "$f")" = index.html ] || pages+=("$f")
done
cd tests/browser && node bench.mjs "${pages[@]}"
