//! What an administrator does to other accounts: list them, disable and
//! re-enable them, and reset a lost second factor.

use sqlx::SqlitePool;

use super::AuthError;

pub use crate::contract::admin::UserSummary;

pub async fn list(pool: &SqlitePool) -> Result<Vec<UserSummary>, AuthError> {
    Ok(sqlx::query_as(
        "SELECT u.id, u.email, u.name, u.role,
                u.disabled_at IS NOT NULL AS disabled,
                u.totp_enabled = 1 AS totp_enabled,
                (SELECT count(*) FROM webauthn_credentials k WHERE k.user_id = u.id) AS security_keys,
                u.created_at,
                (SELECT max(h.at) FROM login_history h WHERE h.user_id = u.id AND h.success = 1)
                    AS last_sign_in_at
         FROM users u ORDER BY u.email",
    )
    .fetch_all(pool)
    .await?)
}

/// Disables or re-enables `user_id`. Disabling ends the user's sessions and
/// pending sign-ins at once (their API tokens stop working with it). An
/// administrator cannot disable their own account. False when no such user.
pub async fn set_disabled(
    pool: &SqlitePool,
    acting_admin: i64,
    user_id: i64,
    disabled: bool,
) -> Result<bool, AuthError> {
    if disabled && user_id == acting_admin {
        return Err(AuthError::Invalid(
            "disabled: you cannot disable your own account".into(),
        ));
    }
    let mut tx = pool.begin().await?;
    let done = sqlx::query(
        "UPDATE users SET disabled_at = CASE WHEN ?1 THEN coalesce(disabled_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) END,
                          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?2",
    )
    .bind(disabled)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    if disabled {
        for table in ["sessions", "pending_sign_ins"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE user_id = ?"))
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}

/// Removes every second factor of `user_id` (TOTP, its recovery codes,
/// security keys), so they can sign in with their password and enrol again.
/// False when no such user.
pub async fn reset_second_factor(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    let mut tx = pool.begin().await?;
    let done = sqlx::query(
        "UPDATE users SET totp_secret = NULL, totp_enabled = 0, totp_last_step = NULL,
                          webauthn_enabled = 0,
                          updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
    )
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    for table in [
        "recovery_codes",
        "webauthn_credentials",
        "webauthn_challenges",
        "pending_sign_ins",
    ] {
        sqlx::query(&format!("DELETE FROM {table} WHERE user_id = ?"))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(done.rows_affected() > 0)
}
