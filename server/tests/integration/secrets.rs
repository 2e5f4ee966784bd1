//! Secrets at rest across the upgrade: the database key, moving to
//! TOKEN_ENCRYPTION_KEY in one transaction, repeatability, and refusal of a
//! wrong or missing key with nothing changed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::backend::secrets::{self, Key, KeySource, SecretsError, SECRET_COLUMNS};
use secrecy::ExposeSecret;
use sqlx::SqlitePool;
use support::legacy::{self, snapshot};

/// Every stored secret value, opened with `keyring`, with its prefix.
async fn secrets_in(pool: &SqlitePool, keyring: &secrets::Keyring) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for column in SECRET_COLUMNS {
        let values: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT {c} FROM {t} WHERE {c} IS NOT NULL ORDER BY rowid",
            c = column.column,
            t = column.table
        )))
        .fetch_all(pool)
        .await
        .unwrap();
        for value in values {
            let plain = keyring.open(*column, &value).unwrap();
            out.push((value[..3].to_owned(), plain.expose_secret().to_owned()));
        }
    }
    out
}

#[tokio::test]
async fn without_a_token_key_secrets_stay_under_the_database_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    let before = snapshot(&db.pool).await;
    let (keyring, changed) = secrets::prepare(&db.pool, &db.data_dir, None)
        .await
        .unwrap();
    assert_eq!(changed, 0);
    assert_eq!(keyring.source(), KeySource::DatabaseKey);
    assert_eq!(snapshot(&db.pool).await, before);
    let stored = secrets_in(&db.pool, &keyring).await;
    assert_eq!(
        stored.len(),
        15,
        "3 TOTP, 3 bank, 6 login history, mail, OIDC, push"
    );
    assert!(stored.iter().all(|(prefix, _)| prefix == "e1:"));
    assert!(stored.iter().any(|(_, plain)| plain == "smtp-password"));
    assert!(stored.iter().any(|(_, plain)| plain == "203.0.113.7"));
}

#[tokio::test]
async fn a_token_key_re_encrypts_everything_once_and_a_second_start_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    let plain_before: Vec<String> = secrets_in(&db.pool, &db.keyring)
        .await
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let key_text = Key::generate().to_base64();

    let (keyring, changed) =
        secrets::prepare(&db.pool, &db.data_dir, Some(Key::parse(&key_text).unwrap()))
            .await
            .unwrap();
    assert_eq!(changed, 15);
    assert_eq!(keyring.source(), KeySource::EnvironmentKey);
    let after = secrets_in(&db.pool, &keyring).await;
    assert!(after.iter().all(|(prefix, _)| prefix == "e2:"), "{after:?}");
    let plain_after: Vec<String> = after.into_iter().map(|(_, p)| p).collect();
    assert_eq!(plain_after, plain_before, "same secrets, new key");

    let settled = snapshot(&db.pool).await;
    let (_, changed) =
        secrets::prepare(&db.pool, &db.data_dir, Some(Key::parse(&key_text).unwrap()))
            .await
            .unwrap();
    assert_eq!(changed, 0);
    assert_eq!(snapshot(&db.pool).await, settled);
}

#[tokio::test]
async fn a_wrong_token_key_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    secrets::prepare(&db.pool, &db.data_dir, Some(Key::generate()))
        .await
        .unwrap();
    let settled = snapshot(&db.pool).await;

    let error = secrets::prepare(&db.pool, &db.data_dir, Some(Key::generate()))
        .await
        .err()
        .unwrap();
    assert!(matches!(error, SecretsError::WrongEnvironmentKey));
    assert!(error.to_string().contains("TOKEN_ENCRYPTION_KEY"));
    assert_eq!(snapshot(&db.pool).await, settled);

    let error = secrets::prepare(&db.pool, &db.data_dir, None)
        .await
        .err()
        .unwrap();
    assert!(matches!(error, SecretsError::MissingEnvironmentKey));
    assert_eq!(snapshot(&db.pool).await, settled);
}

#[tokio::test]
async fn a_value_that_does_not_open_rolls_back_the_whole_re_encryption() {
    let dir = tempfile::tempdir().unwrap();
    let db = legacy::upgraded(dir.path()).await;
    // The last column walked holds a damaged value; the earlier ones were
    // already re-encrypted inside the transaction when it is reached.
    sqlx::query("UPDATE login_history SET location = 'e1:AAAA' WHERE rowid = (SELECT max(rowid) FROM login_history)")
        .execute(&db.pool)
        .await
        .unwrap();
    let before = snapshot(&db.pool).await;
    assert!(
        secrets::prepare(&db.pool, &db.data_dir, Some(Key::generate()))
            .await
            .is_err()
    );
    assert_eq!(snapshot(&db.pool).await, before);
}
