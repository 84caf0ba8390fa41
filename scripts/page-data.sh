#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): writes the rules' prose files the page loads
# (prose/<lang>/<id>.json, src/know/rules/files.rs) into the build being staged, with the
# command line built from the same sources. Run by hand: bash scripts/page-data.sh <dir>.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${TRUNK_STAGING_DIR:?run by Trunk, or give the folder}/prose}"
cargo build --release --quiet --bin trace-doctor
rm -rf "$out"
"${CARGO_TARGET_DIR:-target}/release/trace-doctor" page-data "$out"
