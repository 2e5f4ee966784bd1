//! "Download everything (Excel)": the workbook read back with calamine,
//! as a spreadsheet program reads it.

use calamine::{Reader, Xlsx};
use reqwest::header::HeaderMap;
use reqwest::Method;

use crate::statement_imports::{commit, previewed};
use crate::support::browser::Browser;
use crate::support::{plain_user, with_admin};

/// The person's Excel export as a spreadsheet program opens it, with the
/// answer's headers.
async fn exported(browser: &Browser) -> (HeaderMap, Xlsx<std::io::Cursor<Vec<u8>>>) {
    let response = browser
        .request(Method::GET, "/api/data/export.xlsx")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap().to_vec();
    (headers, Xlsx::new(std::io::Cursor::new(bytes)).unwrap())
}

#[tokio::test]
async fn the_excel_workbook_holds_bills_payments_and_transactions_with_typed_cells() {
    use calamine::Data;

    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let fay = plain_user(&app, &admin, "fay@example.com").await;
    let _: serde_json::Value = fay
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "=Rent", "amountMinor": 120_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 1, "anchorDate": "2026-01-01", "autopay": true}),
        )
        .await;
    let card = previewed(&fay, "card.qfx").await;
    commit(&fay, card.id).await;

    let (headers, mut book) = exported(&fay).await;
    assert_eq!(headers["cache-control"], "no-store");
    assert!(headers["content-disposition"]
        .to_str()
        .unwrap()
        .ends_with(".xlsx\""));
    assert_eq!(
        book.sheet_names(),
        ["Bills", "Payments", "This-time changes", "Transactions"]
    );
    let bills = book.worksheet_range("Bills").unwrap();
    assert_eq!(bills.get((0, 0)), Some(&Data::String("name".into())));
    // Text that looks like a formula stays text; amounts are numbers,
    // days are dates, flags are TRUE/FALSE.
    assert_eq!(bills.get((1, 0)), Some(&Data::String("=Rent".into())));
    assert_eq!(bills.get((1, 1)), Some(&Data::Float(1200.0)));
    assert!(
        matches!(bills.get((1, 6)), Some(Data::DateTime(_))),
        "{:?}",
        bills.get((1, 6))
    );
    assert_eq!(bills.get((1, 9)), Some(&Data::Bool(true)));
    let transactions = book.worksheet_range("Transactions").unwrap();
    assert_eq!(transactions.height(), 4, "a header and three rows");
    assert_eq!(
        transactions.get((1, 4)),
        Some(&Data::String("NETFLIX.COM".into()))
    );
    assert_eq!(transactions.get((1, 2)), Some(&Data::Float(-15.49)));
}

/// Issue 52, finding 1 (defence in depth): a transaction or payment of one
/// account that points at another account's bill (as a personal import once
/// let it) never shows that bill to the first account, in the workbook,
/// the automatic matches or the spending report: each read through a
/// reference checks the row's owner.
#[tokio::test]
async fn another_accounts_bill_behind_a_reference_never_shows() {
    use app::contract::bank::AutoMatches;
    use app::contract::bills::{BillList, BillRecord, Spending};
    use calamine::Data;

    const SECRET: &str = "Admin's secret bill";
    let (app, admin) = with_admin(&[("BANK_SYNC_ENABLED", "true")]).await;
    let secret: BillRecord = admin
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": SECRET, "amountMinor": 4_200, "currency": "USD",
                "cadence": "monthly", "dueDay": 1, "anchorDate": "2026-01-01",
                "category": "Secret category"}),
        )
        .await;
    let fay = plain_user(&app, &admin, "fay@example.com").await;
    let rent: BillRecord = fay
        .call_expecting(
            201,
            Method::POST,
            "/api/bills",
            &serde_json::json!({"name": "Fay's rent", "amountMinor": 120_000, "currency": "USD",
                "cadence": "monthly", "dueDay": 1, "anchorDate": "2026-01-01",
                "category": "Housing"}),
        )
        .await;
    let today = fay.get::<BillList>("/api/bills").await.today;
    crate::support::pay(
        &fay,
        rent.id,
        120_000,
        app::domain::date::Date::parse(&today).unwrap(),
    )
    .await;
    let card = previewed(&fay, "card.qfx").await;
    commit(&fay, card.id).await;

    // Straight into the database: Fay's first transaction is an automatic
    // match of her own bill, the others and a payment point at the
    // administrator's bill.
    let pool = app::backend::db::connect(&app.database_path())
        .await
        .unwrap();
    let fay_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'fay@example.com'")
        .fetch_one(&pool)
        .await
        .unwrap();
    let first: i64 = sqlx::query_scalar("SELECT min(id) FROM transactions WHERE user_id = ?")
        .bind(fay_id)
        .fetch_one(&pool)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE transactions SET bill_id = CASE WHEN id = ?1 THEN ?2 ELSE ?3 END,
             matched_by = 'auto', matched_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ?4",
    )
    .bind(first)
    .bind(rent.id)
    .bind(secret.id)
    .bind(fay_id)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO payments (bill_id, user_id, amount_cents, paid_on, method)
         VALUES (?, ?, 4200, ?, 'manual')",
    )
    .bind(secret.id)
    .bind(fay_id)
    .bind(&today)
    .execute(&pool)
    .await
    .unwrap();

    let review: AutoMatches = fay.get("/api/bank/auto-matches").await;
    let names: Vec<&str> = review
        .matches
        .iter()
        .map(|m| m.bill_name.as_str())
        .collect();
    assert_eq!(names, ["Fay's rent"], "{review:?}");

    let report: Spending = fay.get("/api/reports/spending").await;
    let categories: Vec<&str> = report.categories.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(categories, ["Housing"], "{report:?}");

    let (_, mut book) = exported(&fay).await;
    let transactions = book.worksheet_range("Transactions").unwrap();
    assert_eq!(transactions.height(), 4, "a header and three rows");
    let bills: Vec<&Data> = (1..4)
        .filter_map(|row| transactions.get((row, 6)))
        .collect();
    assert!(
        bills.contains(&&Data::String("Fay's rent".into())),
        "her own match shows: {bills:?}"
    );
    for sheet in book.sheet_names() {
        let range = book.worksheet_range(&sheet).unwrap();
        assert!(
            range
                .cells()
                .all(|(_, _, cell)| *cell != Data::String(SECRET.into())),
            "{sheet} shows another account's bill"
        );
    }
}
