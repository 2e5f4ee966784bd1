# The two commands a new user needs; see README.md.
.PHONY: run test setup sqlx-prepare audit bench-http bench-leads bench-operations bench-tracker bench-bank bench-statements bench-subscriptions bench-notifications bench-uploads

# Install what is missing, build, and run Tally on its defaults.
run:
	scripts/run.sh

# Run the whole test suite (what CI runs).
test:
	scripts/test.sh

setup:
	scripts/setup.sh

# After adding or changing a compile-checked query (sqlx::query!): rewrite
# the offline data in .sqlx/ that builds use. make test checks it.
sqlx-prepare:
	scripts/setup.sh test
	scripts/sqlx.sh prepare

# The dependency audit (cargo-deny: licenses, bans, sources offline;
# advisories when the RustSec database can be fetched). See README.
audit:
	scripts/audit.sh

# Health, an SSR page, a static asset and lead POST against a bare axum
# handler and the Node/Express peer, in one run (needs the release build).
bench-http:
	scripts/bench-http.sh

# Load benchmark of POST /api/leads beside a raw SQLite insert loop
# (needs the release build; installs wrk if missing).
bench-leads:
	scripts/bench-leads.sh

# Operations API: wait wake-up latency (p50/p99) and list latency with
# 1,000,000 stored operations.
bench-operations:
	cargo bench -p server --bench operations

# The Tracker's API for a user with 500 bills and 20,000 payments, before
# and after 200 per-month overrides (their cost as a ratio in one run).
bench-tracker:
	cargo bench -p server --bench tracker

# A bank sync of 3 accounts x 10,000 transactions against a local fake
# provider: time and the server's peak memory, beside a raw SQLite loop.
bench-bank:
	cargo bench -p server --bench bank_sync

# A 100,000-transaction OFX statement previewed and committed, beside a raw
# SQLite insert loop of the same rows.
bench-statements:
	cargo bench -p server --bench statements

# Scoring 10,000 transactions against the subscription catalog beside a
# raw Aho-Corasick scan of the same strings.
bench-subscriptions:
	cargo bench -p server --bench subscriptions

# One reminders run for 1,000 users x 20 bills against a local ntfy
# receiver: time and the server's peak memory, beside a raw SQLite read and
# a bare client's posts.
bench-notifications:
	cargo bench -p server --bench notifications

# Hostile SQLite uploads (a generated column or a view computing 400 MB):
# each answer's status, time and the server's peak memory; then another
# person's bill creates idle and during a near-64 MiB personal import.
bench-uploads:
	cargo bench -p server --bench uploads
