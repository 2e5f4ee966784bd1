-- Single sign-on with OpenID Connect (issue 31). An identity at a provider
-- is keyed on (issuer, subject), never on an email. The sign-in history
-- says how each sign-in happened.
CREATE TABLE oidc_identities (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    issuer          TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    email           TEXT,
    -- 1 when the account was created through the provider: its groups
    -- decide its role; an account linked later keeps its own.
    provisioned     INTEGER NOT NULL DEFAULT 0 CHECK (provisioned IN (0, 1)),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_sign_in_at TEXT,
    UNIQUE (issuer, subject)
);
CREATE INDEX oidc_identities_user ON oidc_identities(user_id);

-- A session that came from the provider keeps its ID token (sealed), the
-- hint of RP-initiated logout when the session ends.
ALTER TABLE sessions ADD COLUMN oidc_id_token TEXT;  -- encrypted

ALTER TABLE login_history ADD COLUMN method TEXT NOT NULL DEFAULT 'password'
    CHECK (method IN ('password', 'oidc'));
