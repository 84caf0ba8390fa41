#!/usr/bin/env bash
# The project's test command (README; .ci/run calls it). Stops at the first failing step.
#   1 setup     scripts/setup.sh (installs what is missing; idempotent)
#   2 fmt       cargo fmt --check
#   3 clippy    cargo clippy --all-targets -- -D warnings
#   4 clippy-web  the same for the wasm page binary (and clippy-page: as the page is built)
#   5 test      cargo test (unit, integration, CLI tests; native)
#   5b web-test  tests/web.rs with wasm-bindgen-test in headless Chromium (core + app in wasm)
#   6 build     scripts/build.sh (trunk build --release --offline -> dist/), then the single
#               file dist-single/trace-doctor.html from it (scripts/inline.mjs)
#   7 e2e       node tests/e2e/run.mjs (headless Chromium against dist/; screenshots in tests/e2e/out/)
#   8 measure   scripts/measure.sh (page weight; MEASURE_BENCH=1 adds the native benchmark)
#   9 budgets   scripts/budgets.sh (issue 6's budgets in headless Chromium: weight, first
#               diagnosis after load, a 1 MB paste; reports, fails only with BUDGETS_STRICT=1)
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# The wasm-opt the build needs, and nothing from the network for the browser.
export PATH="$PWD/.tools/node_modules/.bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

started=$(date +%s)
done_steps=()
e2e_line=""
e2e_log=$(mktemp)
trap 'rm -f "$e2e_log"' EXIT

summary_fail() {
  local step="$1" rc="$2"
  echo
  [ -n "$e2e_line" ] && echo "$e2e_line"
  echo "test.sh: FAILED at step '$step' (exit $rc) after $(( $(date +%s) - started )) s; passed before it: ${done_steps[*]:-none}"
  exit "$rc"
}

step() {
  local name="$1"
  shift
  local t0 rc
  t0=$(date +%s)
  echo
  echo "==> [$name] $*"
  if "$@"; then rc=0; else rc=$?; fi
  if [ "$rc" -ne 0 ]; then
    echo "<== [$name] FAILED (exit $rc, $(( $(date +%s) - t0 )) s)"
    summary_fail "$name" "$rc"
  fi
  echo "<== [$name] ok ($(( $(date +%s) - t0 )) s)"
  done_steps+=("$name")
}

run_e2e() {
  # Keep the output visible and remember its last line (e2e: N passed, M failed).
  local rc
  node tests/e2e/run.mjs 2>&1 | tee "$e2e_log"
  rc=${PIPESTATUS[0]}
  e2e_line=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed$' "$e2e_log" | tail -n1 || true)
  [ -n "$e2e_line" ] || e2e_line="e2e: no result line (the run aborted)"
  return "$rc"
}

step setup bash scripts/setup.sh
step fmt cargo fmt --check
step clippy cargo clippy --all-targets -- -D warnings
step clippy-web cargo clippy --no-default-features --features web --target wasm32-unknown-unknown --bin trace-doctor-web --test web -- -D warnings
# The page as built (index.html): the rules without their prose (src/browser/prose.rs loads it).
step clippy-page cargo clippy --no-default-features --features web,lazy-prose --target wasm32-unknown-unknown --bin trace-doctor-web -- -D warnings
# The Share panel's worker (src/bin/share.rs), as index.html builds it.
step clippy-share cargo clippy --no-default-features --features share-worker,lazy-prose --target wasm32-unknown-unknown --bin trace-doctor-share -- -D warnings
# The first view's module (src/bin/first.rs), as index.html builds it.
step clippy-first cargo clippy --no-default-features --features first,lazy-prose --target wasm32-unknown-unknown --bin trace-doctor-first -- -D warnings
step test cargo test
step web-test env CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --no-default-features --features web --test web
step build bash scripts/build.sh
step single node scripts/inline.mjs dist dist-single/trace-doctor.html
step e2e run_e2e
step measure bash scripts/measure.sh
step budgets bash scripts/budgets.sh

echo
echo "$e2e_line"
echo "test.sh: PASSED all ${#done_steps[@]} steps (${done_steps[*]}) in $(( $(date +%s) - started )) s"
