//! SQL of the sign-in history. The address, browser and place come in and
//! go out sealed (`secrets`); this file never sees them in the clear.

use sqlx::SqlitePool;

use crate::contract::account::SignInMethod;

/// One attempt as stored, its sealed columns still sealed.
pub struct SealedAttempt<'a> {
    pub user_id: i64,
    pub at: &'a str,
    pub success: bool,
    pub ip: &'a str,
    pub user_agent: Option<&'a str>,
    pub location: Option<&'a str>,
    pub method: SignInMethod,
}

pub async fn insert(pool: &SqlitePool, attempt: &SealedAttempt<'_>) -> Result<(), sqlx::Error> {
    let method = attempt.method.as_str();
    sqlx::query!(
        "INSERT INTO login_history (user_id, at, success, ip, user_agent, location, method)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
        attempt.user_id,
        attempt.at,
        attempt.success,
        attempt.ip,
        attempt.user_agent,
        attempt.location,
        method,
    )
    .execute(pool)
    .await?;
    Ok(())
}

/// A stored attempt as read back, sealed.
pub struct StoredAttempt {
    pub at: String,
    pub success: bool,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub location: Option<String>,
    pub method: SignInMethod,
}

/// The account's latest `limit` attempts, newest first.
pub async fn recent(
    pool: &SqlitePool,
    user_id: i64,
    limit: i64,
) -> Result<Vec<StoredAttempt>, sqlx::Error> {
    sqlx::query_as!(
        StoredAttempt,
        r#"SELECT at, success AS "success: bool", ip, user_agent, location,
             method AS "method: SignInMethod"
         FROM login_history WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?"#,
        user_id,
        limit,
    )
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::migrate::{Migrator, Version};

    fn at(day: &str) -> String {
        format!("{day}T07:00:00.000Z")
    }

    /// v1.20 builds the table again so that a security key's step can be
    /// a method: a row from before single sign-on keeps `password` (the
    /// only way in then), a provider's keeps `oidc`, and rolling back
    /// drops only the key's rows.
    #[tokio::test]
    async fn rows_from_before_keep_their_method_and_a_key_step_is_one_now() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::backend::db::connect(&dir.path().join("t.db"))
            .await
            .unwrap();
        Migrator::up_to(Version::new(1, 14))
            .run(&pool)
            .await
            .unwrap();
        sqlx::raw_sql(
            "INSERT INTO users (email) VALUES ('a@example.com');
             INSERT INTO login_history (user_id, at, success, ip)
                 VALUES (1, '2026-01-01T07:00:00.000Z', 1, 'e1:before');",
        )
        .execute(&pool)
        .await
        .unwrap();
        Migrator::up_to(Version::new(1, 19))
            .run(&pool)
            .await
            .unwrap();
        sqlx::raw_sql(
            "INSERT INTO login_history (user_id, at, success, ip, method)
                 VALUES (1, '2026-02-01T07:00:00.000Z', 1, 'e1:provider', 'oidc');",
        )
        .execute(&pool)
        .await
        .unwrap();
        Migrator::default().run(&pool).await.unwrap();
        let key = at("2026-03-01");
        insert(
            &pool,
            &SealedAttempt {
                user_id: 1,
                at: &key,
                success: false,
                ip: "e1:key",
                user_agent: None,
                location: None,
                method: SignInMethod::SecurityKey,
            },
        )
        .await
        .unwrap();
        let methods = |rows: Vec<StoredAttempt>| -> Vec<(String, SignInMethod, bool)> {
            rows.into_iter()
                .map(|row| (row.at, row.method, row.success))
                .collect()
        };
        assert_eq!(
            methods(recent(&pool, 1, 10).await.unwrap()),
            [
                (at("2026-03-01"), SignInMethod::SecurityKey, false),
                (at("2026-02-01"), SignInMethod::Oidc, true),
                (at("2026-01-01"), SignInMethod::Password, true),
            ]
        );

        // Back past v1.20, whatever came after it.
        loop {
            let rolled_back = Migrator::default().rollback_latest(&pool).await.unwrap();
            assert!(rolled_back >= Version::new(1, 20), "{rolled_back}");
            if rolled_back == Version::new(1, 20) {
                break;
            }
        }
        assert_eq!(
            methods(recent(&pool, 1, 10).await.unwrap()),
            [
                (at("2026-02-01"), SignInMethod::Oidc, true),
                (at("2026-01-01"), SignInMethod::Password, true),
            ]
        );
    }
}
