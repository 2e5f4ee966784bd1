//! Authorisation: user B walks every API route (from the route table, so a
//! new route is walked too) against user A's ids and bodies. Whatever B
//! may do touches only B's own data: routes naming A's resources answer
//! 403 or 404, admin routes 403, and A's rows are byte-for-byte unchanged.
//! A's data is made with the contract's types; B's bodies are each route's
//! contract type where it has one, and one raw catch-all body otherwise.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use app::contract::bill_months::BillMonthChange;

use app::contract::account::{PrivacySettings, UpdateProfile};
use app::contract::admin::{Invite, Invited, RegistrationChange};
use app::contract::bank::{ConnectBank, MatchTransaction, SetMonitored};
use app::contract::bills::{BillRecord, Payment, RecordPayment};
use app::contract::operations::{Operation, WaitOperation};
use app::contract::subscriptions::{
    CatalogLink, DeclineRecommendation, LinkRecommendation, NewDescriptor, OwnDescriptor,
    RelinkRecommendation,
};
use app::contract::tokens::{CreateToken, CreatedToken};
use app::contract::two_factor::ChangePassword;
use app::domain::bill::BillForm;
use app::domain::role::Role;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use sqlx::SqlitePool;
use support::browser::Browser;
use support::spawn_app;

const ALICE: &str = "alice@example.com";
const ALICE_PASSWORD: &str = "quiet harbour lantern 77";
const BOB: &str = "bob@example.com";
const BOB_PASSWORD: &str = "bob's long passphrase 42";

/// Everything of Alice's, as text, to compare before and after.
async fn alice_snapshot(pool: &SqlitePool, alice: i64) -> String {
    let queries = [
        "SELECT id, email, name, role, password_hash, disabled_at, totp_secret, totp_enabled, webauthn_enabled, updated_at FROM users WHERE id = ?1",
        "SELECT id, name, token_hash, revoked_at FROM api_tokens WHERE user_id = ?1",
        "SELECT id, credential_id, name, passkey FROM webauthn_credentials WHERE user_id = ?1",
        "SELECT id, expires_at FROM sessions WHERE user_id = ?1",
        "SELECT key, value FROM settings WHERE user_id = ?1 OR user_id IS NULL",
        "SELECT id, email, role, used_at FROM invitations WHERE created_by = ?1",
        "SELECT count(*) FROM login_history WHERE user_id = ?1",
        "SELECT count(*) FROM recovery_codes WHERE user_id = ?1",
        "SELECT id, name, amount_cents, active, balance_cents, interest_accrued_month, updated_at FROM bills WHERE user_id = ?1",
        "SELECT id, amount_cents, paid_on, autopay_failure FROM payments WHERE user_id = ?1",
        "SELECT id, done, cancel_requested, deleted, metadata FROM operations WHERE owner_id = ?1",
        "SELECT id, catalog_id, descriptor FROM user_catalog_descriptors WHERE user_id = ?1",
        "SELECT id, catalog_id, bill_id, action FROM subscription_recommendation_feedback WHERE user_id = ?1",
        "SELECT id, catalog_id FROM bills WHERE user_id = ?1",
    ];
    let mut out = String::new();
    for query in queries {
        let rows = sqlx::query(query)
            .bind(alice)
            .fetch_all(pool)
            .await
            .unwrap();
        for row in rows {
            use sqlx::Row;
            for index in 0..row.len() {
                let value: Option<String> = row
                    .try_get::<Option<String>, _>(index)
                    .or_else(|_| {
                        row.try_get::<Option<i64>, _>(index)
                            .map(|v| v.map(|v| v.to_string()))
                    })
                    .unwrap();
                out.push_str(&format!("{value:?}|"));
            }
            out.push('\n');
        }
    }
    out
}

fn to_json<T: Serialize>(request: &T) -> Value {
    serde_json::to_value(request).unwrap()
}

