#!/usr/bin/env bash
# Tally's cheapest routes against their yardsticks, in one run on this
# machine (`make bench-http`; not part of `make test`):
#
#   - a bare axum handler answering the same health JSON
#     (server/examples/bare_health.rs),
#   - the Node 20 + Express 4 + better-sqlite3 peer in
#     ../shared/peers/express-lead, at synchronous=NORMAL (its default) and
#     at FULL (acknowledging durably, like Tally),
#   - Tally's release build: /api/health, the SSR page /pricing, a static
#     asset under /pkg, and POST /api/leads (rate limit raised; bot check
#     and CRM off).
#
# Each target is driven by wrk alone while the others idle; the figures,
# the ratios the issue sets as targets and each server's peak RSS are
# printed at the end and kept in target/bench-http/results.txt.
#
#   scripts/bench-http.sh [seconds per run] [connections]
#
# Needs the release build (`make run`, or `cargo leptos build --release --split
# --precompress`); installs wrk from Debian and the peer's npm packages
# (into target/bench-http/peer) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
duration="${1:-8}"
connections="${2:-64}"
out=target/bench-http
mkdir -p "$out"
tally=target/server-release/tally
[[ -x "$tally" && -d target/site/pkg ]] || {
  echo "build first: cargo leptos build --release --split --precompress" >&2
  exit 1
}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

echo "== building the bare axum yardstick"
cargo build --quiet --locked --profile server-release -p server --example bare_health
bare=target/server-release/examples/bare_health

