#!/usr/bin/env bash
# Reference screenshots of the page for reviewers: docs/screenshots/LAB-{desktop,phone}-{light,dark}-{top,part}.png
# (1366×900 and 390×844, device scale 1), the top of the page and part A after locking in;
# quantised by pngquant when it is installed (`apt-get install pngquant`).
# Usage: benches/screenshots.sh [LAB.yaml]   (default: labs/fault-tolerance.yaml)
LAB="${1:-labs/fault-tolerance.yaml}"
source "$(dirname "$0")/page-setup.sh" "$LAB" >/dev/null
mkdir -p docs/screenshots
page="$OUT/$(basename "$LAB" .yaml).html"
(cd tests/browser && node screenshots.mjs "$page" ../../docs/screenshots)
# Kept small for the repository: quantised to a palette when pngquant is installed.
if command -v pngquant >/dev/null; then
  for f in docs/screenshots/*.png; do pngquant --quality 60-85 --speed 1 --force --output "$f" "$f"; done
fi
ls -l docs/screenshots
