-- Hardening III (issue 52): the sign-in history says how every attempt
-- was made, and a security key's answer to the second step is one of the
-- ways, so `method` may also be `security_key`. SQLite cannot change a
-- CHECK in place: the table is built again and its rows copied as they
-- are. Rows from before keep their word: `password` for every row before
-- v1.15 (the only way in then; a security key's step wrote no row) and
-- every password step since, `oidc` for the provider's.
ALTER TABLE login_history RENAME TO login_history_v119;
DROP INDEX login_history_user_at;

CREATE TABLE login_history (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at              TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    success         INTEGER NOT NULL CHECK (success IN (0, 1)),
    ip              TEXT,                 -- encrypted
    user_agent      TEXT,                 -- encrypted
    location        TEXT,                 -- encrypted
    method          TEXT    NOT NULL DEFAULT 'password'
                    CHECK (method IN ('password', 'oidc', 'security_key'))
);

INSERT INTO login_history (id, user_id, at, success, ip, user_agent, location, method)
    SELECT id, user_id, at, success, ip, user_agent, location, method FROM login_history_v119;
DROP TABLE login_history_v119;
CREATE INDEX login_history_user_at ON login_history(user_id, at);
