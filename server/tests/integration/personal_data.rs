//! "Download my data" and "Import my data" on the real server: the export
//! holds the person's rows and nobody else's, no credential and no bank
//! secret; it imports into a fresh account (here or from an older schema)
//! and exports again identical apart from ids; a file that is not an
//! export is refused with the field and why.

use std::collections::BTreeMap;
use std::path::Path;

use app::backend::personal_data::rules::{Column, Table, APPLICATION_ID, TABLES};
use reqwest::Method;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};

use crate::statement_imports::{commit, previewed};
use crate::support::browser::{location, Browser};
use crate::support::{pay, plain_user, with_admin, TestApp};

async fn download(browser: &Browser) -> Vec<u8> {
    let response = browser
        .request(Method::GET, "/api/data/export.sqlite")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .ends_with(".sqlite\""));
    response.bytes().await.unwrap().to_vec()
}

async fn upload(browser: &Browser, file: Vec<u8>) -> (u16, serde_json::Value) {
    browser
        .post_file("/api/data/import.sqlite", "application/vnd.sqlite3", file)
        .await
}

/// A quarterly water bill, the account's one row in several tests.
async fn add_water(browser: &Browser) {
    let _: serde_json::Value = browser
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Water", "amountMinor": 4_000, "currency": "USD",
                "cadence": "quarterly", "dueDay": 20, "anchorDate": "2026-01-20"}),
        )
        .await;
}

/// The running server's own database, as another program opens it.
async fn live_database(app: &TestApp) -> SqlitePool {
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(SqliteConnectOptions::new().filename(app.database_path()))
        .await
        .unwrap()
}

async fn open(dir: &Path, name: &str, bytes: &[u8]) -> SqlitePool {
    open_with(dir, name, bytes, SqliteConnectOptions::new()).await
}

/// `bytes` written to `dir/name` and opened with `options`.
async fn open_with(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    options: SqliteConnectOptions,
) -> SqlitePool {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options.filename(&path))
        .await
        .unwrap()
}

/// Every value of `table` as SQL text (`quote()`), by column.
async fn rows(pool: &SqlitePool, table: &Table) -> Vec<BTreeMap<&'static str, String>> {
    let columns: Vec<&'static str> = table.columns.iter().map(|(name, _)| *name).collect();
    let quoted: Vec<String> = columns
        .iter()
        .map(|name| format!("quote({name})"))
        .collect();
    let sql = format!("SELECT {} FROM {}", quoted.join(", "), table.name);
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .fetch_all(pool)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            columns
                .iter()
                .enumerate()
                .map(|(index, name)| (*name, row.get::<String, _>(index)))
                .collect()
        })
        .collect()
}

/// The export's content with every id replaced by its rank in its table
/// (an import moves ids by one offset a table, so ranks survive) and the
/// owner left out: two exports of the same data compare equal.
async fn content(pool: &SqlitePool) -> BTreeMap<&'static str, Vec<Vec<String>>> {
    let mut ranks: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let mut all = BTreeMap::new();
    for table in TABLES {
        let found = rows(pool, table).await;
        if let Some((key, _)) = table
            .columns
            .iter()
            .find(|(_, column)| *column == Column::Key)
        {
            let mut ids: Vec<i64> = found.iter().map(|row| row[key].parse().unwrap()).collect();
            ids.sort_unstable();
            ranks.insert(table.name, ids.iter().map(i64::to_string).collect());
        }
        all.insert(table.name, found);
    }
    let rank = |table: &str, id: &str| -> String {
        if id == "NULL" {
            return id.to_owned();
        }
        let position = ranks[table].iter().position(|known| known == id);
        format!(
            "#{}",
            position.unwrap_or_else(|| panic!("{table} has no id {id}"))
        )
    };
    let mut normalised = BTreeMap::new();
    for table in TABLES {
        let mut table_rows: Vec<Vec<String>> = all[table.name]
            .iter()
            .map(|row| {
                table
                    .columns
                    .iter()
                    .filter(|(_, column)| *column != Column::Owner)
                    .map(|(name, column)| match column {
                        Column::Key => rank(table.name, &row[name]),
                        Column::Ref(other) => rank(other, &row[name]),
                        _ => row[name].clone(),
                    })
                    .collect()
            })
            .collect();
        table_rows.sort();
        normalised.insert(table.name, table_rows);
    }
    normalised
}

