-- v1.03: a payment row is either a payment or an interest charge. The
-- monthly interest accrual charges a debt for a month that ended without a
-- payment; it records that charge as a row of kind 'interest' (amount 0,
-- method 'interest', the charge in interest_delta), so every charge, from a
-- payment or from the accrual, is one payment row's interest_delta.
ALTER TABLE payments ADD COLUMN kind TEXT NOT NULL DEFAULT 'payment'
    CHECK (kind IN ('payment', 'interest'));
