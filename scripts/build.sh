#!/usr/bin/env bash
# Builds the release page into dist/ with Trunk, fully offline.
# Needs the tools scripts/setup.sh installs; wasm-opt comes from binaryen@132 in .tools
# (Debian's binaryen 108 cannot read what rustc 1.95 emits). Trunk.toml pins the tool versions.
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS_BIN="$PWD/.tools/node_modules/.bin"
export PATH="$TOOLS_BIN:$PATH"

log() { printf '[build] %s\n' "$*" >&2; }

missing=()
[ -x "$TOOLS_BIN/wasm-opt" ] || missing+=("wasm-opt ($TOOLS_BIN/wasm-opt)")
command -v trunk >/dev/null 2>&1 || missing+=(trunk)
command -v wasm-bindgen >/dev/null 2>&1 || missing+=(wasm-bindgen)
if [ "${#missing[@]}" -gt 0 ]; then
  log "missing: ${missing[*]}; run scripts/setup.sh first"
  exit 1
fi
[ -f Trunk.toml ] || { log "Trunk.toml is missing"; exit 1; }
[ -f index.html ] || { log "index.html is missing"; exit 1; }

log "$(trunk --version), $(wasm-bindgen --version), wasm-opt $(wasm-opt --version | head -n1)"
start=$(date +%s)
trunk build --release --offline
log "dist/ built in $(( $(date +%s) - start )) s:"
ls -l dist >&2
