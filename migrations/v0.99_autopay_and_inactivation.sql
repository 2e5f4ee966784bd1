-- v0.99: the autopay trust indicator, reasons for ending a bill, and
-- retroactive flagging of failed autopay payments.
ALTER TABLE bills ADD COLUMN autopay_verified_at TEXT;
ALTER TABLE bills ADD COLUMN inactive_reason TEXT CHECK (inactive_reason IS NULL OR length(inactive_reason) <= 500);
ALTER TABLE bills ADD COLUMN inactivated_at TEXT;
ALTER TABLE payments ADD COLUMN autopay_failure INTEGER NOT NULL DEFAULT 0 CHECK (autopay_failure IN (0, 1));
