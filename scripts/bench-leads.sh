#!/usr/bin/env bash
# Load benchmark for POST /api/leads: starts the release server (rate limit
# raised; bot check and CRM pointed at local fakes) on a fresh data
# directory, drives it with wrk, and beside it times a raw SQLite insert loop
# (one autocommit insert per row, WAL, synchronous=FULL, as the server does)
# on the same machine in the same run.
#
#   scripts/bench-leads.sh [seconds] [connections]
#
# With BENCH_FAKES=0 the bot check and CRM stay off, which measures the
# server and SQLite alone (the Python fakes saturate first otherwise).
#
# Needs the release build (make run or cargo leptos build --release --split) and wrk
# (installed from Debian if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10}"
connections="${2:-16}"
binary=target/server-release/tally
[[ -x "$binary" ]] || { echo "build first: cargo leptos build --release --split" >&2; exit 1; }
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

work="$(mktemp -d)"
cleanup() { kill "${fakes_pid:-}" "${tally_pid:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

python3 scripts/bench/fake_services.py > "$work/fakes.port" &
fakes_pid=$!
for _ in $(seq 50); do [[ -s "$work/fakes.port" ]] && break; sleep 0.1; done
fakes="http://127.0.0.1:$(cat "$work/fakes.port")"

services=(
  CAPTCHA_SITEVERIFY_URL="$fakes/siteverify" CAPTCHA_SECRET=bench CAPTCHA_SITE_KEY=bench
  CRM_LEAD_URL="$fakes/lead" CRM_ORG_ID=bench
)
[[ "${BENCH_FAKES:-1}" == 0 ]] && services=()

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT=target/site DATA_DIR="$work/data" LOG_DIR="$work/logs" \
RUST_LOG=warn RATE_LIMIT_PER_MINUTE=100000 \
  env "${services[@]}" "$binary" serve > "$work/tally.out" 2>&1 &
tally_pid=$!
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break; sleep 0.1; done

echo "== wrk: ${duration}s, $connections connections, POST /api/leads (bot check and CRM fakes: ${BENCH_FAKES:-1})"
wrk -t2 -c"$connections" -d"${duration}s" --latency -s scripts/bench/post_lead.lua "http://127.0.0.1:$port/api/leads" | tee "$work/wrk.txt"
stored="$(sqlite3 "$work/data/db/bills.db" 'SELECT count(*) FROM leads')"
non2xx="$(grep -o 'Non-2xx or 3xx responses: [0-9]*' "$work/wrk.txt" | grep -o '[0-9]*$' || echo 0)"

echo "== raw SQLite: autocommit inserts into a leads table (WAL, synchronous=FULL)"
rows=3000
raw="$work/raw.db"
{
  echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
  echo "CREATE TABLE leads (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, company TEXT, phone TEXT, message TEXT NOT NULL, client_ip TEXT, crm_state TEXT NOT NULL DEFAULT 'pending', crm_attempts INTEGER NOT NULL DEFAULT 0, crm_next_attempt_at TEXT, crm_last_error TEXT, created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));"
} | sqlite3 "$raw" >/dev/null
python3 - "$raw" "$rows" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA synchronous=FULL")
n = int(sys.argv[2])
start = time.perf_counter()
for i in range(n):
    db.execute("INSERT INTO leads (name, email, company, message, client_ip, crm_next_attempt_at) VALUES (?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
               ("Load Test", "load@example.com", "Bench Ltd", "A lead sent by the load benchmark.", "127.0.0.1"))
elapsed = time.perf_counter() - start
print(f"{n} inserts in {elapsed:.2f} s: {n / elapsed:.0f} inserts/s")
PY

echo "== summary"
echo "leads stored by the server: $stored (non-2xx answers: $non2xx)"
grep -E "Requests/sec|99%" "$work/wrk.txt" | sed 's/^ */  /'
