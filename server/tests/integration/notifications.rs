//! Reminders and notifications (issue 29) against the real server: local
//! receivers that speak ntfy's, Gotify's, Discord's and Telegram's APIs, a
//! webhook receiver that checks the Standard Webhooks signature, and a
//! real SMTP server (aiosmtpd) with STARTTLS.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use base64::Engine as _;
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{json, Value};
use sha2::Sha256;

use crate::support;
use app::contract::bills::{BillList, BillRecord};
use app::contract::operations::Operation;
use app::domain::bill::BillForm;
use app::domain::date::Date;
use support::browser::Browser;
use support::operations::finished;
use support::receiver::{Answer, Receiver};
use support::smtp::{SmtpMode, SmtpServer};
use support::{with_admin, TestApp, ADMIN_EMAIL};

/// Local receivers are on loopback over http: allowed for these tests.
const LOCAL: &[(&str, &str)] = &[
    ("NOTIFY_ALLOW_HTTP", "true"),
    ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1, localhost"),
    ("REMINDER_HOUR", "23"),
];

async fn app_with(extra: &[(&str, &str)]) -> (TestApp, Browser) {
    let mut settings = LOCAL.to_vec();
    settings.extend_from_slice(extra);
    with_admin(&settings).await
}

async fn channel(browser: &Browser, body: Value) -> Result<Value, (u16, Value)> {
    let response = browser
        .request(Method::POST, "/api/notifications/channels")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    if status == 201 {
        Ok(body)
    } else {
        Err((status, body))
    }
}

