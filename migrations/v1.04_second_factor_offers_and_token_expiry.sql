-- v1.04: a pending sign-in remembers the second factors it offered, and
-- every personal API token has an expiry.
--
-- `pending_sign_ins.methods` lists the offered methods ('totp',
-- 'securityKey', comma-separated); the second step accepts only those.
-- Challenges from before this version offered nothing on record, and live
-- for five minutes anyway: they are dropped (the person signs in again).
DELETE FROM pending_sign_ins;
ALTER TABLE pending_sign_ins ADD COLUMN methods TEXT NOT NULL DEFAULT ''
    CHECK (methods <> '');

-- `api_tokens.expires_at` is required, so the table is rebuilt (SQLite
-- cannot add a NOT NULL column without a constant default). Tokens made
-- before this version never expired; they now expire 90 days from this
-- migration, the default for new tokens.
CREATE TABLE api_tokens_v104 (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    token_hash      TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_used_at    TEXT,
    revoked_at      TEXT,
    expires_at      TEXT    NOT NULL
);
INSERT INTO api_tokens_v104 (id, user_id, name, token_hash, created_at, last_used_at, revoked_at, expires_at)
    SELECT id, user_id, name, token_hash, created_at, last_used_at, revoked_at,
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+90 days')
    FROM api_tokens;
DROP TABLE api_tokens;
ALTER TABLE api_tokens_v104 RENAME TO api_tokens;
CREATE INDEX api_tokens_user ON api_tokens(user_id);
