-- v1.09: failed migration attempts, kept after their rollback so Admin
-- Status can say that an upgrade failed, when, and why (the failed
-- migration's own changes are rolled back; this row is written after).
CREATE TABLE schema_migration_failures (
    id INTEGER PRIMARY KEY,
    version TEXT NOT NULL,
    failed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    message TEXT NOT NULL CHECK (length(message) <= 2000)
);
