ALTER TABLE payments DROP COLUMN autopay_failure;
ALTER TABLE bills DROP COLUMN inactivated_at;
ALTER TABLE bills DROP COLUMN inactive_reason;
ALTER TABLE bills DROP COLUMN autopay_verified_at;
