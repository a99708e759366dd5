#!/usr/bin/env bash
# Drag benchmark of the static HTML page in headless Chromium (tests/browser/drag.mjs): every
# slider of every shipped lab dragged with the mouse, a move every 16 ms, at full speed and with
# the CPU throttled 4×; long tasks from a PerformanceObserver. Targets: none over 50 ms at full
# speed, none over 100 ms at 4×; exits non-zero when one is missed.
# Usage: benches/drag.sh [LAB.yaml|DIR ...]   (default: labs/)
# On a shared machine compare two renderings by paired ratios instead:
#   node tests/browser/drag-pair.mjs BEFORE.html AFTER.html [ROUNDS]
# and where one drag's time goes (trace; CPU time by kind, paired over renderings):
#   node tests/browser/drag-trace.mjs [--rate 4] [--rounds N] --sliders PART/CONTROL,... PAGE...
source "$(dirname "$0")/page-setup.sh"
cd tests/browser && node drag.mjs "${pages[@]}"