async fn scalar(pool: &SqlitePool, sql: &str) -> String {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_one(pool)
        .await
        .unwrap()
}

/// Alice's account with something of every kind: bills (one linked to the
/// catalog), payments, a this-time change, preferences, and an imported
/// card statement with its account and transactions.
async fn alices_data(alice: &Browser) {
    let catalog: serde_json::Value = alice.json_raw("/api/catalog?q=Netflix").await;
    let netflix = catalog["services"][0]["id"].as_i64().unwrap();
    let rent: serde_json::Value = alice
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Rent", "amountMinor": 120_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 1, "anchorDate": "2026-01-01"}),
        )
        .await;
    let rent = rent["id"].as_i64().unwrap();
    let _: serde_json::Value = alice
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Netflix", "amountMinor": 1_549, "currency": "USD",
                "cadence": "monthly", "dueDay": 12, "anchorDate": "2026-01-12",
                "subscription": true, "catalogId": netflix, "notes": "family plan, \"4K\""}),
        )
        .await;
    pay(
        alice,
        rent,
        120_000,
        app::domain::date::Date::parse("2026-01-01").unwrap(),
    )
    .await;
    pay(
        alice,
        rent,
        120_000,
        app::domain::date::Date::parse("2026-02-01").unwrap(),
    )
    .await;
    let status = alice
        .status_with(
            Method::PUT,
            &format!("/api/bills/{rent}/months/2026-03"),
            &serde_json::json!({"amountMinor": 125_000, "note": "new lease"}),
        )
        .await;
    assert_eq!(status, 200);
    let status = alice
        .status_with(
            Method::PUT,
            "/api/profile/preferences",
            &serde_json::json!({"locale": "de-DE", "currency": "EUR", "timeZone": "Europe/Berlin"}),
        )
        .await;
    assert_eq!(status, 200);
    let card = previewed(alice, "card.qfx").await;
    commit(alice, card.id).await;
}

