-- Hardening III (issue 52, finding 4): "Import my data" copies a large
-- file in many short transactions, so another person's write waits for
-- one batch, not the whole file. Each table's rows go into a range of ids
-- taken in its first batch; the range is written here in that same
-- transaction, so a failed import, a crash or a restored backup that
-- caught one half done can always remove exactly what it added. The
-- import's last transaction deletes its rows here: then it is whole. A
-- person with a row here has an import running, which reminders and
-- automatic bank matching wait for.
CREATE TABLE personal_import_ranges (
    import      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    table_name  TEXT    NOT NULL,
    first_id    INTEGER NOT NULL,
    last_id     INTEGER NOT NULL CHECK (last_id >= first_id),
    started_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (import, table_name)
);
CREATE INDEX personal_import_ranges_user ON personal_import_ranges(user_id);