/// A body that would change something if B were allowed to send it: the
/// route's contract type, as JSON so one function serves every route.
fn body_for(path: &str, alice_email: &str) -> Value {
    match path {
        "/api/admin/registration" => to_json(&RegistrationChange {
            open: true,
            current_password: BOB_PASSWORD.into(),
        }),
        "/v1/admin:restore" => json!({
            "backupFile": "bills-20260101T000000.000Z.db",
            "confirm": "bills-20260101T000000.000Z.db"
        }),
        "/api/admin/invitations" => to_json(&Invite {
            email: Some("mallory@example.com".into()),
            role: Some(Role::Admin),
            current_password: BOB_PASSWORD.into(),
        }),
        "/api/profile" => to_json(&UpdateProfile {
            name: "Mallory".into(),
            email: alice_email.into(),
            current_password: Some(BOB_PASSWORD.into()),
        }),
        "/api/profile/privacy" => to_json(&PrivacySettings {
            geolocation_enabled: true,
        }),
        "/api/bank/connections" | "/api/bank/connections/{id}/reconnect" => {
            // http://127.0.0.1:9/claim: refused (not https) before any call.
            to_json(&ConnectBank {
                setup_token: "aHR0cDovLzEyNy4wLjAuMTo5L2NsYWlt".into(),
            })
        }
        "/api/bank/accounts/{id}" => to_json(&SetMonitored { monitored: false }),
        "/api/bank/transactions/{id}/match" => to_json(&MatchTransaction {
            bill_id: 1,
            remember: true,
        }),
        "/api/bills/{id}/months/{month}" => to_json(&BillMonthChange {
            skipped: Some(true),
            ..BillMonthChange::default()
        }),
        "/api/bills/{id}/catalog-link" => to_json(&CatalogLink {
            catalog_id: Some(1),
        }),
        "/api/subscriptions/recommendations/{id}/link" => {
            to_json(&LinkRecommendation { bill_id: 1 })
        }
        "/api/subscriptions/recommendations/{id}/decline" => {
            to_json(&DeclineRecommendation::default())
        }
        "/api/subscriptions/recommendations/{id}/relink" => {
            to_json(&RelinkRecommendation { catalog_id: 1 })
        }
        "/api/tokens" => to_json(&CreateToken {
            name: "bob's token".into(),
            expires_in_days: None,
            scopes: None,
        }),
        "/api/auth/password" => to_json(&ChangePassword {
            current_password: ALICE_PASSWORD.into(),
            new_password: "mallory owns this now 1".into(),
        }),
        // Every other route: one raw body with the fields any of them reads
        // (no single contract type has them all).
        _ => {
            json!({ "challenge": "x", "code": "000000", "name": "x", "ceremony": "x", "credential": {} })
        }
    }
}

/// A call of Alice's that must succeed with a body.
async fn made<B: Serialize, T: DeserializeOwned>(alice: &Browser, path: &str, body: &B) -> T {
    alice
        .call(Method::POST, path, body)
        .await
        .unwrap_or_else(|refusal| panic!("POST {path}: {refusal:?}"))
        .unwrap_or_else(|| panic!("POST {path} answered no body"))
}

