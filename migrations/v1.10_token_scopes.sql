-- v1.10: what each personal API token may do (read, write, admin,
-- admin:backup; comma-separated, in that order). Tokens made before this
-- version could do anything their owner could; they keep what a token
-- made without naming scopes gets now, the owner's own data (read,write),
-- so a leaked old token of an administrator no longer reaches the
-- administrator's API. `tally token create --scopes` makes new ones.
ALTER TABLE api_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'read,write'
    CHECK (length(scopes) BETWEEN 1 AND 64);
