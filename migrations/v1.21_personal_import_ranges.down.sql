-- Back to v1.20: an import half done is its ranges only; the rows go
-- with the next start of v1.21, or stay as an ordinary part of the account.
DROP TABLE personal_import_ranges;
