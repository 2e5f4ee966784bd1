ALTER TABLE api_tokens DROP COLUMN expires_at;
DELETE FROM pending_sign_ins;
ALTER TABLE pending_sign_ins DROP COLUMN methods;
