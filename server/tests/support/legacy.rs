//! Builds a v0.36 database (migrations up to v0.91) with the legacy rows the
//! v0.37 upgrade must transform: plaintext sessions, the same bank
//! transactions fetched before and after a reconnect, subscription bills
//! named like catalog services, and secrets under the database key.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use app::backend::db;
use app::backend::migrate::{Migrator, Version};
use app::backend::secrets::{
    Keyring, SecretColumn, BANK_ACCESS_SECRET, LOGIN_IP, LOGIN_LOCATION, LOGIN_USER_AGENT,
    MAIL_PASSWORD, OIDC_CLIENT_SECRET, PUSH_TOKEN, TOTP_SECRET,
};
use sqlx::SqlitePool;

pub const ALICE: i64 = 2;
pub const BOB: i64 = 3;
/// Transactions fetched on both connections (so duplicated in v0.36).
pub const DUPLICATED: usize = 20;
pub const SHARED_ACCOUNT: &str = "ACT-chk-001";

pub struct Legacy {
    pub data_dir: PathBuf,
    pub database: PathBuf,
    pub pool: SqlitePool,
    pub keyring: Keyring,
}

/// The ids the upgrade assertions need.
pub struct Marked {
    /// TRN-0003: the old copy was edited by the user (keep the old copy).
    pub edited_old: i64,
    /// TRN-0004: the new copy is linked to a bill (keep the new copy).
    pub linked_new: i64,
    /// TRN-0005: the old copy is referenced by a payment (keep the old copy).
    pub paid_old: i64,
    pub paid_new: i64,
    /// TRN-0007: nobody touched either copy (keep the newest).
    pub plain_new: i64,
    /// TRN-0009: the old copy is linked to bill 2, a payment points at the
    /// new copy: both carry work, the newest is kept and takes the bill link.
    pub linked_old_9: i64,
    pub paid_new_9: i64,
}

async fn exec(pool: &SqlitePool, sql: &'static str) {
    sqlx::raw_sql(sql).execute(pool).await.unwrap();
}

