-- Per-month overrides (issue 30): for one bill's one occurrence (named by
-- its scheduled due date), an amount for that time only, a skip, a snooze
-- to a later date (at most 31 days), and a note.
CREATE TABLE bill_months (
    id            INTEGER PRIMARY KEY,
    bill_id       INTEGER NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    occurrence    TEXT    NOT NULL,
    amount_cents  INTEGER CHECK (amount_cents IS NULL OR amount_cents >= 0),
    skipped       INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
    snoozed_to    TEXT    CHECK (snoozed_to IS NULL OR snoozed_to > occurrence),
    note          TEXT    CHECK (note IS NULL OR length(note) <= 2000),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (bill_id, occurrence)
);
CREATE INDEX bill_months_user_occurrence ON bill_months(user_id, occurrence);
