#!/usr/bin/env bash
# Trace lab: runs small Flink jobs on real Flink releases (a local mini-cluster in one JVM) and
# records what Flink prints, as printed, under lab/out/<scenario>/<release>/.
#
#   scripts/lab.sh [scenario|all] [release|all]      (defaults: all all)
#
# "all" releases means each scenario's own list (`releases` in its scenario.toml, else the
# defaults below). Releases listed in a scenario's `not_reproducible` are skipped (their output
# folder is removed) unless LAB_FORCE=1. See lab/README.md.
#
# Environment: LAB_CACHE (default ~/.cache/trace-doctor-lab), LAB_KEEP=1 keeps the temporary run
# directories, LAB_FORCE=1 also runs not_reproducible releases, LAB_LOG_LINES (default 400; a
# scenario may set log_lines).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LAB="$ROOT/lab"
CACHE="${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trace-doctor-lab}"
DL="$CACHE/dl"
FLINK="$CACHE/flink"
DEFAULT_RELEASES="1.13.6 1.17.2 1.20.3 2.0.1 2.3.0"
LOG_LINES="${LAB_LOG_LINES:-400}"
TOOL=(python3 "$LAB/tools/labtool.py")
# JVM flags for running Flink on Java 17: the --add-opens/--add-exports that Flink's own
# config.yaml sets in env.java.opts.all (1.18+, FLINK-15736); harmless for older releases.
JAVA17_FLAGS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

log() { printf '[lab] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
  printf '\nscenarios: %s\n' "$(list_scenarios | tr '\n' ' ')"
}

