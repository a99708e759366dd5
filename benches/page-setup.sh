# Shared by benches/html.sh and benches/screenshots.sh (sourced): builds labforge, renders the
# labs given (or labs/) as pages into $OUT (removed on exit) and installs playwright-core.
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
