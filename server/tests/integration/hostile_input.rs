//! Hostile input over real HTTP: filters built to exhaust the parser's
//! stack, control characters in text fields, and bodies one byte over the
//! API's 1 MiB limit. Each must be refused with Tally's JSON error naming
//! what is wrong, store nothing, and leave the server serving.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use app::contract::account::{Me, Register};
use app::contract::admin::RegistrationSetting;
use app::contract::bills::BillList;
use app::contract::preferences::Preferences;
use reqwest::Method;
use serde_json::{json, Value};
use support::browser::{read, Browser};
use support::{spawn_app, TestApp};
use support::{ADMIN_EMAIL, ADMIN_PASSWORD};

const ONE_MIB: usize = 1024 * 1024;

async fn app() -> (TestApp, Browser) {
    let app = spawn_app(&[
        ("BOOTSTRAP_ADMIN_EMAIL", ADMIN_EMAIL),
        ("BOOTSTRAP_ADMIN_PASSWORD", ADMIN_PASSWORD),
        // The public forms are posted more than the default 5 a minute.
        ("RATE_LIMIT_PER_MINUTE", "100"),
    ])
    .await;
    let browser = Browser::signed_in(&app.address, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    (app, browser)
}

/// The fields named by an error's violations.
fn fields(body: &Value) -> Vec<String> {
    body["error"]["details"][0]["fieldViolations"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|v| v["field"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

async fn healthy(app: &TestApp) {
    let response = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(response.status(), 200, "the server stopped serving");
}

#[tokio::test]
async fn filters_built_to_overflow_the_stack_are_400_naming_filter() {
    let (app, browser) = app().await;
    // '+' is a space in a query string; a URI holds at most 64 KiB, so the
    // NOT chain is 16,000 long rather than 30,000.
    let hostile = [
        ("30,000 parentheses", "(".repeat(30_000)),
        (
            "a NOT chain",
            format!("{}done%3Dtrue", "NOT+".repeat(16_000)),
        ),
        ("a - chain", format!("{}done%3Dtrue", "-".repeat(30_000))),
        // Short enough to pass the length cap, too deep for the depth cap.
        (
            "40 nested parentheses",
            format!("{}done%3Dtrue{}", "(".repeat(40), ")".repeat(40)),
        ),
        ("40 NOTs", format!("{}done%3Dtrue", "NOT+".repeat(40))),
    ];
    for (what, filter) in hostile {
        let response = browser
            .request(Method::GET, &format!("/v1/operations?filter={filter}"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{what}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(fields(&body), ["filter"], "{what}: {body}");
        healthy(&app).await;
    }
    // Within the caps a filter still reads, and SQLite takes what it
    // becomes: the deepest nesting, and the longest OR chain that fits.
    let deepest = format!("{}NOT+done%3Dtrue{}", "(".repeat(31), ")".repeat(31));
    let longest = vec!["kind%3Da"; 199].join("+OR+");
    for fine in [deepest, longest] {
        let list = browser
            .request(Method::GET, &format!("/v1/operations?filter={fine}"))
            .send()
            .await
            .unwrap();
        assert_eq!(list.status(), 200, "{fine}");
    }
}

#[tokio::test]
async fn control_characters_in_text_fields_are_400_naming_the_field() {
    let (app, browser) = app().await;
    let post = |path: &'static str, body: Value| {
        let client = app.client.clone();
        let url = app.url(path);
        async move {
            let response = client.post(url).json(&body).send().await.unwrap();
            let status = response.status().as_u16();
            (
                status,
                response.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    let lead = |name: &str, message: &str| json!({ "name": name, "email": "ada@example.com", "message": message });
    let (status, body) = post("/api/leads", lead("a\u{0}b", "Hello")).await;
    assert_eq!((status, fields(&body)), (400, vec!["name".to_owned()]));
    let (status, body) = post("/api/leads", lead("Ada", "bell \u{7} here")).await;
    assert_eq!((status, fields(&body)), (400, vec!["message".to_owned()]));
    // A multi-line message keeps its line breaks.
    let (status, body) = post("/api/leads", lead("Ada", "one\ntwo\r\nthree")).await;
    assert_eq!(status, 201, "{body}");
    let support = |subject: &str| {
        json!({ "name": "Ada", "email": "ada@example.com", "subject": subject,
                "message": "line one\nline two" })
    };
    let (status, body) = post("/api/support", support("two\nlines")).await;
    assert_eq!((status, fields(&body)), (400, vec!["subject".to_owned()]));
    let (status, body) = post("/api/support", support("Export")).await;
    assert_eq!(status, 201, "{body}");

    let bill = |name: &str, notes: &str| {
        json!({ "name": name, "amountMinor": 1000, "cadence": "monthly", "dueDay": 1,
                "anchorDate": "2026-01-01", "notes": notes })
    };
    let (status, body) = browser
        .send_raw(Method::POST, "/api/bills", bill("Rent\u{1b}[2J", ""))
        .await;
    assert_eq!((status, fields(&body)), (400, vec!["name".to_owned()]));
    let (status, body) = browser
        .send_raw(Method::POST, "/api/bills", bill("Rent", "a\u{0}b"))
        .await;
    assert_eq!((status, fields(&body)), (400, vec!["notes".to_owned()]));
    let (status, body) = browser
        .send_raw(Method::POST, "/api/bills", bill("Rent", "first\nsecond"))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["notes"], "first\nsecond");

    let (status, body) = browser
        .send_raw(
            Method::PUT,
            "/api/profile",
            json!({ "name": "Ada\u{0}", "email": ADMIN_EMAIL }),
        )
        .await;
    assert_eq!((status, fields(&body)), (400, vec!["name".to_owned()]));
    let (status, body) = browser
        .send_raw(Method::POST, "/api/tokens", json!({ "name": "ci\u{8}" }))
        .await;
    assert_eq!((status, fields(&body)), (400, vec!["name".to_owned()]));
    let open: RegistrationSetting = browser
        .call_expecting(
            200,
            Method::PUT,
            "/api/admin/registration",
            &support::registration(true),
        )
        .await;
    assert!(open.open);
    let mut newcomer = Browser::open(&app.address).await;
    let response = newcomer
        .register(&Register {
            invitation: None,
            email: "bea@example.com".into(),
            name: "Bea\u{7f}".into(),
            password: ADMIN_PASSWORD.into(),
            time_zone: None,
        })
        .await;
    let (status, error) = read::<Me>(response).await.unwrap_err();
    assert_eq!(status, 400);
    let named: Vec<String> = error
        .field_violations()
        .into_iter()
        .map(|violation| violation.field)
        .collect();
    assert_eq!(named, ["name"]);
    healthy(&app).await;
}

/// `json` padded with spaces to exactly `size` bytes.
fn padded(json: &Value, size: usize) -> String {
    let text = json.to_string();
    let inner = text.strip_suffix('}').unwrap();
    let padding = " ".repeat(size - text.len());
    let body = format!("{inner}{padding}}}");
    assert_eq!(body.len(), size);
    body
}

#[tokio::test]
async fn every_api_route_refuses_a_body_over_one_mebibyte_with_413() {
    let (app, browser) = app().await;
    let rent = json!({ "name": "Rent", "amountMinor": 1000, "cadence": "monthly",
                       "dueDay": 1, "anchorDate": "2026-01-01" });
    let preferences = json!({ "locale": "de-DE", "currency": "EUR",
                              "timeZone": "Europe/Berlin" });
    let over = [
        (Method::POST, "/api/bills", padded(&rent, ONE_MIB + 1)),
        (
            Method::PUT,
            "/api/profile/preferences",
            padded(&preferences, ONE_MIB + 1),
        ),
        (
            Method::POST,
            "/v1/operations/x:wait",
            padded(&json!({ "timeout": "0s" }), ONE_MIB + 1),
        ),
        (
            Method::POST,
            "/api/data/import",
            format!("{}{}", "x".repeat(ONE_MIB), "\n"),
        ),
    ];
    for (method, path, body) in over {
        let response = browser
            .request(method.clone(), path)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 413, "{method} {path}");
        let json: Value = response.json().await.unwrap();
        assert_eq!(json["error"]["code"], 413, "{method} {path}: {json}");
        assert!(
            json["error"]["message"]
                .as_str()
                .unwrap()
                .contains("larger than"),
            "{json}"
        );
    }
    assert!(browser.get::<BillList>("/api/bills").await.bills.is_empty());
    assert_eq!(
        browser
            .get::<Preferences>("/api/profile/preferences")
            .await
            .locale,
        "en-US",
        "the refused preferences were not stored"
    );

    // Exactly at the limit the body is read.
    let response = browser
        .request(Method::POST, "/api/bills")
        .header("content-type", "application/json")
        .body(padded(&rent, ONE_MIB))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    healthy(&app).await;
}

#[tokio::test]
async fn csv_exports_escape_formulas_and_import_reads_them_back_exactly() {
    let (_app, browser) = app().await;
    let names = ["=1+2", "-5", "+1", "@SUM(A1)", "'=already", "plain"];
    for name in names {
        let (status, body) = browser
            .send_raw(
                Method::POST,
                "/api/bills",
                json!({ "name": name, "amountMinor": 1000, "cadence": "monthly",
                        "dueDay": 1, "anchorDate": "2026-01-01", "notes": "=cmd|' /C calc'!A0" }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let id = body["id"].as_i64().unwrap();
        let (status, body) = browser
            .send_raw(
                Method::POST,
                &format!("/api/bills/{id}/payments"),
                json!({ "method": "-2+3" }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    for path in [
        "/api/data/bills.csv",
        "/api/data/payments.csv",
        "/api/data/months.csv",
    ] {
        let csv = browser.text(path).await;
        for line in csv.lines() {
            for cell in line.split(',') {
                let formula = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
                assert!(
                    !formula || cell.parse::<f64>().is_ok(),
                    "{path}: {cell:?} in {line:?}"
                );
            }
        }
        if path.ends_with("bills.csv") {
            let preview = browser
                .request(Method::POST, "/api/data/import/preview")
                .body(csv)
                .send()
                .await
                .unwrap();
            assert_eq!(preview.status(), 200);
            let preview: Value = preview.json().await.unwrap();
            let mut read: Vec<&str> = preview["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row["name"].as_str().unwrap())
                .collect();
            read.sort_unstable();
            let mut expected = names.to_vec();
            expected.sort_unstable();
            assert_eq!(read, expected);
            assert_eq!(preview["invalid"], 0, "{preview}");
        }
    }
}
