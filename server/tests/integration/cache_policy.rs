//! Nothing carrying a user's data may be stored by a browser or a proxy:
//! every GET route of the route table (so a new route is walked too),
//! signed in as a user who owns a bill, a payment, a token, an invitation
//! and an operation, and signed out, answers `Cache-Control: no-store`,
//! whatever its status or content type; so do the CSV exports, the
//! signed-in pages, the public pages and the sign-in redirect.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::Me;
use app::contract::admin::Invited;
use app::contract::bills::{BillRecord, Payment, RecordPayment};
use app::contract::operations::Operation;
use app::contract::tokens::{CreateToken, CreatedToken};
use app::domain::bill::BillForm;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::json;
use support::browser::Browser;
use support::spawn_app;
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

fn cache_control(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("cache-control")
        .iter()
        .map(|value| value.to_str().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join(", ")
}

async fn created<B: Serialize, T: DeserializeOwned>(browser: &Browser, path: &str, body: &B) -> T {
    browser
        .call(Method::POST, path, body)
        .await
        .unwrap_or_else(|(status, error)| panic!("POST {path}: {status} {error:?}"))
        .unwrap_or_else(|| panic!("POST {path} answered no body"))
}

#[tokio::test]
async fn every_response_carrying_user_data_is_no_store() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("TALLY_DIAGNOSTICS", "1"),
        ("BANK_SYNC_ENABLED", "true"),
    ])
    .await;
    let user = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let user_id = user.get::<Me>("/api/auth/me").await.user.id;

    // Something of the user's behind every kind of id.
    let rent = BillForm {
        name: "Rent".into(),
        amount_minor: 150_000,
        cadence: "monthly".into(),
        due_day: 1,
        anchor_date: "2026-01-01".into(),
        ..BillForm::default()
    };
    let bill: BillRecord = created(&user, "/api/bills", &rent).await;
    let bill_id = bill.id;
    let payment: Payment = created(
        &user,
        &format!("/api/bills/{bill_id}/payments"),
        &RecordPayment::default(),
    )
    .await;
    let payment_id = payment.id;
    let token: CreatedToken = created(
        &user,
        "/api/tokens",
        &CreateToken {
            name: "script".into(),
            expires_in_days: None,
            scopes: None,
        },
    )
    .await;
    let token_id = token.info.id;
    let invitation: Invited = created(
        &user,
        "/api/admin/invitations",
        &crate::support::invitation(None, None),
    )
    .await;
    let invitation_id = invitation.invitation.id;
    // The diagnostics route's body is the server's own, not the contract's.
    let operation: Operation =
        created(&user, "/v1/diagnostics:sleep", &json!({ "duration": "0s" })).await;
    let operation_name = operation.name;
    // A backup, for the download route.
    let backup: Operation = created(&user, "/v1/admin:backup", &json!({})).await;
    let backup = user
        .call::<_, Operation>(
            Method::POST,
            &format!("/v1/{}:wait", backup.name),
            &json!({ "timeout": "20s" }),
        )
        .await
        .unwrap()
        .unwrap();
    let backup_name = backup.response.as_ref().unwrap()["fileName"]
        .as_str()
        .unwrap()
        .to_owned();

    // A statement import, for its preview route.
    let statement = user
        .request(Method::POST, "/api/imports?fileName=checking.ofx")
        .body(
            std::fs::read(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/fixtures/statements/checking.ofx"),
            )
            .unwrap(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(statement.status(), 202);
    let import_id = statement.json::<serde_json::Value>().await.unwrap()["import"]["id"]
        .as_i64()
        .unwrap();

    let signed_out = Browser::open(&app.address).await;
    let mut walked = 0;
    for route in server::routes::api_routes(true) {
        if !route.methods.contains(&"GET") {
            continue;
        }
        let id = if route.path.starts_with("/api/tokens/") {
            token_id
        } else if route.path.starts_with("/api/admin/invitations/") {
            invitation_id
        } else if route.path.starts_with("/api/payments/") {
            payment_id
        } else if route.path.starts_with("/api/imports/") {
            import_id
        } else {
            bill_id
        };
        let mut path = route
            .path
            .replace("{id}", &id.to_string())
            .replace("{kind}", "leads")
            .replace("{month}", "2026-11")
            .replace("{name}", &backup_name)
            .replace("{user}", &user_id.to_string())
            .replace("{*name}", operation_name.trim_start_matches("operations/"));
        if route.path == "/api/diagnostics/slow" {
            path.push_str("?ms=1");
        }
        assert!(!path.contains('{'), "fill the parameters of {}", route.path);
        for (who, browser) in [("signed in", &user), ("signed out", &signed_out)] {
            let response = browser.request(Method::GET, &path).send().await.unwrap();
            let status = response.status().as_u16();
            assert_eq!(
                cache_control(&response),
                "no-store",
                "GET {path} {who} answered {status}"
            );
            // Single sign-on's start and callback are browser redirects
            // (to the provider, or to the sign-in page with an error).
            if who == "signed in" && !route.path.starts_with("/api/auth/oidc/") {
                assert!(status < 300, "GET {path} {who} answered {status}");
            }
        }
        walked += 1;
    }
    assert!(walked >= 20, "only {walked} GET routes walked");

    // The exports are the personal data that used to be kept for an hour.
    for path in ["/api/data/bills.csv", "/api/data/payments.csv"] {
        let response = user.request(Method::GET, path).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/csv"),
            "{path}"
        );
        assert_eq!(cache_control(&response), "no-store", "{path}");
        assert!(response.text().await.unwrap().contains("Rent"), "{path}");
    }

    // Unknown API paths and failing API calls too.
    for (method, path) in [
        (Method::GET, "/api/no-such-route"),
        (Method::GET, "/v1/operations/no-such-operation"),
        (Method::POST, "/api/bills"),
    ] {
        let response = user.request(method, path).send().await.unwrap();
        assert!(response.status().is_client_error(), "{path}");
        assert_eq!(cache_control(&response), "no-store", "{path}");
    }

    // Signed-in pages, and the redirect a signed-out visitor gets instead.
    for path in [
        "/bills",
        "/tracker",
        "/profile",
        "/subscriptions",
        "/subscriptions/catalog",
        &format!("/bills/{bill_id}"),
    ] {
        let page = user.request(Method::GET, path).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert_eq!(cache_control(&page), "no-store", "{path}");
        let visitor = signed_out.request(Method::GET, path).send().await.unwrap();
        assert_eq!(cache_control(&visitor), "no-store", "{path} signed out");
    }

    // Public pages, with and without a session, and the not-found page.
    for path in ["/", "/pricing", "/login", "/no-such-page"] {
        for browser in [&user, &signed_out] {
            let page = browser.request(Method::GET, path).send().await.unwrap();
            assert_eq!(cache_control(&page), "no-store", "{path}");
        }
        let bare = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(cache_control(&bare), "no-store", "{path} without cookies");
    }
}

/// Static files keep their lifetimes: the policy above must not make every
/// visit download the bundle and the icons again.
#[tokio::test]
async fn static_files_are_still_cached() {
    let app = spawn_app(&[]).await;
    let site = app.dir.path().join("site");
    std::fs::write(site.join("webauthn.js"), "// keys").unwrap();

    let script = app
        .client
        .get(app.url("/webauthn.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(script.status(), 200);
    assert_eq!(cache_control(&script), "public, max-age=3600");
    let missing = app.client.get(app.url("/no-such.js")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(cache_control(&missing), "no-store");
}
