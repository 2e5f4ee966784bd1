#!/usr/bin/env bash
# Checks the running release server against its own OpenAPI document
# (GET /api/openapi.json) with schemathesis: no 5xx, and every status code,
# content type and body as the document says. Bounded: a fixed number of
# examples per operation, a fixed seed (set SCHEMATHESIS_SEED to explore
# further) and a time limit for the whole run.
#
# Needs the release build (cargo leptos build --release) and .venv
# (scripts/setup.sh). Prints one line "api-check: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

server=${TALLY_BIN:-target/server-release/tally}
schemathesis=${SCHEMATHESIS_BIN:-.venv/bin/schemathesis}
[ -x "$server" ] || { echo "api-check: $server is missing; run cargo leptos build --release" >&2; exit 1; }
[ -x "$schemathesis" ] || { echo "api-check: $schemathesis is missing; run scripts/setup.sh" >&2; exit 1; }

work=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
admin=admin@example.com
password="correct horse battery staple"

LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT=target/site \
  DATA_DIR="$work/data" LOG_DIR="$work/logs" PUBLIC_BASE_URL="$base" \
  BOOTSTRAP_ADMIN_EMAIL="$admin" BOOTSTRAP_ADMIN_PASSWORD="$password" \
  REQUEST_TIMEOUT_SECONDS=10 RUST_LOG=warn \
  RATE_LIMIT_PER_MINUTE=100000 SIGN_IN_ATTEMPTS_PER_MINUTE=100000 \
  "$server" serve >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  curl --fail-with-body -sS "$base/api/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl --fail-with-body -sS "$base/api/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }

# An administrator's API token, through the API itself: sign in, then mint
# the token with the session and its CSRF token (signing in changes it: a
# session's token is bound to the session, so it is read again).
jar="$work/cookies"
csrf_token() {
  curl --fail-with-body -sS -b "$jar" -c "$jar" "$base/api/auth/csrf-token" | python3 -c 'import json,sys; print(json.load(sys.stdin)["csrfToken"])'
}
csrf=$(csrf_token)
curl --fail-with-body -sS -b "$jar" -c "$jar" -H "Content-Type: application/json" -H "X-CSRF-Token: $csrf" \
  -d "{\"email\":\"$admin\",\"password\":\"$password\"}" "$base/api/auth/login" >/dev/null
csrf=$(csrf_token)
token=$(curl --fail-with-body -sS -b "$jar" -H "Content-Type: application/json" -H "X-CSRF-Token: $csrf" \
  -d '{"name":"schemathesis"}' "$base/api/tokens" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
# Something to find: a bill with a payment.
bill=$(curl --fail-with-body -sS -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
  -d '{"name":"Rent","amountMinor":120000,"currency":"USD","cadence":"monthly","dueDay":1,"anchorDate":"2026-01-01"}' \
  "$base/api/bills" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("id", d))')
curl --fail-with-body -sS -H "Authorization: Bearer $token" -H "Content-Type: application/json" -d '{}' \
  "$base/api/bills/$bill/payments" >/dev/null

# The token alone is exempt from the CSRF check only while no cookie is
# sent, and schemathesis keeps the cookies answers set (the CSRF cookie of
# /api/auth/csrf-token); a fixed Cookie header with its matching token
# keeps every request past the check, so the operations behind it are
# tested rather than refused with 403.
# One worker: with two, hypothesis parses source on two threads at once,
# and CPython 3.11.7's ast.parse can then fail with "AST constructor
# recursion depth mismatch" (a crash of the tool, seen once on a fresh
# clone, not an answer of the server).
# Left out of the run, with the reason: these end the run's own access.
#   POST /api/auth/logout-all   revokes every API token, the run's too
#   DELETE /api/tokens/{id}     may revoke the run's token
set +e
timeout 900 "$schemathesis" run "$base/api/openapi.json" \
  --header "Authorization: Bearer $token" \
  --header "Cookie: tally_csrf=$csrf" --header "X-CSRF-Token: $csrf" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "${SCHEMATHESIS_EXAMPLES:-30}" \
  --seed "${SCHEMATHESIS_SEED:-20261123}" \
  --workers 1 \
  --request-timeout 15 \
  --continue-on-failure \
  --exclude-path /api/auth/logout-all \
  --exclude-name "DELETE /api/tokens/{id}" \
  --suppress-health-check all \
  --no-color \
  --report junit --report-junit-path "$work/junit.xml" \
  2>&1 | tee "$work/schemathesis.log"
status=${PIPESTATUS[0]}
set -e

if grep -q "panicked" "$work/server.log"; then
  echo "api-check: the server panicked:" >&2
  grep -A5 "panicked" "$work/server.log" >&2
  status=1
fi
python3 - "$work/junit.xml" <<'PY' || true
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    print("api-check: 0 passed, 1 failed")
    sys.exit(0)
cases = root.iter("testcase")
passed = failed = 0
for case in cases:
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
    elif case.find("skipped") is None:
        passed += 1
print(f"api-check: {passed} passed, {failed} failed")
PY
exit "$status"
