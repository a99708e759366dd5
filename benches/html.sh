#!/usr/bin/env bash
# Benchmark of the static HTML page in headless Chromium (tests/browser/bench.mjs): page size
# (target < 150 KiB), external requests (target 0), navigation -> first computed output and
# recompute after an input event, at a desktop at full speed and a desktop and a phone with the
# CPU throttled 4× (targets there: first output <= 100/115 of the baseline pages in
# benches/baseline/, measured in the same run; recompute p95 <= 16 ms). Exits
# non-zero when a target is missed. Usage: benches/html.sh [LAB.yaml|DIR ...]   (default: labs/)
source "$(dirname "$0")/page-setup.sh"
cd tests/browser && node bench.mjs "${pages[@]}"
