//! Storing submissions, reading them back for Admin, and the CRM
//! outbox's queue (the submissions' `crm_*` columns).

use std::time::Duration;

use sqlx::{SqliteConnection, SqlitePool};

use super::crm::Outgoing;
use super::Kind;
use crate::domain::contact::{Lead, SupportRequest};

/// Inserts a lead in one statement, inside the caller's transaction (see
/// `group_commit`); `crm_state` starts `pending` (or `skipped` when no CRM
/// is configured). Returns the new id.
pub async fn insert_lead(
    connection: &mut SqliteConnection,
    lead: &Lead,
    client_ip: &str,
    crm_configured: bool,
) -> Result<i64, sqlx::Error> {
    let state = initial_state(crm_configured);
    sqlx::query_scalar!(
        r#"INSERT INTO leads (name, email, company, phone, message, client_ip, crm_state, crm_next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         RETURNING id AS "id!""#,
        lead.name,
        lead.email,
        lead.company,
        lead.phone,
        lead.message,
        client_ip,
        state,
    )
    .fetch_one(connection)
    .await
}

pub async fn insert_support(
    connection: &mut SqliteConnection,
    request: &SupportRequest,
    client_ip: &str,
    crm_configured: bool,
) -> Result<i64, sqlx::Error> {
    let state = initial_state(crm_configured);
    sqlx::query_scalar!(
        r#"INSERT INTO support_requests (name, email, subject, category, message, client_ip, crm_state, crm_next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         RETURNING id AS "id!""#,
        request.name,
        request.email,
        request.subject,
        request.category,
        request.message,
        client_ip,
        state,
    )
    .fetch_one(connection)
    .await
}

fn initial_state(crm_configured: bool) -> CrmState {
    if crm_configured {
        CrmState::Pending
    } else {
        CrmState::Skipped
    }
}

pub use crate::contract::contact::{CrmState, Submission};

/// A page of submissions, newest first, optionally filtered by a search
/// over name, email, headline and message.
pub async fn list(
    pool: &SqlitePool,
    kind: Kind,
    search: Option<&str>,
    page_size: i64,
    before_id: Option<i64>,
) -> Result<Vec<Submission>, sqlx::Error> {
    let pattern = search
        .map(str::trim)
        .filter(|search| !search.is_empty())
        .map(|search| format!("%{}%", search.replace(['%', '_'], "")));
    // One query per table: the headline is a lead's company, a support
    // request's subject.
    match kind {
        Kind::Lead => {
            sqlx::query_as!(
                Submission,
                r#"SELECT id AS "id!", name, email, company AS headline, message,
                        crm_state AS "crm_state: CrmState", crm_attempts, crm_last_error,
                        created_at
                 FROM leads
                 WHERE (?1 IS NULL OR name LIKE ?1 OR email LIKE ?1 OR company LIKE ?1
                        OR message LIKE ?1)
                   AND (?2 IS NULL OR id < ?2)
                 ORDER BY id DESC LIMIT ?3"#,
                pattern,
                before_id,
                page_size,
            )
            .fetch_all(pool)
            .await
        }
        Kind::Support => {
            sqlx::query_as!(
                Submission,
                r#"SELECT id AS "id!", name, email, subject AS headline, message,
                        crm_state AS "crm_state: CrmState", crm_attempts, crm_last_error,
                        created_at
                 FROM support_requests
                 WHERE (?1 IS NULL OR name LIKE ?1 OR email LIKE ?1 OR subject LIKE ?1
                        OR message LIKE ?1)
                   AND (?2 IS NULL OR id < ?2)
                 ORDER BY id DESC LIMIT ?3"#,
                pattern,
                before_id,
                page_size,
            )
            .fetch_all(pool)
            .await
        }
    }
}

/// The same compile-checked `UPDATE` on the leads or the support requests
/// (`kind`'s table): `update!(kind, "SET … WHERE id = ?", id)`. Both arms
/// are checked, and both are the same query type.
macro_rules! update {
    ($kind:expr, $rest:literal $(, $arg:expr)* $(,)?) => {
        match $kind {
            $crate::backend::contact::Kind::Lead => {
                sqlx::query!("UPDATE leads " + $rest $(, $arg)*)
            }
            $crate::backend::contact::Kind::Support => {
                sqlx::query!("UPDATE support_requests " + $rest $(, $arg)*)
            }
        }
    };
}

