#!/usr/bin/env bash
# Measures the release page against issue 13's budgets (weight, first diagnosis after load, a 1 MB
# paste) in headless Chromium: scripts/budgets.mjs says how. Builds the page and the CLI if they
# are missing (the CLI makes the flagship's share link). BUDGETS_STRICT=1 fails on a missed budget.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -f dist/index.html ] || bash scripts/build.sh
[ -d .tools/node_modules/playwright-core ] || bash scripts/setup.sh
cargo build --release --quiet --bin trace-doctor
link=$(./target/release/trace-doctor link make --no-redact --base "" tests/cases/seed.txt 2>/dev/null)
FLAGSHIP_LINK="${link#*#}"
FLAGSHIP_LINK="#${FLAGSHIP_LINK}" node scripts/budgets.mjs
