#!/usr/bin/env bash
# `make audit`: the dependency audit with cargo-deny (deny.toml). Licenses,
# bans and sources are checked offline from Cargo.lock. Advisories need the
# RustSec advisory database, which cargo-deny fetches from GitHub: where that
# is unreachable (the development machines of this project reach only the
# package registries) the audit says so and exits 2 rather than passing
# silently. Not part of `make test` for that reason (docs/decisions.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

CARGO_DENY_VERSION=0.20.2

if [ "$(cargo deny --version 2>/dev/null || true)" != "cargo-deny $CARGO_DENY_VERSION" ]; then
  echo "audit: installing cargo-deny $CARGO_DENY_VERSION (a few minutes, once)"
  cargo install cargo-deny --version "$CARGO_DENY_VERSION" --locked
fi

cargo deny --log-level warn check licenses bans sources

if cargo deny --log-level error fetch db >/dev/null 2>&1; then
  cargo deny --log-level warn check advisories
else
  echo "audit: the RustSec advisory database could not be fetched (no route to GitHub); advisories were NOT checked" >&2
  exit 2
fi