#[tokio::test]
async fn an_export_imports_into_a_fresh_account_and_exports_again_the_same() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let alice = plain_user(&app, &admin, "alice@example.com").await;
    let bob = plain_user(&app, &admin, "bob@example.com").await;
    alices_data(&alice).await;
    // Someone else's bill, which must not travel.
    let _: serde_json::Value = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Admin's boat", "amountMinor": 9_900, "currency": "USD",
                "cadence": "monthly", "dueDay": 5, "anchorDate": "2026-01-05"}),
        )
        .await;

    let first = download(&alice).await;
    assert_eq!(
        i32::from_be_bytes(first[68..72].try_into().unwrap()),
        APPLICATION_ID
    );
    let dir = tempfile::tempdir().unwrap();
    let exported = open(dir.path(), "first.sqlite", &first).await;
    assert_eq!(
        scalar(&exported, "SELECT group_concat(email) FROM users").await,
        "alice@example.com"
    );
    assert_eq!(
        scalar(
            &exported,
            "SELECT quote(password_hash) || quote(totp_secret) FROM users"
        )
        .await,
        "NULLNULL"
    );
    assert_eq!(
        scalar(
            &exported,
            "SELECT group_concat(name, '|') FROM (SELECT name FROM bills ORDER BY name)"
        )
        .await,
        "Netflix|Rent"
    );
    assert_eq!(
        scalar(
            &exported,
            "SELECT group_concat(access_secret || '/' || status) FROM bank_connections"
        )
        .await,
        "/disconnected",
        "the bank's access secret stays behind"
    );
    assert_eq!(
        scalar(&exported, "SELECT CAST(COUNT(*) AS TEXT) FROM transactions").await,
        "3"
    );
    assert_eq!(
        scalar(
            &exported,
            "SELECT c.slug FROM bills b JOIN subscription_catalog c ON c.id = b.catalog_id"
        )
        .await,
        "netflix"
    );
    for table in [
        "sessions",
        "api_tokens",
        "login_history",
        "notification_channels",
    ] {
        assert_eq!(
            scalar(
                &exported,
                &format!("SELECT CAST(COUNT(*) AS TEXT) FROM {table}")
            )
            .await,
            "0",
            "{table}"
        );
    }
    let settings = scalar(
        &exported,
        "SELECT CAST(COUNT(*) AS TEXT) FROM settings WHERE user_id IS NULL",
    )
    .await;
    assert_eq!(settings, "0", "no setting of the server travels");

    let (status, body) = upload(&bob, first.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["bills"], 2, "{body}");
    assert_eq!(body["payments"], 2, "{body}");
    assert_eq!(body["billMonths"], 1, "{body}");
    assert_eq!(body["transactions"], 3, "{body}");
    assert_eq!(body["bankAccounts"], 1, "{body}");
    let preferences: serde_json::Value = bob.json_raw("/api/profile/preferences").await;
    assert_eq!(preferences["currency"], "EUR");
    assert_eq!(preferences["timeZone"], "Europe/Berlin");
    let bills: serde_json::Value = bob.json_raw("/api/bills").await;
    assert_eq!(bills["bills"].as_array().map(Vec::len), Some(2), "{bills}");

    let second = download(&bob).await;
    let again = open(dir.path(), "second.sqlite", &second).await;
    assert_eq!(content(&exported).await, content(&again).await);
    for column in ["locale", "currency", "time_zone"] {
        let sql = format!("SELECT {column} FROM users");
        assert_eq!(
            scalar(&exported, &sql).await,
            scalar(&again, &sql).await,
            "{column}"
        );
    }
    assert_eq!(
        scalar(&again, "SELECT email FROM users").await,
        "bob@example.com"
    );

    // Alice's own account is untouched by Bob's import.
    let mine: serde_json::Value = alice.json_raw("/api/bills").await;
    assert_eq!(mine["bills"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn an_export_of_an_older_schema_is_upgraded_and_imported() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let carol = plain_user(&app, &admin, "carol@example.com").await;
    let dan = plain_user(&app, &admin, "dan@example.com").await;
    add_water(&carol).await;
    let file = download(&carol).await;

    // The same export as the previous schema version wrote it.
    let dir = tempfile::tempdir().unwrap();
    let pool = open(dir.path(), "older.sqlite", &file).await;
    let undone = app::backend::migrate::Migrator::default()
        .rollback_latest(&pool)
        .await
        .unwrap();
    pool.close().await;
    let older = std::fs::read(dir.path().join("older.sqlite")).unwrap();
    assert_ne!(older, file, "{undone} was undone");

    let (status, body) = upload(&dan, older).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["bills"], 1, "{body}");
    let bills: serde_json::Value = dan.json_raw("/api/bills").await;
    assert_eq!(bills["bills"][0]["name"], "Water");
}