/// Creates the v0.36 database under `data_dir` with `extra_transactions`
/// more transactions on the current connection (for benchmarks).
pub async fn build(data_dir: &Path, extra_transactions: usize) -> (Legacy, Marked) {
    let database = data_dir.join("db").join("bills.db");
    let pool = db::connect(&database).await.unwrap();
    Migrator::up_to(Version::new(0, 91))
        .run(&pool)
        .await
        .unwrap();
    let keyring = Keyring::load(data_dir, None).unwrap();
    let seal =
        |column: SecretColumn, text: &str| keyring.seal_with_database_key(column, text).unwrap();

    let users = [
        (1, "admin@example.com", "Admin", "admin"),
        (ALICE, "alice@example.com", "Alice", "user"),
        (BOB, "bob@example.com", "Bob", "user"),
    ];
    for (id, email, name, role) in users {
        sqlx::query("INSERT INTO users (id, email, name, password_hash, role, totp_secret, totp_enabled) VALUES (?, ?, ?, 'argon2id$legacy', ?, ?, 1)")
            .bind(id)
            .bind(email)
            .bind(name)
            .bind(role)
            .bind(seal(TOTP_SECRET, &format!("TOTPSECRET{id}")))
            .execute(&pool)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, '2099-01-01T00:00:00Z')",
        )
        .bind(format!("plaintext-session-token-of-user-{id}"))
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    }
    exec(&pool, "INSERT INTO settings (user_id, key, value) VALUES (NULL, 'instance_name', 'Home'), (2, 'week_start', 'monday')").await;

    // Bills: (id, user, name, subscription).
    let bills = [
        (1, ALICE, "Netflix", 1),
        (2, ALICE, "Disney+", 1),
        (3, ALICE, "hulu", 1),
        (4, ALICE, "Spotify Premium", 1),
        (5, ALICE, "Mystery Box Club", 1),
        (6, ALICE, "Rent", 0),
        (7, BOB, "Netflix", 0),
    ];
    for (id, user, name, subscription) in bills {
        sqlx::query("INSERT INTO bills (id, user_id, name, amount_cents, cadence, due_day, anchor_date, is_subscription) VALUES (?, ?, ?, 1599, 'monthly', 15, '2026-01-15', ?)")
            .bind(id)
            .bind(user)
            .bind(name)
            .bind(subscription)
            .execute(&pool)
            .await
            .unwrap();
    }
    exec(&pool, "INSERT INTO bills (id, user_id, name, amount_cents, cadence, due_day, anchor_date, is_debt, balance_cents, apr_basis_points, minimum_payment_cents)
                 VALUES (8, 2, 'Car loan', 32000, 'monthly', 3, '2026-01-03', 1, 1250000, 689, 32000)").await;

    // Alice's bank: connected (1), disconnected, reconnected (2). Bob has his own.
    sqlx::query("INSERT INTO bank_connections (id, user_id, institution, access_secret, status) VALUES (1, 2, 'First Bank', ?, 'disconnected'), (2, 2, 'First Bank', ?, 'active'), (3, 3, 'Credit Union', ?, 'active')")
        .bind(seal(BANK_ACCESS_SECRET, "https://user:pass@bridge.example/simplefin/1"))
        .bind(seal(BANK_ACCESS_SECRET, "https://user:pass@bridge.example/simplefin/2"))
        .bind(seal(BANK_ACCESS_SECRET, "https://user:pass@bridge.example/simplefin/3"))
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO bank_accounts (id, connection_id, user_id, provider_account_id, name) VALUES (1, 1, 2, ?1, 'Checking'), (2, 2, 2, ?1, 'Checking'), (3, 3, 3, 'ACT-bob-9', 'Share draft')")
        .bind(SHARED_ACCOUNT)
        .execute(&pool)
        .await
        .unwrap();

    let mut tx = pool.begin().await.unwrap();
    let insert = "INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at, amount_cents, description) VALUES (?, ?, ?, ?, ?, ?) RETURNING id";
    let mut old_ids = Vec::new();
    let mut new_ids = Vec::new();
    for n in 1..=DUPLICATED {
        for (connection, account, ids) in [(1, 1, &mut old_ids), (2, 2, &mut new_ids)] {
            let id: i64 = sqlx::query_scalar(insert)
                .bind(ALICE)
                .bind(account)
                .bind(format!("{connection}:TRN-{n:04}"))
                .bind(format!("2026-03-{:02}", (n % 28) + 1))
                .bind(-1599 - n as i64)
                .bind(if n % 2 == 0 {
                    "NETFLIX.COM LOS GATOS CA"
                } else {
                    "GROCERY MART #12"
                })
                .fetch_one(&mut *tx)
                .await
                .unwrap();
            ids.push(id);
        }
    }
    for n in 0..extra_transactions {
        sqlx::query(insert)
            .bind(ALICE)
            .bind(2)
            .bind(format!("2:TRN-X{n:07}"))
            .bind(format!("2026-{:02}-{:02}", (n % 12) + 1, (n % 28) + 1))
            .bind(-((n % 50_000) as i64) - 1)
            .bind("CARD PURCHASE")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
    }
    // Bob's bank happens to use the same provider transaction id: no duplicate.
    sqlx::query_scalar::<_, i64>(insert)
        .bind(BOB)
        .bind(3)
        .bind("3:TRN-0001")
        .bind("2026-03-02")
        .bind(-999)
        .bind("COFFEE")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let marked = Marked {
        edited_old: old_ids[2],
        linked_new: new_ids[3],
        paid_old: old_ids[4],
        paid_new: new_ids[4],
        plain_new: new_ids[6],
        linked_old_9: old_ids[8],
        paid_new_9: new_ids[8],
    };
    sqlx::query("UPDATE transactions SET bill_id = 2 WHERE id = ?")
        .bind(marked.linked_old_9)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE transactions SET user_edited_at = '2026-03-05T10:00:00Z', memo = 'split with Sam' WHERE id = ?")
        .bind(marked.edited_old)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("UPDATE transactions SET bill_id = 1 WHERE id = ?")
        .bind(marked.linked_new)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method, transaction_id) VALUES (1, 2, 1599, '2026-03-05', 'bank', ?), (6, 2, 180000, '2026-03-01', 'manual', NULL), (2, 2, 1199, '2026-03-09', 'bank', ?)")
        .bind(marked.paid_old)
        .bind(marked.paid_new_9)
        .execute(&pool)
        .await
        .unwrap();

    for (ip, agent, location) in [
        ("203.0.113.7", "Firefox 140", "Lisbon, PT"),
        ("198.51.100.2", "Safari 19", "Porto, PT"),
    ] {
        sqlx::query("INSERT INTO login_history (user_id, success, ip, user_agent, location) VALUES (2, 1, ?, ?, ?)")
            .bind(seal(LOGIN_IP, ip))
            .bind(seal(LOGIN_USER_AGENT, agent))
            .bind(seal(LOGIN_LOCATION, location))
            .execute(&pool)
            .await
            .unwrap();
    }
    sqlx::query("INSERT INTO mail_settings (id, host, port, username, password, from_address) VALUES (1, 'smtp.example.com', 587, 'tally', ?, 'tally@example.com')")
        .bind(seal(MAIL_PASSWORD, "smtp-password"))
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO oidc_settings (id, issuer_url, client_id, client_secret) VALUES (1, 'https://id.example.com', 'tally', ?)")
        .bind(seal(OIDC_CLIENT_SECRET, "oidc-client-secret"))
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO push_subscriptions (user_id, endpoint, token) VALUES (2, 'https://push.example/abc', ?)")
        .bind(seal(PUSH_TOKEN, "push-token"))
        .execute(&pool)
        .await
        .unwrap();
    exec(&pool, "INSERT INTO leads (name, email, message) VALUES ('Dana', 'dana@example.com', 'Pricing for 5 users?');
                 INSERT INTO support_requests (name, email, subject, message) VALUES ('Eli', 'eli@example.com', 'Import', 'CSV import fails');").await;

    (
        Legacy {
            data_dir: data_dir.to_path_buf(),
            database,
            pool,
            keyring,
        },
        marked,
    )
}

/// A v0.36 database already upgraded to v0.37.
pub async fn upgraded(data_dir: &Path) -> Legacy {
    let (db, _) = build(data_dir, 0).await;
    Migrator::default().run(&db.pool).await.unwrap();
    db
}

/// Every row of every table, as text, for "nothing changed" comparisons.
pub async fn snapshot(pool: &SqlitePool) -> Vec<String> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = Vec::new();
    for table in tables {
        let columns: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
        )))
        .fetch_all(pool)
        .await
        .unwrap();
        let quoted: Vec<String> = columns.iter().map(|c| format!("quote(\"{c}\")")).collect();
        let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM \"{table}\" ORDER BY rowid",
            quoted.join(" || '|' || ")
        )))
        .fetch_all(pool)
        .await
        .unwrap();
        out.push(format!("{table}({}): {}", columns.join(","), rows.len()));
        out.extend(rows.into_iter().map(|row| format!("{table}: {row}")));
    }
    out
}

pub async fn count(pool: &SqlitePool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_one(pool)
        .await
        .unwrap()
}
