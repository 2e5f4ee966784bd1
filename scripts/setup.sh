#!/usr/bin/env bash
# Installs what building and testing Tally needs, skipping whatever is already
# present at the right version: the wasm32 target, cargo-leptos, wasm-bindgen,
# wasm-opt, Debian's Chromium, the end-to-end test's npm packages, and the
# Python virtualenv (.venv) for the Google operations client test and the
# email tests' SMTP server; with `test`, sqlx-cli as well.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_LEPTOS_VERSION=0.3.10
WASM_BINDGEN_VERSION=0.2.130
# The workspace's sqlx; only the test suite needs its CLI (`setup.sh test`).
SQLX_CLI_VERSION=0.9.0
BINARYEN_VERSION=132

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(cargo leptos --version 2>/dev/null || true)" != "cargo-leptos $CARGO_LEPTOS_VERSION" ]; then
  say "installing cargo-leptos $CARGO_LEPTOS_VERSION (about 17 minutes on 2 cores)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked --features no_downloads
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lock file names a yanked transitive version.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ "${1:-}" = test ] && [ "$(cargo sqlx --version 2>/dev/null || true)" != "sqlx-cli-sqlx $SQLX_CLI_VERSION" ]; then
  say "installing sqlx-cli $SQLX_CLI_VERSION, SQLite only (checks .sqlx/ in make test)"
  cargo install sqlx-cli --version "$SQLX_CLI_VERSION" --locked --no-default-features --features sqlite,completions
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  say "installing wasm-opt (binaryen $BINARYEN_VERSION) from npm"
  as_root npm install -g "binaryen@$BINARYEN_VERSION.0.0"
fi

if [ ! -x /usr/bin/chromium ]; then
  say "installing Chromium from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi

# npm ci only when the lock file changed since the last install.
if [ ! -f end2end/node_modules/.package-lock.json ] \
  || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
  say "installing the end-to-end test packages"
  (cd end2end && npm ci --no-audit --no-fund)
fi

# Google's Python client for the operations compatibility test
# (compat/requirements.txt, pinned; skipped when .venv already matches).
if ! bash compat/setup_venv.sh; then
  echo "setup: could not build .venv for compat/operations_client.py (needs python3 >= 3.10 with venv)" >&2
  exit 1
fi

# The email tests' SMTP server (scripts/smtp-test-server.py) and calendar
# parser, in the same .venv.
if ! .venv/bin/python -c 'import aiosmtpd, icalendar' 2>/dev/null; then
  say "installing aiosmtpd and icalendar into .venv"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input --root-user-action=ignore \
    aiosmtpd==1.4.6 icalendar==7.3.2
fi

say "all tools present"
