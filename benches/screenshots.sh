#!/usr/bin/env bash
# Reference screenshots of the page for reviewers: docs/screenshots/LAB-{desktop,phone}-{light,dark}-{top,part}.png
# (1366×900 and 390×844, device scale 1), the top of the page and part A after locking in;
# quantised by pngquant when it is installed (`apt-get install pngquant`).
# Usage: benches/screenshots.sh [LAB.yaml]   (default: labs/fault-tolerance.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
cargo build --quiet
BIN="${LABFORGE_BIN:-$CARGO_TARGET_DIR/debug/labforge}"
LAB="${1:-labs/fault-tolerance.yaml}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$BIN" render "$LAB" --to html -o "$OUT" >/dev/null
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
mkdir -p docs/screenshots
page="$OUT/$(basename "$LAB" .yaml).html"
(cd tests/browser && node screenshots.mjs "$page" ../../docs/screenshots)
# Kept small for the repository: quantised to a palette when pngquant is installed.
if command -v pngquant >/dev/null; then
  for f in docs/screenshots/*.png; do pngquant --quality 60-85 --speed 1 --force --output "$f" "$f"; done
fi
ls -l docs/screenshots
