//! Other apps' exports on the real server, with files in their published
//! formats (`tests/fixtures/other_apps`, docs/formats/other_apps.md):
//! Wallos subscriptions and Firefly III bills through the bill import's
//! preview and commit (`?from=`), Firefly III and Actual transactions
//! through the statement import; each says what it could not map.

use app::contract::data::{ImportPreview, Imported};

use crate::statement_imports::{commit, previewed_from};
use crate::support::browser::Browser;
use crate::support::{plain_user, with_admin};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/other_apps")
            .join(name),
    )
    .unwrap()
}

async fn send(browser: &Browser, path: &str, file: Vec<u8>) -> (u16, serde_json::Value) {
    browser.post_file(path, "text/csv", file).await
}

async fn bills(browser: &Browser) -> Vec<serde_json::Value> {
    let found: serde_json::Value = browser.json_raw("/api/bills").await;
    found["bills"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn wallos_subscriptions_are_previewed_with_what_stays_behind_then_imported() {
    let (app, admin) = with_admin(&[]).await;
    let ana = plain_user(&app, &admin, "ana@example.com").await;

    let (status, body) = send(
        &ana,
        "/api/data/import/preview?from=wallos",
        fixture("wallos.json"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let preview: ImportPreview = serde_json::from_value(body).unwrap();
    assert_eq!((preview.valid, preview.invalid), (5, 0), "{preview:?}");
    assert!(
        preview
            .not_mapped
            .iter()
            .any(|note| note.starts_with("Disney+: cancelled in Wallos")),
        "{:?}",
        preview.not_mapped
    );
    assert!(
        bills(&ana).await.is_empty(),
        "nothing is written by a preview"
    );

    let (status, body) = send(&ana, "/api/data/import?from=wallos", fixture("wallos.csv")).await;
    assert_eq!(status, 201, "{body}");
    let imported: Imported = serde_json::from_value(body).unwrap();
    assert_eq!(imported.imported, 5);
    let all = bills(&ana).await;
    let netflix = all.iter().find(|bill| bill["name"] == "Netflix").unwrap();
    assert_eq!(netflix["amountMinor"], 1549);
    assert_eq!(netflix["subscription"], true);
    assert_eq!(netflix["autopay"], true);
    let prime = all
        .iter()
        .find(|bill| bill["name"] == "Amazon Prime")
        .unwrap();
    assert_eq!(
        (&prime["currency"], &prime["cadence"]),
        (&"EUR".into(), &"yearly".into())
    );
    assert!(all
        .iter()
        .any(|bill| bill["name"] == "AT&T Mobile" && bill["cadence"] == "biweekly"));
}

#[tokio::test]
async fn firefly_bills_import_and_a_wrong_source_is_refused_with_its_field() {
    let (app, admin) = with_admin(&[]).await;
    let ben = plain_user(&app, &admin, "ben@example.com").await;

    let (status, body) = send(
        &ben,
        "/api/data/import?from=firefly",
        fixture("firefly_bills.csv"),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["imported"], 2);
    let all = bills(&ben).await;
    let domain = all
        .iter()
        .find(|bill| bill["name"] == "Domain renewal")
        .unwrap();
    assert_eq!(domain["amountMinor"], 1800);
    assert_eq!(domain["notes"], "Firefly III expected 15.00 to 18.00 EUR");

    let field = |body: &serde_json::Value| {
        body["error"]["details"][0]["fieldViolations"][0]["field"].clone()
    };
    let (status, body) = send(
        &ben,
        "/api/data/import/preview?from=ynab",
        fixture("firefly_bills.csv"),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "from".into()), "{body}");
    let (status, body) = send(
        &ben,
        "/api/data/import/preview?from=firefly",
        fixture("wallos.json"),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "file".into()), "{body}");
    // Tally's own CSV is still the default.
    let (status, body) = send(&ben, "/api/data/import/preview", fixture("wallos.csv")).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn firefly_and_actual_transactions_come_in_as_statements() {
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let cy = plain_user(&app, &admin, "cy@example.com").await;

    let firefly = previewed_from(&cy, "other_apps", "firefly_transactions.csv").await;
    assert_eq!(firefly.format, "firefly");
    let summary = firefly.preview.clone().unwrap();
    // Eight journals; the transfer is a line in each of its two accounts.
    assert_eq!(
        (summary.rows, summary.new_rows, summary.refused_count),
        (9, 9, 0),
        "{summary:?}"
    );
    assert_eq!(summary.accounts.len(), 2);
    commit(&cy, firefly.id).await;
    let again = previewed_from(&cy, "other_apps", "firefly_transactions.csv").await;
    assert_eq!(
        again.preview.unwrap().new_rows,
        0,
        "the journal ids make a second import add nothing"
    );

    let actual = previewed_from(&cy, "other_apps", "actual_transactions.csv").await;
    assert_eq!(actual.format, "actual");
    let summary = actual.preview.clone().unwrap();
    // The split is one line; the starting balance is refused, saying why.
    assert_eq!(
        (summary.new_rows, summary.refused_count),
        (6, 1),
        "{summary:?}"
    );
    assert!(
        summary.refused[0].reason.contains("starting balance"),
        "{:?}",
        summary.refused
    );
    let costco = actual
        .rows
        .iter()
        .find(|row| row.description == "Costco")
        .unwrap();
    assert_eq!(costco.amount_minor, -8_550);
}

#[tokio::test]
async fn actual_schedules_come_in_as_bills_from_the_budget_file() {
    let (app, admin) = with_admin(&[]).await;
    let di = plain_user(&app, &admin, "di@example.com").await;

    let (status, body) = send(
        &di,
        "/api/data/import/preview?from=actual",
        fixture("actual_db.sqlite"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let preview: ImportPreview = serde_json::from_value(body).unwrap();
    assert_eq!((preview.valid, preview.invalid), (3, 0), "{preview:?}");
    let (status, body) = send(
        &di,
        "/api/data/import?from=actual",
        fixture("actual_db.sqlite"),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let all = bills(&di).await;
    let gym = all.iter().find(|bill| bill["name"] == "Gym").unwrap();
    assert_eq!(
        (&gym["amountMinor"], &gym["cadence"]),
        (&3000.into(), &"weekly".into())
    );

    // A CSV is not a budget file; Tally's CSV stays bounded at 1 MiB even
    // where a budget file may be 10.
    let (status, body) = send(
        &di,
        "/api/data/import/preview?from=actual",
        fixture("actual_transactions.csv"),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    let big = vec![b'a'; 2 * 1024 * 1024];
    let (status, body) = send(&di, "/api/data/import/preview", big).await;
    assert_eq!(status, 413, "{body}");
}

/// Hardening III, finding 3: a 45 KB budget file whose schedule names are a
/// generated column of 400 MB each made the server allocate 2.4 GB. The
/// file is refused, naming the table, before anything of it is computed.
#[tokio::test]
async fn a_budget_file_that_computes_its_values_is_refused_before_reading() {
    let (app, admin) = with_admin(&[]).await;
    let di = plain_user(&app, &admin, "di@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    std::fs::write(&path, fixture("actual_db.sqlite")).unwrap();
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
        .await
        .unwrap();
    sqlx::raw_sql(
        "ALTER TABLE schedules RENAME COLUMN name TO real_name;
         ALTER TABLE schedules ADD COLUMN name TEXT
             GENERATED ALWAYS AS (printf('%.*c', 400000000, 'x')) VIRTUAL;",
    )
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let hostile = std::fs::read(&path).unwrap();
    assert!(hostile.len() < 200_000, "a small file: {}", hostile.len());

    let (status, body) = send(&di, "/api/data/import/preview?from=actual", hostile).await;
    assert_eq!(status, 400, "{body}");
    let why = body["error"]["details"][0]["fieldViolations"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(why.contains("schedules is not a plain table"), "{body}");
    assert!(bills(&di).await.is_empty());
}