#[tokio::test]
async fn a_file_that_is_not_a_personal_export_is_refused_with_why() {
    let (app, admin) = with_admin(&[]).await;
    let erin = plain_user(&app, &admin, "erin@example.com").await;
    let field = |body: &serde_json::Value| {
        (
            body["error"]["details"][0]["fieldViolations"][0]["field"].clone(),
            body["error"]["details"][0]["fieldViolations"][0]["description"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
    };

    let (status, body) = upload(&erin, b"name,amount\nRent,1200\n".to_vec()).await;
    assert_eq!(status, 400, "{body}");
    let (name, why) = field(&body);
    assert_eq!(name, "file");
    assert!(why.contains("not a SQLite database"), "{why}");

    // The whole database of the server is not one person's export.
    let whole = std::fs::read(app.database_path()).unwrap();
    let (status, body) = upload(&erin, whole).await;
    assert_eq!(status, 400, "{body}");
    assert!(field(&body).1.contains("whole database"), "{body}");

    // An export with a trigger of its own is not Tally's schema.
    let file = download(&erin).await;
    let dir = tempfile::tempdir().unwrap();
    let pool = open(dir.path(), "planted.sqlite", &file).await;
    sqlx::raw_sql(
        "CREATE TRIGGER promote AFTER INSERT ON bills BEGIN UPDATE users SET role = 'admin'; END",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let planted = std::fs::read(dir.path().join("planted.sqlite")).unwrap();
    let (status, body) = upload(&erin, planted).await;
    assert_eq!(status, 400, "{body}");
    assert!(field(&body).1.contains("promote"), "{body}");

    // Two accounts in one file.
    let pool = open(dir.path(), "two.sqlite", &file).await;
    sqlx::raw_sql("INSERT INTO users (email) VALUES ('mallory@example.com')")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let two = std::fs::read(dir.path().join("two.sqlite")).unwrap();
    let (status, body) = upload(&erin, two).await;
    assert_eq!(status, 400, "{body}");
    assert!(field(&body).1.contains("2 accounts"), "{body}");

    // Over 64 MiB, by its declared length.
    let response = erin
        .request(Method::POST, "/api/data/import.sqlite")
        .header("content-type", "application/vnd.sqlite3")
        .body(vec![0u8; 64 * 1024 * 1024 + 2])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);

    // Signed out: no export.
    let stranger = Browser::open(&app.address).await;
    assert_eq!(
        stranger
            .status(Method::GET, "/api/data/export.sqlite")
            .await,
        401
    );
}

#[tokio::test]
async fn scratch_files_left_by_a_stopped_server_are_cleared_at_the_next_start() {
    let app = crate::support::spawn_app(&[]).await;
    let scratch = app.settings.scratch_dir();
    std::fs::create_dir_all(scratch.join("export-left")).unwrap();
    std::fs::write(scratch.join("import-left.sqlite"), b"half an upload").unwrap();
    let app = app.restart(&[]).await;
    assert!(
        !app.settings.scratch_dir().exists(),
        "the scratch directory is cleared"
    );
}

/// The Data page's import form as a browser posts it without JavaScript:
/// its CSRF field first, then the file.
fn import_form(browser: &Browser, csrf: &str, file: &[u8]) -> reqwest::RequestBuilder {
    browser.file_form_post_from(
        "/api/fn/data/import-whole",
        "/data",
        &[("csrf_token", csrf)],
        ("file", "my-data.sqlite", file),
    )
}

#[tokio::test]
async fn the_import_form_works_without_javascript_and_names_what_is_wrong() {
    let (app, admin) = with_admin(&[]).await;
    let frank = plain_user(&app, &admin, "frank@example.com").await;
    let grace = plain_user(&app, &admin, "grace@example.com").await;
    alices_data(&frank).await;
    let file = download(&frank).await;

    // The Data page renders the form: multipart, to the server function,
    // its CSRF field before the file.
    let page = grace.page_at("/data").await;
    let form = page
        .split("enctype=\"multipart/form-data\"")
        .next()
        .and_then(|before| before.rsplit("<form").next())
        .expect("a multipart form");
    assert!(
        form.contains("action=\"/api/fn/data/import-whole\""),
        "{form}"
    );
    let after = page
        .split("enctype=\"multipart/form-data\"")
        .nth(1)
        .unwrap();
    assert!(
        after.find("name=\"csrf_token\"").unwrap() < after.find("type=\"file\"").unwrap(),
        "the token comes before the file"
    );

    // Not a personal export: back to the Data page with the reason.
    let refused = import_form(&grace, &grace.csrf, b"name,amount\nRent,1200\n")
        .send()
        .await
        .unwrap();
    let back = location(&refused);
    let refusal = crate::support::form_refusal::refusal_in(&back).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "file");
    assert!(grace.page_at(&back).await.contains("not a SQLite database"));

    // Without the token, or another one: refused before anything is read.
    let forged = import_form(
        &grace,
        "not-the-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        &file,
    )
    .send()
    .await
    .unwrap();
    assert_eq!(forged.status(), 403);
    // Not multipart: refused with a message, never a panic.
    let plain = grace
        .request(Method::POST, "/api/fn/data/import-whole")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("file=x")
        .send()
        .await
        .unwrap();
    assert_eq!(plain.status(), 400);

    // The export: added, and the page says so.
    let imported = import_form(&grace, &grace.csrf, &file)
        .send()
        .await
        .unwrap();
    assert_eq!(location(&imported), "/data?form=personal-data-imported");
    let bills: serde_json::Value = grace.json_raw("/api/bills").await;
    assert!(
        !bills["bills"].as_array().unwrap().is_empty(),
        "the bills came with the file: {bills}"
    );
    let shown = grace.page_at("/data?form=personal-data-imported").await;
    assert!(shown.contains("Your data was added to this account"));

    // Signed out: to sign in, then back to the Data page.
    let stranger = Browser::open(&app.address).await;
    let signed_out = import_form(&stranger, &stranger.csrf, &file)
        .send()
        .await
        .unwrap();
    assert_eq!(location(&signed_out), "/login?next=%2Fdata");
}

/// The file as the `sqlite3` shell opens it: foreign keys off, so an edit
/// may point anywhere.
async fn edit(dir: &Path, name: &str, bytes: &[u8]) -> SqlitePool {
    open_with(
        dir,
        name,
        bytes,
        SqliteConnectOptions::new().foreign_keys(false),
    )
    .await
}

/// Hardening III, finding 1: an export edited to point a payment (or a
/// transaction) at a bill outside the file must not land on somebody
/// else's bill once its ids are moved. The refusal names the field and no
/// id or constraint.
#[tokio::test]
async fn a_file_pointing_outside_its_own_rows_is_refused_and_reads_nobody_elses() {
    let (app, admin) = with_admin(&[]).await;
    let erin = plain_user(&app, &admin, "erin@example.com").await;
    let bob = plain_user(&app, &admin, "bob@example.com").await;
    let victim: serde_json::Value = bob
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Bob's mortgage", "amountMinor": 210_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 3, "anchorDate": "2026-01-03"}),
        )
        .await;
    let victim = victim["id"].as_i64().unwrap();
    let own: serde_json::Value = erin
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Gym", "amountMinor": 3_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 9, "anchorDate": "2026-01-09"}),
        )
        .await;
    assert!(own["id"].as_i64().is_some());
    let file = download(&erin).await;

    let live = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let highest: i64 = sqlx::query_scalar("SELECT MAX(id) FROM bills")
        .fetch_one(&live)
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pool = edit(dir.path(), "edited.sqlite", &file).await;
    let lowest: i64 = sqlx::query_scalar("SELECT MIN(id) FROM bills")
        .fetch_one(&pool)
        .await
        .unwrap();
    // Where the import moves the file's bills: past the live ones.
    let aimed = victim - (highest + 1 - lowest);
    sqlx::query(
        "INSERT INTO payments (bill_id, user_id, amount_cents, paid_on)
         VALUES (?1, (SELECT id FROM users), 1, '2026-01-03')",
    )
    .bind(aimed)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let edited = std::fs::read(dir.path().join("edited.sqlite")).unwrap();

    let (status, body) = upload(&erin, edited).await;
    assert_eq!(status, 400, "{body}");
    let violation = &body["error"]["details"][0]["fieldViolations"][0];
    assert_eq!(violation["field"], "file", "{body}");
    assert_eq!(
        violation["description"], "the file's rows do not fit together",
        "{body}"
    );
    let text = body.to_string();
    assert!(
        !text.contains("FOREIGN KEY") && !text.contains(&victim.to_string()),
        "no constraint or id: {text}"
    );
    let erins: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM payments
         WHERE user_id = (SELECT id FROM users WHERE email = 'erin@example.com')",
    )
    .fetch_one(&live)
    .await
    .unwrap();
    assert_eq!(erins, 0, "nothing was imported");
    let on_victim: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payments WHERE bill_id = ?1")
        .bind(victim)
        .fetch_one(&live)
        .await
        .unwrap();
    assert_eq!(on_victim, 0);

    // A bank transaction pointing at the same bill through its account's
    // reference is refused the same way, and so is one whose account is
    // not in the file.
    let pool = edit(dir.path(), "edited-2.sqlite", &file).await;
    sqlx::query(
        "INSERT INTO transactions (user_id, account_id, provider_transaction_id, posted_at,
                                   amount_cents, description)
         VALUES ((SELECT id FROM users), 1, 'x1', '2026-01-03', -100, 'COFFEE')",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let edited = std::fs::read(dir.path().join("edited-2.sqlite")).unwrap();
    let (status, body) = upload(&erin, edited).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["details"][0]["fieldViolations"][0]["description"],
        "the file's rows do not fit together",
        "{body}"
    );

    // The untouched export still imports.
    let (status, body) = upload(&erin, file).await;
    assert_eq!(status, 200, "{body}");
    live.close().await;
}

