//! Every SQL statement of single sign-on: identities, and the accounts a
//! provider sign-in reads, creates or changes.

use sqlx::{SqliteConnection, SqlitePool};

use super::rules::EmailOwner;
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
    linked_in(&mut *pool.acquire().await?, issuer, subject).await
}

/// [`linked`], inside a transaction.
pub async fn linked_in(
    conn: &mut SqliteConnection,
    issuer: &str,
    subject: &str,
) -> Result<Option<Linked>, sqlx::Error> {
    sqlx::query_as!(
        Linked,
        r#"SELECT user_id, provisioned AS "provisioned: bool" FROM oidc_identities
         WHERE issuer = ? AND subject = ?"#,
        issuer,
        subject,
    )
    .fetch_optional(&mut *conn)
    .await
}

/// An account's role and whether it is disabled.
pub async fn standing(
    conn: &mut SqliteConnection,
    user_id: i64,
) -> Result<Option<(Role, bool)>, sqlx::Error> {
    let row = sqlx::query!(
        r#"SELECT role, disabled_at IS NOT NULL AS "disabled!: bool" FROM users WHERE id = ?"#,
        user_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|row| (Role::parse(&row.role).unwrap_or_default(), row.disabled)))
}

/// The account `user_id` as linking by email weighs it: whether it is an
/// administrator's, and whether it has a second factor. A security key
/// counts by the flag or by a registered key, either: a refusal is the
/// safe side of the two disagreeing.
pub async fn email_owner(
    pool: &SqlitePool,
    user_id: i64,
) -> Result<Option<EmailOwner>, sqlx::Error> {
    sqlx::query_as!(
        EmailOwner,
        r#"SELECT id AS "user_id!", role = 'admin' AS "admin!: bool",
             (totp_enabled = 1 OR webauthn_enabled = 1
              OR EXISTS (SELECT 1 FROM webauthn_credentials k WHERE k.user_id = users.id))
                 AS "second_factor!: bool"
         FROM users WHERE id = ?"#,
        user_id,
    )
    .fetch_optional(pool)
    .await
}

