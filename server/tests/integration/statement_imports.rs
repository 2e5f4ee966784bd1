//! Statement files as bank transactions, through `/api/imports` on the
//! real server, with files made by the real tools
//! (`tests/fixtures/statements`, written by
//! `scripts/fixtures/make_statements.py`): the preview before anything is
//! written, duplicates across statements, twins kept, refused rows with
//! where and why, the commit as an operation, and the limits.

use app::contract::operations::Operation;
use app::contract::statements::{ImportStarted, StatementImport};
use reqwest::Method;

use crate::support::browser::Browser;
use crate::support::operations::finished;
use crate::support::{plain_user, with_admin};

fn fixture(name: &str) -> Vec<u8> {
    fixture_in("statements", name)
}

fn fixture_in(folder: &str, name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(folder)
            .join(name),
    )
    .unwrap()
}

/// `POST /api/imports?query` with `file`: status and JSON body.
async fn upload(browser: &Browser, query: &str, file: Vec<u8>) -> (u16, serde_json::Value) {
    browser
        .post_file(
            &format!("/api/imports?{query}"),
            "application/octet-stream",
            file,
        )
        .await
}

/// Uploads, waits for the preview, reads it.
pub(crate) async fn previewed(browser: &Browser, name: &str) -> StatementImport {
    previewed_from(browser, "statements", name).await
}