/// Hardening III, finding 1: every row of the file goes through the rules
/// of the form that writes its like, before anything is copied. A name
/// too long, an amount below zero or past what Tally handles, a date that
/// is none, a cadence Tally does not know: 400 on `file` naming the rows
/// and the rule (never an id or a constraint), and nothing imported.
#[tokio::test]
async fn a_row_the_forms_would_refuse_is_refused_naming_the_rule_and_nothing_is_imported() {
    let (app, admin) = with_admin(&[]).await;
    let erin = plain_user(&app, &admin, "erin@example.com").await;
    let bob = plain_user(&app, &admin, "bob@example.com").await;
    let gym: serde_json::Value = erin
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Gym", "amountMinor": 3_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 9, "anchorDate": "2026-01-09"}),
        )
        .await;
    pay(
        &erin,
        gym["id"].as_i64().unwrap(),
        3_000,
        app::domain::date::Date::parse("2026-01-09").unwrap(),
    )
    .await;
    let file = download(&erin).await;

    let dir = tempfile::tempdir().unwrap();
    for (name, change, says) in [
        (
            "long-name",
            format!("UPDATE bills SET name = '{}'", "x".repeat(201)),
            "one of its bills breaks a rule of the bill form (Name: use at most 200 characters)",
        ),
        (
            "negative",
            "UPDATE bills SET amount_cents = -5".to_owned(),
            "bills breaks a rule of the bill form (Amount: the amount cannot be negative)",
        ),
        (
            "absurd",
            "UPDATE payments SET amount_cents = 1000000000000000000".to_owned(),
            "payments breaks a rule of the payment form (Amount: that amount is too large)",
        ),
        (
            "not-a-number",
            "UPDATE payments SET amount_cents = 'plenty'".to_owned(),
            "(Amount: it is not a whole number)",
        ),
        (
            "bad-date",
            "UPDATE bills SET anchor_date = '2026-02-30'".to_owned(),
            "bills breaks a rule of the bill form (First due date:",
        ),
        (
            "cadence",
            "UPDATE bills SET cadence = 'fortnightly'".to_owned(),
            "bills breaks a rule of the bill form (How often:",
        ),
    ] {
        // As the `sqlite3` shell may: the schema's own checks off.
        let pool = edit(dir.path(), &format!("{name}.sqlite"), &file).await;
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "PRAGMA ignore_check_constraints = ON; {change}"
        )))
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
        let edited = std::fs::read(dir.path().join(format!("{name}.sqlite"))).unwrap();

        let (status, body) = upload(&bob, edited).await;
        assert_eq!(status, 400, "{name}: {body}");
        let violation = &body["error"]["details"][0]["fieldViolations"][0];
        assert_eq!(violation["field"], "file", "{name}: {body}");
        let why = violation["description"].as_str().unwrap();
        assert!(why.contains(says), "{name}: {why}");
        assert!(why.ends_with("so nothing was imported"), "{name}: {why}");
        let text = body.to_string();
        assert!(
            !text.contains("CHECK")
                && !text.contains("amount_cents")
                && !text.contains("anchor_date"),
            "{name}: no constraint or column: {text}"
        );
    }
    let bills: serde_json::Value = bob.json_raw("/api/bills").await;
    assert_eq!(
        bills["bills"].as_array().map(Vec::len),
        Some(0),
        "nothing was imported: {bills}"
    );

    // The untouched export still imports.
    let (status, body) = upload(&bob, file).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["bills"], 1, "{body}");
    assert_eq!(body["payments"], 1, "{body}");
}

