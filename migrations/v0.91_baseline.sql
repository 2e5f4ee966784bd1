-- v0.91: the v0.36 baseline — the whole schema as it stood before v0.37.
-- Shipped; never edit. Later changes are new versions.

CREATE TABLE users (
    id              INTEGER PRIMARY KEY,
    email           TEXT    NOT NULL COLLATE NOCASE UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
    name            TEXT    NOT NULL DEFAULT '' CHECK (length(name) <= 200),
    password_hash   TEXT,
    role            TEXT    NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    disabled_at     TEXT,
    totp_secret     TEXT,                 -- encrypted
    totp_enabled    INTEGER NOT NULL DEFAULT 0 CHECK (totp_enabled IN (0, 1)),
    locale          TEXT    NOT NULL DEFAULT 'en-US',
    currency        TEXT    NOT NULL DEFAULT 'USD' CHECK (length(currency) = 3),
    time_zone       TEXT    NOT NULL DEFAULT 'UTC',
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- v0.36 stored the session token itself as the id.
CREATE TABLE sessions (
    id              TEXT    PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at      TEXT    NOT NULL,
    user_agent      TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE recovery_codes (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash       TEXT    NOT NULL,
    used_at         TEXT,
    UNIQUE (user_id, code_hash)
);

-- Per-user settings (user_id set) and instance settings (user_id NULL).
CREATE TABLE settings (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER REFERENCES users(id) ON DELETE CASCADE,
    key             TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 100),
    value           TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX settings_user_key ON settings(ifnull(user_id, 0), key);

CREATE TABLE subscription_catalog (
    id              INTEGER PRIMARY KEY,
    slug            TEXT    NOT NULL UNIQUE,
    name            TEXT    NOT NULL COLLATE NOCASE UNIQUE,
    category        TEXT    NOT NULL,
    website         TEXT,
    typical_cadence TEXT    NOT NULL CHECK (typical_cadence IN ('weekly', 'monthly', 'quarterly', 'yearly')),
    typical_price_cents INTEGER CHECK (typical_price_cents >= 0)
);

CREATE TABLE bills (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    amount_cents    INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency        TEXT    NOT NULL DEFAULT 'USD' CHECK (length(currency) = 3),
    cadence         TEXT    NOT NULL CHECK (cadence IN ('weekly', 'biweekly', 'monthly', 'quarterly', 'yearly', 'custom_days', 'custom_months')),
    cadence_interval INTEGER NOT NULL DEFAULT 1 CHECK (cadence_interval BETWEEN 1 AND 366),
    due_day         INTEGER NOT NULL CHECK (due_day BETWEEN 1 AND 31),
    anchor_date     TEXT    NOT NULL,
    category        TEXT    NOT NULL DEFAULT 'Other',
    notes           TEXT    NOT NULL DEFAULT '',
    is_debt         INTEGER NOT NULL DEFAULT 0 CHECK (is_debt IN (0, 1)),
    balance_cents   INTEGER CHECK (balance_cents >= 0),
    apr_basis_points INTEGER CHECK (apr_basis_points BETWEEN 0 AND 100000),
    minimum_payment_cents INTEGER CHECK (minimum_payment_cents >= 0),
    autopay         INTEGER NOT NULL DEFAULT 0 CHECK (autopay IN (0, 1)),
    is_subscription INTEGER NOT NULL DEFAULT 0 CHECK (is_subscription IN (0, 1)),
    sort_order      INTEGER NOT NULL DEFAULT 0,
    active          INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (is_debt = 0 OR balance_cents IS NOT NULL)
);
CREATE INDEX bills_user_active ON bills(user_id, active);
CREATE INDEX bills_user_subscription ON bills(user_id, is_subscription);

CREATE TABLE bank_connections (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider        TEXT    NOT NULL DEFAULT 'simplefin',
    institution     TEXT    NOT NULL DEFAULT '',
    access_secret   TEXT    NOT NULL,     -- encrypted SimpleFIN access URL
    status          TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error', 'disconnected')),
    last_synced_at  TEXT,
    last_error      TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX bank_connections_user ON bank_connections(user_id);

CREATE TABLE bank_accounts (
    id              INTEGER PRIMARY KEY,
    connection_id   INTEGER NOT NULL REFERENCES bank_connections(id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider_account_id TEXT NOT NULL,    -- stable across reconnects
    name            TEXT    NOT NULL,
    currency        TEXT    NOT NULL DEFAULT 'USD',
    balance_cents   INTEGER,
    balance_date    TEXT,
    UNIQUE (connection_id, provider_account_id)
);
CREATE INDEX bank_accounts_user ON bank_accounts(user_id);

-- v0.36: provider_transaction_id is '<connection id>:<provider transaction id>',
-- so a disconnect and reconnect fetches the same transactions under new ids.
CREATE TABLE transactions (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id      INTEGER NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
    provider_transaction_id TEXT NOT NULL,
    posted_at       TEXT    NOT NULL,
    amount_cents    INTEGER NOT NULL,
    description     TEXT    NOT NULL,
    payee           TEXT,
    memo            TEXT,
    bill_id         INTEGER REFERENCES bills(id) ON DELETE SET NULL,
    user_edited_at  TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (account_id, provider_transaction_id)
);
CREATE INDEX transactions_user_posted ON transactions(user_id, posted_at);
CREATE INDEX transactions_bill ON transactions(bill_id) WHERE bill_id IS NOT NULL;

CREATE TABLE payments (
    id              INTEGER PRIMARY KEY,
    bill_id         INTEGER NOT NULL REFERENCES bills(id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    amount_cents    INTEGER NOT NULL CHECK (amount_cents >= 0),
    paid_on         TEXT    NOT NULL,
    method          TEXT    NOT NULL DEFAULT 'manual',
    transaction_id  INTEGER REFERENCES transactions(id) ON DELETE SET NULL,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payments_bill_paid ON payments(bill_id, paid_on);
CREATE INDEX payments_user_paid ON payments(user_id, paid_on);
CREATE INDEX payments_transaction ON payments(transaction_id) WHERE transaction_id IS NOT NULL;

CREATE TABLE login_history (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    at              TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    success         INTEGER NOT NULL CHECK (success IN (0, 1)),
    ip              TEXT,                 -- encrypted
    user_agent      TEXT,                 -- encrypted
    location        TEXT                  -- encrypted
);
CREATE INDEX login_history_user_at ON login_history(user_id, at);

-- Instance-wide mail and OIDC settings: one row each.
CREATE TABLE mail_settings (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    host            TEXT    NOT NULL,
    port            INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
    username        TEXT    NOT NULL DEFAULT '',
    password        TEXT,                 -- encrypted
    from_address    TEXT    NOT NULL,
    tls             TEXT    NOT NULL DEFAULT 'starttls' CHECK (tls IN ('none', 'starttls', 'tls'))
);

CREATE TABLE oidc_settings (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    issuer_url      TEXT    NOT NULL,
    client_id       TEXT    NOT NULL,
    client_secret   TEXT,                 -- encrypted
    enabled         INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1))
);

CREATE TABLE push_subscriptions (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint        TEXT    NOT NULL,
    token           TEXT    NOT NULL,     -- encrypted
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (user_id, endpoint)
);

CREATE TABLE leads (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    email           TEXT    NOT NULL,
    company         TEXT,
    phone           TEXT,
    message         TEXT    NOT NULL,
    client_ip       TEXT,
    crm_state       TEXT    NOT NULL DEFAULT 'pending' CHECK (crm_state IN ('pending', 'sent', 'failed', 'skipped')),
    crm_attempts    INTEGER NOT NULL DEFAULT 0,
    crm_next_attempt_at TEXT,
    crm_last_error  TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX leads_created ON leads(created_at);
CREATE INDEX leads_crm_pending ON leads(crm_state, crm_next_attempt_at) WHERE crm_state IN ('pending', 'failed');

CREATE TABLE support_requests (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    email           TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    category        TEXT,
    message         TEXT    NOT NULL,
    client_ip       TEXT,
    crm_state       TEXT    NOT NULL DEFAULT 'pending' CHECK (crm_state IN ('pending', 'sent', 'failed', 'skipped')),
    crm_attempts    INTEGER NOT NULL DEFAULT 0,
    crm_next_attempt_at TEXT,
    crm_last_error  TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX support_requests_created ON support_requests(created_at);
CREATE INDEX support_requests_crm_pending ON support_requests(crm_state, crm_next_attempt_at) WHERE crm_state IN ('pending', 'failed');

-- Long-running operations (the google.longrunning interface).
CREATE TABLE operations (
    id              TEXT    PRIMARY KEY,  -- the unique part of operations/{id}
    owner_id        INTEGER REFERENCES users(id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL,
    metadata_type   TEXT    NOT NULL,
    metadata        TEXT    NOT NULL DEFAULT '{}',
    done            INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    error_code      INTEGER,
    error_message   TEXT,
    response_type   TEXT,
    response        TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
    deleted         INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at        TEXT,
    CHECK (done = 0 OR (error_code IS NULL) <> (response IS NULL)),
    CHECK (done = 1 OR (error_code IS NULL AND response IS NULL))
);
CREATE INDEX operations_owner_created ON operations(owner_id, created_at, id);
CREATE INDEX operations_created ON operations(created_at, id);
CREATE INDEX operations_unfinished ON operations(done) WHERE done = 0;
