-- Rolls v1.06 back: the rules go; matches stay as bill links.
DROP TABLE merchant_rules;
ALTER TABLE transactions DROP COLUMN unmatched_at;
ALTER TABLE transactions DROP COLUMN matched_at;
ALTER TABLE transactions DROP COLUMN matched_by;
