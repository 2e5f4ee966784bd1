//! Hardening III (issue 52, finding 2): the mail server (Admin →
//! Notifications) can hand every account over as surely as the sign-in
//! settings can (every confirmation link goes through it), so it takes an
//! administrator at a browser with their password, like invitations: no
//! token of any scope (403), and `currentPassword` asked again (400 naming
//! it). Every change of it or of the sign-in settings is listed on Admin →
//! Status (who, when, which fields, never a value) and mailed to every
//! administrator; a change of the mail server through the one in force
//! before it. The sign-in side's own rules are in `authentication_settings`.

use std::time::Duration;

use app::contract::account::Register;
use app::contract::admin::{Invited, SystemStatus};
use app::contract::error::ErrorBody;
use app::contract::tokens::{CreateToken, CreatedToken};
use app::domain::role::Role;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::browser::Browser;
use crate::support::smtp::{ReceivedMail, SmtpMode, SmtpServer};
use crate::support::{self, with_admin, TestApp, ADMIN_EMAIL, ADMIN_PASSWORD};

const MAIL: &str = "/api/admin/notifications";
const SIGN_IN: &str = "/api/admin/authentication";
const OTHER_ADMIN: &str = "second-admin@example.com";

/// Mail servers on this machine are allowed; one test checks the password
/// more often than the sign-in throttle's default lets a client.
const LOCAL: &[(&str, &str)] = &[
    ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
    ("SIGN_IN_ATTEMPTS_PER_MINUTE", "1000"),
    ("SIGN_IN_ACCOUNT_BURST", "1000"),
];

/// The mail server at `port` on this machine, as Admin → Notifications
/// saves it, with `current_password` when given.
fn server_at(port: u16, current_password: Option<&str>) -> Value {
    let mut body = json!({
        "host": "127.0.0.1",
        "port": port,
        "security": "none",
        "from": "Tally <tally-sender@example.com>",
    });
    if let Some(password) = current_password {
        body["currentPassword"] = json!(password);
    }
    body
}

async fn token(admin: &Browser, scopes: &[&str]) -> String {
    let made: CreatedToken = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/tokens",
            &CreateToken {
                name: "script".into(),
                expires_in_days: None,
                scopes: Some(scopes.iter().map(|scope| (*scope).to_owned()).collect()),
            },
        )
        .await;
    made.token
}

/// Admin → Status's list of changes: (when, what).
async fn listed(admin: &Browser) -> Vec<(String, String)> {
    let status: SystemStatus = admin.get("/api/admin/status").await;
    status
        .sections
        .into_iter()
        .find(|section| section.title == "Settings changes")
        .expect("a section of settings changes")
        .rows
        .into_iter()
        .map(|row| (row.label, row.value))
        .collect()
}

/// A refusal's first field.
fn blamed(refused: &(u16, ErrorBody)) -> String {
    assert_eq!(refused.0, 400, "{refused:?}");
    refused.1.field_violations()[0].field.clone()
}

/// A second administrator, invited by the first.
async fn second_administrator(app: &TestApp, admin: &Browser) {
    let invited: Invited = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/admin/invitations",
            &support::invitation(Some(OTHER_ADMIN), Some(Role::Admin)),
        )
        .await;
    let (_, rest) = invited.link.split_once("invitation=").unwrap();
    let link_token: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let mut other = Browser::open(&app.address).await;
    let joined = other
        .register(&Register {
            invitation: Some(link_token),
            email: OTHER_ADMIN.to_owned(),
            name: String::new(),
            password: "another long passphrase".into(),
            time_zone: None,
        })
        .await;
    assert_eq!(joined.status(), 200);
}

fn to(mail: &ReceivedMail) -> String {
    mail.rcpt_tos.join(",")
}

#[tokio::test]
async fn no_token_changes_the_mail_server_and_a_session_needs_the_password() {
    let smtp = SmtpServer::start(SmtpMode::Plain, None);
    let (app, admin) = with_admin(LOCAL).await;

    // An administrator's token reads the settings; none changes them,
    // whatever its scopes, even with the password.
    for scopes in [
        &["admin"][..],
        &["read", "write", "admin", "admin:backup"][..],
    ] {
        let token = token(&admin, scopes).await;
        let read = app
            .with_token(&token, Method::GET, MAIL)
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200, "{scopes:?}");
        for (path, body) in [
            (MAIL, server_at(smtp.port, Some(ADMIN_PASSWORD))),
            (
                SIGN_IN,
                json!({"linkByEmail": true, "currentPassword": ADMIN_PASSWORD}),
            ),
        ] {
            let refused = app
                .with_token(&token, Method::PUT, path)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(refused.status(), 403, "PUT {path} with {scopes:?}");
            let body: Value = refused.json().await.unwrap();
            assert!(
                body["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("API token"),
                "{body}"
            );
        }
    }

    // A browser session without the password, or with a wrong one: 400
    // naming it, and nothing saved.
    for password in [None, Some(""), Some("not the password")] {
        let refused = admin
            .call::<_, Value>(Method::PUT, MAIL, &server_at(smtp.port, password))
            .await
            .unwrap_err();
        assert_eq!(blamed(&refused), "currentPassword", "{password:?}");
        let mut sign_in = json!({"linkByEmail": true});
        if let Some(password) = password {
            sign_in["currentPassword"] = json!(password);
        }
        let refused = admin
            .call::<_, Value>(Method::PUT, SIGN_IN, &sign_in)
            .await
            .unwrap_err();
        assert_eq!(blamed(&refused), "currentPassword", "{password:?}");
    }
    let shown = admin.json_raw(MAIL).await;
    assert!(shown["smtp"].is_null(), "nothing saved: {shown}");
    let shown = admin.json_raw(SIGN_IN).await;
    assert_eq!(shown["linkByEmail"], false, "nothing saved: {shown}");
    let none = listed(&admin).await;
    assert_eq!(none.len(), 1, "{none:?}");
    assert!(none[0].1.starts_with("none yet"), "{none:?}");
    assert!(smtp.messages().is_empty(), "a refused change mails nobody");
}

