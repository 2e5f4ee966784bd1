DROP TABLE pending_sign_ins;
ALTER TABLE users DROP COLUMN totp_last_step;
