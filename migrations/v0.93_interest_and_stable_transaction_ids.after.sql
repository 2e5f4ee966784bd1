-- v0.93, after the data step: one row per provider transaction and user.
CREATE UNIQUE INDEX transactions_user_provider_id ON transactions(user_id, provider_transaction_id);
