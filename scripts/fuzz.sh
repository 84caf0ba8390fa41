#!/usr/bin/env bash
# Fuzzes every input that comes from outside (issue 13): the parser alone (`parse`), the whole
# pipeline (`pipeline`: parse, diagnose, report, page model, replies), the share-link decoder
# (`link`) and redaction (`redact`). Each target runs for the given seconds; libFuzzer's final
# stats (executions, executions per second) are summed up at the end.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, all four)
# Installs cargo-fuzz when it is missing (once). A crash stops that target, is saved under
# fuzz/artifacts/<target>/ and makes this script exit non-zero; see fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-60}"
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(parse pipeline link redact)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# cargo-fuzz passes nightly flags; stable rustc accepts them with RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1
cd fuzz
status=0
summary=""
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="$(mktemp)"
  echo "== $t: ${SECONDS_PER_TARGET}s"
  # Inputs the size of a pasted trace; the parser's target small and fast (>= 5,000 exec/s).
  case "$t" in
    parse) max_len=4096 ;;
    redact) max_len=8192 ;;
    *) max_len=16384 ;;
  esac
  # No sanitizer: safe Rust, and the checks are the targets' own assertions (3-4x the speed).
  # The parser's target without comparison tracing: half its time went to the tracing hooks of
  # the parser's byte and length comparisons (perf); 3,222 -> 15,238 executions a second. Its
  # dictionary gives the literals tracing would have found; the pipeline target, which runs the
  # same parser, keeps tracing. Built in a folder of its own (other flags, other artifacts).
  build=()
  run=()
  if [ "$t" = parse ]; then
    build=(--no-trace-compares --target-dir target/no-trace-compares)
    run=(-dict=parse.dict)
  fi
  if ! cargo fuzz run --sanitizer none "${build[@]}" "$t" -- -max_total_time="$SECONDS_PER_TARGET" \
      -print_final_stats=1 -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 "${run[@]}" >"$log" 2>&1; then
    status=1
    tail -40 "$log"
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  summary+="$(printf '%-10s %12s executions %8s exec/s' "$t" "${execs:-0}" "${rate:-0}")"$'\n'
  rm -f "$log"
done
echo
printf '%s' "$summary"
exit $status
