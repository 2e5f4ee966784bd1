//! Every SQL statement of single sign-on: identities, and the accounts a
//! provider sign-in reads, creates or changes.

use sqlx::{SqliteConnection, SqlitePool};

use crate::domain::role::Role;

/// An identity's account, and whether that account was created through the
/// provider.
pub struct Linked {
    pub user_id: i64,
    pub provisioned: bool,
}

pub async fn linked(
    pool: &SqlitePool,
    issuer: &str,
    subject: &str,
) -> Result<Option<Linked>, sqlx::Error> {
    let row: Option<(i64, bool)> = sqlx::query_as(
        "SELECT user_id, provisioned FROM oidc_identities WHERE issuer = ? AND subject = ?",
    )
    .bind(issuer)
    .bind(subject)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(user_id, provisioned)| Linked {
        user_id,
        provisioned,
    }))
}

/// An account's role and whether it is disabled.
pub async fn standing(
    conn: &mut SqliteConnection,
    user_id: i64,
) -> Result<Option<(Role, bool)>, sqlx::Error> {
    let row: Option<(String, bool)> =
        sqlx::query_as("SELECT role, disabled_at IS NOT NULL FROM users WHERE id = ?")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.map(|(role, disabled)| (Role::parse(&role).unwrap_or_default(), disabled)))
}

/// A new account without a password (it signs in through the provider),
/// with the privacy default every new account gets.
pub async fn create_account(
    conn: &mut SqliteConnection,
    email: &str,
    name: &str,
) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, name, password_hash, role) VALUES (?, ?, NULL, 'user')
         RETURNING id",
    )
    .bind(email)
    .bind(name)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO settings (user_id, key, value) VALUES (?, 'geolocation_enabled', 'false')
         ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

pub async fn link(
    conn: &mut SqliteConnection,
    user_id: i64,
    issuer: &str,
    subject: &str,
    email: Option<&str>,
    provisioned: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO oidc_identities (user_id, issuer, subject, email, provisioned)
         VALUES (?, ?, ?, ?, ?)",
    )
    .bind(user_id)
    .bind(issuer)
    .bind(subject)
    .bind(email)
    .bind(provisioned)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Notes the sign-in and the email the provider gave this time.
pub async fn touch(
    conn: &mut SqliteConnection,
    issuer: &str,
    subject: &str,
    email: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE oidc_identities
         SET last_sign_in_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), email = coalesce(?, email)
         WHERE issuer = ? AND subject = ?",
    )
    .bind(email)
    .bind(issuer)
    .bind(subject)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn set_role(
    conn: &mut SqliteConnection,
    user_id: i64,
    role: Role,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users SET role = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
    )
    .bind(role.as_str())
    .bind(user_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Ends every session of an account (a demotion by the provider's groups).
pub async fn end_sessions(conn: &mut SqliteConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE user_id = ?")
        .bind(user_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Keeps a provider session's ID token (sealed) with the session.
pub async fn keep_id_token(
    pool: &SqlitePool,
    session_id: &str,
    sealed: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sessions SET oidc_id_token = ? WHERE id = ?")
        .bind(sealed)
        .bind(session_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The sealed ID token of a session that came from the provider.
pub async fn id_token(pool: &SqlitePool, session_id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT oidc_id_token FROM sessions WHERE id = ?")
        .bind(session_id)
        .fetch_optional(pool)
        .await
        .map(Option::flatten)
}
