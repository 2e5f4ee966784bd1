-- Admin → Authentication (issue 31): single sign-on's settings where the
-- environment is silent, and whether email and password sign in. Each
-- column NULL means "not set here" (the environment or the default
-- decides). OIDC is on when issuer, client id and secret are all set.
-- A v0.36 row that was switched off (`enabled = 0`) keeps its client id
-- and secret but not its issuer, so it stays off until an administrator
-- enters the issuer again.
CREATE TABLE oidc_settings_v116 (
    id                      INTEGER PRIMARY KEY CHECK (id = 1),
    issuer_url              TEXT,
    client_id               TEXT,
    client_secret           TEXT,         -- encrypted
    scopes                  TEXT,
    groups_claim            TEXT,
    admin_group             TEXT,
    auto_provision          INTEGER CHECK (auto_provision IN (0, 1)),
    link_by_email           INTEGER CHECK (link_by_email IN (0, 1)),
    button_label            TEXT,
    local_login_enabled     INTEGER CHECK (local_login_enabled IN (0, 1)),
    -- 1 after `tally auth local-login on`: email and password sign in
    -- whatever the rest says, until an administrator changes it again.
    local_login_break_glass INTEGER NOT NULL DEFAULT 0 CHECK (local_login_break_glass IN (0, 1)),
    updated_at              TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO oidc_settings_v116 (id, issuer_url, client_id, client_secret)
    SELECT id, CASE WHEN enabled = 1 THEN issuer_url END, client_id, client_secret
    FROM oidc_settings;
DROP TABLE oidc_settings;
ALTER TABLE oidc_settings_v116 RENAME TO oidc_settings;