/// Puts failed posts back in the queue for the outbox; returns how many.
pub async fn resend_failed(
    pool: &SqlitePool,
    kind: Kind,
    id: Option<i64>,
) -> Result<u64, sqlx::Error> {
    let done = update!(
        kind,
        "SET crm_state = 'pending', crm_attempts = 0,
             crm_next_attempt_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE crm_state = 'failed' AND (?1 IS NULL OR id = ?1)",
        id,
    )
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// Counts by CRM state across both tables, for Admin's CRM health.
pub async fn crm_counts(pool: &SqlitePool) -> Result<Vec<(CrmState, i64)>, sqlx::Error> {
    let rows = sqlx::query!(
        r#"SELECT crm_state AS "crm_state!: CrmState", count(*) AS "count!: i64" FROM (
             SELECT crm_state FROM leads UNION ALL SELECT crm_state FROM support_requests
         ) GROUP BY crm_state ORDER BY crm_state"#,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.crm_state, row.count))
        .collect())
}

/// Up to `limit` pending posts of `kind` that are due, oldest first. A
/// lead's headline is its company, a support request's its subject.
pub async fn due(pool: &SqlitePool, kind: Kind, limit: i64) -> Result<Vec<Outgoing>, sqlx::Error> {
    match kind {
        Kind::Lead => {
            sqlx::query_as!(
                Outgoing,
                r#"SELECT id AS "id!", name, email, company AS headline, phone,
                        NULL AS "category: String", message, crm_attempts
                 FROM leads
                 WHERE crm_state = 'pending'
                   AND coalesce(crm_next_attempt_at, '')
                       <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 ORDER BY id LIMIT ?"#,
                limit,
            )
            .fetch_all(pool)
            .await
        }
        Kind::Support => {
            sqlx::query_as!(
                Outgoing,
                r#"SELECT id AS "id!", name, email, subject AS headline,
                        NULL AS "phone: String", category, message, crm_attempts
                 FROM support_requests
                 WHERE crm_state = 'pending'
                   AND coalesce(crm_next_attempt_at, '')
                       <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 ORDER BY id LIMIT ?"#,
                limit,
            )
            .fetch_all(pool)
            .await
        }
    }
}

/// Seconds until the earliest pending post of `kind` is due (negative when
/// overdue); none when nothing is pending.
pub async fn seconds_until_due(pool: &SqlitePool, kind: Kind) -> Result<Option<f64>, sqlx::Error> {
    match kind {
        Kind::Lead => {
            sqlx::query_scalar!(
                r#"SELECT min((julianday(crm_next_attempt_at) - julianday('now')) * 86400.0)
                     AS "seconds: f64"
                 FROM leads WHERE crm_state = 'pending'"#
            )
            .fetch_one(pool)
            .await
        }
        Kind::Support => {
            sqlx::query_scalar!(
                r#"SELECT min((julianday(crm_next_attempt_at) - julianday('now')) * 86400.0)
                     AS "seconds: f64"
                 FROM support_requests WHERE crm_state = 'pending'"#
            )
            .fetch_one(pool)
            .await
        }
    }
}

/// The CRM took the post.
pub async fn mark_sent(pool: &SqlitePool, kind: Kind, id: i64) -> Result<(), sqlx::Error> {
    update!(
        kind,
        "SET crm_state = 'sent', crm_attempts = crm_attempts + 1,
             crm_next_attempt_at = NULL, crm_last_error = NULL
         WHERE id = ?",
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The CRM is out of credits: the post waits `cooldown`, its attempts
/// untouched.
pub async fn postpone(
    pool: &SqlitePool,
    kind: Kind,
    id: i64,
    message: &str,
    cooldown: Duration,
) -> Result<(), sqlx::Error> {
    let wait = format!("+{} seconds", cooldown.as_secs_f64());
    update!(
        kind,
        "SET crm_last_error = ?,
             crm_next_attempt_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
         WHERE id = ?",
        message,
        wait,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// A post the CRM refused: its attempts so far, the reason, and whether
/// this was the last try (else it is tried again in `retry_in`).
pub struct FailedAttempt<'a> {
    pub attempts: i64,
    pub message: &'a str,
    pub give_up: bool,
    pub retry_in: Duration,
}

pub async fn record_failure(
    pool: &SqlitePool,
    kind: Kind,
    id: i64,
    attempt: &FailedAttempt<'_>,
) -> Result<(), sqlx::Error> {
    let wait = format!("+{} seconds", attempt.retry_in.as_secs_f64());
    update!(
        kind,
        "SET crm_attempts = ?, crm_last_error = ?,
             crm_state = CASE WHEN ? THEN 'failed' ELSE 'pending' END,
             crm_next_attempt_at = CASE WHEN ? THEN NULL
                 ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) END
         WHERE id = ?",
        attempt.attempts,
        attempt.message,
        attempt.give_up,
        attempt.give_up,
        wait,
        id,
    )
    .execute(pool)
    .await?;
    Ok(())
}
