//! Personal API tokens are limited credentials (issue 13, finding 8): each
//! expires, all of a user's end with a password change and with "sign out
//! everywhere", and none can make tokens or change the password, email or
//! second factors. Tokens from before v1.04 get an expiry on upgrade.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::backend::migrate::{Migrator, Version};
use app::contract::account::{Me, PrivacySettings, UpdateProfile};
use app::contract::error::ErrorBody;
use app::contract::security_keys::{RegisterKey, RemoveKey, WebAuthnJson};
use app::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};
use app::contract::two_factor::{ChangePassword, CurrentPassword, TotpCode};
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::json;
use support::browser::{answer_of, Browser, EmptyBody};
use support::{legacy, spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

async fn app() -> TestApp {
    spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
    ])
    .await
}

/// Makes a token from the browser session; its secret and id.
async fn token(browser: &Browser, name: &str, expires_in_days: Option<i64>) -> (String, i64) {
    let request = CreateToken {
        name: name.to_owned(),
        expires_in_days,
        scopes: None,
    };
    let created: CreatedToken = browser
        .call(Method::POST, "/api/tokens", &request)
        .await
        .unwrap_or_else(|(status, error)| panic!("{status}: {error:?}"))
        .expect("a body");
    (created.token, created.info.id)
}

/// The user's tokens as the list answers them.
async fn listed(browser: &Browser) -> Vec<ApiTokenInfo> {
    browser.get("/api/tokens").await
}

/// A programmatic client's request: the token, no cookies, no CSRF header.
/// The status, and the contract answer or the error body.
async fn bearer<B: Serialize, T: DeserializeOwned>(
    app: &TestApp,
    token: &str,
    method: Method,
    path: &str,
    body: &B,
) -> (u16, Result<Option<T>, ErrorBody>) {
    let response = app
        .with_token(token, method, path)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (
        status,
        answer_of(response).await.map_err(|(_, error)| error),
    )
}

/// `GET /api/auth/me` with a token; its status.
async fn me_status(app: &TestApp, token: &str) -> u16 {
    bearer::<_, Me>(app, token, Method::GET, "/api/auth/me", &EmptyBody {})
        .await
        .0
}