/// [`previewed`] with a fixture of `tests/fixtures/{folder}`.
pub(crate) async fn previewed_from(browser: &Browser, folder: &str, name: &str) -> StatementImport {
    let (status, body) = upload(
        browser,
        &format!("fileName={name}"),
        fixture_in(folder, name),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    let started: ImportStarted = serde_json::from_value(body).unwrap();
    assert_eq!(started.import.state, "uploaded");
    let done = finished(browser, &started.operation).await;
    assert!(done.error.is_none(), "{done:?}");
    browser
        .get(&format!("/api/imports/{}", started.import.id))
        .await
}

pub(crate) async fn commit(browser: &Browser, id: i64) -> Operation {
    let operation: Operation = browser
        .call_expecting(202, Method::POST, &format!("/api/imports/{id}/commit"), &())
        .await;
    finished(browser, &operation).await
}

async fn transactions(browser: &Browser) -> Vec<(String, i64)> {
    let page: serde_json::Value = browser.json_raw("/api/bank/transactions").await;
    page["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["description"].as_str().unwrap().to_owned(),
                row["amountMinor"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn an_ofx_statement_is_previewed_committed_and_never_imported_twice() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let alice = plain_user(&app, &admin, "alice@example.com").await;

    let first = previewed(&alice, "checking.ofx").await;
    assert_eq!(first.state, "previewed");
    assert_eq!(first.format, "ofx");
    let summary = first.preview.clone().unwrap();
    // The two coffees on one day are both there.
    assert_eq!(
        (summary.rows, summary.new_rows, summary.duplicates),
        (4, 4, 0)
    );
    assert_eq!(summary.first_day.as_deref(), Some("2025-01-03"));
    assert_eq!(summary.last_day.as_deref(), Some("2025-01-15"));
    let account = &summary.accounts[0];
    assert_eq!(account.file_account, "000123456789");
    assert_eq!(account.total_minor, 250_000 - 450 - 450 - 120_000);
    assert_eq!(account.balance.as_ref().unwrap().statement_minor, 179_100);
    // Nothing is written before the commit.
    assert!(transactions(&alice).await.is_empty());

    let done = commit(&alice, first.id).await;
    let response = done.response.unwrap();
    assert_eq!(response["added"], "4", "{response}");
    let rows = transactions(&alice).await;
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows.iter()
            .filter(|(name, _)| name == "CORNER COFFEE")
            .count(),
        2
    );
    // Committed once only.
    let again = alice
        .request(Method::POST, &format!("/api/imports/{}/commit", first.id))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 400);

    // The same file again: everything is already there.
    let repeat = previewed(&alice, "checking.ofx").await;
    let summary = repeat.preview.unwrap();
    assert_eq!((summary.new_rows, summary.duplicates), (0, 4));

    // The next statement overlaps by the rent and has a row the bank wrote
    // wrong: one new row, one already there, one refused with its line.
    let next = previewed(&alice, "checking-next.ofx").await;
    let summary = next.preview.clone().unwrap();
    assert_eq!(
        (summary.new_rows, summary.duplicates, summary.refused_count),
        (1, 1, 1)
    );
    assert!(
        summary.refused[0].position.contains("line"),
        "{:?}",
        summary.refused
    );
    let done = commit(&alice, next.id).await;
    assert_eq!(done.response.unwrap()["added"], "1");
    assert_eq!(transactions(&alice).await.len(), 5);

    // Nobody else sees the import.
    let status = admin
        .status(Method::GET, &format!("/api/imports/{}", first.id))
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_card_statement_in_ofx_2_and_a_qif_file_go_to_accounts_of_their_own() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let bob = plain_user(&app, &admin, "bob@example.com").await;

    let card = previewed(&bob, "card.qfx").await;
    let summary = card.preview.clone().unwrap();
    assert_eq!(summary.new_rows, 3);
    assert_eq!(summary.accounts[0].file_account, "4111111111111111");
    commit(&bob, card.id).await;

    let qif = previewed(&bob, "household.qif").await;
    assert_eq!(qif.format, "qif");
    let summary = qif.preview.clone().unwrap();
    assert_eq!(
        (summary.new_rows, summary.refused_count),
        (2, 0),
        "{summary:?}"
    );
    // Day first, as the file's 31/01/2025 shows.
    assert_eq!(summary.first_day.as_deref(), Some("2025-01-31"));
    let split = qif
        .rows
        .iter()
        .find(|row| row.amount_minor == -8_000)
        .unwrap();
    assert_eq!(split.description, "Market Hall");
    assert!(
        split
            .memo
            .as_deref()
            .unwrap_or_default()
            .contains("Groceries"),
        "{split:?}"
    );
    commit(&bob, qif.id).await;
    assert_eq!(transactions(&bob).await.len(), 5);
}

#[tokio::test]
async fn a_file_that_is_not_a_statement_or_too_large_is_refused_with_the_field() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let carol = plain_user(&app, &admin, "carol@example.com").await;
    let (status, body) = upload(&carol, "fileName=notes.txt", b"just some notes".to_vec()).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "file"
    );
    let (status, body) = upload(
        &carol,
        "fileName=x.ofx&dateOrder=sideways",
        fixture("checking.ofx"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "dateOrder"
    );
    // A query that does not parse is refused in the API's JSON error shape.
    let (status, body) = upload(
        &carol,
        "fileName=x.ofx&accountId=abc",
        fixture("checking.ofx"),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT", "{body}");
    let (status, body) = upload(
        &carol,
        "fileName=x.ofx&accountId=999",
        fixture("checking.ofx"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["field"],
        "accountId"
    );
    let (status, body) = upload(&carol, "fileName=big.ofx", vec![b' '; 10 * 1024 * 1024 + 2]).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");

    // A statement cut short: the preview fails saying where; nothing to commit.
    let mut cut = fixture("card.qfx");
    cut.truncate(cut.len() / 2);
    let (status, body) = upload(&carol, "fileName=cut.qfx", cut).await;
    assert_eq!(status, 202, "{body}");
    let started: ImportStarted = serde_json::from_value(body).unwrap();
    let done = finished(&carol, &started.operation).await;
    let error = done.error.expect("the preview fails");
    assert_eq!(error.code, 3, "INVALID_ARGUMENT: {error:?}");
    let import: StatementImport = carol
        .get(&format!("/api/imports/{}", started.import.id))
        .await;
    assert_eq!(import.state, "failed");
    assert!(import.error.is_some());
    let status = carol
        .status(
            Method::POST,
            &format!("/api/imports/{}/commit", started.import.id),
        )
        .await;
    assert_eq!(status, 400);
}

/// A Netflix bill, and the imported `NETFLIX.COM` row matched to it by
/// hand (`remember`: the payee is learnt).
async fn match_netflix_by_hand(browser: &Browser, remember: bool) {
    let bill: serde_json::Value = browser
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Netflix", "amountMinor": 1549, "currency": "USD",
                "cadence": "monthly", "dueDay": 9, "anchorDate": "2025-01-09"}),
        )
        .await;
    let page = browser.json_raw("/api/bank/transactions").await;
    let netflix = page["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["description"] == "NETFLIX.COM")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let matched = browser
        .request(
            Method::POST,
            &format!("/api/bank/transactions/{netflix}/match"),
        )
        .json(&serde_json::json!({"billId": bill["id"], "remember": remember}))
        .send()
        .await
        .unwrap();
    assert_eq!(matched.status(), 200, "{}", matched.text().await.unwrap());
}

