#!/usr/bin/env bash
# sqlx's offline data for the compile-checked queries (`.sqlx/`).
#   scripts/sqlx.sh prepare   rewrite .sqlx/ after changing a query
#   scripts/sqlx.sh check     fail when .sqlx/ is not what the queries and
#                             the migrations' schema give (make test)
# Both check the queries against a database built from migrations/ by
# scripts/sqlx_schema.py (a unit test holds that to the migrator's schema).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

mode=${1:-}
case "$mode" in
  prepare) check=() ;;
  check) check=(--check) ;;
  *) echo "usage: scripts/sqlx.sh prepare|check" >&2; exit 2 ;;
esac

schema=target/sqlx/schema.db
python3 scripts/sqlx_schema.py "$schema"
# The server build is the one that compiles the queries (app's ssr feature).
SQLX_OFFLINE=false DATABASE_URL="sqlite:$schema" \
  cargo sqlx prepare --workspace "${check[@]}" -- --locked -p app -p server --all-targets
