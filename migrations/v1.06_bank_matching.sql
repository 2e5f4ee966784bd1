-- v1.06: matching bank transactions to bills. A matched transaction says
-- how it was matched (by a rule its owner confirmed, or by hand) and when,
-- and one whose match was undone says so;
-- a merchant rule is a payee its owner confirmed for a bill, keyed by the
-- description with its changing noise taken away.
ALTER TABLE transactions ADD COLUMN matched_by TEXT
    CHECK (matched_by IS NULL OR matched_by IN ('auto', 'manual'));
ALTER TABLE transactions ADD COLUMN matched_at TEXT;
-- Set when its owner undoes a match: automatic matching leaves it alone.
ALTER TABLE transactions ADD COLUMN unmatched_at TEXT;
CREATE TABLE merchant_rules (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    bill_id     INTEGER NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
    merchant    TEXT    NOT NULL CHECK (length(merchant) BETWEEN 4 AND 200),
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user_id, merchant, bill_id)
);
CREATE INDEX merchant_rules_merchant ON merchant_rules(user_id, merchant);