#[tokio::test]
async fn imported_rows_are_matched_to_bills_like_synced_ones() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let dana = plain_user(&app, &admin, "dana@example.com").await;

    // Last month's statement: Netflix, matched by hand and remembered.
    let card = previewed(&dana, "card.qfx").await;
    commit(&dana, card.id).await;
    match_netflix_by_hand(&dana, true).await;

    // This month's statement (the same file, its days moved to the last
    // weeks and new ids): its Netflix row meets the rule on import.
    let today = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
    let recent: String = sqlx::query_scalar("SELECT strftime('%Y%m%d', ?, '-5 days')")
        .bind(app::backend::clock::now_sql())
        .fetch_one(&today)
        .await
        .unwrap();
    let file = String::from_utf8(fixture("card.qfx"))
        .unwrap()
        .replace("20250109", &recent)
        .replace("20250112", &recent)
        .replace("20250120", &recent)
        .replace("C-900", "C-910");
    let (status, body) = upload(&dana, "fileName=february.qfx", file.into_bytes()).await;
    assert_eq!(status, 202, "{body}");
    let started: ImportStarted = serde_json::from_value(body).unwrap();
    finished(&dana, &started.operation).await;
    let done = commit(&dana, started.import.id).await;
    let response = done.response.unwrap();
    assert_eq!(response["added"], "3", "{response}");
    assert_eq!(response["matched"], "1", "{response}");
}

#[tokio::test]
async fn a_camt_053_statement_checks_its_balance_and_leaves_pending_entries_out() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let erik = plain_user(&app, &admin, "erik@example.com").await;
    let giro = previewed(&erik, "giro.camt053.xml").await;
    assert_eq!(giro.format, "camt053");
    let summary = giro.preview.clone().unwrap();
    assert_eq!(
        (summary.new_rows, summary.refused_count),
        (3, 1),
        "{summary:?}"
    );
    assert!(
        summary.refused[0].reason.contains("pending"),
        "{:?}",
        summary.refused
    );
    let account = &summary.accounts[0];
    assert_eq!(account.file_account, "DE89370400440532013000");
    assert_eq!(account.currency, "EUR");
    let balance = account.balance.clone().unwrap();
    assert_eq!(
        (
            balance.opening_minor,
            balance.computed_minor,
            balance.statement_minor,
            balance.matches
        ),
        (Some(100_000), Some(186_960), 186_960, Some(true))
    );
    let rent = giro
        .rows
        .iter()
        .find(|row| row.amount_minor == -120_000)
        .unwrap();
    assert_eq!(rent.description, "Hausverwaltung Lind");
    assert_eq!(rent.memo.as_deref(), Some("Miete Februar"));
    commit(&erik, giro.id).await;
    // The imported account, named by the file, with the statement's balance.
    let connections = erik.json_raw("/api/bank/connections").await;
    let account = &connections["connections"][0]["accounts"][0];
    assert_eq!(account["name"], "Girokonto", "{connections}");
    assert_eq!(account["balanceMinor"], 186_960);
    assert_eq!(account["currency"], "EUR");
}