#[tokio::test]
async fn user_b_cannot_read_or_change_user_a_through_any_route() {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ALICE),
        ("BOOTSTRAP_ADMIN_PASSWORD", ALICE_PASSWORD),
        ("TALLY_DIAGNOSTICS", "1"),
        ("BANK_SYNC_ENABLED", "true"),
    ])
    .await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    app::backend::auth::users::create(
        &pool,
        BOB,
        "Bob",
        secrecy::SecretString::from(BOB_PASSWORD),
        app::backend::auth::users::Role::User,
    )
    .await
    .unwrap();

    // Alice (an admin) has a token, a key, an invitation and history.
    let alice = Browser::signed_in(&app.address, ALICE, ALICE_PASSWORD).await;
    let alice_id = 1_i64;
    let token: CreatedToken = made(
        &alice,
        "/api/tokens",
        &CreateToken {
            name: "alice's secret script".into(),
            expires_in_days: None,
            scopes: None,
        },
    )
    .await;
    let token_id = token.info.id;
    let key_id: i64 = sqlx::query_scalar(
        "INSERT INTO webauthn_credentials (user_id, credential_id, name, passkey)
         VALUES (?, 'alice-cred', 'alice key', '{}') RETURNING id",
    )
    .bind(alice_id)
    .fetch_one(&pool)
    .await
    .unwrap();
    let invitation: Invited = made(
        &alice,
        "/api/admin/invitations",
        &Invite {
            current_password: ALICE_PASSWORD.into(),
            ..Invite::default()
        },
    )
    .await;
    let invitation_id = invitation.invitation.id;
    let rent = BillForm {
        name: "alice's rent".into(),
        amount_minor: 150_000,
        cadence: "monthly".into(),
        due_day: 1,
        anchor_date: "2026-01-01".into(),
        ..BillForm::default()
    };
    let bill: BillRecord = made(&alice, "/api/bills", &rent).await;
    let bill_id = bill.id;
    // Her own bank descriptor: id 1, the id the walk sends to every other
    // `{id}` route.
    let netflix: i64 =
        sqlx::query_scalar("SELECT id FROM subscription_catalog WHERE slug = 'netflix'")
            .fetch_one(&pool)
            .await
            .unwrap();
    let descriptor: OwnDescriptor = alice
        .call(
            Method::POST,
            "/api/catalog/descriptors",
            &NewDescriptor {
                catalog_id: netflix,
                descriptor: "ALICE SECRET STREAM".into(),
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(descriptor.id, alice_id);
    let payment: Payment = made(
        &alice,
        &format!("/api/bills/{bill_id}/payments"),
        &RecordPayment::default(),
    )
    .await;
    let payment_id = payment.id;
    // The diagnostics route's body is the server's own, not the contract's.
    let operation: Operation = made(
        &alice,
        "/v1/diagnostics:sleep",
        &json!({ "duration": "0s" }),
    )
    .await;
    let operation_name = operation.name;
    let done: Operation = made(
        &alice,
        &format!("/v1/{operation_name}:wait"),
        &WaitOperation {
            timeout: Some("20s".into()),
        },
    )
    .await;
    assert!(done.done);
    let before = alice_snapshot(&pool, alice_id).await;

    let bob = Browser::signed_in(&app.address, BOB, BOB_PASSWORD).await;
    let mut routes = server::routes::api_routes(true);
    // Signing out ends Bob's session; walk those last.
    routes.sort_by_key(|route| route.path.contains("logout"));
    let mut walked = 0;
    for route in routes {
        let id = if route.path.starts_with("/api/tokens/") {
            token_id
        } else if route.path.starts_with("/api/auth/security-keys/") {
            key_id
        } else if route.path.starts_with("/api/admin/invitations/") {
            invitation_id
        } else if route.path.starts_with("/api/bills/") {
            bill_id
        } else if route.path.starts_with("/api/payments/") {
            payment_id
        } else {
            alice_id
        };
        let path = route
            .path
            .replace("{id}", &id.to_string())
            .replace("{kind}", "leads")
            .replace("{month}", "2026-11")
            .replace("{name}", "bills-20260101T000000Z.db")
            .replace("{user}", &alice_id.to_string())
            .replace("{*name}", operation_name.trim_start_matches("operations/"));
        for method in route.methods {
            let method = Method::from_bytes(method.as_bytes()).unwrap();
            let mut request = bob.request(method.clone(), &path);
            if method != Method::GET {
                request = request.json(&body_for(route.path, ALICE));
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let text = response.text().await.unwrap();
            let names_alice = route.path.contains("{id}")
                || route.path.contains("{user}")
                || route.path.contains("{*name}")
                || route.path.starts_with("/api/admin/")
                || route.path.starts_with("/v1/admin:");
            if names_alice || route.path.starts_with("/api/diagnostics/") {
                assert!(
                    matches!(status, 403 | 404),
                    "{method} {path} as Bob answered {status}: {text}"
                );
            }
            for secret in [
                ALICE,
                "alice's secret script",
                "alice key",
                "alice-cred",
                "alice's rent",
                "ALICE SECRET STREAM",
                "\"owner\":\"users/1\"",
            ] {
                assert!(
                    !text.contains(secret),
                    "{method} {path} showed Bob {secret:?}: {text}"
                );
            }
            walked += 1;
        }
    }
    assert!(walked >= 30, "walked {walked} route methods");
    assert_eq!(
        alice_snapshot(&pool, alice_id).await,
        before,
        "Alice's data changed"
    );
    assert_eq!(alice.status(Method::GET, "/api/auth/me").await, 200);
}
