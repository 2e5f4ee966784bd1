-- Hardening III (issue 52): every change of how people sign in (Admin →
-- Authentication) or of the mail server (Admin → Notifications) is kept,
-- for Admin → Status: who, when and which fields, never a value. The
-- administrator's email is kept as it was, so the entry still says who
-- once the account is gone; the column is not `user_id` because the list
-- is the instance's, not that person's data.
CREATE TABLE settings_changes (
    id                 INTEGER PRIMARY KEY,
    changed_by         INTEGER REFERENCES users(id) ON DELETE SET NULL,
    changed_by_email   TEXT    NOT NULL,
    area               TEXT    NOT NULL CHECK (area IN ('sign-in', 'mail')),
    -- The fields' API names, comma-separated (`issuerUrl,clientSecret`).
    fields             TEXT    NOT NULL CHECK (length(fields) BETWEEN 1 AND 1000),
    -- Identities at the provider dropped because the issuer changed.
    identities_dropped INTEGER NOT NULL DEFAULT 0 CHECK (identities_dropped >= 0),
    changed_at         TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX settings_changes_at ON settings_changes(changed_at);
