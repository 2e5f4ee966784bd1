-- Price drift (issue 30): a dismissed drift stays out of the Tracker for
-- 30 days, or until its median moves by another threshold.
CREATE TABLE drift_dismissals (
    bill_id       INTEGER PRIMARY KEY REFERENCES bills(id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    median_cents  INTEGER NOT NULL,
    until         TEXT    NOT NULL,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX drift_dismissals_user ON drift_dismissals(user_id);
