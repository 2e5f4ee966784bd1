-- v0.94: sessions.id becomes the SHA-256 (hex) of the session token. Plaintext
-- tokens cannot be hashed into valid sessions safely, so every session ends:
-- everyone, the bootstrap admin included, signs in once more.
DELETE FROM sessions;
DROP TABLE sessions;
CREATE TABLE sessions (
    id              TEXT    PRIMARY KEY CHECK (length(id) = 64 AND id NOT GLOB '*[^0-9a-f]*'),
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL,
    user_agent      TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

-- IP geolocation is opt-in: off for every existing user.
INSERT INTO settings (user_id, key, value)
SELECT id, 'geolocation_enabled', 'false' FROM users
WHERE true
ON CONFLICT DO NOTHING;
