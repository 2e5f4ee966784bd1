//! "Download everything (Excel)": the workbook read back with calamine,
//! as a spreadsheet program reads it.

use reqwest::Method;

use crate::statement_imports::{commit, previewed};
use crate::support::{plain_user, with_admin};

#[tokio::test]
async fn the_excel_workbook_holds_bills_payments_and_transactions_with_typed_cells() {
    use calamine::{Data, Reader, Xlsx};

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

    let response = fay
        .request(Method::GET, "/api/data/export.xlsx")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .ends_with(".xlsx\""));
    let bytes = response.bytes().await.unwrap().to_vec();
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).unwrap();
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
