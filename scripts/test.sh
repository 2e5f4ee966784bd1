#!/usr/bin/env bash
# The whole test suite, as CI runs it: formatting, clippy (warnings denied) for
# the server and the browser build, Rust unit and integration tests, then the
# release build, the Playwright end-to-end tests in Chromium, and schemathesis
# against the release server's OpenAPI document.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

step "setup"
scripts/setup.sh test

step "rustfmt"
cargo fmt --all --check

step "clippy (server build)"
cargo clippy --locked -p app -p server --all-targets -- -D warnings

step "clippy (browser build)"
cargo clippy --locked -p frontend -p app --target wasm32-unknown-unknown -- -D warnings

step "compile-checked queries (.sqlx/ matches the queries and the schema)"
scripts/sqlx.sh check

step "unit and integration tests"
cargo test --locked -p app -p server 2>&1 | tee "$logs/cargo-test.log"

step "date-sensitive suites on fixed dates"
# The calendar moved (TALLY_TEST_TODAY, app::backend::clock) to the days a
# date rule most often gets wrong, so such a bug fails the day it is
# written, not the day the calendar reaches it.
for day in 2027-02-28 2028-02-29 2026-12-31 2027-01-01; do
  printf '\n-- as if today were %s\n' "$day"
  TALLY_TEST_TODAY=$day cargo test --locked -p app -p server --test integration -- \
    tracker:: bills:: bank_sync:: notifications:: subscriptions:: drift:: statement_imports:: \
    2>&1 | tee -a "$logs/cargo-test.log"
done

step "release build"
# Without backtraces, so a failure's own message is the last thing printed
# (CI keeps only the tail); the disk and memory are said with it.
if ! RUST_BACKTRACE=0 RUST_LIB_BACKTRACE=0 cargo leptos build --release --split --precompress; then
  df -h . /tmp || true
  free -m || true
  exit 1
fi
# Each area's WASM files as one download, as `make run` serves them.
target/server-release/tally pack-wasm

step "end-to-end tests (Chromium)"
(cd end2end && PLAYWRIGHT_JSON_OUTPUT_NAME="$logs/e2e.json" npx playwright test --reporter=list,json)

step "API against its OpenAPI document (schemathesis)"
scripts/api-check.sh | tee "$logs/api-check.log"

# One closing line for the whole suite.
read -r rust_passed rust_failed < <(awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$logs/cargo-test.log")
read -r e2e_passed e2e_failed < <(node -e '
  const s = require(process.argv[1]).stats;
  console.log(s.expected, s.unexpected + s.flaky);' "$logs/e2e.json")
read -r api_passed api_failed < <(awk '/^api-check:/ { print $2, $4 }' "$logs/api-check.log")
printf '\nrust: %s passed, %s failed\n' "$rust_passed" "$rust_failed"
printf 'e2e: %s passed, %s failed\n' "$e2e_passed" "$e2e_failed"
printf 'api-check: %s operations passed, %s failed\n' "$api_passed" "$api_failed"
printf 'total: %s passed, %s failed\n' "$((rust_passed + e2e_passed + api_passed))" "$((rust_failed + e2e_failed + api_failed))"
