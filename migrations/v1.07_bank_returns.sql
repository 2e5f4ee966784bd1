-- v1.07: a returned debit (`ACH RETURN …`) is linked to the payment it
-- gave back, which it flagged as a failed autopay; unmatching the return
-- clears exactly that flag.
ALTER TABLE transactions ADD COLUMN returns_payment_id INTEGER
    REFERENCES payments(id) ON DELETE SET NULL;