peer_src=../shared/peers/express-lead
peer="$out/peer"
if [[ ! -d "$peer/node_modules/better-sqlite3/build" ]]; then
  echo "== installing the Node peer's packages"
  rm -rf "$peer"
  cp -r "$peer_src" "$peer"
  (cd "$peer" && npm install --no-audit --no-fund --loglevel=error \
    && npm rebuild better-sqlite3 --loglevel=error >/dev/null)
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_up() { for _ in $(seq 200); do curl -fsS "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "not up: $1" >&2; exit 1; }
peak_rss_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

bare_port=$(free_port)
"$bare" "$bare_port" >"$work/bare.out" 2>&1 &
pids+=($!)

peer_port=$(free_port)
(cd "$peer" && exec node server.js "$peer_port") >"$work/peer.out" 2>&1 &
peer_pid=$!
pids+=("$peer_pid")
peer_full_port=$(free_port)
(cd "$peer" && PEER_SYNC=FULL exec node server.js "$peer_full_port") >"$work/peer-full.out" 2>&1 &
peer_full_pid=$!
pids+=("$peer_full_pid")

tally_port=$(free_port)
LEPTOS_SITE_ADDR="127.0.0.1:$tally_port" LEPTOS_SITE_ROOT=target/site \
DATA_DIR="$work/data" LOG_DIR="$work/logs" RATE_LIMIT_PER_MINUTE=100000 TRUSTED_PROXIES=127.0.0.1 \
  "$tally" serve >"$work/tally.out" 2>&1 &
tally_pid=$!
pids+=("$tally_pid")

wait_up "http://127.0.0.1:$bare_port/api/health"
wait_up "http://127.0.0.1:$peer_port/api/health"
wait_up "http://127.0.0.1:$peer_full_port/api/health"
wait_up "http://127.0.0.1:$tally_port/api/health"
css="$(cd target/site/pkg && ls ./*.css | head -1)"
css="${css#./}"

results="$out/results.txt"
: >"$results"
# run NAME URL [lua script]: one wrk run; keeps req/s and p99 (ms).
run() {
  local name=$1 url=$2 script=${3:-}
  local args=(-t2 "-c$connections" "-d${duration}s" --latency)
  [[ -n "$script" ]] && args+=(-s "$script")
  wrk "${args[@]}" "$url" >"$work/$name.wrk"
  python3 - "$name" "$work/$name.wrk" >>"$results" <<'PY'
import re, sys
name, path = sys.argv[1], sys.argv[2]
text = open(path).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", text)
p99 = float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
sock = re.search(r"Socket errors: (.*)", text)
print(name, rps, p99, errors.group(1) if errors else 0, (sock.group(1).replace(" ", "") if sock else "-"))
PY
  tail -1 "$results" | awk '{ printf "  %-22s %10.0f req/s   p99 %8.2f ms   non-2xx %s\n", $1, $2, $3, $4 }'
}

echo "== wrk -t2 -c$connections -d${duration}s, one target at a time"
run bare_health "http://127.0.0.1:$bare_port/api/health"
run peer_health "http://127.0.0.1:$peer_port/api/health"
run tally_health "http://127.0.0.1:$tally_port/api/health"
run tally_session "http://127.0.0.1:$tally_port/api/auth/session"
run tally_pricing "http://127.0.0.1:$tally_port/pricing"
run tally_static "http://127.0.0.1:$tally_port/pkg/$css"
run peer_lead_normal "http://127.0.0.1:$peer_port/api/leads" "$peer/post-lead.lua"
run peer_lead_full "http://127.0.0.1:$peer_full_port/api/leads" "$peer/post-lead.lua"
run tally_lead "http://127.0.0.1:$tally_port/api/leads" scripts/bench/post_lead.lua

stored="$(sqlite3 "$work/data/db/bills.db" 'SELECT count(*) FROM leads')"
peer_rss=$(( $(peak_rss_kb "$peer_pid") > $(peak_rss_kb "$peer_full_pid") ? $(peak_rss_kb "$peer_pid") : $(peak_rss_kb "$peer_full_pid") ))
tally_rss=$(peak_rss_kb "$tally_pid")
echo "rss tally_kb=$tally_rss peer_kb=$peer_rss" >>"$results"
echo "stored tally_leads=$stored" >>"$results"

echo
echo "== ratios (targets from issue 13; health restated by issue 28)"
python3 - "$results" <<'PY'
import sys
rows, extra = {}, {}
for line in open(sys.argv[1]):
    parts = line.split()
    if parts[0] in ("rss", "stored"):
        extra.update(dict(p.split("=") for p in parts[1:]))
    else:
        rows[parts[0]] = (float(parts[1]), float(parts[2]))
        if parts[3] != "0" or parts[4] != "-":
            extra.setdefault("invalid", []).append(parts[0])
r = lambda a, b: rows[a][0] / rows[b][0]
checks = [
    # Issue 28 restated health's target (>= 0.35x a bare axum handler) and
    # dropped the comparison with the Node peer's health.
    ("health / bare axum", r("tally_health", "bare_health"), 0.35),
    ("SSR /pricing / peer health", r("tally_pricing", "peer_health"), 3),
    ("static asset / bare axum", r("tally_static", "bare_health"), 0.5),
    ("lead / peer lead FULL", r("tally_lead", "peer_lead_full"), 2),
    ("lead / peer lead NORMAL", r("tally_lead", "peer_lead_normal"), 1),
    ("peer lead p99 (FULL) / lead p99", rows["peer_lead_full"][1] / rows["tally_lead"][1], 3),
    ("peer peak RSS / Tally peak RSS", int(extra["peer_kb"]) / int(extra["tally_kb"]), 2),
]
for name, value, target in checks:
    print(f"  {name:34s} {value:8.2f}x   target >= {target}x   {'met' if value >= target else 'NOT MET'}")
for name in extra.get("invalid", []):
    print(f"  INVALID: {name} had non-2xx answers or socket errors; its figures are not comparable")
print(f"  peak RSS: Tally {int(extra['tally_kb']) // 1024} MiB, peer {int(extra['peer_kb']) // 1024} MiB; leads stored by Tally: {extra['tally_leads']}")
PY
echo "(figures in $results)"
