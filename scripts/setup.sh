#!/usr/bin/env bash
# Installs every tool the build and the tests need, idempotently (skips what is there).
# Versions are pinned in ../shared/toolchain.md; keep them in step with Cargo.toml and Trunk.toml.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
TOOLS_DIR="$PWD/.tools"

log() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    log "adding the $component component"
    rustup component add "$component"
  fi
done

if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 min)"
  # no --locked: its lockfile names a crate version the registry mirror lacks (shared/toolchain.md)
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION\$"; then
  log "installing trunk $TRUNK_VERSION (about 7 min)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

mkdir -p "$TOOLS_DIR"
if ! cmp -s tests/e2e/package.json "$TOOLS_DIR/package.json" \
  || [ ! -x "$TOOLS_DIR/node_modules/.bin/wasm-opt" ] \
  || [ ! -d "$TOOLS_DIR/node_modules/playwright-core" ] \
  || [ ! -f "$TOOLS_DIR/node_modules/axe-core/axe.min.js" ]; then
  log "installing binaryen (wasm-opt), playwright-core and axe-core into $TOOLS_DIR"
  cp tests/e2e/package.json "$TOOLS_DIR/package.json"
  npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  log "installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# The crate's own dependencies, for every target (native and wasm32): scripts/build.sh builds
# with `trunk build --offline`, which passes --offline to cargo, so a machine whose cargo cache
# lacks them (a fresh one) must fetch them first. Quick when they are cached.
log "fetching the crate's dependencies (cargo fetch --locked)"
cargo fetch --locked --quiet

log "tools ready"
