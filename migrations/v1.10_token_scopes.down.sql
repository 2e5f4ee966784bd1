-- Rolls v1.10 back: tokens lose their scopes (and can again do anything
-- their owner can through the API).
ALTER TABLE api_tokens DROP COLUMN scopes;
