-- Rolls v1.05 back: pending transactions go (they would read as posted),
-- then the columns.
DELETE FROM transactions WHERE pending = 1;
DROP INDEX transactions_account_pending;
ALTER TABLE transactions DROP COLUMN ignored_at;
ALTER TABLE transactions DROP COLUMN transacted_at;
ALTER TABLE transactions DROP COLUMN provider_id;
ALTER TABLE transactions DROP COLUMN pending;
ALTER TABLE bank_accounts DROP COLUMN available_cents;
ALTER TABLE bank_accounts DROP COLUMN monitored;
