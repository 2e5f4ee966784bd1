#!/usr/bin/env bash
# Sets up (skipping what is installed), builds Tally in release mode and runs
# it on its embedded defaults: SQLite under ./data, logs under ./logs,
# http://127.0.0.1:3001.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scripts/setup.sh
cargo leptos build --release --split --precompress
target/server-release/tally pack-wasm
echo "Tally is starting on http://${LEPTOS_SITE_ADDR:-127.0.0.1:3001} (Ctrl-C stops it)"
exec target/server-release/tally serve
