#!/usr/bin/env bash
# Before/after page comparison in one interleaved run (tests/browser/pair.mjs): first paint and
# first computed output of pages rendered by another build (BEFORE_DIR, e.g. `labforge render
# labs --to html -o /tmp/before` with the binary of the commit to compare with) against the
# pages of this checkout, and against the same pages without their scripts; first visits and
# return visits apart; paired ratios. Usage: benches/pair.sh BEFORE_DIR [LAB.yaml|DIR ...]
before="$(cd "$1" && pwd)"
shift
source "$(dirname "$0")/page-setup.sh"
names=()
for f in "${pages[@]}"; do
  [ ! -f "$before/$(basename "$f")" ] || names+=("$(basename "$f")")
done
cd tests/browser && node pair.mjs "$before" "$OUT" "${names[@]}"
