-- v1.22: a payment may say which due date it pays. The Tracker's "Mark
-- paid" names its row's due date and the payment form asks where a date
-- could pay two; without one, a payment pays the due date whose cycle its
-- date falls in, and one from before the bill's first cycle is history.
ALTER TABLE payments ADD COLUMN for_occurrence TEXT
    CHECK (for_occurrence IS NULL OR for_occurrence GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]');
CREATE INDEX payments_for_occurrence ON payments (user_id, for_occurrence)
    WHERE for_occurrence IS NOT NULL;