/// Hardening III, finding 4: one import of a person's at a time. An
/// import whose file is still arriving holds the person's turn; another
/// of theirs meanwhile is 429 `RESOURCE_EXHAUSTED` with a 5-second
/// `Retry-After`; somebody else's is not held up; once the first is
/// answered, the next runs.
#[tokio::test]
async fn a_second_import_while_one_runs_is_told_to_wait_a_few_seconds() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let (app, admin) = with_admin(&[]).await;
    let kim = plain_user(&app, &admin, "kim@example.com").await;
    let lee = plain_user(&app, &admin, "lee@example.com").await;
    add_water(&kim).await;
    let file = download(&kim).await;

    // The first import: its head and half its file sent, the rest held.
    let address = app.address.trim_start_matches("http://").to_owned();
    let mut first = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/data/import.sqlite HTTP/1.1\r\nHost: {address}\r\nCookie: {}\r\n\
         X-CSRF-Token: {}\r\nContent-Type: application/vnd.sqlite3\r\n\
         Content-Length: {}\r\n\r\n",
        kim.cookie_header(),
        kim.csrf,
        file.len()
    );
    first.write_all(head.as_bytes()).await.unwrap();
    let half = file.len() / 2;
    first.write_all(&file[..half]).await.unwrap();
    // It has its turn once it writes the file it receives.
    let scratch = app.settings.scratch_dir();
    let receiving = || {
        std::fs::read_dir(&scratch).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|entry| entry.file_name().to_string_lossy().starts_with("import-"))
        })
    };
    for _ in 0..500 {
        if receiving() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(receiving(), "the first import is receiving its file");

    let second = kim
        .request(Method::POST, "/api/data/import.sqlite")
        .header("content-type", "application/vnd.sqlite3")
        .body(b"SQLite format 3\0".to_vec())
        .send()
        .await
        .unwrap();
    assert_eq!(second.status(), 429);
    assert_eq!(second.headers()["retry-after"], "5");
    let body: serde_json::Value = second.json().await.unwrap();
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("still running")),
        "{body}"
    );

    // Somebody else's import is not held up.
    let (status, body) = upload(&lee, file.clone()).await;
    assert_eq!(status, 200, "{body}");

    // The rest of the file: the first import runs and is answered.
    first.write_all(&file[half..]).await.unwrap();
    let mut answer = vec![0; 4096];
    let read = tokio::time::timeout(Duration::from_secs(20), first.read(&mut answer))
        .await
        .expect("the first import is answered")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(first);

    // Her turn is over: the next import of hers runs.
    let (status, body) = upload(&kim, file).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["bills"], 1, "{body}");
}

