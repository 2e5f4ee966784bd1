//! Every SQL statement of reminders and notifications. Functions take a
//! pool or a connection; a use case's transaction is the service's.

use serde::{Deserialize, Serialize};
use sqlx::{SqliteConnection, SqlitePool};

use super::rules::{ConnectionFact, Found, PaymentFact};
use crate::contract::notifications::{Delivery, NotificationPreferences};
use crate::domain::date::Date;
use crate::domain::notification::{ChannelKind, Event, LEAD_DAYS_DEFAULT};

/// A channel's settings that are not secret, as stored (JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

struct RawChannel {
    id: i64,
    user_id: i64,
    kind: String,
    name: String,
    events: String,
    settings: String,
    secret: Option<String>,
    confirmed_at: Option<String>,
    last_success_at: Option<String>,
    last_error: Option<String>,
    last_error_at: Option<String>,
    created_at: String,
}

/// A stored channel. Its `secret` is sealed; not `Debug` all the same.
#[derive(Clone)]
pub struct ChannelRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: ChannelKind,
    pub name: String,
    pub events: Vec<Event>,
    pub settings_json: String,
    pub secret: Option<String>,
    pub confirmed_at: Option<String>,
    pub last_success_at: Option<String>,
    pub last_error: Option<String>,
    pub last_error_at: Option<String>,
    pub created_at: String,
}

impl ChannelRow {
    pub fn settings(&self) -> StoredSettings {
        serde_json::from_str(&self.settings_json).unwrap_or_default()
    }

    pub fn takes(&self, event: Event) -> bool {
        self.events.contains(&event)
    }
}

fn channel_row(raw: RawChannel) -> Option<ChannelRow> {
    Some(ChannelRow {
        id: raw.id,
        user_id: raw.user_id,
        kind: ChannelKind::parse(&raw.kind)?,
        name: raw.name,
        events: raw.events.split(',').filter_map(Event::parse).collect(),
        settings_json: raw.settings,
        secret: raw.secret,
        confirmed_at: raw.confirmed_at,
        last_success_at: raw.last_success_at,
        last_error: raw.last_error,
        last_error_at: raw.last_error_at,
        created_at: raw.created_at,
    })
}

pub fn events_text(events: &[Event]) -> String {
    events
        .iter()
        .map(|event| event.name())
        .collect::<Vec<_>>()
        .join(",")
}

pub async fn channels(pool: &SqlitePool, user: i64) -> Result<Vec<ChannelRow>, sqlx::Error> {
    let rows: Vec<RawChannel> = sqlx::query_as!(
        RawChannel,
        r#"SELECT id AS "id!", user_id, kind, name, events, settings, secret, confirmed_at,
             last_success_at, last_error, last_error_at, created_at
         FROM notification_channels WHERE user_id = ? ORDER BY id"#,
        user,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(channel_row).collect())
}

pub async fn channel(
    conn: &mut SqliteConnection,
    user: i64,
    id: i64,
) -> Result<Option<ChannelRow>, sqlx::Error> {
    let row: Option<RawChannel> = sqlx::query_as!(
        RawChannel,
        r#"SELECT id AS "id!", user_id, kind, name, events, settings, secret, confirmed_at,
             last_success_at, last_error, last_error_at, created_at
         FROM notification_channels WHERE user_id = ? AND id = ?"#,
        user,
        id,
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.and_then(channel_row))
}

pub async fn count_channels(conn: &mut SqliteConnection, user: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT count(*) FROM notification_channels WHERE user_id = ?",
        user,
    )
    .fetch_one(conn)
    .await
}

/// A new channel's row.
pub struct NewRow<'a> {
    pub user: i64,
    pub kind: ChannelKind,
    pub name: &'a str,
    pub events: &'a [Event],
    pub settings: &'a StoredSettings,
    pub secret: Option<String>,
    pub confirmed: bool,
    pub confirm_hash: Option<String>,
}

