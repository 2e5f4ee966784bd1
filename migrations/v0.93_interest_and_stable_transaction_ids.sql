-- v0.93: once-a-month debt interest, and transaction ids that survive a bank
-- reconnect. The id rewrite and the removal of the duplicates it exposes are
-- the Rust data step of this migration; it runs after this SQL.
ALTER TABLE bills ADD COLUMN interest_accrued_month TEXT
    CHECK (interest_accrued_month IS NULL OR interest_accrued_month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]');
ALTER TABLE payments ADD COLUMN interest_delta INTEGER NOT NULL DEFAULT 0;