#[tokio::test]
async fn an_import_a_stopped_server_left_half_done_holds_statements_back_and_goes_at_the_next_start(
) {
    let (app, admin) = with_admin(&[]).await;
    let kim = plain_user(&app, &admin, "kim@example.com").await;
    add_water(&kim).await;
    let live = live_database(&app).await;
    let kim_id: i64 = scalar(
        &live,
        "SELECT CAST(id AS TEXT) FROM users WHERE email = 'kim@example.com'",
    )
    .await
    .parse()
    .unwrap();
    // What a server stopped after an import's first batch leaves: the
    // batch's bills and the range it took.
    sqlx::query(
        "INSERT INTO bills (id, user_id, name, amount_cents, cadence, due_day, anchor_date)
         VALUES (900, ?1, 'Half of an import', 100, 'monthly', 1, '2026-01-01'),
                (901, ?1, 'The other half', 200, 'monthly', 2, '2026-01-02')",
    )
    .bind(kim_id)
    .execute(&live)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO personal_import_ranges (import, user_id, table_name, first_id, last_id)
         VALUES ('stopped', ?1, 'bills', 899, 901)",
    )
    .bind(kim_id)
    .execute(&live)
    .await
    .unwrap();

    // While it is there, Kim's statement upload waits its turn.
    let statement = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/statements/checking.ofx"),
    )
    .unwrap();
    let (status, body) = kim
        .post_file(
            "/api/imports?fileName=checking.ofx",
            "application/octet-stream",
            statement,
        )
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["status"], "RESOURCE_EXHAUSTED", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("import is still running")),
        "{body}"
    );
    live.close().await;

    let app = app.restart(&[]).await;
    let live = live_database(&app).await;
    assert_eq!(
        scalar(&live, "SELECT group_concat(name) FROM bills").await,
        "Water",
        "the half import went, the account's own bill stayed"
    );
    assert_eq!(
        scalar(
            &live,
            "SELECT CAST(COUNT(*) AS TEXT) FROM personal_import_ranges"
        )
        .await,
        "0"
    );
    live.close().await;
}