pub async fn insert_channel(
    conn: &mut SqliteConnection,
    row: NewRow<'_>,
) -> Result<i64, sqlx::Error> {
    let kind = row.kind.name();
    let events = events_text(row.events);
    let settings = serde_json::to_string(row.settings).unwrap_or_else(|_| "{}".into());
    sqlx::query_scalar!(
        r#"INSERT INTO notification_channels
             (user_id, kind, name, events, settings, secret, confirmed_at, confirm_hash)
         VALUES (?, ?, ?, ?, ?, ?,
             CASE WHEN ? THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END, ?)
         RETURNING id AS "id!""#,
        row.user,
        kind,
        row.name,
        events,
        settings,
        row.secret,
        row.confirmed,
        row.confirm_hash,
    )
    .fetch_one(conn)
    .await
}

/// Replaces a channel's name, events, settings and (when given) secret.
pub async fn update_channel(
    conn: &mut SqliteConnection,
    id: i64,
    name: &str,
    events: &[Event],
    settings: &StoredSettings,
    secret: Option<Option<String>>,
) -> Result<(), sqlx::Error> {
    let events = events_text(events);
    let settings = serde_json::to_string(settings).unwrap_or_else(|_| "{}".into());
    let replace_secret = secret.is_some();
    let secret = secret.flatten();
    sqlx::query!(
        "UPDATE notification_channels SET name = ?, events = ?, settings = ?,
             secret = CASE WHEN ? THEN ? ELSE secret END
         WHERE id = ?",
        name,
        events,
        settings,
        replace_secret,
        secret,
        id,
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn delete_channel(pool: &SqlitePool, user: i64, id: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM notification_channels WHERE user_id = ? AND id = ?",
        user,
        id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Confirms the email channel whose link carried `hash`.
pub async fn confirm_channel(pool: &SqlitePool, hash: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "UPDATE notification_channels
         SET confirmed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), confirm_hash = NULL
         WHERE confirm_hash = ? AND confirmed_at IS NULL",
        hash,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The last result a channel had, for its owner to see.
pub async fn record_result(
    pool: &SqlitePool,
    channel: i64,
    error: Option<&str>,
) -> Result<(), sqlx::Error> {
    match error {
        None => sqlx::query!(
            "UPDATE notification_channels
             SET last_success_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            channel,
        )
        .execute(pool)
        .await?,
        Some(error) => sqlx::query!(
            "UPDATE notification_channels
             SET last_error = ?, last_error_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            error,
            channel,
        )
        .execute(pool)
        .await?,
    };
    Ok(())
}

/// Every user with a confirmed channel, in id order; not one whose
/// personal import is being copied (its reminders would tell half of it).
pub async fn users_with_channels(pool: &SqlitePool) -> Result<Vec<(i64, String)>, sqlx::Error> {
    let rows = sqlx::query!(
        r#"SELECT u.id AS "id!", u.email FROM users u
         WHERE u.disabled_at IS NULL AND EXISTS (
             SELECT 1 FROM notification_channels c
             WHERE c.user_id = u.id AND c.confirmed_at IS NOT NULL)
           AND NOT EXISTS (SELECT 1 FROM personal_import_ranges p WHERE p.user_id = u.id)
         ORDER BY u.id"#,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|row| (row.id, row.email)).collect())
}

struct RawPreferences {
    lead_days: i64,
    digest: bool,
    include_verified_autopay: bool,
    overdue_repeat_days: Option<i64>,
    started_on: Option<String>,
}

/// The user's preferences (the defaults until they change one), and the
/// day their first channel was added.
pub async fn preferences(
    pool: &SqlitePool,
    user: i64,
) -> Result<(NotificationPreferences, Option<Date>), sqlx::Error> {
    let row: Option<RawPreferences> = sqlx::query_as!(
        RawPreferences,
        r#"SELECT lead_days, digest AS "digest: bool",
             include_verified_autopay AS "include_verified_autopay: bool",
             overdue_repeat_days, started_on
         FROM notification_preferences WHERE user_id = ?"#,
        user,
    )
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        Some(row) => (
            NotificationPreferences {
                lead_days: row.lead_days,
                digest: row.digest,
                include_verified_autopay: row.include_verified_autopay,
                overdue_repeat_days: row.overdue_repeat_days,
            },
            row.started_on.and_then(|day| Date::parse(&day).ok()),
        ),
        None => (
            NotificationPreferences {
                lead_days: LEAD_DAYS_DEFAULT,
                digest: true,
                include_verified_autopay: false,
                overdue_repeat_days: None,
            },
            None,
        ),
    })
}

pub async fn set_preferences(
    pool: &SqlitePool,
    user: i64,
    preferences: &NotificationPreferences,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO notification_preferences
             (user_id, lead_days, digest, include_verified_autopay, overdue_repeat_days)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET lead_days = excluded.lead_days,
             digest = excluded.digest,
             include_verified_autopay = excluded.include_verified_autopay,
             overdue_repeat_days = excluded.overdue_repeat_days",
        user,
        preferences.lead_days,
        preferences.digest,
        preferences.include_verified_autopay,
        preferences.overdue_repeat_days,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Notes the day reminders started for the user, once.
pub async fn start_reminders(
    conn: &mut SqliteConnection,
    user: i64,
    today: Date,
) -> Result<(), sqlx::Error> {
    let today = today.to_string();
    sqlx::query!(
        "INSERT INTO notification_preferences (user_id, started_on) VALUES (?, ?)
         ON CONFLICT (user_id) DO UPDATE SET started_on = coalesce(started_on, excluded.started_on)",
        user,
        today,
    )
    .execute(conn)
    .await?;
    Ok(())
}

struct RawPayment {
    id: i64,
    name: String,
    paid_on: String,
    amount_cents: i64,
    expected_cents: i64,
    currency: String,
}

fn payment_fact(raw: RawPayment) -> Option<PaymentFact> {
    Some(PaymentFact {
        payment_id: raw.id,
        name: raw.name,
        paid_on: Date::parse(raw.paid_on.get(..10)?).ok()?,
        amount_minor: raw.amount_cents,
        expected_minor: raw.expected_cents,
        currency: raw.currency,
    })
}

/// Failed autopay payments since `since`, and bank-matched payments
/// since then (whose amount may differ from the bill's).
pub async fn payment_facts(
    pool: &SqlitePool,
    user: i64,
    since: Date,
) -> Result<(Vec<PaymentFact>, Vec<PaymentFact>), sqlx::Error> {
    let since = since.to_string();
    let failed = sqlx::query_as!(
        RawPayment,
        r#"SELECT p.id AS "id!", b.name, p.paid_on, p.amount_cents,
             b.amount_cents AS expected_cents, b.currency
         FROM payments p JOIN bills b ON b.id = p.bill_id AND b.user_id = p.user_id
         WHERE p.user_id = ? AND p.autopay_failure = 1 AND p.paid_on >= ?
         ORDER BY p.id"#,
        user,
        since,
    )
    .fetch_all(pool)
    .await?;
    let charged = sqlx::query_as!(
        RawPayment,
        r#"SELECT p.id AS "id!", b.name, p.paid_on, p.amount_cents,
             b.amount_cents AS expected_cents, b.currency
         FROM payments p JOIN bills b ON b.id = p.bill_id AND b.user_id = p.user_id
         WHERE p.user_id = ? AND p.autopay_failure = 0 AND p.kind = 'payment'
             AND p.transaction_id IS NOT NULL AND p.paid_on >= ?
         ORDER BY p.id"#,
        user,
        since,
    )
    .fetch_all(pool)
    .await?;
    Ok((
        failed.into_iter().filter_map(payment_fact).collect(),
        charged.into_iter().filter_map(payment_fact).collect(),
    ))
}

struct RawConnection {
    id: i64,
    institution: String,
    failing: bool,
    failing_since: Option<String>,
}

pub async fn connection_facts(
    pool: &SqlitePool,
    user: i64,
) -> Result<Vec<ConnectionFact>, sqlx::Error> {
    let rows: Vec<RawConnection> = sqlx::query_as!(
        RawConnection,
        r#"SELECT c.id AS "id!", c.institution, c.status = 'error' AS "failing!: bool",
             s.failing_since
         FROM bank_connections c
         LEFT JOIN notification_connection_state s ON s.connection_id = c.id
         WHERE c.user_id = ? AND c.status <> 'disconnected'
         ORDER BY c.id"#,
        user,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ConnectionFact {
            id: row.id,
            institution: row.institution,
            failing: row.failing,
            failing_since: row.failing_since,
        })
        .collect())
}

pub async fn set_failing_since(
    conn: &mut SqliteConnection,
    connection: i64,
    since: Option<&str>,
) -> Result<(), sqlx::Error> {
    match since {
        Some(since) => {
            sqlx::query!(
            "INSERT INTO notification_connection_state (connection_id, failing_since) VALUES (?, ?)
             ON CONFLICT (connection_id) DO UPDATE SET failing_since = excluded.failing_since",
            connection,
            since,
        )
            .execute(conn)
            .await?
        }
        None => {
            sqlx::query!(
                "DELETE FROM notification_connection_state WHERE connection_id = ?",
                connection,
            )
            .execute(conn)
            .await?
        }
    };
    Ok(())
}

/// Records `found` for `channel` once (a second run finds the row there).
pub async fn record_found(
    conn: &mut SqliteConnection,
    user: i64,
    channel: i64,
    found: &Found,
) -> Result<(), sqlx::Error> {
    let event = found.event.name();
    sqlx::query!(
        "INSERT INTO notification_deliveries
             (user_id, channel_id, event, subject, subject_id, occurrence, line)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (channel_id, event, subject, subject_id, occurrence) DO NOTHING",
        user,
        channel,
        event,
        found.subject,
        found.subject_id,
        found.occurrence,
        found.line,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A test message's row: every press of "Send test" is its own.
pub async fn record_test(
    conn: &mut SqliteConnection,
    user: i64,
    channel: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"INSERT INTO notification_deliveries
             (user_id, channel_id, event, subject, subject_id, occurrence, line)
         VALUES (?, ?, 'test', 'test', 0,
             strftime('%Y-%m-%dT%H:%M:%fZ', 'now') || '-' || lower(hex(randomblob(4))),
             'Test message')
         RETURNING id AS "id!""#,
        user,
        channel,
    )
    .fetch_one(conn)
    .await
}

/// A delivery row still to send.
#[derive(Clone, Debug)]
pub struct OpenRow {
    pub id: i64,
    pub event: String,
    pub subject: String,
    pub subject_id: i64,
    pub occurrence: String,
    pub line: String,
    pub created_at: String,
}

impl OpenRow {
    pub fn key(&self) -> (String, String, i64, String) {
        (
            self.event.clone(),
            self.subject.clone(),
            self.subject_id,
            self.occurrence.clone(),
        )
    }
}

/// The channel's rows not sent yet and not claimed by a live run. A claim
/// older than ten minutes (a run that crashed or was stopped) is taken
/// over: the one message it may have sent goes out again, never more.
pub async fn open_rows(pool: &SqlitePool, channel: i64) -> Result<Vec<OpenRow>, sqlx::Error> {
    sqlx::query_as!(
        OpenRow,
        r#"SELECT id AS "id!", event, subject, subject_id, occurrence, line, created_at
         FROM notification_deliveries
         WHERE channel_id = ? AND status IN ('pending', 'failed') AND event <> 'test'
           AND (claimed_at IS NULL
                OR claimed_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-600 seconds'))
         ORDER BY id"#,
        channel,
    )
    .fetch_all(pool)
    .await
}

/// Marks rows stale: no longer sent nor retried.
pub async fn mark_stale(pool: &SqlitePool, ids: &[i64]) -> Result<(), sqlx::Error> {
    for id in ids {
        sqlx::query!(
            "UPDATE notification_deliveries SET status = 'stale', claimed_at = NULL,
                 at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ? AND status IN ('pending', 'failed')",
            id,
        )
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// Claims for this run the rows of `ids` no other run holds and that did
/// not go out meanwhile, all in one writing transaction: two runs never
/// both claim a row, nor split one channel's digest between them.
pub async fn claim(pool: &SqlitePool, ids: &[i64]) -> Result<Vec<i64>, sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    let mut claimed = Vec::new();
    for id in ids {
        // The same ten-minute lease as `open_rows`.
        let done = sqlx::query!(
            "UPDATE notification_deliveries SET claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ? AND status IN ('pending', 'failed')
               AND (claimed_at IS NULL
                    OR claimed_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-600 seconds'))",
            id,
        )
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 1 {
            claimed.push(*id);
        }
    }
    tx.commit().await?;
    Ok(claimed)
}

/// What became of claimed rows after their message's attempts.
pub struct Outcome<'a> {
    pub sent: bool,
    pub attempts: i64,
    pub http_status: Option<i64>,
    pub error: Option<&'a str>,
    pub message_id: &'a str,
}

pub async fn finish(
    pool: &SqlitePool,
    ids: &[i64],
    outcome: &Outcome<'_>,
) -> Result<(), sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    let status = if outcome.sent { "sent" } else { "failed" };
    for id in ids {
        sqlx::query!(
            "UPDATE notification_deliveries
             SET status = ?, attempts = attempts + ?, http_status = ?, error = ?,
                 message_id = ?, claimed_at = NULL, at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?",
            status,
            outcome.attempts,
            outcome.http_status,
            outcome.error,
            outcome.message_id,
            id,
        )
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

/// The log, newest first, from before `before` (a row id).
pub async fn deliveries(
    pool: &SqlitePool,
    user: i64,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<Delivery>, sqlx::Error> {
    struct Row {
        id: i64,
        channel_id: i64,
        event: String,
        status: String,
        attempts: i64,
        http_status: Option<i64>,
        error: Option<String>,
        line: String,
        at: String,
    }
    let before = before.unwrap_or(i64::MAX);
    let rows: Vec<Row> = sqlx::query_as!(
        Row,
        r#"SELECT id AS "id!", channel_id, event, status, attempts, http_status, error, line, at
             FROM notification_deliveries
             WHERE user_id = ? AND id < ?
             ORDER BY id DESC LIMIT ?"#,
        user,
        before,
        limit,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| Delivery {
            id: row.id,
            channel_id: row.channel_id,
            event: row.event,
            status: row.status,
            attempts: row.attempts,
            http_status: row.http_status,
            error: row.error,
            line: row.line,
            at: row.at,
        })
        .collect())
}

/// Totals for Admin → Status: sends and failures of the last day, the
/// last send and the last error.
pub async fn totals(
    pool: &SqlitePool,
) -> Result<(i64, i64, Option<String>, Option<String>), sqlx::Error> {
    let row = sqlx::query!(
        r#"SELECT
             (SELECT count(*) FROM notification_deliveries WHERE status = 'sent'
                 AND at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')) AS "sent!: i64",
             (SELECT count(*) FROM notification_deliveries WHERE status = 'failed'
                 AND at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')) AS "failed!: i64",
             (SELECT max(at) FROM notification_deliveries WHERE status = 'sent')
                 AS "last_sent: String",
             (SELECT error FROM notification_deliveries WHERE status = 'failed'
                 ORDER BY at DESC LIMIT 1) AS "last_error: String""#,
    )
    .fetch_one(pool)
    .await?;
    Ok((row.sent, row.failed, row.last_sent, row.last_error))
}

/// The newest failure's words, for the run's record.
pub async fn last_failure(pool: &SqlitePool) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT error FROM notification_deliveries WHERE status = 'failed'
         ORDER BY at DESC, id DESC LIMIT 1",
    )
    .fetch_optional(pool)
    .await
    .map(Option::flatten)
}

/// Whether a run started at or after `since` (a UTC timestamp).
pub async fn has_run_since(pool: &SqlitePool, since: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT count(*) > 0 AS "any!: bool" FROM notification_runs WHERE started_at >= ?"#,
        since,
    )
    .fetch_one(pool)
    .await
}

/// Keeps a user's feed (replacing any other): the token's hash, which the
/// feed is found by, and the token sealed, so its owner can see the
/// address again.
pub async fn set_feed(
    pool: &SqlitePool,
    user: i64,
    hash: &str,
    sealed: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO calendar_feeds (user_id, token_hash, token_sealed) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash,
             token_sealed = excluded.token_sealed,
             created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        user,
        hash,
        sealed,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn delete_feed(pool: &SqlitePool, user: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!("DELETE FROM calendar_feeds WHERE user_id = ?", user)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A user's feed: when it was made and its token, sealed (`None` for a
/// feed made before v1.23).
pub async fn feed(
    pool: &SqlitePool,
    user: i64,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    let row = sqlx::query!(
        "SELECT created_at, token_sealed FROM calendar_feeds WHERE user_id = ?",
        user,
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| (row.created_at, row.token_sealed)))
}

pub async fn feed_owner(pool: &SqlitePool, hash: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT f.user_id AS "user_id!" FROM calendar_feeds f JOIN users u ON u.id = f.user_id
         WHERE f.token_hash = ? AND u.disabled_at IS NULL"#,
        hash,
    )
    .fetch_optional(pool)
    .await
}

/// A daily run, as Admin sees it.
#[derive(Clone, Debug)]
pub struct RunRow {
    pub operation: Option<String>,
    pub started_at: String,
    pub sent: i64,
    pub failed: i64,
    pub last_error: Option<String>,
}

pub async fn start_run(pool: &SqlitePool, day: &str, operation: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        "INSERT INTO notification_runs (day, operation) VALUES (?, ?) RETURNING id",
        day,
        operation,
    )
    .fetch_one(pool)
    .await
}

pub async fn finish_run(
    pool: &SqlitePool,
    id: i64,
    counts: (i64, i64, i64),
    last_error: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE notification_runs SET finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
             sent = ?, failed = ?, skipped = ?, last_error = ? WHERE id = ?",
        counts.0,
        counts.1,
        counts.2,
        last_error,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn last_run(pool: &SqlitePool) -> Result<Option<RunRow>, sqlx::Error> {
    sqlx::query_as!(
        RunRow,
        "SELECT operation, started_at, sent, failed, last_error
         FROM notification_runs ORDER BY id DESC LIMIT 1",
    )
    .fetch_optional(pool)
    .await
}

pub struct MailRow {
    pub host: String,
    pub port: i64,
    pub username: String,
    pub password: Option<String>,
    pub from_address: String,
    pub tls: String,
}

pub async fn mail_settings(pool: &SqlitePool) -> Result<Option<MailRow>, sqlx::Error> {
    sqlx::query_as!(
        MailRow,
        "SELECT host, port, username, password, from_address, tls FROM mail_settings WHERE id = 1",
    )
    .fetch_optional(pool)
    .await
}

/// Saves the mail server; `password` `None` keeps the stored one.
pub async fn set_mail_settings(
    conn: &mut SqliteConnection,
    row: &MailRow,
    keep_password: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO mail_settings (id, host, port, username, password, from_address, tls)
         VALUES (1, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, port = excluded.port,
             username = excluded.username,
             password = CASE WHEN ? THEN mail_settings.password ELSE excluded.password END,
             from_address = excluded.from_address, tls = excluded.tls",
        row.host,
        row.port,
        row.username,
        row.password,
        row.from_address,
        row.tls,
        keep_password,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}
