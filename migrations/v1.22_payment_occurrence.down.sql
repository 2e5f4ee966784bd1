-- Back to v1.21: payments pay by their dates alone again.
DROP INDEX payments_for_occurrence;
ALTER TABLE payments DROP COLUMN for_occurrence;
