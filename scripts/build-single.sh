#!/usr/bin/env bash
# Builds the release page (scripts/build.sh), then one self-contained HTML file from it:
# dist-single/trace-doctor.html (CSS, JS, worker and wasm inlined). It works opened from
# file:// and as a mail attachment; see README "Offline single file".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
node scripts/inline.mjs dist dist-single/trace-doctor.html
