//! The `settings` table: per-user settings (`user_id` set) and instance
//! settings (`user_id` NULL), one text value per key.

use sqlx::SqlitePool;

/// Whose setting: one user's, or the whole instance's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    User(i64),
    Instance,
}

impl Scope {
    fn user_id(self) -> Option<i64> {
        match self {
            Self::User(id) => Some(id),
            Self::Instance => None,
        }
    }
}

pub async fn get(
    pool: &SqlitePool,
    scope: Scope,
    key: &str,
) -> Result<Option<String>, sqlx::Error> {
    let user_id = scope.user_id();
    sqlx::query_scalar!(
        "SELECT value FROM settings WHERE user_id IS ? AND key = ?",
        user_id,
        key,
    )
    .fetch_optional(pool)
    .await
}

/// A boolean setting stored as `true`/`false`; `default` when unset.
pub async fn get_flag(
    pool: &SqlitePool,
    scope: Scope,
    key: &str,
    default: bool,
) -> Result<bool, sqlx::Error> {
    Ok(get(pool, scope, key)
        .await?
        .map_or(default, |value| value == "true"))
}

pub async fn set(
    pool: &SqlitePool,
    scope: Scope,
    key: &str,
    value: &str,
) -> Result<(), sqlx::Error> {
    let user_id = scope.user_id();
    sqlx::query!(
        "INSERT INTO settings (user_id, key, value) VALUES (?, ?, ?)
         ON CONFLICT (ifnull(user_id, 0), key) DO UPDATE
         SET value = excluded.value, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        user_id,
        key,
        value,
    )
    .execute(pool)
    .await?;
    Ok(())
}

pub async fn set_flag(
    pool: &SqlitePool,
    scope: Scope,
    key: &str,
    value: bool,
) -> Result<(), sqlx::Error> {
    set(pool, scope, key, if value { "true" } else { "false" }).await
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pool() -> (tempfile::TempDir, SqlitePool) {
        crate::backend::db::migrated_for_test().await
    }

    #[tokio::test]
    async fn set_overwrites_and_scopes_stay_apart() {
        let (_dir, pool) = pool().await;
        sqlx::query!("INSERT INTO users (id, email) VALUES (1, 'a@example.com')")
            .execute(&pool)
            .await
            .unwrap();
        assert!(
            !get_flag(&pool, Scope::Instance, "open_registration", false)
                .await
                .unwrap()
        );
        set_flag(&pool, Scope::Instance, "open_registration", true)
            .await
            .unwrap();
        set_flag(&pool, Scope::Instance, "open_registration", false)
            .await
            .unwrap();
        set_flag(&pool, Scope::User(1), "open_registration", true)
            .await
            .unwrap();
        assert!(!get_flag(&pool, Scope::Instance, "open_registration", true)
            .await
            .unwrap());
        assert!(get_flag(&pool, Scope::User(1), "open_registration", false)
            .await
            .unwrap());
        let rows: i64 =
            sqlx::query_scalar!("SELECT count(*) FROM settings WHERE key = 'open_registration'")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(rows, 2);
    }
}
