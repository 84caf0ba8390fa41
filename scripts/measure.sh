#!/usr/bin/env bash
# Prints what the release page weighs: every file in dist/, raw and gzip -9 bytes, and the totals.
# With MEASURE_BENCH=1 it also runs the native criterion benchmark (slow; CI skips it) and prints
# its summary lines. Extra criterion arguments: MEASURE_BENCH_ARGS (e.g. "--measurement-time 2").
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f dist/index.html ]; then
  echo "[measure] dist/ is not built; run scripts/build.sh first" >&2
  exit 1
fi

echo "Release page (dist/):"
printf '  %-48s %12s %12s\n' file raw gzip-9
total_raw=0
total_gz=0
while IFS= read -r -d '' f; do
  raw=$(wc -c <"$f")
  gz=$(gzip -9 -c <"$f" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '  %-48s %12d %12d\n' "${f#dist/}" "$raw" "$gz"
done < <(find dist -type f -not -path 'dist/prose/*' -print0 | sort -z)
# The rules' prose: one file per rule and language, loaded per finding (src/browser/prose.rs).
for lang in en zh; do
  [ -d "dist/prose/$lang" ] || continue
  n=0 raw=0 gz=0 max_gz=0
  while IFS= read -r -d '' f; do
    n=$((n + 1))
    raw=$((raw + $(wc -c <"$f")))
    one=$(gzip -9 -c <"$f" | wc -c)
    gz=$((gz + one))
    [ "$one" -gt "$max_gz" ] && max_gz=$one
  done < <(find "dist/prose/$lang" -type f -print0)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '  %-48s %12d %12d\n' "prose/$lang/ ($n files, largest $max_gz gz)" "$raw" "$gz"
done
printf '  %-48s %12d %12d\n' TOTAL "$total_raw" "$total_gz"

for kind in wasm js css html; do
  raw=0
  gz=0
  while IFS= read -r -d '' f; do
    raw=$((raw + $(wc -c <"$f")))
    gz=$((gz + $(gzip -9 -c <"$f" | wc -c)))
  done < <(find dist -type f -name "*.$kind" -print0)
  printf '  %-48s %12d %12d\n' "all .$kind" "$raw" "$gz"
done
echo "page weight: $total_raw bytes raw, $total_gz bytes gzip -9"

if [ "${MEASURE_BENCH:-0}" = "1" ]; then
  echo
  echo "Native benchmark (cargo bench --bench diagnose):"
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # shellcheck disable=SC2086 # MEASURE_BENCH_ARGS is a list of words on purpose
  cargo bench --bench diagnose -- --noplot ${MEASURE_BENCH_ARGS:-} >"$log" 2>&1 || {
    cat "$log"
    echo "[measure] cargo bench failed" >&2
    exit 1
  }
  # Criterion prints "name  time: [lo mid hi]" (the name on its own line when it is long),
  # then "thrpt: [...]". Keep those lines and the names.
  awk '
    /^Benchmarking / { next }
    /time:/ || /thrpt:/ { print "  " $0; next }
    /^[A-Za-z0-9_-]+(\/[^ ]+)+ *$/ { print "  " $0 }
  ' "$log"
  echo
  echo "Native throughput on a generated 50 MB TaskManager log (cargo bench --bench throughput):"
  cargo bench --bench throughput -- --noplot >"$log" 2>&1 || {
    cat "$log"
    echo "[measure] cargo bench failed" >&2
    exit 1
  }
  sed -n '/^throughput on /,$p' "$log"
else
  echo "(benchmarks skipped; MEASURE_BENCH=1 scripts/measure.sh runs them)"
fi
