-- Back to v1.19's methods: a security key's rows go (the password step
-- of the same sign-in keeps its own row). The table is built again with
-- the very text v1.15's ADD COLUMN left in `sqlite_schema`, odd line
-- breaks and all, so a database rolled back here is v1.19's schema
-- statement for statement (`backup::known_schema` compares the text).
DELETE FROM login_history WHERE method = 'security_key';
ALTER TABLE login_history RENAME TO login_history_v120;
DROP INDEX login_history_user_at;

CREATE TABLE login_history (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at              TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    success         INTEGER NOT NULL CHECK (success IN (0, 1)),
    ip              TEXT,                 -- encrypted
    user_agent      TEXT,                 -- encrypted
    location        TEXT                  -- encrypted
, method TEXT NOT NULL DEFAULT 'password'
    CHECK (method IN ('password', 'oidc')));

INSERT INTO login_history (id, user_id, at, success, ip, user_agent, location, method)
    SELECT id, user_id, at, success, ip, user_agent, location, method FROM login_history_v120;
DROP TABLE login_history_v120;
CREATE INDEX login_history_user_at ON login_history(user_id, at);
