-- v1.00: personal API tokens for programmatic clients. Only the SHA-256 of a
-- token is stored; the token itself is shown once, when it is made.
CREATE TABLE api_tokens (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    token_hash      TEXT    NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_used_at    TEXT,
    revoked_at      TEXT
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);
