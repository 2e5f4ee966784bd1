-- Rolls v1.07 back: returns keep their bill link, not the payment's.
ALTER TABLE transactions DROP COLUMN returns_payment_id;