#[tokio::test]
async fn with_bank_sync_off_imported_transactions_are_listed_and_matched() {
    // BANK_SYNC_ENABLED is off by default: statement files are the bank
    // sync of everyone without one.
    let (app, admin) = with_admin(&[]).await;
    let flo = plain_user(&app, &admin, "flo@example.com").await;
    assert_eq!(flo.status(Method::GET, "/api/bank/connections").await, 403);

    let card = previewed(&flo, "card.qfx").await;
    commit(&flo, card.id).await;
    let rows = transactions(&flo).await;
    assert_eq!(rows.len(), 3, "{rows:?}");

    match_netflix_by_hand(&flo, false).await;
    assert_eq!(flo.status(Method::GET, "/api/bank/suggestions").await, 200);
}

/// The import `id` once it has left `from` (a preview or a commit posted
/// without JavaScript, whose operation the test is not handed).
async fn left_state(browser: &Browser, id: i64, from: &str) -> StatementImport {
    for _ in 0..400 {
        let import: StatementImport = browser.get(&format!("/api/imports/{id}")).await;
        if import.state != from {
            return import;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    panic!("import {id} stayed {from}");
}

const UPLOAD_FORM: &str = "/api/fn/data/statement-upload";

/// The Data page's statement form as a browser posts it without
/// JavaScript: the token first, the choices, then the file.
fn statement_form(
    browser: &Browser,
    account: &str,
    file_name: &str,
    file: &[u8],
) -> reqwest::RequestBuilder {
    browser.file_form_post_from(
        UPLOAD_FORM,
        "/data",
        &[
            ("csrf_token", &browser.csrf),
            ("accountId", account),
            ("dateOrder", ""),
        ],
        ("file", file_name, file),
    )
}

/// The upload form as the page's script posts it (the token in its
/// header), with `fields` before the statement.
async fn upload_with(browser: &Browser, fields: &[(&str, &str)]) -> reqwest::Response {
    let statement = fixture("checking.ofx");
    let (content_type, body) =
        crate::support::browser::file_form(fields, ("file", "checking.ofx", statement.as_slice()));
    browser
        .request(Method::POST, UPLOAD_FORM)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_file_form_of_too_many_parts_or_bytes_is_refused_before_it_is_read() {
    use app::contract::error::ErrorBody;

    let (app, admin) = with_admin(&[]).await;
    let frank = plain_user(&app, &admin, "frank@example.com").await;
    let names: Vec<String> = (0..15).map(|n| format!("extra{n}")).collect();
    let mut fields: Vec<(&str, &str)> = vec![("csrf_token", frank.csrf.as_str())];
    fields.extend(names.iter().map(|name| (name.as_str(), "1")));

    // The token, fifteen more fields and the file: seventeen parts.
    let response = upload_with(&frank, &fields).await;
    assert_eq!(response.status(), 400);
    let error: ErrorBody = response.json().await.unwrap();
    assert!(
        error.error.message.contains("more than 16 parts"),
        "{error:?}"
    );

    // A field far longer than the form's file may be: refused unread.
    let long = "x".repeat(app::backend::statements::parse::MAX_BYTES + 64 * 1024);
    let response = upload_with(&frank, &[("csrf_token", &frank.csrf), ("note", &long)]).await;
    assert_eq!(response.status(), 413);
    let error: ErrorBody = response.json().await.unwrap();
    assert_eq!(error.error.code, 413, "{error:?}");

    // Sixteen parts are a form like any other.
    fields.pop();
    let response = upload_with(&frank, &fields).await;
    assert_eq!(response.status(), 200);
    let started: ImportStarted = response.json().await.unwrap();
    assert!(started.import.id > 0, "{started:?}");
}

#[tokio::test]
async fn a_statement_is_previewed_and_imported_without_javascript() {
    use crate::support::browser::location;
    use crate::support::form_refusal::refusal_in;

    let (app, admin) = with_admin(&[]).await;
    let frank = plain_user(&app, &admin, "frank@example.com").await;

    // The Data page renders the form: multipart, to the server function,
    // its token before the file.
    let page = frank.page_at("/data").await;
    let form = page
        .split(&format!("action=\"{UPLOAD_FORM}\""))
        .nth(1)
        .expect("the statement form");
    assert!(
        form.starts_with(" enctype=\"multipart/form-data\""),
        "{form:.200}"
    );
    assert!(
        form.find("name=\"csrf_token\"").unwrap() < form.find("type=\"file\"").unwrap(),
        "the token comes before the file"
    );

    // Not a statement, or an account that is not Frank's: back to the Data
    // page with the field and the reason.
    for (account, name, file, field, reason) in [
        (
            "",
            "notes.txt",
            b"just some notes".to_vec(),
            "file",
            "not an OFX",
        ),
        (
            "424242",
            "checking.ofx",
            fixture("checking.ofx"),
            "accountId",
            "no such bank account",
        ),
        (
            "",
            "empty.ofx",
            Vec::new(),
            "file",
            "choose a statement file",
        ),
    ] {
        let refused = statement_form(&frank, account, name, &file)
            .send()
            .await
            .unwrap();
        let back = location(&refused);
        let refusal = refusal_in(&back).expect("a refusal");
        assert_eq!(refusal.field_violations()[0].field, field, "{back}");
        assert!(frank.page_at(&back).await.contains(reason), "{reason}");
    }

    // The statement: the Data page opens at its import, whose preview it
    // shows with the form that imports it.
    let sent = statement_form(&frank, "", "checking.ofx", &fixture("checking.ofx"))
        .send()
        .await
        .unwrap();
    let at = location(&sent);
    let id: i64 = at
        .strip_prefix("/data?statement=")
        .and_then(|rest| rest.strip_suffix("#statement-title"))
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("the Data page at the import: {at}"));
    assert_eq!(left_state(&frank, id, "uploaded").await.state, "previewed");
    let shown = frank.page_at(&at).await;
    assert!(
        shown.contains("4 rows from 2025-01-03 to 2025-01-15: 4 new, 0 already here, 0 refused."),
        "{shown}"
    );
    assert!(shown.contains("Import 4 new transactions"));
    assert!(
        transactions(&frank).await.is_empty(),
        "nothing is written before the import"
    );

    // Another person's import is not theirs to see or import.
    let grace = plain_user(&app, &admin, "grace@example.com").await;
    let other = grace.page_at(&at).await;
    assert!(other.contains(&format!("no import {id} of yours")));
    assert!(!other.contains("Import 4 new transactions"));

    // "Import": back at the import, which says it is running, then that
    // it is done.
    // A browser's `Referer` leaves the fragment out.
    let page = at.split('#').next().unwrap();
    let commit_form = |browser: &Browser| {
        browser
            .form_post_from("/api/fn/data/commit-statement-import", page)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("csrf_token={}&id={id}", browser.csrf))
    };
    let refused = commit_form(&grace).send().await.unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert_eq!(refusal.error.status, "NOT_FOUND");
    let committed = commit_form(&frank).send().await.unwrap();
    let after = location(&committed);
    assert_eq!(
        after,
        format!("/data?statement={id}&form=statement-import-started#statement-title")
    );
    assert_eq!(left_state(&frank, id, "previewed").await.state, "committed");
    assert!(frank
        .page_at(&after)
        .await
        .contains("These transactions are imported"));
    assert_eq!(transactions(&frank).await.len(), 4);

    // Signed out: to sign in first, then back to the Data page.
    let stranger = Browser::open(&app.address).await;
    let signed_out = statement_form(&stranger, "", "checking.ofx", &fixture("checking.ofx"))
        .send()
        .await
        .unwrap();
    assert_eq!(location(&signed_out), "/login?next=%2Fdata");
}

/// Hardening III, finding 4: a person keeps at most 5 uploads waiting for
/// their import; the 6th is 429 `RESOURCE_EXHAUSTED` with `Retry-After`
/// and says how to clear them. A preview expires after 24 hours, and an
/// expired one makes room. One import job of a person's runs at a time.
#[tokio::test]
async fn a_person_keeps_at_most_five_uploads_waiting_and_one_import_running() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let ivy = plain_user(&app, &admin, "ivy@example.com").await;
    let mut waiting = Vec::new();
    for _ in 0..5 {
        waiting.push(previewed(&ivy, "checking.ofx").await);
    }
    // Each waits for 24 hours.
    let first = &waiting[0];
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let kept_for: i64 = sqlx::query_scalar(
        "SELECT CAST(round((julianday(expires_at) - julianday(created_at)) * 86400) AS INTEGER)
         FROM statement_imports WHERE id = ?1",
    )
    .bind(first.id)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(kept_for, 24 * 3600, "{first:?}");

    let sixth = ivy
        .request(Method::POST, "/api/imports?fileName=checking.ofx")
        .header("content-type", "application/octet-stream")
        .body(fixture("checking.ofx"))
        .send()
        .await
        .unwrap();
    assert_eq!(sixth.status(), 429);
    let retry: u64 = sixth.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        retry > 23 * 3600 && retry <= 24 * 3600,
        "until the oldest expires: {retry}"
    );
    let body: serde_json::Value = sixth.json().await.unwrap();
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("5 uploads waiting") && message.contains("in about 24 hours"),
        "{message}"
    );

    // Someone else is not held up.
    let other = plain_user(&app, &admin, "jo@example.com").await;
    previewed(&other, "checking.ofx").await;

    // The oldest passes its 24 hours: it is forgotten and there is room.
    sqlx::query(
        "UPDATE statement_imports SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
    )
    .bind(first.id)
    .execute(&pool)
    .await
    .unwrap();
    previewed(&ivy, "checking.ofx").await;
    let status = ivy
        .status(Method::GET, &format!("/api/imports/{}", first.id))
        .await;
    assert_eq!(status, 404, "the expired preview is gone");

    // A commit of hers still running: nothing else of hers starts.
    sqlx::query(
        "INSERT INTO operations (id, owner_id, kind, metadata_type)
         VALUES ('running-import', (SELECT id FROM users WHERE email = 'ivy@example.com'),
                 'statement_import', 'tally.v1.StatementImportMetadata')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let status = ivy
        .status_with(
            Method::POST,
            &format!("/api/imports/{}/commit", waiting[1].id),
            &(),
        )
        .await;
    assert_eq!(status, 429);
    pool.close().await;
}