#[tokio::test]
async fn each_change_is_listed_by_field_and_mailed_to_every_administrator() {
    let first = SmtpServer::start(SmtpMode::Plain, None);
    let second = SmtpServer::start(SmtpMode::Plain, None);
    let (app, admin) = with_admin(LOCAL).await;
    second_administrator(&app, &admin).await;

    // The first mail server: saved with the password, listed by its
    // fields, never their values, and told through itself (there was none
    // before it) to both administrators.
    let saved: Value = admin
        .call(
            Method::PUT,
            MAIL,
            &server_at(first.port, Some(ADMIN_PASSWORD)),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(saved["smtp"]["host"], "127.0.0.1", "{saved}");
    let changes = listed(&admin).await;
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(
        changes[0].1,
        format!("{ADMIN_EMAIL} changed the mail server: host, port, security, username, from")
    );
    assert!(changes[0].0.ends_with('Z'), "when: {changes:?}");
    let told = first.wait_for(2, Duration::from_secs(20)).await;
    let mut recipients: Vec<String> = told.iter().map(to).collect();
    recipients.sort();
    assert_eq!(recipients, [ADMIN_EMAIL, OTHER_ADMIN]);
    for mail in &told {
        assert_eq!(
            mail.subject().as_deref(),
            Some("Tally: the mail server changed")
        );
        let text = mail.text_part().unwrap();
        assert!(text.contains(ADMIN_EMAIL), "who: {text}");
        assert!(
            text.contains("host, port, security, username, from"),
            "{text}"
        );
        assert!(!text.contains("tally-sender"), "no value: {text}");
    }

    // The sign-in settings: the field that would hand accounts over, listed
    // and told through the mail server in force.
    let changed: Value = admin
        .call(
            Method::PUT,
            SIGN_IN,
            &json!({"linkByEmail": true, "buttonLabel": "Family sign-in", "currentPassword": ADMIN_PASSWORD}),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(changed["linkByEmail"], true, "{changed}");
    let changes = listed(&admin).await;
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(
        changes[0].1,
        format!("{ADMIN_EMAIL} changed the sign-in settings: linkByEmail, buttonLabel"),
        "newest first"
    );
    let told = first.wait_for(4, Duration::from_secs(20)).await;
    let signed: Vec<&ReceivedMail> = told
        .iter()
        .filter(|mail| mail.subject().as_deref() == Some("Tally: the sign-in settings changed"))
        .collect();
    assert_eq!(signed.len(), 2, "{told:?}");
    for mail in signed {
        let text = mail.text_part().unwrap();
        assert!(text.contains("linkByEmail, buttonLabel"), "{text}");
        assert!(!text.contains("Family sign-in"), "no value: {text}");
    }

    // Another mail server: told through the one before it, so the new one
    // (someone else's, perhaps) cannot keep the news of itself from the
    // administrators.
    admin
        .call::<_, Value>(
            Method::PUT,
            MAIL,
            &server_at(second.port, Some(ADMIN_PASSWORD)),
        )
        .await
        .unwrap();
    let told = first.wait_for(6, Duration::from_secs(20)).await;
    let last: Vec<&ReceivedMail> = told[4..].iter().collect();
    for mail in &last {
        let text = mail.text_part().unwrap();
        assert!(text.contains("Fields changed: port."), "{text}");
        assert!(text.contains("before the change"), "{text}");
    }
    assert_eq!(
        listed(&admin).await[0].1,
        format!("{ADMIN_EMAIL} changed the mail server: port")
    );
    // A save that changes nothing is no change.
    admin
        .call::<_, Value>(
            Method::PUT,
            MAIL,
            &server_at(second.port, Some(ADMIN_PASSWORD)),
        )
        .await
        .unwrap();
    assert_eq!(listed(&admin).await.len(), 3);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        second.messages().is_empty(),
        "the new server heard nothing of its own arrival: {:?}",
        second.messages()
    );
}
