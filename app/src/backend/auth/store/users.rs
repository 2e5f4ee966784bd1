//! SQL of accounts: reading one, creating one, and what its owner changes.

use sqlx::SqlitePool;

use crate::contract::account::User;
use crate::domain::role::Role;

/// An account as its row holds it.
pub(crate) struct UserRow {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: String,
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> Self {
        Self {
            id: row.id,
            email: row.email,
            name: row.name,
            role: if row.role == "admin" {
                Role::Admin
            } else {
                Role::User
            },
        }
    }
}

pub async fn count(pool: &SqlitePool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!("SELECT count(*) FROM users")
        .fetch_one(pool)
        .await
}

pub async fn by_id(pool: &SqlitePool, id: i64) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as!(
        UserRow,
        r#"SELECT id AS "id!", email, name, role FROM users WHERE id = ?"#,
        id,
    )
    .fetch_optional(pool)
    .await
}

pub async fn by_email(pool: &SqlitePool, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as!(
        UserRow,
        r#"SELECT id AS "id!", email, name, role FROM users WHERE email = ?"#,
        email,
    )
    .fetch_optional(pool)
    .await
}

/// The account with this email, unless disabled, and its password hash.
pub async fn for_sign_in(
    pool: &SqlitePool,
    email: &str,
) -> Result<Option<(UserRow, Option<String>)>, sqlx::Error> {
    let row = sqlx::query!(
        r#"SELECT id AS "id!", email, name, role, password_hash FROM users
         WHERE email = ? AND disabled_at IS NULL"#,
        email,
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|row| {
        (
            UserRow {
                id: row.id,
                email: row.email,
                name: row.name,
                role: row.role,
            },
            row.password_hash,
        )
    }))
}

/// A new account, with location lookups off until its owner turns them
/// on, in one transaction. A taken email is the database's unique
/// violation.
pub async fn insert(
    pool: &SqlitePool,
    email: &str,
    name: &str,
    password_hash: &str,
    role: Role,
) -> Result<UserRow, sqlx::Error> {
    let role_name = role.as_str();
    let mut tx = crate::backend::db::write(pool).await?;
    let row: UserRow = sqlx::query_as!(
        UserRow,
        r#"INSERT INTO users (email, name, password_hash, role) VALUES (?, ?, ?, ?)
         RETURNING id AS "id!", email, name, role"#,
        email,
        name,
        password_hash,
        role_name,
    )
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query!(
        "INSERT INTO settings (user_id, key, value) VALUES (?, 'geolocation_enabled', 'false') ON CONFLICT DO NOTHING",
        row.id,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(row)
}

pub async fn set_time_zone(pool: &SqlitePool, id: i64, zone: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("UPDATE users SET time_zone = ? WHERE id = ?", zone, id)
        .execute(pool)
        .await?;
    Ok(())
}

/// The account's password hash (none without a password, or no account).
pub async fn password_hash(pool: &SqlitePool, user_id: i64) -> Result<Option<String>, sqlx::Error> {
    Ok(
        sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = ?", user_id)
            .fetch_optional(pool)
            .await?
            .flatten(),
    )
}

pub async fn set_password_hash(
    pool: &SqlitePool,
    user_id: i64,
    hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "UPDATE users SET password_hash = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
        hash,
        user_id,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// The account's name and email. A taken email is the database's unique
/// violation.
pub async fn set_profile(
    pool: &SqlitePool,
    user_id: i64,
    name: &str,
    email: &str,
) -> Result<UserRow, sqlx::Error> {
    sqlx::query_as!(
        UserRow,
        r#"UPDATE users SET name = ?, email = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? RETURNING id AS "id!", email, name, role"#,
        name,
        email,
        user_id,
    )
    .fetch_one(pool)
    .await
}