async fn lifetime_days(pool: &sqlx::SqlitePool, id: i64) -> f64 {
    sqlx::query_scalar(
        "SELECT round(julianday(expires_at) - julianday(created_at), 3) FROM api_tokens WHERE id = ?",
    )
    .bind(id)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_token_cannot_make_tokens_or_change_credentials_or_second_factors() {
    let app = app().await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (secret, _) = token(&browser, "script", None).await;
    let key: i64 = sqlx::query_scalar(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         VALUES (1, 'cred', 'Desk key', '{}') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let before: (Option<String>, String, i64, i64) = sqlx::query_as(
        "SELECT totp_secret, password_hash,
                (SELECT count(*) FROM api_tokens), (SELECT count(*) FROM webauthn_credentials)
         FROM users WHERE id = 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();

    // Each route's own contract body, as JSON so one list holds them all.
    fn body<T: Serialize>(request: &T) -> serde_json::Value {
        serde_json::to_value(request).unwrap()
    }
    let password = || CurrentPassword {
        current_password: ADMIN_PASSWORD.into(),
    };
    let refused = [
        (
            Method::POST,
            "/api/tokens".to_owned(),
            body(&CreateToken {
                name: "another".into(),
                expires_in_days: None,
                scopes: None,
            }),
        ),
        (
            Method::POST,
            "/api/auth/totp/setup".to_owned(),
            body(&EmptyBody {}),
        ),
        (
            Method::POST,
            "/api/auth/totp/confirm".to_owned(),
            body(&TotpCode {
                code: "123456".into(),
            }),
        ),
        (
            Method::POST,
            "/api/auth/totp/disable".to_owned(),
            body(&password()),
        ),
        (
            Method::POST,
            "/api/auth/security-keys/options".to_owned(),
            body(&EmptyBody {}),
        ),
        (
            Method::POST,
            "/api/auth/security-keys".to_owned(),
            body(&RegisterKey {
                ceremony: "x".into(),
                name: "mine".into(),
                credential: WebAuthnJson(json!({})),
            }),
        ),
        (
            Method::DELETE,
            format!("/api/auth/security-keys/{key}"),
            body(&RemoveKey {
                current_password: Some(ADMIN_PASSWORD.into()),
            }),
        ),
        (
            Method::POST,
            "/api/auth/password".to_owned(),
            body(&ChangePassword {
                current_password: ADMIN_PASSWORD.into(),
                new_password: "a new long passphrase 99".into(),
            }),
        ),
        (
            Method::PUT,
            "/api/profile".to_owned(),
            body(&UpdateProfile {
                name: "Script".into(),
                email: "script@example.com".into(),
                current_password: Some(ADMIN_PASSWORD.into()),
            }),
        ),
        (
            Method::POST,
            "/api/admin/users/1/reset-second-factor".to_owned(),
            body(&EmptyBody {}),
        ),
    ];
    for (method, path, body) in refused {
        let (status, answer) =
            bearer::<_, serde_json::Value>(&app, &secret, method.clone(), &path, &body).await;
        assert_eq!(status, 403, "{method} {path} with a token: {answer:?}");
        let error = answer.expect_err("refused");
        assert!(
            error.error.message.contains("API token"),
            "{method} {path} says why: {error:?}"
        );
    }
    let after: (Option<String>, String, i64, i64) = sqlx::query_as(
        "SELECT totp_secret, password_hash,
                (SELECT count(*) FROM api_tokens), (SELECT count(*) FROM webauthn_credentials)
         FROM users WHERE id = 1",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(after, before, "nothing changed");

    // What a token is for still works.
    let (status, me) =
        bearer::<_, Me>(&app, &secret, Method::GET, "/api/auth/me", &EmptyBody {}).await;
    assert_eq!(status, 200);
    assert_eq!(me.unwrap().unwrap().user.email, ADMIN_EMAIL);
    let (status, _) =
        bearer::<_, Vec<ApiTokenInfo>>(&app, &secret, Method::GET, "/api/tokens", &EmptyBody {})
            .await;
    assert_eq!(status, 200);
    let (status, answer) = bearer::<_, PrivacySettings>(
        &app,
        &secret,
        Method::PUT,
        "/api/profile/privacy",
        &PrivacySettings {
            geolocation_enabled: false,
        },
    )
    .await;
    assert_eq!(status, 200, "{answer:?}");
}

#[tokio::test]
async fn a_token_lives_for_the_days_chosen_and_answers_401_after() {
    let app = app().await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;

    for days in [0, -1, 366, 100_000] {
        let request = CreateToken {
            name: "ci".into(),
            expires_in_days: Some(days),
            scopes: None,
        };
        let (status, error) = browser
            .call::<_, CreatedToken>(Method::POST, "/api/tokens", &request)
            .await
            .expect_err("out of range");
        assert_eq!(status, 400, "{days}: {error:?}");
        assert_eq!(error.field_violations()[0].field, "expiresInDays");
    }
    let (_, default_id) = token(&browser, "default", None).await;
    assert_eq!(lifetime_days(&pool, default_id).await, 90.0);
    let (week, week_id) = token(&browser, "week", Some(7)).await;
    assert_eq!(lifetime_days(&pool, week_id).await, 7.0);
    let (_, year_id) = token(&browser, "year", Some(365)).await;
    assert_eq!(lifetime_days(&pool, year_id).await, 365.0);

    let listed_week = listed(&browser)
        .await
        .into_iter()
        .find(|t| t.id == week_id)
        .unwrap();
    assert!(!listed_week.expired);
    assert!(listed_week.expires_at.ends_with('Z'));

    assert_eq!(me_status(&app, &week).await, 200);
    // A week later.
    sqlx::query(
        "UPDATE api_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 second') WHERE id = ?",
    )
    .bind(week_id)
    .execute(&pool)
    .await
    .unwrap();
    assert_eq!(me_status(&app, &week).await, 401, "an expired token");
    let listed_week = listed(&browser)
        .await
        .into_iter()
        .find(|t| t.id == week_id)
        .unwrap();
    assert!(listed_week.expired, "still listed, marked expired");
}

#[tokio::test]
async fn a_password_change_and_signing_out_everywhere_end_every_token() {
    let app = app().await;
    let mut browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let (first, _) = token(&browser, "first", None).await;
    let (second, _) = token(&browser, "second", None).await;
    for secret in [&first, &second] {
        assert_eq!(me_status(&app, secret).await, 200);
    }

    let new_password = "a brand new passphrase 2027";
    let () = browser
        .call_expecting(
            204,
            Method::POST,
            "/api/auth/password",
            &ChangePassword {
                current_password: ADMIN_PASSWORD.into(),
                new_password: new_password.into(),
            },
        )
        .await;
    for secret in [&first, &second] {
        assert_eq!(
            me_status(&app, secret).await,
            401,
            "a token after the password change"
        );
    }
    assert_eq!(
        browser.status(Method::GET, "/api/auth/me").await,
        200,
        "the session that changed it stays"
    );
    assert_eq!(listed(&browser).await, []);

    let (third, _) = token(&browser, "third", None).await;
    assert_eq!(me_status(&app, &third).await, 200);
    let () = browser
        .call_expecting(204, Method::POST, "/api/auth/logout-all", &EmptyBody {})
        .await;
    assert_eq!(
        me_status(&app, &third).await,
        401,
        "a token after signing out everywhere"
    );

    browser = Browser::signed_in(&app.address, ADMIN_EMAIL, new_password).await;
    assert_eq!(listed(&browser).await, []);
}

#[tokio::test]
async fn tokens_from_before_v104_expire_90_days_after_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = legacy::build(dir.path(), 0).await;
    let pool = &db.pool;
    Migrator::up_to(Version::new(1, 3)).run(pool).await.unwrap();
    sqlx::query(
        "INSERT INTO api_tokens (user_id, name, token_hash, created_at)
         VALUES (1, 'old script', ?, '2025-01-01T00:00:00.000Z')",
    )
    .bind("a".repeat(64))
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO pending_sign_ins (id, user_id, expires_at)
         VALUES (?, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+5 minutes'))",
    )
    .bind("b".repeat(64))
    .execute(pool)
    .await
    .unwrap();

    // Up to v1.04 exactly, so later migrations do not change what rolls back.
    let v104 = Migrator::up_to(Version::new(1, 4));
    let applied = v104.run(pool).await.unwrap();
    assert_eq!(applied, [Version::new(1, 4)]);
    let (name, days_left): (String, f64) = sqlx::query_as(
        "SELECT name, round(julianday(expires_at) - julianday('now')) FROM api_tokens",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!((name.as_str(), days_left), ("old script", 90.0));
    let pending: i64 = sqlx::query_scalar("SELECT count(*) FROM pending_sign_ins")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(pending, 0, "challenges without offered methods are dropped");
    let refused = sqlx::query(
        "INSERT INTO api_tokens (user_id, name, token_hash) VALUES (1, 'no expiry', ?)",
    )
    .bind("c".repeat(64))
    .execute(pool)
    .await;
    assert!(refused.is_err(), "every token has an expiry");

    assert_eq!(
        v104.rollback_latest(pool).await.unwrap(),
        Version::new(1, 4)
    );
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM api_tokens")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(names, ["old script"], "rows survive the rollback");
    assert!(sqlx::query("SELECT expires_at FROM api_tokens")
        .fetch_all(pool)
        .await
        .is_err());
    assert_eq!(v104.run(pool).await.unwrap(), [Version::new(1, 4)]);
}
