//! SQL of what an administrator changes on other accounts.

use sqlx::{SqliteConnection, SqlitePool};

use crate::contract::admin::UserSummary;
use crate::domain::role::Role;

/// Every account with its second factors and when it was last used, by
/// email.
pub async fn users(pool: &SqlitePool) -> Result<Vec<UserSummary>, sqlx::Error> {
    sqlx::query_as!(
        UserSummary,
        r#"SELECT u.id AS "id!", u.email, u.name, u.role AS "role: Role",
                u.disabled_at IS NOT NULL AS "disabled!: bool",
                u.totp_enabled = 1 AS "totp_enabled!: bool",
                (SELECT count(*) FROM webauthn_credentials k WHERE k.user_id = u.id)
                    AS "security_keys!: i64",
                u.created_at,
                (SELECT max(h.at) FROM login_history h WHERE h.user_id = u.id AND h.success = 1)
                    AS "last_sign_in_at: String",
                (SELECT max(s.last_seen_at) FROM sessions s WHERE s.user_id = u.id)
                    AS "last_seen_at: String"
         FROM users u ORDER BY u.email"#,
    )
    .fetch_all(pool)
    .await
}

/// Disables (ending its sessions and pending sign-ins) or re-enables the
/// account; false when there is none.
pub async fn set_disabled(
    conn: &mut SqliteConnection,
    user_id: i64,
    disabled: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "UPDATE users SET disabled_at = CASE WHEN ?1 THEN coalesce(disabled_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) END,
                          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?2",
        disabled,
        user_id,
    )
    .execute(&mut *conn)
    .await?;
    if disabled {
        sqlx::query!("DELETE FROM sessions WHERE user_id = ?", user_id)
            .execute(&mut *conn)
            .await?;
        sqlx::query!("DELETE FROM pending_sign_ins WHERE user_id = ?", user_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(done.rows_affected() > 0)
}

/// Removes every second factor of the account (TOTP, its recovery codes,
/// security keys and their challenges) and its pending sign-ins; false when
/// there is no such account.
pub async fn reset_second_factor(
    conn: &mut SqliteConnection,
    user_id: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "UPDATE users SET totp_secret = NULL, totp_enabled = 0, totp_last_step = NULL,
                          webauthn_enabled = 0,
                          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
        user_id,
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "DELETE FROM webauthn_credentials WHERE user_id = ?",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM webauthn_challenges WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM pending_sign_ins WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() > 0)
}