async fn send_test(browser: &Browser, id: &Value) -> Value {
    let response = browser
        .request(
            Method::POST,
            &format!("/api/notifications/channels/{id}/test"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// A bill due `in_days` from today (negative: that many days ago), every
/// 30 days from then.
async fn bill_due(browser: &Browser, name: &str, amount_minor: i64, in_days: i64) -> BillRecord {
    let today = Date::parse(&browser.get::<BillList>("/api/bills").await.today).unwrap();
    let due = today.add_days(in_days).unwrap();
    browser
        .call(
            Method::POST,
            "/api/bills",
            &BillForm {
                name: name.into(),
                amount_minor,
                cadence: "custom_days".into(),
                cadence_interval: Some(30),
                due_day: i64::from(due.day()),
                anchor_date: due.to_string(),
                ..BillForm::default()
            },
        )
        .await
        .unwrap()
        .unwrap()
}

async fn run_now(admin: &Browser) -> Operation {
    let started: Operation = admin
        .call(Method::POST, "/api/admin/notifications/run", &json!({}))
        .await
        .unwrap()
        .unwrap();
    finished(admin, &started).await
}

/// A count of a run's response (proto3 JSON: int64 as a string, zero
/// left out).
fn count(operation: &Operation, field: &str) -> i64 {
    match &operation.response.as_ref().expect("a response")[field] {
        Value::Null => 0,
        value => value.as_str().unwrap().parse().unwrap(),
    }
}

async fn database(app: &TestApp) -> sqlx::SqlitePool {
    app::backend::db::connect(&app.database_path())
        .await
        .unwrap()
}

#[tokio::test]
async fn secrets_are_write_only_and_the_webhook_secret_is_shown_once() {
    let (_app, admin) = app_with(&[]).await;
    let ntfy = channel(
        &admin,
        json!({"kind": "ntfy", "name": "Phone", "settings": {"serverUrl": "http://127.0.0.1:9", "topic": "bills", "token": "tk_ntfy_secret_value"}}),
    )
    .await
    .unwrap();
    assert_eq!(ntfy["settings"]["secretSet"], true);
    assert_eq!(ntfy["settings"]["topic"], "bills");
    let discord = channel(
        &admin,
        json!({"kind": "discord", "name": "Server", "settings": {"webhookUrl": "http://127.0.0.1:9/api/webhooks/1/discord_secret_part"}}),
    )
    .await
    .unwrap();
    let telegram = channel(
        &admin,
        json!({"kind": "telegram", "name": "Bot", "settings": {"botToken": "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789", "chatId": "-1001234567890"}}),
    )
    .await
    .unwrap();
    assert_eq!(telegram["settings"]["chatId"], "-1001234567890");
    let webhook = channel(
        &admin,
        json!({"kind": "webhook", "name": "n8n", "settings": {"url": "http://127.0.0.1:9/hook"}}),
    )
    .await
    .unwrap();
    let secret = webhook["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&secret["whsec_".len()..])
        .unwrap();
    assert_eq!(bytes.len(), 32);
    let listed = admin
        .json_raw("/api/notifications/channels")
        .await
        .to_string();
    for secret_text in [
        "tk_ntfy_secret_value",
        "discord_secret_part",
        "ABCdefGhIJKlmno",
        secret,
    ] {
        assert!(!listed.contains(secret_text), "{secret_text} in {listed}");
        assert!(!ntfy.to_string().contains(secret_text) || secret_text == secret);
    }
    assert!(!discord.to_string().contains("discord_secret_part"));
    assert!(!telegram.to_string().contains("ABCdefGhIJKlmno"));
    // Nor does the page, rendered on the server with its data.
    let page = admin.text("/profile/notifications").await;
    assert!(
        page.contains("Phone") && page.contains("Server"),
        "the channels are on the page"
    );
    for secret_text in [
        "tk_ntfy_secret_value",
        "discord_secret_part",
        "ABCdefGhIJKlmno",
        secret,
    ] {
        assert!(!page.contains(secret_text), "{secret_text} on the page");
    }
}

#[tokio::test]
async fn a_private_or_plain_http_address_is_refused_when_saved_naming_the_field() {
    let (_app, admin) = with_admin(&[]).await;
    let (status, body) = channel(
        &admin,
        json!({"kind": "ntfy", "name": "Local", "settings": {"serverUrl": "http://127.0.0.1:9", "topic": "t"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(status, 400);
    assert!(body.to_string().contains("serverUrl"), "{body}");
    assert!(body.to_string().contains("https"), "{body}");
    let (status, body) = channel(
        &admin,
        json!({"kind": "webhook", "name": "Metadata", "settings": {"url": "https://169.254.169.254/latest"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(status, 400);
    let text = body.to_string();
    assert!(
        text.contains("\"url\"") && text.contains("does not send"),
        "{text}"
    );
    let (status, body) = channel(
        &admin,
        json!({"kind": "gotify", "name": "Home", "settings": {"serverUrl": "https://192.168.1.10", "token": "x"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn the_test_button_sends_through_each_push_service_as_its_api_wants() {
    let receiver = Receiver::start().await;
    let telegram_api = format!("{}/telegram", receiver.url);
    let (_app, admin) = app_with(&[("TELEGRAM_API_URL", &telegram_api)]).await;
    let ntfy = channel(
        &admin,
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": format!("{}/ntfy", receiver.url), "topic": "tally", "token": "tk_1"}}),
    )
    .await
    .unwrap();
    let gotify = channel(
        &admin,
        json!({"kind": "gotify", "name": "gotify", "settings": {"serverUrl": format!("{}/gotify", receiver.url), "token": "app-token"}}),
    )
    .await
    .unwrap();
    let discord = channel(
        &admin,
        json!({"kind": "discord", "name": "discord", "settings": {"webhookUrl": format!("{}/api/webhooks/1/abc", receiver.url)}}),
    )
    .await
    .unwrap();
    let telegram = channel(
        &admin,
        json!({"kind": "telegram", "name": "telegram", "settings": {"botToken": "123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789", "chatId": "42"}}),
    )
    .await
    .unwrap();
    for (id, _) in [
        (&ntfy["id"], "ntfy"),
        (&gotify["id"], "gotify"),
        (&discord["id"], "discord"),
        (&telegram["id"], "telegram"),
    ] {
        let answer = send_test(&admin, id).await;
        assert_eq!(answer, json!({"delivery": {"status": "sent"}}));
    }
    let got = receiver.got();
    assert_eq!(got.len(), 4);
    assert_eq!(got[0].path, "/ntfy/");
    assert_eq!(
        got[0].header("authorization").as_deref(),
        Some("Bearer tk_1")
    );
    let published = got[0].json();
    assert_eq!(published["topic"], "tally");
    assert_eq!(published["title"], "Tally: test message");
    assert!(published["click"].as_str().unwrap().ends_with("/tracker"));
    assert_eq!(got[1].path, "/gotify/message");
    assert_eq!(got[1].header("x-gotify-key").as_deref(), Some("app-token"));
    assert_eq!(got[2].path, "/api/webhooks/1/abc");
    assert_eq!(got[2].json()["embeds"][0]["title"], "Tally: test message");
    assert_eq!(
        got[3].path,
        "/telegram/bot123456:ABCdefGhIJKlmnoPQRstuVWXyz0123456789/sendMessage"
    );
    assert_eq!(got[3].json()["chat_id"], "42");
    let listed = admin.json_raw("/api/notifications/channels").await;
    assert!(
        listed["channels"][0]["lastSuccessAt"].is_string(),
        "{listed}"
    );
    let log = admin.json_raw("/api/notifications/deliveries").await;
    let first = &log["deliveries"][0];
    assert_eq!(first["event"], "test");
    assert_eq!(first["status"], "sent");
    assert_eq!(first["attempts"], 1);
    assert_eq!(first["httpStatus"], 200);
}

#[tokio::test]
async fn failures_are_retried_one_and_four_seconds_apart_but_a_4xx_is_not_and_429_is_honoured() {
    let receiver = Receiver::start().await;
    let (_app, admin) = app_with(&[]).await;
    let hook = channel(
        &admin,
        json!({"kind": "ntfy", "name": "flaky", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    receiver.script(&[Answer(503, None), Answer(502, None), Answer(500, None)]);
    let answer = send_test(&admin, &hook["id"]).await;
    assert_eq!(answer["delivery"]["status"], "failed");
    assert!(answer["delivery"]["error"]
        .as_str()
        .unwrap()
        .contains("500"));
    let got = receiver.got();
    assert_eq!(got.len(), 3);
    let first_wait = got[1].at - got[0].at;
    let second_wait = got[2].at - got[1].at;
    assert!(first_wait >= Duration::from_millis(950), "{first_wait:?}");
    assert!(
        second_wait >= Duration::from_millis(3950),
        "{second_wait:?}"
    );
    let log = admin.json_raw("/api/notifications/deliveries").await;
    assert_eq!(log["deliveries"][0]["attempts"], 3);
    assert_eq!(log["deliveries"][0]["status"], "failed");
    let listed = admin.json_raw("/api/notifications/channels").await;
    assert!(listed["channels"][0]["lastError"]
        .as_str()
        .unwrap()
        .contains("500"));

    receiver.forget();
    receiver.script(&[Answer(404, None)]);
    let answer = send_test(&admin, &hook["id"]).await;
    assert_eq!(answer["delivery"]["status"], "failed");
    assert_eq!(receiver.got().len(), 1, "a 404 is not tried again");

    receiver.forget();
    receiver.script(&[Answer(429, Some(1))]);
    let answer = send_test(&admin, &hook["id"]).await;
    assert_eq!(answer["delivery"]["status"], "sent");
    let got = receiver.got();
    assert_eq!(got.len(), 2);
    assert!(got[1].at - got[0].at >= Duration::from_millis(950));
}

/// The Standard Webhooks check a receiver makes.
fn verify(secret: &str, received: &support::receiver::Received) -> bool {
    let key = base64::engine::general_purpose::STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let id = received.header("webhook-id").unwrap();
    let timestamp = received.header("webhook-timestamp").unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(&received.body);
    let expected = format!(
        "v1,{}",
        base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
    );
    received
        .header("webhook-signature")
        .unwrap()
        .split(' ')
        .any(|signature| signature == expected)
}

#[tokio::test]
async fn a_run_sends_one_digest_per_channel_once_and_a_second_run_sends_nothing() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    let hook = channel(
        &admin,
        json!({"kind": "webhook", "name": "n8n", "settings": {"url": format!("{}/hook", receiver.url)}}),
    )
    .await
    .unwrap();
    let secret = hook["secret"].as_str().unwrap().to_owned();
    // Reminders started a week ago, so yesterday's due date is news.
    sqlx::query("UPDATE notification_preferences SET started_on = date(?, '-7 days')")
        .bind(app::backend::clock::now_sql())
        .execute(&database(&app).await)
        .await
        .unwrap();
    bill_due(&admin, "Rent", 120_000, 2).await;
    bill_due(&admin, "Water", 4_200, -1).await;
    bill_due(&admin, "Later", 999, 10).await;

    let done = run_now(&admin).await;
    assert_eq!(count(&done, "sent"), 1, "{done:?}");
    let got = receiver.got();
    assert_eq!(got.len(), 1, "one digest");
    assert!(verify(&secret, &got[0]), "the signature verifies");
    let body = got[0].json();
    let text = body["data"]["text"].as_str().unwrap();
    assert!(text.contains("Overdue\n• Water: $42.00 was due"), "{text}");
    assert!(text.contains("Due soon\n• Rent: $1,200.00 due"), "{text}");
    assert!(!text.contains("Later"), "outside the lead time: {text}");
    assert_eq!(body["type"], "tally.reminders");

    // The same day again: nothing new to say.
    let again = run_now(&admin).await;
    assert_eq!(count(&again, "sent"), 0);
    assert_eq!(receiver.got().len(), 1);

    // Something new comes alone: the digest lists only what was not sent.
    bill_due(&admin, "Gym", 2_000, 1).await;
    run_now(&admin).await;
    let got = receiver.got();
    assert_eq!(got.len(), 2);
    let text = got[1].json()["data"]["text"].as_str().unwrap().to_owned();
    assert!(text.contains("Gym") && !text.contains("Rent"), "{text}");
}

#[tokio::test]
async fn overdue_within_the_week_before_the_first_channel_is_listed_and_only_older_is_summed_up() {
    let receiver = Receiver::start().await;
    let (_app, admin) = app_with(&[]).await;
    bill_due(&admin, "Old one", 1_250, -3).await;
    bill_due(&admin, "Older one", 100, -5).await;
    bill_due(&admin, "Oldest one", 100, -12).await;
    channel(
        &admin,
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    run_now(&admin).await;
    let got = receiver.got();
    assert_eq!(got.len(), 1, "one digest");
    let message = got[0].json()["message"].as_str().unwrap().to_owned();
    // Within the week: each with its amount and due date, as any overdue
    // bill is told.
    let today = Date::parse(&admin.get::<BillList>("/api/bills").await.today).unwrap();
    assert!(
        message.contains(&format!(
            "Old one: $12.50 was due {} (3 days ago)",
            today.add_days(-3).unwrap()
        )),
        "{message}"
    );
    assert!(message.contains("Older one: $1.00 was due"), "{message}");
    assert!(message.contains("(5 days ago)"), "{message}");
    // Older than the week when reminders started: one line, no amount.
    assert!(
        message.contains(
            "1 payment was already 7 days or more overdue when reminders started: Oldest one"
        ),
        "{message}"
    );
    assert!(!message.contains("12 days ago"), "{message}");

    // The next run says nothing again.
    run_now(&admin).await;
    assert_eq!(receiver.got().len(), 1);
}

#[tokio::test]
async fn a_failed_send_is_recorded_and_delivered_at_the_next_run_once_the_server_is_back() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "gotify", "name": "gotify", "settings": {"serverUrl": receiver.url, "token": "t"}}),
    )
    .await
    .unwrap();
    sqlx::query("UPDATE notification_preferences SET started_on = date(?, '-7 days')")
        .bind(app::backend::clock::now_sql())
        .execute(&database(&app).await)
        .await
        .unwrap();
    bill_due(&admin, "Power", 8_000, 1).await;
    receiver.script(&[Answer(500, None), Answer(500, None), Answer(500, None)]);
    let down = run_now(&admin).await;
    assert_eq!(count(&down, "failed"), 1, "{down:?}");
    let log = admin.json_raw("/api/notifications/deliveries").await;
    assert_eq!(log["deliveries"][0]["status"], "failed");
    assert_eq!(log["deliveries"][0]["httpStatus"], 500);
    let status = admin.json_raw("/api/admin/notifications").await;
    assert_eq!(status["lastFailed"], 1, "{status}");

    let back = run_now(&admin).await;
    assert_eq!(count(&back, "sent"), 1, "{back:?}");
    let got = receiver.got();
    assert_eq!(got.len(), 4);
    assert!(got[3].json()["message"].as_str().unwrap().contains("Power"));
}

#[tokio::test]
async fn one_message_per_event_when_the_digest_is_off() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "discord", "name": "d", "settings": {"webhookUrl": format!("{}/hook", receiver.url)}}),
    )
    .await
    .unwrap();
    let preferences: Value = admin
        .call(
            Method::PUT,
            "/api/notifications/preferences",
            &json!({"leadDays": 5, "digest": false, "includeVerifiedAutopay": false}),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(preferences["leadDays"], 5);
    let refused = admin
        .status_with(
            Method::PUT,
            "/api/notifications/preferences",
            &json!({"leadDays": 15, "digest": true, "includeVerifiedAutopay": false}),
        )
        .await;
    assert_eq!(refused, 400);
    let _ = database(&app).await;
    bill_due(&admin, "A", 100, 1).await;
    bill_due(&admin, "B", 100, 4).await;
    run_now(&admin).await;
    assert_eq!(receiver.got().len(), 2);
}

#[tokio::test]
async fn email_goes_over_starttls_to_the_account_address_with_both_parts_and_a_message_id() {
    let smtp = SmtpServer::start(SmtpMode::StartTls, Some(("tally", "mail-pass")));
    let port = smtp.port.to_string();
    let ca = smtp.ca_pem.to_string_lossy().into_owned();
    let (app, admin) = app_with(&[
        ("SMTP_HOST", "localhost"),
        ("SMTP_PORT", &port),
        ("SMTP_USERNAME", "tally"),
        ("SMTP_PASSWORD", "mail-pass"),
        ("SMTP_FROM", "Tally <tally@example.com>"),
        ("SMTP_CA_FILE", &ca),
    ])
    .await;
    let email = channel(&admin, json!({"kind": "email", "name": "Mail"}))
        .await
        .unwrap();
    assert_eq!(email["confirmed"], true);
    let answer = send_test(&admin, &email["id"]).await;
    assert_eq!(answer["delivery"]["status"], "sent", "{answer}");
    let mails = smtp.wait_for(1, Duration::from_secs(10)).await;
    let mail = &mails[0];
    assert!(mail.tls, "sent under STARTTLS");
    assert_eq!(mail.authenticated.as_deref(), Some("tally"));
    assert_eq!(mail.rcpt_tos, [ADMIN_EMAIL]);
    assert_eq!(mail.subject().as_deref(), Some("Tally: test message"));
    assert!(mail.header("message-id").unwrap().ends_with("@localhost>"));
    assert!(mail.text_part().unwrap().contains("this channel works"));
    assert!(mail.html_part().unwrap().contains("<a href="));

    // Another address gets a confirmation link first, and nothing else
    // until it is opened.
    let other = channel(
        &admin,
        json!({"kind": "email", "name": "Partner", "settings": {"address": "partner@example.com"}}),
    )
    .await
    .unwrap();
    assert_eq!(other["confirmed"], false);
    let mails = smtp.wait_for(2, Duration::from_secs(10)).await;
    let link_mail = &mails[1];
    assert_eq!(link_mail.rcpt_tos, ["partner@example.com"]);
    let text = link_mail.text_part().unwrap();
    let link = text
        .split_whitespace()
        .find(|word| word.contains("/notifications/confirm/"))
        .expect("a confirmation link");
    let path = &link[link.find("/notifications/confirm/").unwrap()..];
    let opened = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(opened.status(), 303);
    let listed = admin.json_raw("/api/notifications/channels").await;
    assert_eq!(listed["channels"][1]["confirmed"], true);

    let admin_view = admin.json_raw("/api/admin/notifications").await;
    assert_eq!(admin_view["smtp"]["fromEnvironment"], true);
    assert_eq!(admin_view["smtp"]["passwordSet"], true);
    assert!(!admin_view.to_string().contains("mail-pass"));
}

/// `POST …/channels/{id}/test` as the page's script sends it, unread.
async fn test_answer(browser: &Browser, id: &Value) -> reqwest::Response {
    browser
        .request(
            Method::POST,
            &format!("/api/notifications/channels/{id}/test"),
        )
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_test_to_an_address_not_yet_confirmed_is_refused_and_sends_nothing() {
    let smtp = SmtpServer::start(SmtpMode::Plain, None);
    let port = smtp.port.to_string();
    let (app, admin) = app_with(&[
        ("SMTP_HOST", "localhost"),
        ("SMTP_PORT", &port),
        ("SMTP_SECURITY", "none"),
        ("SMTP_FROM", "tally@example.com"),
    ])
    .await;
    let other = channel(
        &admin,
        json!({"kind": "email", "name": "Anyone", "settings": {"address": "stranger@example.com"}}),
    )
    .await
    .unwrap();
    assert_eq!(other["confirmed"], false);
    let mails = smtp.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(mails[0].rcpt_tos, ["stranger@example.com"]);

    // However often it is asked (more often than the test limit, too):
    // 409, and the address gets nothing but its confirmation link.
    for _ in 0..6 {
        let refused = test_answer(&admin, &other["id"]).await;
        assert_eq!(refused.status(), 409);
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["status"], "FAILED_PRECONDITION", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not confirmed"),
            "{body}"
        );
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(smtp.messages().len(), 1, "only the confirmation link");
    let log = admin.json_raw("/api/notifications/deliveries").await;
    assert_eq!(log["deliveries"], json!([]), "{log}");

    // Once the address has opened its link, the test goes out (the
    // refusals counted for nothing).
    let text = mails[0].text_part().unwrap();
    let link = text
        .split_whitespace()
        .find(|word| word.contains("/notifications/confirm/"))
        .expect("a confirmation link");
    let path = &link[link.find("/notifications/confirm/").unwrap()..];
    let opened = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(opened.status(), 303);
    let answer = send_test(&admin, &other["id"]).await;
    assert_eq!(answer["delivery"]["status"], "sent", "{answer}");
    let mails = smtp.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(mails[1].rcpt_tos, ["stranger@example.com"]);
    assert_eq!(mails[1].subject().as_deref(), Some("Tally: test message"));
}

#[tokio::test]
async fn test_sends_are_five_per_fifteen_minutes_per_person() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    let ntfy = json!({"kind": "ntfy", "name": "Phone", "settings": {"serverUrl": receiver.url, "topic": "t"}});
    let mine = channel(&admin, ntfy.clone()).await.unwrap();
    for _ in 0..5 {
        let answer = send_test(&admin, &mine["id"]).await;
        assert_eq!(answer["delivery"]["status"], "sent", "{answer}");
    }
    let refused = test_answer(&admin, &mine["id"]).await;
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=180).contains(&wait), "{wait}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED", "{body}");
    // The page's door counts against the same limit.
    let id = mine["id"].to_string();
    let from_page = admin
        .request(Method::POST, "/api/fn/notifications/test-channel")
        .form(&[("id", id.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(from_page.status(), 429);
    assert_eq!(receiver.got().len(), 5, "the refused tests sent nothing");

    // Another person's tests are their own.
    let other = support::plain_user(&app, &admin, "other@example.com").await;
    let theirs = channel(&other, ntfy).await.unwrap();
    let answer = send_test(&other, &theirs["id"]).await;
    assert_eq!(answer["delivery"]["status"], "sent", "{answer}");
    assert_eq!(receiver.got().len(), 6);
}

#[tokio::test]
async fn the_calendar_feed_is_a_real_icalendar_and_a_revoked_one_is_gone() {
    let (app, admin) = app_with(&[]).await;
    bill_due(&admin, "Rent, flat", 120_000, 3).await;
    let feed: Value = admin
        .call_expecting(201, Method::POST, "/api/notifications/calendar", &json!({}))
        .await;
    let url = feed["url"].as_str().unwrap().to_owned();
    // The address stays viewable to its owner (issue 53, rule 11).
    let state: Value = admin.get("/api/notifications/calendar").await;
    assert_eq!(state["url"], url, "{state}");
    let path = &url[url.find("/calendar/").unwrap()..];
    let response = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/calendar; charset=utf-8"
    );
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body = response.text().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("feed.ics");
    std::fs::write(&file, &body).unwrap();
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python");
    let parsed = std::process::Command::new(python)
        .arg("-c")
        .arg(
            "import sys, icalendar\n\
             cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())\n\
             events = [e for e in cal.walk('VEVENT')]\n\
             print(len(events))\n\
             print(events[0]['SUMMARY'])\n\
             print(events[0]['UID'])\n\
             print(events[0]['DTSTART'].dt.isoformat())",
        )
        .arg(&file)
        .output()
        .expect("the project's .venv (scripts/setup.sh)");
    assert!(
        parsed.status.success(),
        "{}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    let out = String::from_utf8(parsed.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let count: usize = lines[0].parse().unwrap();
    assert!(
        (12..=15).contains(&count),
        "{count} events a month back to a year ahead"
    );
    assert_eq!(lines[1], "Rent, flat: $1,200.00 (due)");
    assert!(lines[2].starts_with("bill-"));
    // The same feed twice has the same UIDs.
    let again = app
        .client
        .get(app.url(path))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let uids = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("UID:"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(uids(&body), uids(&again));

    let revoked = admin
        .request(Method::DELETE, "/api/notifications/calendar")
        .send()
        .await
        .unwrap();
    assert_eq!(revoked.status(), 204);
    let gone = app.client.get(app.url(path)).send().await.unwrap();
    assert_eq!(gone.status(), 404);
    let state: Value = admin.get("/api/notifications/calendar").await;
    assert_eq!(state, json!({"createdAt": null, "url": null}));

    // Replacing it: the new address is the one shown, the old one is gone.
    let first: Value = admin
        .call_expecting(201, Method::POST, "/api/notifications/calendar", &json!({}))
        .await;
    let second: Value = admin
        .call_expecting(201, Method::POST, "/api/notifications/calendar", &json!({}))
        .await;
    assert_ne!(first["url"], second["url"]);
    let state: Value = admin.get("/api/notifications/calendar").await;
    assert_eq!(state["url"], second["url"]);
    let old = first["url"].as_str().unwrap();
    let old = app
        .client
        .get(app.url(&old[old.find("/calendar/").unwrap()..]))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 404);
    // Another person never sees it.
    let other = support::plain_user(&app, &admin, "feed-neighbour@example.com").await;
    let theirs: Value = other.get("/api/notifications/calendar").await;
    assert_eq!(theirs["url"], Value::Null);
}

#[tokio::test]
async fn a_run_asked_for_while_one_runs_is_that_run() {
    let receiver = Receiver::start().await;
    let (_app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "ntfy", "name": "slow", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    bill_due(&admin, "Rent", 100, 1).await;
    receiver.script(&[Answer(503, None), Answer(200, None)]);
    let first: Operation = admin
        .call(Method::POST, "/api/admin/notifications/run", &json!({}))
        .await
        .unwrap()
        .unwrap();
    let second: Operation = admin
        .call(Method::POST, "/api/admin/notifications/run", &json!({}))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.name, second.name);
    assert!(first.metadata["@type"]
        .as_str()
        .unwrap()
        .ends_with("tally.v1.NotificationsRunMetadata"));
    finished(&admin, &first).await;
    assert_eq!(receiver.got().len(), 2);
}

#[tokio::test]
async fn failed_autopay_a_different_charge_and_a_bank_connection_that_stops_and_recovers() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    let netflix = bill_due(&admin, "Streaming", 1_549, 20).await;
    let pool = database(&app).await;
    // What bank sync leaves behind: a connection in error, a returned
    // autopay debit, and a bank-matched charge at a new price.
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "INSERT INTO bank_connections (id, user_id, institution, access_secret, status)
             VALUES (1, 1, 'First Bank', 'sealed', 'error');
         INSERT INTO bank_accounts (id, connection_id, user_id, provider_account_id, name)
             VALUES (1, 1, 1, 'ACT-1', 'Checking');
         INSERT INTO transactions (id, user_id, account_id, provider_transaction_id, posted_at,
                 amount_cents, description, bill_id)
             VALUES (1, 1, 1, 'T1', strftime('%Y-%m-%dT%H:%M:%SZ', '{now}', '-1 day'), -1799,
                 'NETFLIX.COM', {id});
         INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method, transaction_id)
             VALUES ({id}, 1, 1799, date('{now}', '-1 day'), 'bank', 1);
         INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method, autopay_failure)
             VALUES ({id}, 1, 0, date('{now}', '-2 days'), 'autopay', 1);",
        id = netflix.id,
        now = app::backend::clock::now_sql(),
    )))
    .execute(&pool)
    .await
    .unwrap();
    run_now(&admin).await;
    let got = receiver.got();
    assert_eq!(got.len(), 1);
    let message = got[0].json()["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("Autopay failed\n• Streaming: the autopay debit of $15.49"),
        "{message}"
    );
    assert!(
        message.contains("Bank sync stopped\n• First Bank: bank sync stopped working"),
        "{message}"
    );
    assert!(
        message.contains("Charged a different amount\n• Streaming: charged $17.99"),
        "{message}"
    );
    assert!(message.contains("$15.49 expected"), "{message}");

    // Still failing the next day: not told again.
    run_now(&admin).await;
    assert_eq!(receiver.got().len(), 1);

    sqlx::query("UPDATE bank_connections SET status = 'active' WHERE id = 1")
        .execute(&pool)
        .await
        .unwrap();
    run_now(&admin).await;
    let got = receiver.got();
    assert_eq!(got.len(), 2);
    let message = got[1].json()["message"].as_str().unwrap().to_owned();
    assert!(
        message.contains("First Bank: bank sync works again"),
        "{message}"
    );
    let events: Vec<String> = admin.json_raw("/api/notifications/deliveries").await["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|delivery| delivery["event"].as_str().unwrap().to_owned())
        .collect();
    for event in [
        "autopay_failed",
        "bank_sync_failed",
        "price_changed",
        "bank_sync_recovered",
    ] {
        assert!(events.iter().any(|e| e == event), "{event} in {events:?}");
    }
}

#[tokio::test]
async fn sends_are_counted_by_kind_and_result_for_metrics_and_admin_status() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[("METRICS_TOKEN", "a-metrics-token-for-tests")]).await;
    let hook = channel(
        &admin,
        json!({"kind": "gotify", "name": "g", "settings": {"serverUrl": receiver.url, "token": "t"}}),
    )
    .await
    .unwrap();
    send_test(&admin, &hook["id"]).await;
    receiver.script(&[Answer(404, None)]);
    send_test(&admin, &hook["id"]).await;
    let metrics = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth("a-metrics-token-for-tests")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("tally_notifications_sent_total{kind=\"gotify\",result=\"sent\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("tally_notifications_sent_total{kind=\"gotify\",result=\"failed\"} 1"));
    let status: Value = admin.json_raw("/api/admin/status").await;
    let rows = status["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|section| section["title"] == "Notifications")
        .unwrap()["rows"]
        .to_string();
    assert!(rows.contains("1 sent, 1 failed"), "{rows}");
    assert!(rows.contains("the server answered 404"), "{rows}");
}

#[tokio::test]
async fn a_row_a_crashed_run_left_claimed_waits_for_its_lease_then_goes_out_once() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    bill_due(&admin, "Rent", 100, 1).await;
    let pool = database(&app).await;
    // A run recorded the event and claimed it, then the process died
    // before recording the send.
    receiver.script(&[Answer(500, None), Answer(500, None), Answer(500, None)]);
    run_now(&admin).await;
    assert_eq!(receiver.got().len(), 3);
    sqlx::query(
        "UPDATE notification_deliveries SET claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    )
    .execute(&pool)
    .await
    .unwrap();
    receiver.forget();
    let held = run_now(&admin).await;
    assert_eq!(count(&held, "sent"), 0);
    assert!(receiver.got().is_empty(), "held by the other run's claim");
    sqlx::query(
        "UPDATE notification_deliveries
         SET claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-11 minutes')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let taken_over = run_now(&admin).await;
    assert_eq!(count(&taken_over, "sent"), 1);
    assert_eq!(receiver.got().len(), 1);
    run_now(&admin).await;
    assert_eq!(receiver.got().len(), 1, "once, not again");
}

async fn email_over(mode: SmtpMode, security: &str) {
    let smtp = SmtpServer::start(mode, None);
    let port = smtp.port.to_string();
    let ca = smtp.ca_pem.to_string_lossy().into_owned();
    let mut settings = vec![
        ("SMTP_HOST", "localhost"),
        ("SMTP_PORT", port.as_str()),
        ("SMTP_SECURITY", security),
        ("SMTP_FROM", "tally@example.com"),
    ];
    if mode != SmtpMode::Plain {
        settings.push(("SMTP_CA_FILE", &ca));
    }
    let (_app, admin) = app_with(&settings).await;
    let email = channel(&admin, json!({"kind": "email", "name": "Mail"}))
        .await
        .unwrap();
    let answer = send_test(&admin, &email["id"]).await;
    assert_eq!(answer["delivery"]["status"], "sent", "{answer}");
    let mails = smtp.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(mails[0].tls, mode != SmtpMode::Plain);
    assert_eq!(mails[0].rcpt_tos, [ADMIN_EMAIL]);
}

#[tokio::test]
async fn email_goes_over_implicit_tls_too() {
    email_over(SmtpMode::Tls, "tls").await;
}

#[tokio::test]
async fn email_without_tls_only_to_a_server_on_this_machine() {
    email_over(SmtpMode::Plain, "none").await;
    // The same setting for a public address is refused when saved (by an
    // administrator with their password: the refusal is the setting's).
    let (_app, admin) = with_admin(&[]).await;
    let refused = admin
        .status_with(
            Method::PUT,
            "/api/admin/notifications",
            &json!({"host": "93.184.216.34", "port": 25, "security": "none", "from": "tally@example.com", "currentPassword": support::ADMIN_PASSWORD}),
        )
        .await;
    assert_eq!(refused, 400);
}

#[tokio::test]
async fn a_server_started_after_the_hour_runs_the_missed_run_once() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    channel(
        &admin,
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": receiver.url, "topic": "t"}}),
    )
    .await
    .unwrap();
    bill_due(&admin, "Rent", 100, 1).await;
    assert!(
        receiver.got().is_empty(),
        "REMINDER_HOUR=23 has not come yet"
    );
    // Restarted with the hour already past today and no run since: the
    // missed run happens at start-up, without anyone asking.
    let mut settings = LOCAL.to_vec();
    settings.retain(|(name, _)| *name != "REMINDER_HOUR");
    settings.push(("REMINDER_HOUR", "0"));
    settings.push(("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL));
    settings.push(("BOOTSTRAP_ADMIN_PASSWORD", support::ADMIN_PASSWORD));
    let app = app.restart(&settings).await;
    let got = receiver.wait_for(1, Duration::from_secs(30)).await;
    assert_eq!(got.len(), 1, "the start-up run sent the digest");
    assert!(got[0].json()["message"].as_str().unwrap().contains("Rent"));
    let admin = Browser::signed_in(&app.address, ADMIN_EMAIL, support::ADMIN_PASSWORD).await;
    let status = admin.json_raw("/api/admin/notifications").await;
    assert!(status["lastRunAt"].is_string(), "{status}");
    // A second start the same day finds today's run and starts none.
    let app = app.restart(&settings).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(receiver.got().len(), 1);
    drop(app);
}

#[tokio::test]
async fn runs_racing_on_one_database_send_each_message_once() {
    use app::backend::notifications::{jobs, Notifier, NotifySettings};
    use app::backend::outbound::{AllowList, Outbound, OutboundSettings};
    use app::backend::secrets::Keyring;
    use std::sync::Arc;

    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    for (kind, settings) in [
        ("ntfy", json!({"serverUrl": receiver.url, "topic": "t"})),
        ("webhook", json!({"url": format!("{}/hook", receiver.url)})),
    ] {
        channel(
            &admin,
            json!({"kind": kind, "name": kind, "settings": settings}),
        )
        .await
        .unwrap();
    }
    bill_due(&admin, "Rent", 120_000, 1).await;
    bill_due(&admin, "Water", 4_200, 2).await;
    // A slow service holds each run in its send while the others start.
    receiver.slow(Duration::from_millis(1500));

    // Two more runs on the same database, as another process would run
    // them: their own notifier, the same data directory's key.
    let pool = database(&app).await;
    let other = Arc::new(Notifier::new(
        NotifySettings {
            allow_http: true,
            ..NotifySettings::default()
        },
        Outbound::from_settings(&OutboundSettings {
            allow_private: false,
            allowed: AllowList::parse("127.0.0.1").unwrap(),
        }),
        Arc::new(Keyring::load(&app.settings.data_dir, None).unwrap()),
        &app.url(""),
    ));
    let outside = |name: &'static str| {
        let (other, pool) = (other.clone(), pool.clone());
        async move {
            let (progress, _) = tokio::sync::watch::channel(jobs::Progress::default());
            jobs::run_operation(&other, &pool, name, &progress, &|| false)
                .await
                .unwrap()
        }
    };
    let (ours, first, second) = tokio::join!(run_now(&admin), outside("race-1"), outside("race-2"));

    let got = receiver.got();
    // Which run wins which channel varies; that no row goes out twice and
    // no digest is split between runs does not.
    assert_eq!(got.len(), 2, "one digest per channel, not one per run");
    let sent = count(&ours, "sent") + first.sent + second.sent;
    assert_eq!(sent, 2, "{ours:?} {first:?} {second:?}");
    assert_eq!(first.failed + second.failed + count(&ours, "failed"), 0);
    for message in &got {
        let text = String::from_utf8_lossy(&message.body);
        assert!(text.contains("Rent") && text.contains("Water"), "{text}");
    }
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT status, attempts FROM notification_deliveries ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows, vec![("sent".to_owned(), 1); 4]);
}

#[tokio::test]
async fn channel_secrets_never_reach_the_log_files_or_stdout() {
    use support::{RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};
    let receiver = Receiver::start().await;
    let telegram_api = format!("{}/telegram", receiver.url);
    let mut server = RunningBinary::start(&[
        ("NOTIFY_ALLOW_HTTP", "true"),
        ("OUTBOUND_ALLOWED_HOSTS", "127.0.0.1"),
        ("REMINDER_HOUR", "23"),
        ("TELEGRAM_API_URL", &telegram_api),
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("RUST_LOG", "debug"),
    ]);
    let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let bot_token = "987654:SECRETbotTOKENzyxwvutsrqponmlkjih";
    let discord_path = "/api/webhooks/77/SECRETdiscordPATH";
    let mut bodies = vec![
        json!({"kind": "ntfy", "name": "ntfy", "settings": {"serverUrl": receiver.url, "topic": "t", "token": "tk_SECRET_ntfy"}}),
        json!({"kind": "gotify", "name": "gotify", "settings": {"serverUrl": receiver.url, "token": "SECRET_gotify_app"}}),
        json!({"kind": "discord", "name": "discord", "settings": {"webhookUrl": format!("{}{discord_path}", receiver.url)}}),
        json!({"kind": "telegram", "name": "telegram", "settings": {"botToken": bot_token, "chatId": "42"}}),
        json!({"kind": "webhook", "name": "hook", "settings": {"url": format!("{}/hook", receiver.url)}}),
    ];
    let mut answers = String::new();
    let mut secrets = vec![
        "tk_SECRET_ntfy".to_owned(),
        "SECRET_gotify_app".to_owned(),
        "SECRETdiscordPATH".to_owned(),
        "SECRETbotTOKEN".to_owned(),
    ];
    let mut ids = Vec::new();
    for body in bodies.drain(..) {
        let created = channel(&admin, body).await.unwrap();
        if let Some(secret) = created["secret"].as_str() {
            // Shown once, in this answer, and nowhere else.
            secrets.push(secret.trim_start_matches("whsec_").to_owned());
        } else {
            answers.push_str(&created.to_string());
        }
        ids.push(created["id"].clone());
    }
    // Every kind fails once for good (a 4xx is not retried), then works
    // from a run: the failures are what gets logged. (The second round is
    // a run's, not five more tests: a person sends at most 5 tests in 15
    // minutes.)
    receiver.script(&[Answer(401, None); 5]);
    for id in &ids {
        answers.push_str(&send_test(&admin, id).await.to_string());
    }
    bill_due(&admin, "Rent", 100, 1).await;
    let done = run_now(&admin).await;
    assert_eq!(count(&done, "sent"), 5, "{done:?}");
    answers.push_str(&serde_json::to_string(&done).unwrap());
    answers.push_str(
        &admin
            .json_raw("/api/notifications/channels")
            .await
            .to_string(),
    );
    answers.push_str(
        &admin
            .json_raw("/api/notifications/deliveries")
            .await
            .to_string(),
    );
    answers.push_str(&admin.json_raw("/api/admin/notifications").await.to_string());
    answers.push_str(&admin.json_raw("/api/admin/status").await.to_string());
    assert_eq!(receiver.got().len(), 10);
    let written = server.stop_and_read_logs();
    assert!(
        written.contains("notification not delivered"),
        "the failures were logged"
    );
    for secret in &secrets {
        assert!(!written.contains(secret.as_str()), "{secret} in the logs");
        assert!(!answers.contains(secret.as_str()), "{secret} in an answer");
    }
}

/// A form post as a browser without JavaScript sends it: cookies, this
/// site's `Origin`, no CSRF header but the token in the `csrf_token` field.
async fn post_form(app: &TestApp, browser: &Browser, endpoint: &str, fields: &[(&str, &str)]) {
    let mut fields = fields.to_vec();
    fields.push(("csrf_token", &browser.csrf));
    let response = browser
        .request_without_csrf(Method::POST, &format!("/api/fn/notifications/{endpoint}"))
        .header("origin", app.url(""))
        .header("referer", app.url("/profile/notifications"))
        .form(&fields)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert!(
        (200..400).contains(&status),
        "{endpoint}: {status} {}",
        response.text().await.unwrap()
    );
}

#[tokio::test]
async fn the_page_picks_events_per_channel_renames_and_pages_the_log_without_javascript() {
    let receiver = Receiver::start().await;
    let (app, admin) = app_with(&[]).await;
    post_form(
        &app,
        &admin,
        "add-channel",
        &[
            ("kind", "ntfy"),
            ("name", "Phone"),
            ("server_url", &receiver.url),
            ("topic", "bills"),
            ("due_soon", "on"),
            ("overdue", "on"),
        ],
    )
    .await;
    let listed = admin.json_raw("/api/notifications/channels").await;
    let phone = &listed["channels"][0];
    assert_eq!(phone["events"], json!(["due_soon", "overdue"]));
    let id = phone["id"].to_string();

    post_form(
        &app,
        &admin,
        "change-channel",
        &[
            ("id", &id),
            ("name", "Kitchen tablet"),
            ("price_changed", "on"),
        ],
    )
    .await;
    let listed = admin.json_raw("/api/notifications/channels").await;
    assert_eq!(listed["channels"][0]["name"], "Kitchen tablet");
    assert_eq!(listed["channels"][0]["events"], json!(["price_changed"]));
    // None ticked is refused, naming the field; the channel keeps its events.
    let refused = admin
        .request(Method::POST, "/api/fn/notifications/change-channel")
        .form(&[("id", id.as_str()), ("name", "Kitchen tablet")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(refused
        .text()
        .await
        .unwrap()
        .contains("choose at least one event"));
    let listed = admin.json_raw("/api/notifications/channels").await;
    assert_eq!(listed["channels"][0]["events"], json!(["price_changed"]));

    // A due-soon bill is not news to a channel that takes only price changes.
    bill_due(&admin, "Rent", 100, 1).await;
    let done = run_now(&admin).await;
    assert_eq!(count(&done, "sent"), 0, "{done:?}");
    assert!(receiver.got().is_empty());

    // 25 test messages: the page shows 20, and "Older" the other 5. Five
    // are sent (the most a person may in 15 minutes), the other 20 written
    // into the log as tests before them would have left it.
    let pool = database(&app).await;
    let channel_id = listed["channels"][0]["id"].as_i64().unwrap();
    for n in 0..20 {
        sqlx::query(
            "INSERT INTO notification_deliveries
                 (user_id, channel_id, event, subject, subject_id, occurrence, line, status, attempts)
             SELECT user_id, id, 'test', 'test', 0, ?, 'Test message', 'sent', 1
             FROM notification_channels WHERE id = ?",
        )
        .bind(format!("earlier-{n}"))
        .bind(channel_id)
        .execute(&pool)
        .await
        .unwrap();
    }
    for _ in 0..5 {
        send_test(&admin, &listed["channels"][0]["id"]).await;
    }
    let first = admin.json_raw("/api/fn/notifications/page").await;
    let page = &first["deliveries"];
    assert_eq!(page["deliveries"].as_array().unwrap().len(), 20, "{first}");
    let token = page["nextPageToken"].as_str().unwrap();
    let older = admin
        .json_raw(&format!("/api/fn/notifications/page?older={token}"))
        .await;
    assert_eq!(
        older["deliveries"]["deliveries"].as_array().unwrap().len(),
        5
    );
    assert!(older["deliveries"]["nextPageToken"].is_null());
    let bad = admin
        .request(Method::GET, "/api/fn/notifications/page?older=x")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}

/// Hardening III, finding 7: a token carried in a path (the calendar feed,
/// the confirmation link) is logged as `…`, in the log files and on
/// stdout alike.
#[tokio::test]
async fn tokens_in_paths_never_reach_the_log_files_or_stdout() {
    use support::{RunningBinary, ADMIN_EMAIL, ADMIN_PASSWORD};
    let mut server = RunningBinary::start(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        ("RUST_LOG", "debug"),
    ]);
    let admin = Browser::signed_in(&server.url(""), ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let feed: serde_json::Value = admin
        .call_expecting(201, Method::POST, "/api/notifications/calendar", &json!({}))
        .await;
    let url = feed["url"].as_str().unwrap().to_owned();
    let path = url[url.find("/calendar/").unwrap()..].to_owned();
    let token = path
        .trim_start_matches("/calendar/")
        .trim_end_matches(".ics")
        .to_owned();
    assert!(token.len() >= 20, "{token}");
    let client = reqwest::Client::new();
    let fetched = client.get(server.url(&path)).send().await.unwrap();
    assert_eq!(fetched.status(), 200);
    let confirm = "SECRETconfirmTOKEN0123456789abcdef";
    let _ = client
        .get(server.url(&format!("/notifications/confirm/{confirm}")))
        .send()
        .await
        .unwrap();
    let written = server.stop_and_read_logs();
    assert!(written.contains("/calendar/….ics"), "the fetch was logged");
    assert!(written.contains("/notifications/confirm/…"));
    assert!(!written.contains(&token), "the feed's token in the logs");
    assert!(
        !written.contains(confirm),
        "the confirmation token in the logs"
    );
}
