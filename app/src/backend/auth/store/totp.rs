//! SQL of TOTP as a second factor: the sealed secret and its replay guard
//! on the account, and the recovery codes (stored as SHA-256).

use sqlx::SqlitePool;

/// What checking a code needs: the sealed secret (none before enrolment),
/// the account's address (the code's label) and the last step accepted.
pub struct SecretRow {
    pub sealed: Option<String>,
    pub email: String,
    pub last_step: Option<i64>,
}

/// Whether two-factor sign-in with a code is on for the account.
pub async fn is_enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT totp_enabled AS "on: bool" FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(pool)
    .await
}

/// Keeps a new sealed secret, not yet active, and forgets the last step.
pub async fn set_pending_secret(
    pool: &SqlitePool,
    user_id: i64,
    sealed: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE users SET totp_secret = ?, totp_enabled = 0, totp_last_step = NULL WHERE id = ?",
        sealed,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn secret(pool: &SqlitePool, user_id: i64) -> Result<Option<SecretRow>, sqlx::Error> {
    Ok(sqlx::query!(
        "SELECT totp_secret, email, totp_last_step FROM users WHERE id = ?",
        user_id,
    )
    .fetch_optional(pool)
    .await?
    .map(|row| SecretRow {
        sealed: row.totp_secret,
        email: row.email,
        last_step: row.totp_last_step,
    }))
}

/// Records `step` as the last one accepted, unless it (or a later one)
/// already was: true when this call claimed it. The guard holds even for
/// two requests racing with the same code.
pub async fn claim_step(pool: &SqlitePool, user_id: i64, step: i64) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query!(
        "UPDATE users SET totp_last_step = ?1 WHERE id = ?2 AND (totp_last_step IS NULL OR totp_last_step < ?1)",
        step,
        user_id,
    )
        .execute(pool)
        .await?;
    Ok(claimed.rows_affected() == 1)
}

/// Turns the factor on with these recovery codes' hashes, replacing any
/// earlier codes, in one transaction.
pub async fn enable(
    pool: &SqlitePool,
    user_id: i64,
    code_hashes: &[String],
) -> Result<(), sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *tx)
        .await?;
    for code_hash in code_hashes {
        sqlx::query!(
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)",
            user_id,
            code_hash,
        )
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query!("UPDATE users SET totp_enabled = 1 WHERE id = ?", user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Whether the factor is on, and how many recovery codes are unused.
pub async fn status(pool: &SqlitePool, user_id: i64) -> Result<(bool, i64), sqlx::Error> {
    let row = sqlx::query!(
        r#"SELECT totp_enabled = 1 AS "enabled!: bool",
                (SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL)
                    AS "left!: i64"
         FROM users WHERE id = ?1"#,
        user_id,
    )
    .fetch_one(pool)
    .await?;
    Ok((row.enabled, row.left))
}

/// Forgets the secret and the recovery codes, in one transaction.
pub async fn disable(pool: &SqlitePool, user_id: i64) -> Result<(), sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    sqlx::query!(
        "UPDATE users SET totp_secret = NULL, totp_enabled = 0, totp_last_step = NULL WHERE id = ?",
        user_id,
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

/// Spends an unused recovery code by its hash: true when one was.
pub async fn spend_recovery_code(
    pool: &SqlitePool,
    user_id: i64,
    code_hash: &str,
) -> Result<bool, sqlx::Error> {
    let used = sqlx::query!(
        "UPDATE recovery_codes SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
        user_id,
        code_hash,
    )
    .execute(pool)
    .await?;
    Ok(used.rows_affected() == 1)
}
