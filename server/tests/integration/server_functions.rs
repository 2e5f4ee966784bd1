//! The pages' writing server functions: JSON POSTs under `/api/fn/` with
//! the same rules as the REST API (a CSRF token, the signed-in user's own
//! data only, a 1 MiB body, the same error body and statuses), over the
//! same services (a payment made here is the one `/api/tracker` counts).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, PrivacySettings, Register, RegistrationStatus, SignInAnswer};
use app::contract::admin::{Invitation, Invited, RegistrationSetting, UserSummary};
use app::contract::bills::{BillList, BillRecord, Catalog, Payment, Payments, Spending, Tracker};
use app::contract::contact::{ContactConfig, Created, Requeued, SubmissionPage};
use app::contract::data::{ImportPreview, KeptImport};
use app::contract::error::ErrorBody;
use app::contract::operations::Operation;
use app::contract::preferences::Preferences;
use app::contract::security_keys::{KeyInfo, RegistrationStarted, RemoveKey};
use app::contract::tokens::{ApiTokenInfo, CreateToken, CreatedToken};
use app::contract::two_factor::TotpStatus;
use app::domain::bill::BillForm;
use app::domain::contact::LeadForm;
use app::domain::role::Role;
use reqwest::Method;
use serde_json::json;
use support::browser::Browser;
use support::{with_admin, ADMIN_EMAIL, ADMIN_PASSWORD};

async fn due_today(browser: &Browser, name: &str) -> BillRecord {
    let today = browser.get::<BillList>("/api/bills").await.today;
    let form = BillForm {
        name: name.into(),
        amount_minor: 4_250,
        cadence: "monthly".into(),
        due_day: today[8..10].parse().unwrap(),
        anchor_date: today,
        ..BillForm::default()
    };
    browser
        .call(Method::POST, "/api/bills", &form)
        .await
        .unwrap()
        .unwrap()
}

/// A bill page's payment form, posted with the CSRF header.
async fn pay(browser: &Browser, fields: &[(&str, String)]) -> reqwest::Response {
    browser
        .request(Method::POST, "/api/fn/pay-bill")
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// A bill page's forms (`bill/act`), posted with the CSRF header.
async fn bill_act(browser: &Browser, fields: &[(&str, &str)]) -> reqwest::Response {
    browser
        .request(Method::POST, "/api/fn/bill/act")
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// A page's form, posted as the browser posts it (with the CSRF header, as
/// the page's script sends it; the field does the same without).
async fn post_form(browser: &Browser, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    browser
        .request(Method::POST, path)
        .form(fields)
        .send()
        .await
        .unwrap()
}

async fn post(browser: &Browser, path: &str, body: serde_json::Value) -> reqwest::Response {
    browser
        .request(Method::POST, path)
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn marking_paid_through_the_server_function_is_what_the_tracker_counts() {
    let (_app, admin) = with_admin(&[]).await;
    let water = due_today(&admin, "Water").await;

    let response = pay(&admin, &[("bill", water.id.to_string())]).await;
    assert_eq!(response.status(), 200);
    let payment: Payment = response.json().await.unwrap();
    assert_eq!(payment.amount_minor, 4_250, "no amount is the bill's");
    // An amount as typed is in the bill's currency; a bad one names its field.
    let response = pay(
        &admin,
        &[
            ("bill", water.id.to_string()),
            ("payment[amount]", "12.345".to_owned()),
        ],
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "amountMinor");
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals[0].paid_minor, 4_250);

    // A bill page's own forms: flag the payment, then take it back.
    let payment_id = payment.id.to_string();
    let bill_id = water.id.to_string();
    for (act, failed) in [("autopay-failed", true), ("autopay-ok", false)] {
        let fields = [("act", act), ("bill", &bill_id), ("payment", &payment_id)];
        let response = bill_act(&admin, &fields).await;
        assert_eq!(response.status(), 200, "{act}");
        let payments: Payments = admin
            .get(&format!("/api/bills/{}/payments", water.id))
            .await;
        assert_eq!(payments.payments[0].autopay_failure, failed, "{act}");
    }
    // A payment act without its payment, or an act no page has, is named.
    let response = bill_act(&admin, &[("act", "undo-payment"), ("bill", &bill_id)]).await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "payment");
    let response = bill_act(&admin, &[("act", "shred"), ("bill", &bill_id)]).await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "act");

    let response = bill_act(
        &admin,
        &[
            ("act", "undo-payment"),
            ("bill", &bill_id),
            ("payment", &payment_id),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals[0].paid_minor, 0);
}

#[tokio::test]
async fn writing_server_functions_keep_the_apis_rules() {
    let (app, admin) = with_admin(&[]).await;
    let water = due_today(&admin, "Water").await;
    let body = [("bill", water.id.to_string())];

    // No CSRF token: refused before anything is written.
    let response = admin
        .request_without_csrf(Method::POST, "/api/fn/pay-bill")
        .form(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals[0].paid_minor, 0);

    // Signed out: 401, in the API's error body.
    let anonymous = Browser::open(&app.address).await;
    let response = pay(&anonymous, &body).await;
    assert_eq!(response.status(), 401);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.error.status, "UNAUTHENTICATED");

    // Nobody else's bill, and a bad date names its field.
    let response = pay(&admin, &[("bill", "9999".to_owned())]).await;
    assert_eq!(response.status(), 404);
    let response = pay(
        &admin,
        &[
            ("bill", water.id.to_string()),
            ("payment[paid_on]", "yesterday".to_owned()),
        ],
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "paidOn");

    // A body over 1 MiB is not read.
    let huge = [
        ("bill", water.id.to_string()),
        ("payment[method]", "x".repeat(1_100_000)),
    ];
    let response = pay(&admin, &huge).await;
    assert_eq!(response.status(), 413);
    let tracker: Tracker = admin.get("/api/tracker").await;
    assert_eq!(tracker.totals[0].paid_minor, 0);
}

