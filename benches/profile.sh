#!/usr/bin/env bash
# Where the page's time goes (tests/browser/profile.mjs): a Chromium trace and JavaScript
# profile, CPU throttled 4×, of one load and of 60 slider inputs per lab page.
# Usage: benches/profile.sh [--phone] [LAB.yaml|DIR ...]   (default: labs/)
args=()
flags=()
for a in "$@"; do if [ "$a" = --phone ]; then flags+=(--phone); else args+=("$a"); fi; done
set -- "${args[@]}"
source "$(dirname "$0")/page-setup.sh"
cd tests/browser && node profile.mjs "${flags[@]}" "${pages[@]}"