/// A new account without a password (it signs in through the provider),
/// with the privacy default every new account gets.
pub async fn create_account(
    conn: &mut SqliteConnection,
    email: &str,
    name: &str,
) -> Result<i64, sqlx::Error> {
    let id: i64 = sqlx::query_scalar!(
        "INSERT INTO users (email, name, password_hash, role) VALUES (?, ?, NULL, 'user')
         RETURNING id",
        email,
        name,
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO settings (user_id, key, value) VALUES (?, 'geolocation_enabled', 'false')
         ON CONFLICT DO NOTHING",
        id,
    )
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
    sqlx::query!(
        "INSERT INTO oidc_identities (user_id, issuer, subject, email, provisioned)
         VALUES (?, ?, ?, ?, ?)",
        user_id,
        issuer,
        subject,
        email,
        provisioned,
    )
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
    sqlx::query!(
        "UPDATE oidc_identities
         SET last_sign_in_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), email = coalesce(?, email)
         WHERE issuer = ? AND subject = ?",
        email,
        issuer,
        subject,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn set_role(
    conn: &mut SqliteConnection,
    user_id: i64,
    role: Role,
) -> Result<(), sqlx::Error> {
    let role = role.as_str();
    sqlx::query!(
        "UPDATE users SET role = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
        role,
        user_id,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Ends every session of an account (a demotion by the provider's groups).
pub async fn end_sessions(conn: &mut SqliteConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query!("DELETE FROM sessions WHERE user_id = ?", user_id)
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
    sqlx::query!(
        "UPDATE sessions SET oidc_id_token = ? WHERE id = ?",
        sealed,
        session_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The sealed ID token of a session that came from the provider.
pub async fn id_token(pool: &SqlitePool, session_id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "SELECT oidc_id_token FROM sessions WHERE id = ?",
        session_id,
    )
    .fetch_optional(pool)
    .await
    .map(Option::flatten)
}

/// Admin → Authentication as stored (`oidc_settings`): each field set or
/// not, the client secret still sealed.
#[derive(Clone, Default)]
pub struct Stored {
    pub issuer_url: Option<String>,
    pub client_id: Option<String>,
    /// Sealed (`OIDC_CLIENT_SECRET` column).
    pub client_secret: Option<String>,
    pub scopes: Option<String>,
    pub groups_claim: Option<String>,
    pub admin_group: Option<String>,
    pub auto_provision: Option<bool>,
    pub link_by_email: Option<bool>,
    pub button_label: Option<String>,
    pub local_login_enabled: Option<bool>,
    pub local_login_break_glass: bool,
}

/// The stored settings (all unset when there is no row yet).
pub async fn stored(pool: &SqlitePool) -> Result<Stored, sqlx::Error> {
    let row: Option<Stored> = sqlx::query_as!(
        Stored,
        r#"SELECT issuer_url, client_id, client_secret, scopes, groups_claim, admin_group,
             auto_provision AS "auto_provision: bool", link_by_email AS "link_by_email: bool",
             button_label, local_login_enabled AS "local_login_enabled: bool",
             local_login_break_glass AS "local_login_break_glass: bool"
         FROM oidc_settings WHERE id = 1"#,
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.unwrap_or_default())
}

/// Replaces the stored settings.
pub async fn save(conn: &mut SqliteConnection, stored: &Stored) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO oidc_settings (id, issuer_url, client_id, client_secret, scopes,
             groups_claim, admin_group, auto_provision, link_by_email, button_label,
             local_login_enabled, local_login_break_glass)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
             issuer_url = excluded.issuer_url, client_id = excluded.client_id,
             client_secret = excluded.client_secret, scopes = excluded.scopes,
             groups_claim = excluded.groups_claim, admin_group = excluded.admin_group,
             auto_provision = excluded.auto_provision, link_by_email = excluded.link_by_email,
             button_label = excluded.button_label,
             local_login_enabled = excluded.local_login_enabled,
             local_login_break_glass = excluded.local_login_break_glass,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        stored.issuer_url,
        stored.client_id,
        stored.client_secret,
        stored.scopes,
        stored.groups_claim,
        stored.admin_group,
        stored.auto_provision,
        stored.link_by_email,
        stored.button_label,
        stored.local_login_enabled,
        stored.local_login_break_glass,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// `tally auth local-login on`: email and password sign in again, whatever
/// the rest of the settings say.
pub async fn break_glass(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "INSERT INTO oidc_settings (id, local_login_enabled, local_login_break_glass) VALUES (1, 1, 1)
         ON CONFLICT (id) DO UPDATE SET local_login_enabled = 1, local_login_break_glass = 1,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// Whether an administrator (enabled) has signed in through the provider
/// `issuer`.
pub async fn admin_signed_in_through(pool: &SqlitePool, issuer: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM oidc_identities i JOIN users u ON u.id = i.user_id
         WHERE i.issuer = ? AND i.last_sign_in_at IS NOT NULL
           AND u.role = 'admin' AND u.disabled_at IS NULL) AS "signed_in!: bool""#,
        issuer,
    )
    .fetch_one(pool)
    .await
}

/// An account's identity at a provider, as Profile lists it.
pub struct Identity {
    pub id: i64,
    pub issuer: String,
    pub email: Option<String>,
    pub created_at: String,
    pub last_sign_in_at: Option<String>,
}

pub async fn identities(pool: &SqlitePool, user_id: i64) -> Result<Vec<Identity>, sqlx::Error> {
    sqlx::query_as!(
        Identity,
        r#"SELECT id AS "id!", issuer, email, created_at, last_sign_in_at FROM oidc_identities
         WHERE user_id = ? ORDER BY created_at, id"#,
        user_id,
    )
    .fetch_all(pool)
    .await
}

/// Whether an account has a password (it can sign in without the provider).
pub async fn has_password(conn: &mut SqliteConnection, user_id: i64) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"SELECT password_hash IS NOT NULL AS "has!: bool" FROM users WHERE id = ?"#,
        user_id,
    )
    .fetch_optional(&mut *conn)
    .await
    .map(|found| found.unwrap_or(false))
}

/// Removes one of an account's identities; `false` when it has no such one.
pub async fn unlink(
    conn: &mut SqliteConnection,
    user_id: i64,
    identity_id: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "DELETE FROM oidc_identities WHERE id = ? AND user_id = ?",
        identity_id,
        user_id,
    )
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Drops every identity not at `issuer` (all of them when there is none):
/// when Admin changes the issuer, the identities linked at the previous
/// one must not sign in again should that issuer come back, under
/// whoever controls it then. Answers how many were dropped.
pub async fn drop_identities_not_at(
    conn: &mut SqliteConnection,
    issuer: Option<&str>,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!("DELETE FROM oidc_identities WHERE issuer IS NOT ?", issuer,)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected())
}
