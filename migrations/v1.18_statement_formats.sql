-- Firefly III's and Actual's CSV transaction exports go through the
-- statement import too (issue 32): the format's CHECK widens. SQLite cannot
-- change a CHECK in place, so both tables are built again and their rows
-- copied; renaming the old ones first moves the rows' foreign key with
-- them, so dropping the old imports deletes nothing of the new.
ALTER TABLE statement_import_rows RENAME TO statement_import_rows_v117;
ALTER TABLE statement_imports RENAME TO statement_imports_v117;
DROP INDEX statement_imports_user;

CREATE TABLE statement_imports (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    file_name       TEXT    NOT NULL,
    format          TEXT    NOT NULL CHECK (format IN ('ofx', 'qif', 'camt053', 'firefly', 'actual')),
    -- The account chosen for every row; NULL: each account of the file
    -- goes to an imported account of its own.
    account_id      INTEGER REFERENCES bank_accounts(id) ON DELETE CASCADE,
    -- 'dmy' or 'mdy' when the person chose how a QIF file writes dates.
    date_order      TEXT    CHECK (date_order IN ('dmy', 'mdy')),
    file            BLOB,
    state           TEXT    NOT NULL DEFAULT 'uploaded'
                    CHECK (state IN ('uploaded', 'previewed', 'failed', 'committed')),
    -- The preview's summary (JSON), or why the file was refused.
    summary         TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL,
    committed_at    TEXT
);
CREATE TABLE statement_import_rows (
    import_id       INTEGER NOT NULL REFERENCES statement_imports(id) ON DELETE CASCADE,
    row             INTEGER NOT NULL,
    -- The file's own account id (OFX ACCTID, IBAN, QIF account name).
    file_account    TEXT    NOT NULL,
    provider_transaction_id TEXT NOT NULL,
    posted_day      TEXT    NOT NULL,
    amount_cents    INTEGER NOT NULL,
    description     TEXT    NOT NULL,
    memo            TEXT,
    -- 1: the account already has it (or the file has it twice).
    duplicate       INTEGER NOT NULL CHECK (duplicate IN (0, 1)),
    PRIMARY KEY (import_id, row)
);

INSERT INTO statement_imports SELECT * FROM statement_imports_v117;
INSERT INTO statement_import_rows SELECT * FROM statement_import_rows_v117;
DROP TABLE statement_import_rows_v117;
DROP TABLE statement_imports_v117;
CREATE INDEX statement_imports_user ON statement_imports(user_id, created_at);
