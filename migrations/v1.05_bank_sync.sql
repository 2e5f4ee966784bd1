-- v1.05: bank sync writes what the v0.36 tables only held room for.
--
-- An account can be left out of syncing and matching (`monitored`), and
-- keeps the available balance beside the balance. A transaction can be
-- pending (stored under `<account>:pending:<provider id>` and replaced by
-- every sync until it posts), remembers the provider's own id as last seen
-- and when it was made, and can be ignored by its owner.
ALTER TABLE bank_accounts ADD COLUMN monitored INTEGER NOT NULL DEFAULT 1
    CHECK (monitored IN (0, 1));
ALTER TABLE bank_accounts ADD COLUMN available_cents INTEGER;
ALTER TABLE transactions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0
    CHECK (pending IN (0, 1));
ALTER TABLE transactions ADD COLUMN provider_id TEXT;
ALTER TABLE transactions ADD COLUMN transacted_at TEXT;
ALTER TABLE transactions ADD COLUMN ignored_at TEXT;
CREATE INDEX transactions_account_pending ON transactions(account_id) WHERE pending = 1;
