-- v0.92: hardware security keys (WebAuthn/FIDO2), an optional second factor per user.
ALTER TABLE users ADD COLUMN webauthn_enabled INTEGER NOT NULL DEFAULT 0 CHECK (webauthn_enabled IN (0, 1));
ALTER TABLE users ADD COLUMN webauthn_user_id TEXT;
CREATE UNIQUE INDEX users_webauthn_user_id ON users(webauthn_user_id) WHERE webauthn_user_id IS NOT NULL;

CREATE TABLE webauthn_credentials (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    credential_id   TEXT    NOT NULL UNIQUE,  -- base64url
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    passkey         TEXT    NOT NULL,         -- serialized public key and counters
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_used_at    TEXT
);
CREATE INDEX webauthn_credentials_user ON webauthn_credentials(user_id);

CREATE TABLE webauthn_challenges (
    id              TEXT    PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose         TEXT    NOT NULL CHECK (purpose IN ('register', 'authenticate')),
    state           TEXT    NOT NULL,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges(expires_at);
