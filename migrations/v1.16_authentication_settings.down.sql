CREATE TABLE oidc_settings_v091 (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    issuer_url      TEXT    NOT NULL,
    client_id       TEXT    NOT NULL,
    client_secret   TEXT,                 -- encrypted
    enabled         INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1))
);
INSERT INTO oidc_settings_v091 (id, issuer_url, client_id, client_secret, enabled)
    SELECT id, coalesce(issuer_url, ''), coalesce(client_id, ''), client_secret,
           issuer_url IS NOT NULL AND client_id IS NOT NULL AND client_secret IS NOT NULL
    FROM oidc_settings;
DROP TABLE oidc_settings;
ALTER TABLE oidc_settings_v091 RENAME TO oidc_settings;