#[tokio::test]
async fn a_bill_is_added_changed_ended_restarted_reordered_and_deleted_through_server_functions() {
    let (_app, admin) = with_admin(&[]).await;
    let today = admin.get::<BillList>("/api/bills").await.today;

    // The form's fields as typed: every one at fault is named at once (as
    // the API names it), and nothing is stored.
    let save = |fields: Vec<(&str, String)>| {
        admin
            .request(Method::POST, "/api/fn/save-bill")
            .form(&fields)
            .send()
    };
    let rent = |amount: &str| {
        vec![
            ("bill[name]", "Rent".to_owned()),
            ("bill[amount]", amount.to_owned()),
            ("bill[cadence]", "monthly".to_owned()),
            ("bill[anchor_date]", today.clone()),
        ]
    };
    let mut bad = rent("-5");
    bad[0].1 = String::new();
    let response = save(bad).await.unwrap();
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    let fields: Vec<String> = error
        .field_violations()
        .into_iter()
        .map(|v| v.field)
        .collect();
    assert!(fields.contains(&"name".to_owned()), "{fields:?}");
    assert!(fields.contains(&"amountMinor".to_owned()), "{fields:?}");
    assert!(admin.get::<BillList>("/api/bills").await.bills.is_empty());

    let response = save(rent("900.00")).await.unwrap();
    assert_eq!(response.status(), 200);
    let stored: BillRecord = response.json().await.unwrap();
    assert_eq!(stored.amount_minor, 90_000);
    let mut changed = rent("950");
    changed.push(("id", stored.id.to_string()));
    let response = save(changed).await.unwrap();
    let rent: BillRecord = response.json().await.unwrap();
    assert_eq!((rent.id, rent.amount_minor), (stored.id, 95_000));
    // The REST view agrees.
    let listed: BillRecord = admin.get(&format!("/api/bills/{}", rent.id)).await;
    assert_eq!(listed, rent);

    let rent_id = rent.id.to_string();
    let response = bill_act(
        &admin,
        &[("act", "end"), ("bill", &rent_id), ("reason", "moved out")],
    )
    .await;
    assert_eq!(response.status(), 200);
    let ended: BillRecord = admin.get(&format!("/api/bills/{}", rent.id)).await;
    assert!(!ended.active);
    assert_eq!(ended.inactive_reason.as_deref(), Some("moved out"));
    let response = bill_act(&admin, &[("act", "restart"), ("bill", &rent_id)]).await;
    assert_eq!(response.status(), 200);
    let restarted: BillRecord = admin.get(&format!("/api/bills/{}", rent.id)).await;
    assert!(restarted.active);

    // The order as the Subscriptions page's form posts it: the list it
    // showed and the button pressed (rent up, above water); the answer is
    // the order kept.
    let water = due_today(&admin, "Water").await;
    let water_id = water.id.to_string();
    let response = post_form(
        &admin,
        "/api/fn/reorder-bills",
        &[
            ("ids[0]", water_id.as_str()),
            ("ids[1]", rent_id.as_str()),
            ("shift[up]", rent_id.as_str()),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Vec<i64>>().await.unwrap(),
        [rent.id, water.id]
    );
    let response = post_form(
        &admin,
        "/api/fn/reorder-bills",
        &[("ids[0]", water_id.as_str()), ("ids[1]", rent_id.as_str())],
    )
    .await;
    assert_eq!(response.status(), 200);
    for (fields, named) in [
        (
            vec![("ids[0]", water_id.as_str()), ("ids[1]", water_id.as_str())],
            "ids",
        ),
        (
            vec![("ids[0]", water_id.as_str()), ("shift[up]", "999999")],
            "shift",
        ),
    ] {
        let response = post_form(&admin, "/api/fn/reorder-bills", &fields).await;
        assert_eq!(response.status(), 400);
        let body = response.text().await.unwrap();
        assert!(body.contains(&format!("\"{named}\"")), "{body}");
    }

    let response = bill_act(&admin, &[("act", "delete"), ("bill", &rent_id)]).await;
    assert_eq!(response.status(), 200);
    assert!(response.json::<bool>().await.unwrap(), "gone");
    let response = bill_act(&admin, &[("act", "delete"), ("bill", &rent_id)]).await;
    assert_eq!(response.status(), 404);
    let left = admin.get::<BillList>("/api/bills").await.bills;
    assert_eq!(left.len(), 1);
    assert_eq!(
        left[0].sort_order, 0,
        "the order set above stands: {left:?}"
    );
}

#[tokio::test]
async fn admin_invites_and_changes_accounts_through_server_functions_as_rest_does() {
    let (app, admin) = with_admin(&[]).await;

    // An invitation: the link registers the account it names.
    // The page's forms, as they post.
    let response = post_form(
        &admin,
        "/api/fn/admin/invite",
        &[
            ("request[email]", "sam@example.com"),
            ("request[currentPassword]", support::ADMIN_PASSWORD),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    let invited: Invited = response.json().await.unwrap();
    assert_eq!(
        invited.invitation.role,
        Role::User,
        "a plain user by default"
    );
    let token = invited.link.split("invitation=").nth(1).unwrap().to_owned();
    let pending: Vec<Invitation> = admin.get("/api/admin/invitations").await;
    assert_eq!(pending.len(), 1);
    let mut sam = Browser::open(&app.address).await;
    let response = sam
        .register(&Register {
            invitation: Some(token),
            email: "sam@example.com".into(),
            name: String::new(),
            password: "a long enough passphrase".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(response.status(), 200);
    let sam_id = sam.get::<Me>("/api/auth/me").await.user.id;

    // Only administrators; and never without the CSRF token.
    let sam_key = sam_id.to_string();
    let disable_sam = [
        ("change[disable]", sam_key.as_str()),
        ("confirm[currentPassword]", support::ADMIN_PASSWORD),
    ];
    let response = post_form(
        &sam,
        "/api/fn/admin/change-account",
        &[
            ("change[disable]", sam_key.as_str()),
            ("confirm[currentPassword]", "a long enough passphrase"),
        ],
    )
    .await;
    assert_eq!(response.status(), 403);
    let response = admin
        .request_without_csrf(Method::POST, "/api/fn/admin/change-account")
        .form(&disable_sam)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert_eq!(sam.status(Method::GET, "/api/auth/me").await, 200);

    // Disabling ends the account's session at once, as REST's does.
    let response = post_form(&admin, "/api/fn/admin/change-account", &disable_sam).await;
    assert_eq!(response.status(), 200);
    assert_eq!(sam.status(Method::GET, "/api/auth/me").await, 401);
    // The answer is the table as it now stands, as REST lists it.
    let answered: Vec<UserSummary> = response.json().await.unwrap();
    assert!(answered
        .iter()
        .any(|user| user.id == sam_id && user.disabled));
    let users: Vec<UserSummary> = admin.get("/api/admin/users").await;
    assert_eq!(answered, users);
    // One button at a time: none, or two, is a named refusal.
    for fields in [
        vec![("confirm[currentPassword]", support::ADMIN_PASSWORD)],
        vec![
            ("change[disable]", sam_key.as_str()),
            ("change[enable]", sam_key.as_str()),
            ("confirm[currentPassword]", support::ADMIN_PASSWORD),
        ],
    ] {
        let response = post_form(&admin, "/api/fn/admin/change-account", &fields).await;
        assert_eq!(response.status(), 400);
        let error: ErrorBody = response.json().await.unwrap();
        assert_eq!(error.field_violations()[0].field, "change");
    }

    // Not one's own account (the field is named), nor a missing one.
    let me = admin.get::<Me>("/api/auth/me").await.user.id;
    let me_key = me.to_string();
    let response = post_form(
        &admin,
        "/api/fn/admin/change-account",
        &[
            ("change[disable]", me_key.as_str()),
            ("confirm[currentPassword]", support::ADMIN_PASSWORD),
        ],
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "disabled");
    let response = post_form(
        &admin,
        "/api/fn/admin/change-account",
        &[
            ("change[enable]", "9999"),
            ("confirm[currentPassword]", support::ADMIN_PASSWORD),
        ],
    )
    .await;
    assert_eq!(response.status(), 404);
    let response = post_form(
        &admin,
        "/api/fn/admin/withdraw-invitation",
        &[("id", "9999")],
    )
    .await;
    assert_eq!(response.status(), 404);

    // Open registration, read back by REST.
    let response = post_form(
        &admin,
        "/api/fn/admin/set-registration",
        &[
            ("open", "on"),
            ("confirm[currentPassword]", support::ADMIN_PASSWORD),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    let setting: RegistrationSetting = admin.get("/api/admin/registration").await;
    assert!(setting.open);

    // The forms' submissions: a page (GET), and nothing failed to re-send.
    let page: SubmissionPage = admin
        .get("/api/fn/admin/submissions?kind=lead&search=")
        .await;
    assert!(page.items.is_empty() && page.next_before.is_none());
    let response = post_form(
        &admin,
        "/api/fn/admin/resend",
        &[("kind", "support"), ("id", "1")],
    )
    .await;
    assert_eq!(response.status(), 404);
    let response = post_form(&admin, "/api/fn/admin/resend", &[("kind", "lead")]).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Requeued>().await.unwrap().queued, 0);
}

#[tokio::test]
async fn profile_writes_through_server_functions_keep_the_token_rules() {
    let (app, admin) = with_admin(&[]).await;

    // Preferences, as the form posts them: a bad field is named as REST
    // names it; a good one is what REST reads.
    let preferences_form = |fields: &[(&str, &str)]| {
        admin
            .request(Method::POST, "/api/fn/profile/save-preferences")
            .form(fields)
            .send()
    };
    let base = [
        ("locale", "en-US"),
        ("currency", "USD"),
        ("time_zone", "UTC"),
    ];
    for (field, value, named) in [
        ("time_zone", "Mars/Olympus", "timeZone"),
        ("drift_percent", "ten", "driftPercent"),
        ("drift_percent", "0", "driftPercent"),
        ("drift_min", "1.234", "driftMinMinor"),
        ("pay_schedule", "biweekly", "payday"),
    ] {
        let mut fields: Vec<(&str, &str)> = base
            .iter()
            .copied()
            .filter(|(name, _)| *name != field)
            .collect();
        fields.push((field, value));
        let response = preferences_form(&fields).await.unwrap();
        assert_eq!(response.status(), 400, "{field}={value}");
        let error: ErrorBody = response.json().await.unwrap();
        assert_eq!(error.field_violations()[0].field, named, "{field}={value}");
    }
    let response = preferences_form(&[
        ("locale", "de-DE"),
        ("currency", "EUR"),
        ("time_zone", "Europe/Berlin"),
        ("drift_percent", "15"),
        ("drift_min", "2.50"),
        ("pay_schedule", "biweekly"),
        ("payday", "2026-11-13"),
    ])
    .await
    .unwrap();
    assert_eq!(response.status(), 200);
    let preferences: Preferences = admin.get("/api/profile/preferences").await;
    assert_eq!(
        (preferences.locale.as_str(), preferences.currency.as_str()),
        ("de-DE", "EUR")
    );
    assert_eq!(
        (preferences.drift_percent, preferences.drift_min_minor),
        (15, 250)
    );
    assert_eq!(
        (
            preferences.pay_schedule.as_str(),
            preferences.payday.as_str()
        ),
        ("biweekly", "2026-11-13")
    );
    // Left out, the threshold stays as it was.
    let response = preferences_form(&base).await.unwrap();
    assert_eq!(response.status(), 200);
    let preferences: Preferences = admin.get("/api/profile/preferences").await;
    assert_eq!(
        (preferences.drift_percent, preferences.drift_min_minor),
        (15, 250)
    );
    assert_eq!(preferences.pay_schedule, "");

    // Privacy: the box ticked turns lookups on, left out turns them off.
    let privacy_form = |fields: &[(&str, &str)]| {
        admin
            .request(Method::POST, "/api/fn/profile/set-privacy")
            .form(fields)
            .send()
    };
    let response = privacy_form(&[("geolocation_enabled", "on")])
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let privacy: PrivacySettings = admin.get("/api/profile/privacy").await;
    assert!(privacy.geolocation_enabled);
    let response = privacy_form(&[("csrf_token", "")]).await.unwrap();
    assert_eq!(response.status(), 200);
    let privacy: PrivacySettings = admin.get("/api/profile/privacy").await;
    assert!(!privacy.geolocation_enabled);

    // A token made here works as a bearer token, and cannot make another.
    let response = post(
        &admin,
        "/api/fn/make-token",
        json!({"request": CreateToken { name: "Script".into(), expires_in_days: Some(7), scopes: None }}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let created: CreatedToken = response.json().await.unwrap();
    let with_token = |method: Method, path: &str| app.with_token(&created.token, method, path);
    let me = with_token(Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    // Server functions are the browser's door: they read the session
    // cookie only, so a token there is nobody (401).
    let refused = with_token(Method::POST, "/api/fn/make-token")
        .json(&json!({"request": {"name": "Another"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 401);
    let tokens: Vec<ApiTokenInfo> = admin.get("/api/fn/tokens").await;
    assert_eq!(tokens.len(), 1, "the refused one was not made");

    // Revoked here (as the page's Revoke form posts it), it stops
    // working; someone else's id is 404.
    let id = created.info.id.to_string();
    let response = post_form(&admin, "/api/fn/revoke-token", &[("id", &id)]).await;
    assert_eq!(response.status(), 200);
    let me = with_token(Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 401);
    let response = post_form(&admin, "/api/fn/revoke-token", &[("id", "9999")]).await;
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn password_and_totp_changes_through_server_functions_need_the_password_and_a_browser() {
    let (app, admin) = with_admin(&[]).await;
    let other = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;

    // TOTP: a token cannot start it; a browser can, and the status says so.
    let response = post(
        &admin,
        "/api/fn/make-token",
        json!({"request": {"name": "t"}}),
    )
    .await;
    let token = response.json::<CreatedToken>().await.unwrap().token;
    let refused = app
        .with_token(&token, Method::POST, "/api/fn/totp/start")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        refused.status(),
        401,
        "a token is nobody to a server function"
    );
    let response = post(&admin, "/api/fn/totp/start", json!({})).await;
    assert_eq!(response.status(), 200);
    let enrolment: serde_json::Value = response.json().await.unwrap();
    assert!(enrolment["otpauthUrl"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/"));
    let response = post(&admin, "/api/fn/totp/confirm", json!({"code": "000000"})).await;
    assert_eq!(
        response.status(),
        400,
        "a wrong first code does not turn it on"
    );
    let status: TotpStatus = admin.get("/api/fn/totp").await;
    assert!(!status.enabled);

    // The password: the current one is checked and named when wrong.
    let wrong = post_form(
        &admin,
        "/api/fn/account/password",
        &[
            ("request[currentPassword]", "not it"),
            ("request[newPassword]", "an entirely new passphrase"),
        ],
    )
    .await;
    assert_eq!(wrong.status(), 400);
    let error: ErrorBody = wrong.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "currentPassword");
    assert_eq!(other.status(Method::GET, "/api/auth/me").await, 200);

    // Changed: this session stays, the other session and the token end.
    let changed = post_form(
        &admin,
        "/api/fn/account/password",
        &[
            ("request[currentPassword]", ADMIN_PASSWORD),
            ("request[newPassword]", "an entirely new passphrase"),
        ],
    )
    .await;
    assert_eq!(changed.status(), 200);
    assert_eq!(admin.status(Method::GET, "/api/auth/me").await, 200);
    assert_eq!(other.status(Method::GET, "/api/auth/me").await, 401);
    let with_token = app
        .with_token(&token, Method::GET, "/api/auth/me")
        .send()
        .await
        .unwrap();
    assert_eq!(with_token.status(), 401);

    // A new email needs the (new) current password; Profile's form posts
    // the password field empty when it is not asked for.
    let response = post_form(
        &admin,
        "/api/fn/account/save",
        &[
            ("request[name]", "Ada"),
            ("request[email]", "ada@example.com"),
            ("request[currentPassword]", ""),
        ],
    )
    .await;
    assert_eq!(response.status(), 400);
    let response = post_form(
        &admin,
        "/api/fn/account/save",
        &[
            ("request[name]", "Ada"),
            ("request[email]", "ada@example.com"),
            ("request[currentPassword]", "an entirely new passphrase"),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    // The name alone needs no password.
    let response = post_form(
        &admin,
        "/api/fn/account/save",
        &[
            ("request[name]", "Ada Lovelace"),
            ("request[email]", "ada@example.com"),
            ("request[currentPassword]", ""),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        admin.get::<Me>("/api/auth/me").await.user.email,
        "ada@example.com"
    );
}

#[tokio::test]
async fn maintenance_and_the_viewer_follow_cancel_and_delete_operations_through_server_functions() {
    let (app, admin) = with_admin(&[]).await;

    // Admin's maintenance buttons, as their forms post.
    let response = post_form(
        &admin,
        "/api/fn/operations/maintenance",
        &[("task", "backup")],
    )
    .await;
    assert_eq!(response.status(), 200);
    let started: Operation = response.json().await.unwrap();
    let mut latest = started.clone();
    for _ in 0..30 {
        if latest.done {
            break;
        }
        let response = post(
            &admin,
            "/api/fn/operations/wait",
            json!({"name": started.name}),
        )
        .await;
        assert_eq!(response.status(), 200);
        latest = response.json().await.unwrap();
    }
    assert!(latest.done && latest.error.is_none(), "{latest:?}");
    let via_rest: Operation = admin.get(&format!("/v1/{}", started.name)).await;
    assert_eq!(via_rest, latest, "the same operation REST answers");

    // Someone else sees no such operation and cannot start maintenance.
    let mut sam = Browser::open(&app.address).await;
    post_form(
        &admin,
        "/api/fn/admin/set-registration",
        &[
            ("open", "on"),
            ("confirm[currentPassword]", support::ADMIN_PASSWORD),
        ],
    )
    .await;
    let response = sam
        .register(&Register {
            invitation: None,
            email: "sam@example.com".into(),
            name: String::new(),
            password: "a long enough passphrase".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(response.status(), 200);
    let response = post(
        &sam,
        "/api/fn/operations/wait",
        json!({"name": started.name}),
    )
    .await;
    assert_eq!(response.status(), 404);
    // The viewer's Cancel and Delete are forms.
    let form = |browser: &Browser, path: &str, name: &str| {
        browser
            .request(Method::POST, path)
            .form(&[("name", name.to_owned())])
            .send()
    };
    for path in ["/api/fn/operations/cancel", "/api/fn/operations/delete"] {
        let response = form(&sam, path, &started.name).await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
    let response = post_form(
        &sam,
        "/api/fn/operations/maintenance",
        &[("task", "backup")],
    )
    .await;
    assert_eq!(response.status(), 403);
    let response = post(
        &admin,
        "/api/fn/operations/wait",
        json!({"name": "backups/1"}),
    )
    .await;
    assert_eq!(response.status(), 404);

    // Cancelling a finished one changes nothing; deleting forgets it.
    let response = form(&admin, "/api/fn/operations/cancel", &started.name)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let response = form(&admin, "/api/fn/operations/delete", &started.name)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        admin
            .status(Method::GET, &format!("/v1/{}", started.name))
            .await,
        404
    );
}

#[tokio::test]
async fn the_data_page_previews_and_imports_through_server_functions() {
    use support::browser::{file_form, location};
    use support::form_refusal::refusal_in;

    let (app, admin) = with_admin(&[]).await;
    due_today(&admin, "Water").await;
    let csv = admin.text("/api/data/bills.csv").await;
    const PREVIEW: &str = "/api/fn/data/bills-preview";
    let bills_form = |browser: &Browser, from: &str, file: &str| {
        browser.file_form_post_from(
            PREVIEW,
            "/data",
            &[("csrf_token", &browser.csrf), ("from", from)],
            ("file", "bills.csv", file.as_bytes()),
        )
    };
    let import_form = |browser: &Browser, id: &str, page: &str| {
        browser
            .form_post_from("/api/fn/data/bills-import", page)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("csrf_token={}&id={id}", browser.csrf))
    };

    // As the page posts it with JavaScript: the kept file's id and its
    // preview, which the page at `?bills=<id>` reads again.
    let (content_type, body) = file_form(
        &[("csrf_token", &admin.csrf), ("from", "")],
        ("file", "bills.csv", csv.as_bytes()),
    );
    let response = admin
        .request(Method::POST, PREVIEW)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let kept: KeptImport = response.json().await.unwrap();
    assert_eq!((kept.preview.valid, kept.preview.invalid), (1, 0));
    assert_eq!(kept.preview.rows[0].name, "Water");
    assert_eq!(kept.id.len(), 32);
    let again: ImportPreview = admin
        .get(&format!("/api/fn/data/bills-kept?id={}", kept.id))
        .await;
    assert_eq!(again, kept.preview);

    // Another person cannot read or import it.
    let other = support::plain_user(&app, &admin, "other@example.com").await;
    assert_eq!(
        other
            .status(
                Method::GET,
                &format!("/api/fn/data/bills-kept?id={}", kept.id)
            )
            .await,
        404
    );

    // Without JavaScript: an app Tally does not know is refused at once,
    // naming the field.
    let refused = bills_form(&admin, "quicken", &csv).send().await.unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "from");

    // A file with a bad row: previewed with its problem, and its import
    // refused with the row named; nothing is written.
    let mut lines: Vec<&str> = csv.lines().collect();
    let broken = lines[1].replacen("Water", "", 1);
    lines[1] = &broken;
    let bad = lines.join("\n");
    let previewed = bills_form(&admin, "", &bad).send().await.unwrap();
    let at = location(&previewed);
    let bad_id = at
        .strip_prefix("/data?bills=")
        .and_then(|rest| rest.strip_suffix("#import-title"))
        .unwrap_or_else(|| panic!("the Data page at the kept file: {at}"))
        .to_owned();
    let page = admin.page_at(&at).await;
    assert!(page.contains("0 rows ready, 1 with problems."), "{page}");
    assert!(page.contains("Fix the file and choose it again"));
    let page_address = at.split('#').next().unwrap();
    let refused = import_form(&admin, &bad_id, page_address)
        .send()
        .await
        .unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert!(
        refusal.field_violations()[0].field.starts_with("rows[0]."),
        "{refusal:?}"
    );
    assert_eq!(admin.get::<BillList>("/api/bills").await.bills.len(), 1);

    // The good file: imported, the page says so, and the kept file is gone.
    let refused = import_form(&other, &kept.id, "/data").send().await.unwrap();
    assert_eq!(
        refusal_in(&location(&refused))
            .expect("a refusal")
            .error
            .status,
        "NOT_FOUND"
    );
    let imported = import_form(&admin, &kept.id, "/data").send().await.unwrap();
    assert_eq!(
        location(&imported),
        "/data?form=bills-imported#import-title"
    );
    assert_eq!(admin.get::<BillList>("/api/bills").await.bills.len(), 2);
    assert!(admin
        .page_at("/data?form=bills-imported")
        .await
        .contains("The bills were imported."));
    let twice = import_form(&admin, &kept.id, "/data").send().await.unwrap();
    assert!(
        refusal_in(&location(&twice)).is_some(),
        "imported once only"
    );
    assert_eq!(admin.get::<BillList>("/api/bills").await.bills.len(), 2);

    // The reads the bill pages load beside: spending and the catalog.
    let spending: Spending = admin.get("/api/fn/spending").await;
    assert_eq!(spending.months.len(), 6);
    let catalog: Catalog = admin.get("/api/fn/catalog").await;
    assert!(!catalog.services.is_empty());
}

#[tokio::test]
async fn signing_out_through_the_server_function_clears_the_cookie_and_ends_sessions() {
    let (app, admin) = with_admin(&[]).await;
    let other = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let third = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;

    // Here only: this session ends and its cookie is cleared; others stay.
    let response = post(&other, "/api/fn/sign-out", json!({"everywhere": false})).await;
    assert_eq!(response.status(), 200);
    let cleared = support::browser::set_cookie_of(&response, "tally_session").unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(other.status(Method::GET, "/api/auth/me").await, 401);
    assert_eq!(admin.status(Method::GET, "/api/auth/me").await, 200);

    // Everywhere: every session of the user ends.
    let response = post(&admin, "/api/fn/sign-out", json!({"everywhere": true})).await;
    assert_eq!(response.status(), 200);
    assert_eq!(admin.status(Method::GET, "/api/auth/me").await, 401);
    assert_eq!(third.status(Method::GET, "/api/auth/me").await, 401);
}

#[tokio::test]
async fn signing_in_through_the_server_function_keeps_the_rules_and_sets_the_cookie() {
    let (app, _admin) = with_admin(&[]).await;
    let mut visitor = Browser::open(&app.address).await;
    let sign_in = |password: &'static str| {
        [
            ("request[email]", ADMIN_EMAIL),
            ("request[password]", password),
        ]
    };

    // No CSRF token: refused, as a login form on another site would be.
    let response = visitor
        .request_without_csrf(Method::POST, "/api/fn/sign-in")
        .form(&sign_in(ADMIN_PASSWORD))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert!(support::browser::set_cookie_of(&response, "tally_session").is_none());

    // A wrong password: 401 in the error body, no session.
    let response = post_form(&visitor, "/api/fn/sign-in", &sign_in("wrong password")).await;
    assert_eq!(response.status(), 401);
    assert!(support::browser::set_cookie_of(&response, "tally_session").is_none());
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.error.status, "UNAUTHENTICATED");

    // The right one: the answer REST gives, and a session cookie that works.
    let response = post_form(&visitor, "/api/fn/sign-in", &sign_in(ADMIN_PASSWORD)).await;
    assert_eq!(response.status(), 200);
    let cookie = support::browser::set_cookie_of(&response, "tally_session").unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    // With the CSRF token bound to the new session, which the answer sets.
    visitor.keep_cookies(&response);
    let answer: SignInAnswer = response.json().await.unwrap();
    assert!(matches!(answer, SignInAnswer::SignedIn(Me { ref user }) if user.is_admin()));
    let me: Me = visitor.get("/api/auth/me").await;
    assert_eq!(me.user.email, ADMIN_EMAIL);

    // The second step with no pending sign-in is refused like a password.
    let response = post_form(
        &visitor,
        "/api/fn/sign-in/code",
        &[
            ("request[challenge]", "made-up"),
            ("request[code]", "123456"),
        ],
    )
    .await;
    assert_eq!(response.status(), 401);
    // An empty code is named before anything is tried.
    let response = post_form(
        &visitor,
        "/api/fn/sign-in/code",
        &[("request[challenge]", "made-up"), ("request[code]", " ")],
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "code");
    // So is an empty email or password, on the first step.
    let response = post_form(
        &visitor,
        "/api/fn/sign-in",
        &[("request[email]", ""), ("request[password]", "")],
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "email");
    let response = post(
        &visitor,
        "/api/fn/sign-in/key-options",
        json!({"challenge": "made-up"}),
    )
    .await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "challenge");
}

#[tokio::test]
async fn joining_through_server_functions_reads_the_link_and_signs_the_new_account_in() {
    let (app, admin) = with_admin(&[]).await;
    let invited: Invited = admin
        .call(
            Method::POST,
            "/api/admin/invitations",
            &support::invitation(Some("grace@example.com"), None),
        )
        .await
        .unwrap()
        .unwrap();
    let token = invited
        .link
        .rsplit("invitation=")
        .next()
        .unwrap()
        .to_owned();
    let visitor = Browser::open(&app.address).await;

    let status: RegistrationStatus = visitor
        .get(&format!("/api/fn/registration?invitation={token}"))
        .await;
    assert!(!status.open_registration);
    let preview = status.invitation.unwrap();
    assert_eq!(preview.email.as_deref(), Some("grace@example.com"));
    assert_eq!(preview.role, Role::User);
    let status: RegistrationStatus = visitor.get("/api/fn/registration?invitation=nope").await;
    assert!(status.invitation.is_none());

    // A weak password is named; nothing is created.
    // As the registration form posts it (an empty time zone is none).
    let register = |password: &'static str| {
        [
            ("request[invitation]", token.clone()),
            ("request[email]", "grace@example.com".to_owned()),
            ("request[name]", "Grace".to_owned()),
            ("request[password]", password.to_owned()),
            ("request[timeZone]", String::new()),
        ]
    };
    let post_form = |fields: [(&'static str, String); 5]| {
        visitor
            .request(Method::POST, "/api/fn/register")
            .form(&fields)
            .send()
    };
    let response = post_form(register("short")).await.unwrap();
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.field_violations()[0].field, "password");

    let response = post_form(register(ADMIN_PASSWORD)).await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(support::browser::set_cookie_of(&response, "tally_session").is_some());
    let answer: SignInAnswer = response.json().await.unwrap();
    assert!(
        matches!(answer, SignInAnswer::SignedIn(Me { ref user }) if user.email == "grace@example.com")
    );
    // The link worked once.
    let response = post_form(register(ADMIN_PASSWORD)).await.unwrap();
    assert_eq!(response.status(), 400);
}

#[tokio::test]
async fn the_public_forms_server_functions_store_through_the_same_intake_and_limit() {
    let (app, admin) = with_admin(&[("RATE_LIMIT_PER_MINUTE", "2")]).await;
    let visitor = Browser::open(&app.address).await;

    let config: ContactConfig = visitor.get("/api/fn/contact/config").await;
    assert!(!config.bot_check && config.captcha_site_key.is_none());

    // Every bad field is named, as by `POST /api/leads`. The form's fields
    // need no CSRF token: like `/api/leads` they act for no account.
    let send = |path: &'static str, fields: Vec<(&'static str, &'static str)>| {
        visitor
            .request_without_csrf(Method::POST, path)
            .form(&fields)
            .send()
    };
    let response = send(
        "/api/fn/contact/lead",
        vec![("form[name]", " "), ("form[email]", "nope")],
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    let fields: Vec<String> = error
        .field_violations()
        .into_iter()
        .map(|violation| violation.field)
        .collect();
    assert!(fields.contains(&"name".to_owned()) && fields.contains(&"email".to_owned()));

    // The second submission of the minute is stored and Admin sees it...
    let lead = LeadForm {
        name: "Ada".into(),
        email: "ada@example.com".into(),
        message: "We track forty bills.".into(),
        ..LeadForm::default()
    };
    let response = send(
        "/api/fn/contact/lead",
        vec![
            ("form[name]", "Ada"),
            ("form[email]", "ada@example.com"),
            ("form[message]", "We track forty bills."),
            ("form[company]", ""),
        ],
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 200);
    let created: Created = response.json().await.unwrap();
    let page: SubmissionPage = admin
        .get("/api/fn/admin/submissions?kind=lead&search=")
        .await;
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.items[0].id, created.id);

    // ...and the third, by REST this time, is over the shared limit.
    let response = visitor
        .request(Method::POST, "/api/leads")
        .json(&lead)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let response = send(
        "/api/fn/contact/support",
        vec![
            ("form[name]", "Ada"),
            ("form[email]", "ada@example.com"),
            ("form[subject]", "Export"),
            ("form[message]", "How?"),
        ],
    )
    .await
    .unwrap();
    assert_eq!(response.status(), 429);
}

#[tokio::test]
async fn security_keys_through_server_functions_are_the_users_own_and_need_the_password() {
    let (_app, admin) = with_admin(&[]).await;
    let keys: Vec<KeyInfo> = admin.get("/api/fn/security-keys").await;
    assert!(keys.is_empty());

    // Nobody's key: 404 before any password is asked for.
    let response = post(
        &admin,
        "/api/fn/security-keys/remove",
        json!({"id": 9_999, "request": RemoveKey { current_password: None }}),
    )
    .await;
    assert_eq!(response.status(), 404);

    // Starting a registration gives the browser options for the key.
    let response = post(&admin, "/api/fn/security-keys/start", json!({})).await;
    assert_eq!(response.status(), 200);
    let started: RegistrationStarted = response.json().await.unwrap();
    assert!(!started.ceremony.is_empty());
    assert!(started.options.0["publicKey"]["challenge"].is_string());

    // An answer that is not a key's is refused and nothing is stored.
    let response = post(
        &admin,
        "/api/fn/security-keys/finish",
        json!({"request": {"ceremony": started.ceremony, "name": "Blue", "credential": {"id": "x"}}}),
    )
    .await;
    assert_eq!(response.status(), 400);
    let keys: Vec<KeyInfo> = admin.get("/api/fn/security-keys").await;
    assert!(keys.is_empty());
}

/// Admin → Bank Sync's form as a browser posts it.
async fn save_bank_sync(browser: &Browser, fields: &[(&str, &str)]) -> reqwest::Response {
    browser
        .request(Method::POST, "/api/fn/admin/bank-sync/save")
        .form(fields)
        .send()
        .await
        .unwrap()
}

/// Admin → Bank Sync's "Run the automatic sync now", a form of one button.
async fn run_bank_sync(browser: &Browser) -> reqwest::Response {
    browser
        .request(Method::POST, "/api/fn/admin/bank-sync/run")
        .form(&[("csrf_token", "")])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn admin_bank_sync_saves_and_runs_as_forms_with_the_rest_doors_rules() {
    use app::contract::bank::BankSyncStatus;
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;

    // The box unticked (absent from the form) turns bank sync off.
    let response = save_bank_sync(&admin, &[("interval_hours", " 12 ")]).await;
    assert_eq!(response.status(), 200);
    let saved: BankSyncStatus = response.json().await.unwrap();
    assert!(!saved.enabled);
    assert_eq!(saved.interval_hours, 12);
    let rest: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
    assert_eq!((rest.enabled, rest.interval_hours), (false, 12));
    // Off, the automatic sync cannot be started (the service's one check).
    let response = run_bank_sync(&admin).await;
    assert_eq!(response.status(), 403);

    // Ticked: on again, and the run starts.
    let response = save_bank_sync(&admin, &[("enabled", "on"), ("interval_hours", "6")]).await;
    let saved: BankSyncStatus = response.json().await.unwrap();
    assert_eq!((saved.enabled, saved.interval_hours), (true, 6));
    let response = run_bank_sync(&admin).await;
    assert_eq!(response.status(), 200);

    // What is not a whole number of hours, or out of range, is named.
    for bad in ["six", "", "0", "169", "-1"] {
        let response = save_bank_sync(&admin, &[("enabled", "on"), ("interval_hours", bad)]).await;
        assert_eq!(response.status(), 400, "{bad:?}");
        let error: ErrorBody = response.json().await.unwrap();
        assert_eq!(
            error.field_violations()[0].field,
            "intervalHours",
            "{bad:?}"
        );
    }
    let rest: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
    assert_eq!((rest.enabled, rest.interval_hours), (true, 6));

    // Administrators only; and no token, no change.
    let anonymous = Browser::open(&app.address).await;
    assert_eq!(
        save_bank_sync(&anonymous, &[("interval_hours", "3")])
            .await
            .status(),
        401
    );
    let response = admin
        .request_without_csrf(Method::POST, "/api/fn/admin/bank-sync/save")
        .form(&[("interval_hours", "3")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    let rest: BankSyncStatus = admin.get("/api/admin/bank-sync").await;
    assert_eq!(rest.interval_hours, 6);
}
