//! API tokens carry scopes chosen when they are made (issue 28, item 5):
//! `read` for GET, `write` for the rest of the owner's own data, `admin`
//! for the administrator's API, `admin:backup` for what `tally ops backup`
//! and `ops deploy` do. No token, whatever its scopes, makes invitations,
//! changes registration, enables or disables accounts, resets second
//! factors or restores: those take a browser session and the password,
//! asked again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::admin::{BackupFiles, Invited};
use app::contract::error::ErrorBody;
use app::contract::operations::RestoreRequest;
use app::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};
use app::domain::bill::BillForm;
use app::domain::role::Role;
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::{answer_of, Browser};
use support::{with_admin, TestApp, ADMIN_PASSWORD};

/// A token with `scopes` (the default when `None`), made in `browser`.
async fn token(browser: &Browser, scopes: Option<&[&str]>) -> CreatedToken {
    browser
        .call_expecting(
            201,
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "script".into(),
                expires_in_days: None,
                scopes: scopes.map(|names| names.iter().map(|name| (*name).to_owned()).collect()),
            },
        )
        .await
}

/// A token's request; the status and the body as JSON.
async fn with(app: &TestApp, token: &str, method: Method, path: &str, body: Value) -> (u16, Value) {
    let response = app
        .with_token(token, method, path)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A token's `GET path`; its status.
async fn get_status(app: &TestApp, token: &str, path: &str) -> u16 {
    with(app, token, Method::GET, path, Value::Null).await.0
}

fn message(body: &Value) -> String {
    body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn bill() -> Value {
    serde_json::to_value(BillForm {
        name: "Rent".into(),
        amount_minor: 120_000,
        cadence: "monthly".into(),
        due_day: 1,
        anchor_date: "2026-01-01".into(),
        ..BillForm::default()
    })
    .unwrap()
}

#[tokio::test]
async fn each_scope_opens_what_it_names_and_nothing_else() {
    let (app, admin) = with_admin(&[]).await;

    // Read only: GET, not a write.
    let read = token(&admin, Some(&["read"])).await;
    assert_eq!(read.info.scopes, ["read"]);
    assert_eq!(get_status(&app, &read.token, "/api/bills").await, 200);
    let (status, body) = with(&app, &read.token, Method::POST, "/api/bills", bill()).await;
    assert_eq!(status, 403, "{body}");
    assert!(message(&body).contains("write"), "{body}");

    // The default: the owner's own data, none of the administrator's API
    // even for an administrator's token.
    let plain = token(&admin, None).await;
    assert_eq!(plain.info.scopes, ["read", "write"]);
    let (status, _) = with(&app, &plain.token, Method::POST, "/api/bills", bill()).await;
    assert_eq!(status, 201);
    for path in [
        "/api/admin/status",
        "/api/admin/users",
        "/api/admin/backups",
    ] {
        let (status, body) = with(&app, &plain.token, Method::GET, path, Value::Null).await;
        assert_eq!(status, 403, "{path}: {body}");
    }
    let (status, _) = with(
        &app,
        &plain.token,
        Method::POST,
        "/v1/admin:backup",
        json!({}),
    )
    .await;
    assert_eq!(status, 403);

    // admin: the administrator's status, not backups, not the owner's bills.
    let admin_token = token(&admin, Some(&["admin"])).await;
    assert_eq!(
        get_status(&app, &admin_token.token, "/api/admin/status").await,
        200
    );
    assert_eq!(
        get_status(&app, &admin_token.token, "/api/admin/backups").await,
        403
    );
    assert_eq!(
        get_status(&app, &admin_token.token, "/api/bills").await,
        403
    );

    // admin:backup: take one, follow its operation, list and download it;
    // nothing else.
    let backup_token = token(&admin, Some(&["admin:backup"])).await;
    let (status, started) = with(
        &app,
        &backup_token.token,
        Method::POST,
        "/v1/admin:backup",
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{started}");
    let name = started["name"].as_str().unwrap().to_owned();
    let mut done = started;
    for _ in 0..50 {
        if done["done"] == true {
            break;
        }
        let (status, waited) = with(
            &app,
            &backup_token.token,
            Method::POST,
            &format!("/v1/{name}:wait"),
            json!({"timeout": "2s"}),
        )
        .await;
        assert_eq!(status, 200, "{waited}");
        done = waited;
    }
    let file = done["response"]["fileName"]
        .as_str()
        .expect("a backup")
        .to_owned();
    let listed = app
        .with_token(&backup_token.token, Method::GET, "/api/admin/backups")
        .send()
        .await
        .unwrap();
    let listed: BackupFiles = answer_of(listed).await.unwrap().unwrap();
    assert!(listed.backups.iter().any(|backup| backup.name == file));
    let download = app
        .with_token(
            &backup_token.token,
            Method::GET,
            &format!("/api/admin/backups/{file}"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(download.status(), 200);
    assert_eq!(
        get_status(&app, &backup_token.token, "/api/bills").await,
        403
    );
    assert_eq!(
        get_status(&app, &backup_token.token, "/api/admin/status").await,
        403
    );
    let (status, _) = with(
        &app,
        &backup_token.token,
        Method::DELETE,
        &format!("/v1/{name}"),
        Value::Null,
    )
    .await;
    assert_eq!(status, 403, "deleting an operation is a write");

    // The list shows every token's scopes.
    let tokens: Vec<ApiTokenInfo> = admin.get("/api/tokens").await;
    let mut shown: Vec<String> = tokens.iter().map(|token| token.scopes.join(",")).collect();
    shown.sort();
    assert_eq!(shown, ["admin", "admin:backup", "read", "read,write"]);

    // Nonsense is refused naming the field.
    let (status, error) = admin
        .call::<_, CreatedToken>(
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "x".into(),
                expires_in_days: None,
                scopes: Some(vec!["root".into()]),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert!(error.error.message.contains("scopes"), "{error:?}");
}

#[tokio::test]
async fn no_token_whatever_its_scopes_reaches_the_account_level_actions() {
    let (app, admin) = with_admin(&[]).await;
    let everything = token(&admin, Some(&["read", "write", "admin", "admin:backup"])).await;
    let me: Value = admin.json_raw("/api/auth/me").await;
    let me = me["user"]["id"].as_i64().unwrap();
    let confirmed = json!({"currentPassword": ADMIN_PASSWORD});
    let cases = [
        (
            Method::POST,
            "/api/admin/invitations".to_owned(),
            json!({"role": "admin", "currentPassword": ADMIN_PASSWORD}),
        ),
        (
            Method::PUT,
            "/api/admin/registration".to_owned(),
            json!({"open": true, "currentPassword": ADMIN_PASSWORD}),
        ),
        (
            Method::POST,
            format!("/api/admin/users/{me}/disable"),
            confirmed.clone(),
        ),
        (
            Method::POST,
            format!("/api/admin/users/{me}/enable"),
            confirmed.clone(),
        ),
        (
            Method::POST,
            format!("/api/admin/users/{me}/reset-second-factor"),
            confirmed.clone(),
        ),
        (
            Method::POST,
            "/v1/admin:restore".to_owned(),
            serde_json::to_value(RestoreRequest {
                backup_file: "bills-20260101T000000.000Z.db".into(),
                confirm: "bills-20260101T000000.000Z.db".into(),
                current_password: ADMIN_PASSWORD.into(),
            })
            .unwrap(),
        ),
    ];
    for (method, path, body) in cases {
        let (status, answer) = with(&app, &everything.token, method.clone(), &path, body).await;
        assert_eq!(status, 403, "{method} {path}: {answer}");
        assert!(
            message(&answer).contains("API token"),
            "{method} {path}: {answer}"
        );
    }
    let pending: Vec<Value> = admin.get("/api/admin/invitations").await;
    assert!(pending.is_empty(), "no invitation was made");
}

#[tokio::test]
async fn the_account_level_actions_ask_for_the_password_again() {
    let (_app, admin) = with_admin(&[]).await;
    let (status, error) = admin
        .call::<_, Invited>(
            Method::POST,
            "/api/admin/invitations",
            &json!({"role": "admin"}),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert_eq!(
        error.field_violations()[0].field,
        "currentPassword",
        "{error:?}"
    );
    let (status, error) = admin
        .call::<_, Invited>(
            Method::POST,
            "/api/admin/invitations",
            &json!({"role": "admin", "currentPassword": "not it"}),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
    assert!(error.error.message.contains("currentPassword"), "{error:?}");
    let made: Invited = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/admin/invitations",
            &support::invitation(None, Some(Role::Admin)),
        )
        .await;
    assert_eq!(made.invitation.role, Role::Admin);
    let (status, error): (u16, ErrorBody) = admin
        .call::<_, Value>(
            Method::PUT,
            "/api/admin/registration",
            &json!({"open": true}),
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400, "{error:?}");
}

#[tokio::test]
async fn only_an_administrator_makes_a_token_with_an_administrators_scope() {
    let (app, admin) = with_admin(&[]).await;
    let user = support::plain_user(&app, &admin, "user@example.com").await;
    let (status, error) = user
        .call::<_, CreatedToken>(
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "sneaky".into(),
                expires_in_days: None,
                scopes: Some(vec!["read".into(), "admin:backup".into()]),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(status, 400);
    assert!(error.error.message.contains("scopes"), "{error:?}");
}
