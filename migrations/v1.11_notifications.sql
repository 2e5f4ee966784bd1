-- v1.11: reminders and notifications. Each user's channels (their
-- secrets sealed with the keyring), their preferences, the delivery log
-- that makes every message go out once, the private calendar feed, and
-- the daily runs.

CREATE TABLE notification_channels (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('email', 'ntfy', 'gotify', 'discord', 'telegram', 'webhook')),
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- The events it takes, comma-separated (`due_soon,overdue,…`).
    events          TEXT    NOT NULL,
    -- The settings that are not secret, as JSON (`serverUrl`, `topic`, …).
    settings        TEXT    NOT NULL DEFAULT '{}',
    -- The secret ones (tokens, the Discord webhook URL, the Telegram bot
    -- token, the webhook's signing secret), as sealed JSON.
    secret          TEXT,
    -- An email channel to an address other than the account's waits for
    -- the link sent to it.
    confirmed_at    TEXT,
    confirm_hash    TEXT,
    last_success_at TEXT,
    last_error      TEXT,
    last_error_at   TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX notification_channels_user ON notification_channels(user_id);

CREATE TABLE notification_preferences (
    user_id                  INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    lead_days                INTEGER NOT NULL DEFAULT 3 CHECK (lead_days BETWEEN 0 AND 14),
    digest                   INTEGER NOT NULL DEFAULT 1 CHECK (digest IN (0, 1)),
    include_verified_autopay INTEGER NOT NULL DEFAULT 0 CHECK (include_verified_autopay IN (0, 1)),
    -- Days after the first overdue reminder for a second one; NULL: none.
    overdue_repeat_days      INTEGER CHECK (overdue_repeat_days BETWEEN 1 AND 30),
    -- The day the user's first channel was added: what was overdue before
    -- it is summed up once, never replayed.
    started_on               TEXT
);

-- One row per message part that must go out once: unique per (channel,
-- event, subject, occurrence). A run claims rows (claimed_at) before
-- sending, so two runs never send the same row; a claim older than the
-- lease is taken over after a crash.
CREATE TABLE notification_deliveries (
    id              INTEGER PRIMARY KEY,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    channel_id      INTEGER NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
    event           TEXT    NOT NULL,
    -- 'bill', 'connection', 'payment', 'summary' or 'test'.
    subject         TEXT    NOT NULL,
    subject_id      INTEGER NOT NULL,
    occurrence      TEXT    NOT NULL,
    -- The line the message shows for it (rendered when found).
    line            TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'stale')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    http_status     INTEGER,
    error           TEXT,
    message_id      TEXT,
    claimed_at      TEXT,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    at              TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (channel_id, event, subject, subject_id, occurrence)
);
CREATE INDEX notification_deliveries_user ON notification_deliveries(user_id, id);
CREATE INDEX notification_deliveries_open ON notification_deliveries(channel_id, status);

-- A bank connection's run of failures as reminders know it: set when the
-- first failure is told, cleared when its recovery is.
CREATE TABLE notification_connection_state (
    connection_id   INTEGER PRIMARY KEY REFERENCES bank_connections(id) ON DELETE CASCADE,
    failing_since   TEXT    NOT NULL
);

CREATE TABLE calendar_feeds (
    user_id         INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token_hash      TEXT    NOT NULL UNIQUE,
    created_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE notification_runs (
    id              INTEGER PRIMARY KEY,
    -- The server's local day the run is for (`REMINDER_HOUR` of that day).
    day             TEXT    NOT NULL,
    operation       TEXT,
    started_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at     TEXT,
    sent            INTEGER NOT NULL DEFAULT 0,
    failed          INTEGER NOT NULL DEFAULT 0,
    skipped         INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT
);
CREATE INDEX notification_runs_day ON notification_runs(day);