/// `DELETE /api/imports/{id}`: the status and the JSON body (`null` for
/// 204).
async fn discard(browser: &Browser, id: i64) -> (u16, serde_json::Value) {
    let response = browser
        .request(Method::DELETE, &format!("/api/imports/{id}"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    )
}

/// How many rows the import `id` has staged, straight from the database.
async fn staged_rows(pool: &sqlx::SqlitePool, id: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM statement_import_rows WHERE import_id = ?1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

/// Hardening III, finding 4: a waiting preview can be discarded, so a
/// person at the limit of 5 need not wait a day. Its rows go with it;
/// nobody else can discard it (404, as for reading it); a running or
/// committed import is refused with 409; the form works without
/// JavaScript; and a discard makes room for the upload the limit refused.
#[tokio::test]
async fn a_waiting_preview_is_discarded_with_its_rows_and_makes_room() {
    use crate::support::browser::location;
    use crate::support::form_refusal::refusal_in;

    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let kim = plain_user(&app, &admin, "kim@example.com").await;
    let lee = plain_user(&app, &admin, "lee@example.com").await;
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();

    let first = previewed(&kim, "checking.ofx").await;
    assert_eq!(staged_rows(&pool, first.id).await, 4);

    // Someone else's discard is not found, and the import stays.
    let (status, body) = discard(&lee, first.id).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["status"], "NOT_FOUND", "{body}");
    let still: StatementImport = kim.get(&format!("/api/imports/{}", first.id)).await;
    assert_eq!(still.state, "previewed");
    assert_eq!(staged_rows(&pool, first.id).await, 4);

    // While a job of the import runs, it is refused with 409.
    sqlx::query(
        "INSERT INTO operations (id, owner_id, kind, metadata_type, metadata)
         VALUES ('held-import', (SELECT id FROM users WHERE email = 'kim@example.com'),
                 'statement_import', 'tally.v1.StatementImportMetadata', ?1)",
    )
    .bind(serde_json::json!({ "import": first.id.to_string() }).to_string())
    .execute(&pool)
    .await
    .unwrap();
    let (status, body) = discard(&kim, first.id).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["status"], "FAILED_PRECONDITION", "{body}");
    assert_eq!(staged_rows(&pool, first.id).await, 4);
    sqlx::query("DELETE FROM operations WHERE id = 'held-import'")
        .execute(&pool)
        .await
        .unwrap();

    // Her own: 204, then the import and its rows are gone.
    let (status, body) = discard(&kim, first.id).await;
    assert_eq!(status, 204, "{body}");
    let status = kim
        .status(Method::GET, &format!("/api/imports/{}", first.id))
        .await;
    assert_eq!(status, 404);
    assert_eq!(staged_rows(&pool, first.id).await, 0);
    let (status, _) = discard(&kim, first.id).await;
    assert_eq!(status, 404, "discarded once only");

    // A committed import is not a preview to discard.
    let card = previewed(&kim, "card.qfx").await;
    commit(&kim, card.id).await;
    let (status, body) = discard(&kim, card.id).await;
    assert_eq!(status, 409, "{body}");
    let kept: StatementImport = kim.get(&format!("/api/imports/{}", card.id)).await;
    assert_eq!(kept.state, "committed");

    // Five waiting: the sixth upload is refused, saying how to clear them.
    let mut waiting = Vec::new();
    for _ in 0..5 {
        waiting.push(previewed(&kim, "checking.ofx").await);
    }
    let (status, body) = upload(&kim, "fileName=checking.ofx", fixture("checking.ofx")).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("discard a statement's preview"),
        "{message}"
    );

    // The preview offers "Discard this preview", a form that works
    // without JavaScript: someone else's post is refused, hers opens the
    // Data page without the import, saying so, with the upload form.
    let id = waiting[2].id;
    let at = format!("/data?statement={id}");
    let shown = kim.page_at(&at).await;
    assert!(shown.contains("Discard this preview"), "{shown}");
    assert!(shown.contains("action=\"/api/fn/data/discard-statement-import\""));
    let discard_form = |browser: &Browser| {
        browser
            .form_post_from("/api/fn/data/discard-statement-import", &at)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("csrf_token={}&id={id}", browser.csrf))
    };
    let refused = discard_form(&lee).send().await.unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert_eq!(refusal.error.status, "NOT_FOUND");
    assert_eq!(staged_rows(&pool, id).await, 4);
    let discarded = discard_form(&kim).send().await.unwrap();
    let after = location(&discarded);
    assert_eq!(
        after,
        "/data?form=statement-import-discarded#statement-title"
    );
    let page = kim.page_at(&after).await;
    assert!(
        page.contains("Preview discarded. Nothing was imported."),
        "{page}"
    );
    assert!(page.contains(&format!("action=\"{UPLOAD_FORM}\"")));
    assert!(!page.contains("Discard this preview"));
    assert_eq!(staged_rows(&pool, id).await, 0);

    // One fewer waiting: the next upload is taken.
    previewed(&kim, "checking.ofx").await;
    pool.close().await;
}