list_scenarios() {
  local d
  for d in "$LAB"/scenarios/*/; do
    [[ -f "$d/scenario.toml" ]] && basename "$d"
  done
  return 0
}

get() { "${TOOL[@]}" get "$1/scenario.toml" "${@:2}"; }

# --- what the lab needs, installed idempotently ---------------------------------------------

ensure_jdk() {
  if ! command -v javac >/dev/null 2>&1; then
    log "installing a JDK (openjdk-17-jdk-headless, about 1 min)"
    apt-get update && apt-get install -y openjdk-17-jdk-headless
  fi
}

archive_of() { # the downloaded archive of release $1, if any
  local v="$1" f
  for f in "$DL/apache-flink-libraries-$v.tar.gz" "$DL/apache_flink_libraries-$v.tar.gz" \
           "$DL"/apache_flink_libraries-"$v"-*.whl; do
    [[ -f "$f" ]] && { printf '%s\n' "$f"; return 0; }
  done
  return 0
}

ensure_release() { # extracts the lib jars of release $1 once into $FLINK/$1/lib
  local v="$1" dir="$FLINK/$1" archive tmp
  [[ -f "$dir/.complete" ]] && return 0
  mkdir -p "$DL" "$FLINK"
  archive="$(archive_of "$v")"
  if [[ -z "$archive" ]]; then
    log "downloading apache-flink-libraries==$v from PyPI (about 30 s)"
    python3 -m pip download --no-deps "apache-flink-libraries==$v" -d "$DL" >&2
    archive="$(archive_of "$v")"
    [[ -n "$archive" ]] || die "pip download gave no archive for $v in $DL"
  fi
  log "extracting the lib jars of $v from $(basename "$archive")"
  tmp="$(mktemp -d "$FLINK/.extract-$v.XXXXXX")"
  mkdir -p "$tmp/lib"
  case "$archive" in
    *.whl) unzip -q -j "$archive" 'pyflink/lib/*.jar' -d "$tmp/lib" ;;
    *.tar.gz) tar -xzf "$archive" -C "$tmp" --wildcards '*/deps/lib/*.jar'
              mv "$tmp"/*/deps/lib/*.jar "$tmp/lib/"
              find "$tmp" -mindepth 1 -maxdepth 1 ! -name lib -exec rm -rf {} + ;;
  esac
  ls "$tmp"/lib/flink-dist*.jar >/dev/null 2>&1 || die "no flink-dist jar in $archive"
  printf 'archive = "%s"\narchive_sha256 = "%s"\n' "$(basename "$archive")" \
    "$(sha256sum "$archive" | cut -d' ' -f1)" > "$tmp/source.toml"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  touch "$dir/.complete"
}

# --- one scenario on one release -------------------------------------------------------------

# The sources for release $2: the *.java of the scenario folder plus those of the first of
# src-<release>, src-<major.minor>, src-<major>.x that exists (e.g. a small Compat.java per line).
source_files() {
  local sdir="$1" v="$2" d
  find "$sdir" -maxdepth 1 -name '*.java' | sort
  for d in "src-$v" "src-${v%.*}" "src-${v%%.*}.x"; do
    if [[ -d "$sdir/$d" ]]; then
      find "$sdir/$d" -maxdepth 1 -name '*.java' | sort
      return 0
    fi
  done
}

# Sets JARS to the classpath jars of release $2 for scenario folder $1 after the scenario's
# [classpath] exclude / strip settings (stripped copies live in the cache), and
# CLASSPATH_CHANGES to a description of those changes.
classpath_jars() {
  local sdir="$1" v="$2" lib="$FLINK/$2/lib" jar name pat excluded i prefixes strip_glob key dst
  local -a excludes strips
  JARS=(); CLASSPATH_CHANGES=""
  mapfile -t excludes < <(get "$sdir" classpath.exclude)
  mapfile -t strips < <(get "$sdir" classpath.strip)
  for jar in $(ls "$lib"/*.jar | sort); do
    name="$(basename "$jar")"
    excluded=0
    for pat in "${excludes[@]}"; do
      # shellcheck disable=SC2053
      [[ -n "$pat" && "$name" == $pat ]] && excluded=1
    done
    if (( excluded )); then
      CLASSPATH_CHANGES+="left out $name; "
      continue
    fi
    for strip_glob in "${strips[@]}"; do
      # shellcheck disable=SC2053
      if [[ -n "$strip_glob" && "$name" == $strip_glob ]]; then
        mapfile -t prefixes < <("${TOOL[@]}" strip-prefixes "$sdir/scenario.toml" "$strip_glob")
        key="$(printf '%s\n' "${prefixes[@]}" | sha256sum | cut -c1-12)"
        dst="$FLINK/$v/stripped/$key/$name"
        if [[ ! -f "$dst" ]]; then
          mkdir -p "$(dirname "$dst")"
          log "writing $name without ${prefixes[*]} to $dst"
          "${TOOL[@]}" strip-jar "$jar" "$dst" "${prefixes[@]}" >/dev/null
        fi
        CLASSPATH_CHANGES+="$name replaced by $dst, a copy without ${prefixes[*]} (and the META-INF/services lines naming removed classes); "
        jar="$dst"
      fi
    done
    JARS+=("$jar")
  done
}

now() { date +%s.%N; }

release_before() { # true if release $1 is older than $2 (major.minor)
  [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" == "$1" && "$1" != "$2" ]]
}

run_one() {
  local scenario="$1" v="$2" sdir="$LAB/scenarios/$1" out="$LAB/out/$1/$2"
  local reason main timeout_s ulimit_n ulimit_u java17_flags javac_release log_lines work cp javac_cmd java_cmd t0 t1 rc status matched
  local -a srcs jvm_opts javac_argv java_argv as_user java17
  reason="$(get "$sdir" not_reproducible "$v")"
  if [[ -n "$reason" && "${LAB_FORCE:-0}" != 1 ]]; then
    log "$scenario @ $v: skipped (not_reproducible: $reason)"
    rm -rf "$out"
    SUMMARY+=("$scenario	$v	skipped	-	-	not reproducible")
    return 0
  fi
  ensure_release "$v"
  main="$(get "$sdir" main)"
  [[ -n "$main" ]] || die "$scenario: scenario.toml has no main"
  timeout_s="$(get "$sdir" timeout_seconds)"; timeout_s="${timeout_s:-60}"
  ulimit_n="$(get "$sdir" ulimit_n)"
  # ulimit_u: the per-user process/thread limit (RLIMIT_NPROC). The kernel does not apply it to
  # root, so the java command then runs as user nobody (setpriv), keeping only the capabilities
  # to read and write files regardless of their owner (the cache under ~ and the run folder).
  ulimit_u="$(get "$sdir" ulimit_u)"
  as_user=()
  if [[ -n "$ulimit_u" && "$(id -u)" == 0 ]]; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups
             --inh-caps=+dac_override,+dac_read_search --ambient-caps=+dac_override,+dac_read_search)
  fi
  # java17_flags = false: run without the --add-opens/--add-exports of JAVA17_FLAGS.
  java17_flags="$(get "$sdir" java17_flags)"
  java17=("${JAVA17_FLAGS[@]}")
  [[ "$java17_flags" == false ]] && java17=()
  mapfile -t jvm_opts < <(get "$sdir" jvm_opts)
  # Flink supports Java 17 from 1.18 (FLINK-15736); older releases get Java 11 class files (their
  # shaded ASM cannot read version 61). A scenario may set javac_release itself.
  javac_release="$(get "$sdir" javac_release)"
  if [[ -z "$javac_release" ]] && release_before "$v" 1.18; then javac_release=11; fi
  mapfile -t srcs < <(source_files "$sdir" "$v")
  (( ${#srcs[@]} )) || die "$scenario: no .java files for $v in $sdir"

  classpath_jars "$sdir" "$v"
  cp="$(IFS=:; printf '%s' "${JARS[*]}")"

  work="$(mktemp -d "${TMPDIR:-/tmp}/lab-$scenario-$v.XXXXXX")"
  mkdir -p "$work/classes"
  javac_argv=(javac -nowarn -encoding UTF-8 ${javac_release:+--release "$javac_release"}
              -cp "$cp" -d "$work/classes" "${srcs[@]}")
  java_argv=("${as_user[@]}" java "${java17[@]}" "${jvm_opts[@]}"
             "-Dlog4j.configurationFile=$LAB/conf/log4j.properties" "-Dlog.file=$work/flink.log"
             -cp "$work/classes:$cp" "$main" "$work")
  javac_cmd="$(printf '%q ' "${javac_argv[@]}")"; javac_cmd="${javac_cmd% }"
  java_cmd="timeout -k 10 $timeout_s $(printf '%q ' "${java_argv[@]}")"; java_cmd="${java_cmd% }"
  if [[ -n "$ulimit_u" ]]; then java_cmd="ulimit -u $ulimit_u && $java_cmd"; fi
  if [[ -n "$ulimit_n" ]]; then java_cmd="ulimit -n $ulimit_n && $java_cmd"; fi
  java_cmd="cd $(printf '%q' "$work") && $java_cmd"

  rm -rf "$out"; mkdir -p "$out"
  if ! "${javac_argv[@]}" > "$work/javac.txt" 2>&1; then
    cp "$work/javac.txt" "$out/javac.txt"
    status="compile-error"; rc=-1; t0=0; t1=0
    log "$scenario @ $v: javac failed, see $out/javac.txt"
  else
    log "$scenario @ $v: running $main (time limit ${timeout_s}s)"
    t0="$(now)"
    set +e
    (
      cd "$work"
      [[ -n "$ulimit_n" ]] && ulimit -n "$ulimit_n"
      [[ -n "$ulimit_u" ]] && ulimit -u "$ulimit_u"
      exec timeout -k 10 "$timeout_s" "${java_argv[@]}"
    ) > "$work/client.txt" 2>&1 < /dev/null
    rc=$?
    set -e
    t1="$(now)"
    status="ran"
    cp "$work/client.txt" "$out/client.txt"
    log_lines="$(get "$sdir" log_lines)"
    LAB_LOG_CUT="$("${TOOL[@]}" cut-log "$work/flink.log" "$out/log.txt" "${log_lines:-$LOG_LINES}" \
                   "$(get "$sdir" log_after)")"
  fi

  matched=""
  [[ "$status" == ran ]] && matched="$("${TOOL[@]}" check "$sdir/scenario.toml" "$v" "$out/client.txt" "$out/log.txt")"
  local archive sha sources="" f reproduced=false timed_out=false secs
  archive="$(sed -n 's/^archive = "\(.*\)"$/\1/p' "$FLINK/$v/source.toml")"
  sha="$(sed -n 's/^archive_sha256 = "\(.*\)"$/\1/p' "$FLINK/$v/source.toml")"
  for f in "${srcs[@]}"; do sources+="${sources:+ }${f#"$ROOT/"}"; done
  [[ -n "$matched" ]] && reproduced=true
  [[ "$rc" == 124 || "$rc" == 137 ]] && timed_out=true
  secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  CLASSPATH_CHANGES="${CLASSPATH_CHANGES%; }"
  LAB_P_SCENARIO="$scenario" LAB_P_RELEASE="$v" \
  LAB_P_RULE="$(get "$sdir" rule "$v")" LAB_P_EXPECT="$(get "$sdir" expect "$v")" \
  LAB_P_STATUS="$status" LAB_P_REPRODUCED="$reproduced" LAB_P_MATCHED="$matched" \
  LAB_P_SOURCES="$sources" LAB_P_ARCHIVE="$archive" LAB_P_ARCHIVE_SHA256="$sha" \
  LAB_P_CLASSPATH_CHANGES="${CLASSPATH_CHANGES:-none: every jar of the release lib/}" \
  LAB_P_JAVA_VERSION="$(java -version 2>&1)" \
  LAB_P_JAVAC_COMMAND="$javac_cmd" LAB_P_JAVA_COMMAND="$java_cmd" \
  LAB_P_DATE="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  LAB_P_EXIT_CODE="$rc" LAB_P_DURATION_SECONDS="$secs" LAB_P_TIMED_OUT="$timed_out" \
  LAB_P_CLIENT_TXT="stdout and stderr of the java command, merged, unchanged" \
  LAB_P_LOG_TXT="${LAB_LOG_CUT:-none (javac failed)}" \
  LAB_P_LAB_SCRIPT="scripts/lab.sh $scenario $v" \
    "${TOOL[@]}" provenance "$out/provenance.toml"
  LAB_LOG_CUT=""

  if [[ "${LAB_KEEP:-0}" == 1 ]]; then log "kept $work"; else rm -rf "$work"; fi
  local found="$matched"
  if [[ "$status" != ran ]]; then
    found="(javac failed: $out/javac.txt)"; FAILED=$((FAILED + 1))
  elif [[ -z "$found" ]]; then
    if [[ -z "$(get "$sdir" expect_text)" ]]; then found="(no expect_text)"
    else found="(expect_text not found)"; FAILED=$((FAILED + 1)); fi
  fi
  SUMMARY+=("$scenario	$v	$status	$rc	$secs	$found")
  log "$scenario @ $v: exit $rc in ${secs}s; $found"
}

# --- main ------------------------------------------------------------------------------------

main() {
  local want_s="${1:-all}" want_v="${2:-all}" s v t_start
  local -a scenarios releases
  case "$want_s" in -h|--help|help) usage; exit 0 ;; esac
  if [[ "$want_s" == all ]]; then
    mapfile -t scenarios < <(list_scenarios)
  else
    [[ -f "$LAB/scenarios/$want_s/scenario.toml" ]] || { usage >&2; die "no scenario $want_s"; }
    scenarios=("$want_s")
  fi
  ensure_jdk
  command -v python3 >/dev/null || die "python3 (3.11+) is needed"
  mkdir -p "$CACHE"
  # one Flink job at a time on this machine, also across concurrent invocations
  exec 9> "$CACHE/lab.lock"
  if ! flock -n 9; then log "waiting for another lab run to finish"; flock 9; fi
  SUMMARY=(); FAILED=0
  t_start="$(now)"
  for s in "${scenarios[@]}"; do
    if [[ "$want_v" == all ]]; then
      mapfile -t releases < <(get "$LAB/scenarios/$s" releases)
      (( ${#releases[@]} )) || read -r -a releases <<< "$DEFAULT_RELEASES"
    else
      releases=("$want_v")
    fi
    for v in "${releases[@]}"; do
      run_one "$s" "$v"
    done
  done
  printf '\nscenario\trelease\tstatus\texit\tseconds\texpect_text found\n'
  printf '%s\n' "${SUMMARY[@]}"
  printf 'total: %s s\n' "$(awk -v a="$t_start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')"
  if (( FAILED )); then
    log "$FAILED run(s) without their expect_text (or not compiled): check client.txt"
    exit 1
  fi
}

main "$@"
