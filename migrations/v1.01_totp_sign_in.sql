-- v1.01: TOTP as a second factor. `totp_last_step` is the replay guard (a
-- code's 30-second time step is accepted once); `pending_sign_ins` holds the
-- short-lived challenge between a correct password and the second factor
-- (only its SHA-256).
ALTER TABLE users ADD COLUMN totp_last_step INTEGER;

CREATE TABLE pending_sign_ins (
    id              TEXT    PRIMARY KEY CHECK (length(id) = 64),
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL
);
CREATE INDEX pending_sign_ins_expiry ON pending_sign_ins(expires_at);
