# Shared by the page benches (sourced): builds labforge, renders the labs given (or labs/) as
# pages into $OUT (removed on exit), lists the lab pages (not the course index) in $pages and
# installs playwright-core.
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
