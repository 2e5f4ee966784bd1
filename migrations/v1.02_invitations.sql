-- v1.02: one-time invitation links. An admin invites someone (or the first
-- start without bootstrap settings prints a setup link, an admin invitation);
-- only the SHA-256 of the link's token is stored. Open registration is the
-- instance setting `open_registration` in `settings` (user_id NULL).
CREATE TABLE invitations (
    id              INTEGER PRIMARY KEY,
    token_hash      TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    email           TEXT    COLLATE NOCASE,
    role            TEXT    NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    created_by      INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL,
    used_at         TEXT,
    used_by         INTEGER REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX invitations_expiry ON invitations(expires_at);
