#!/usr/bin/env bash
# The release build: the server and the browser bundle, split at the lazy
# routes and precompressed. The bundle's files carry content hashes, so
# every build adds new names to target/site/pkg; the old ones are removed
# first, or the server (which holds the whole directory in memory) would
# carry every earlier build's chunks.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

rm -rf target/site/pkg
cargo leptos build --release --split --precompress
