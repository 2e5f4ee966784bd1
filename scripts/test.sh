#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, clippy (warnings denied) for
# the server and the browser build, Rust unit and integration tests, then the
# release build and the Playwright end-to-end tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "setup"
scripts/setup.sh

step "rustfmt"
cargo fmt --all --check

step "clippy (server build)"
cargo clippy --locked -p app -p server --all-targets -- -D warnings

step "clippy (browser build)"
cargo clippy --locked -p frontend -p app --target wasm32-unknown-unknown -- -D warnings

step "unit and integration tests"
cargo test --locked -p app -p server

step "release build"
cargo leptos build --release --precompress

step "end-to-end tests (Chromium)"
(cd end2end && npx playwright test)
