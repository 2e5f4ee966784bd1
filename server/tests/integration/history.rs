//! Import history from a spreadsheet, on the real server: a workbook
//! written by `rust_xlsxwriter` (as a spreadsheet program writes one) sent
//! to `/api/data/history/…`: its sheets, a preview through a column
//! mapping with problems and duplicates, an import of the chosen rows, the
//! payments then found by their bill's name; and the bounds.

use reqwest::Method;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

use crate::support::browser::Browser;
use crate::support::{plain_user, with_admin};

fn history_workbook() -> Vec<u8> {
    let mut book = Workbook::new();
    let day = Format::new().set_num_format("yyyy-mm-dd");
    let bills = book.add_worksheet().set_name("My bills").unwrap();
    for (column, heading) in ["Bill", "Monthly cost", "First due", "How often", "Auto"]
        .iter()
        .enumerate()
    {
        bills.write_string(0, column as u16, *heading).unwrap();
    }
    bills.write_string(1, 0, "Rent").unwrap();
    bills.write_number(1, 1, 1500).unwrap();
    bills
        .write_datetime_with_format(1, 2, ExcelDateTime::from_ymd(2026, 1, 1).unwrap(), &day)
        .unwrap();
    bills.write_string(1, 3, "Monthly").unwrap();
    bills.write_string(1, 4, "yes").unwrap();
    bills.write_string(2, 0, "Insurance").unwrap();
    bills.write_string(2, 1, "$1,200.00").unwrap();
    bills.write_string(2, 2, "2026-03-15").unwrap();
    bills.write_string(2, 3, "annual").unwrap();
    bills.write_string(3, 0, "Gym").unwrap();
    bills.write_string(3, 1, "a lot").unwrap();
    bills.write_string(3, 2, "soon").unwrap();

    let paid = book.add_worksheet().set_name("Paid").unwrap();
    for (column, heading) in ["Date", "Bill", "Amount"].iter().enumerate() {
        paid.write_string(0, column as u16, *heading).unwrap();
    }
    for (row, (month, bill, amount)) in [
        (1, "Rent", -1500.0),
        (2, "rent", -1500.0),
        (2, "Boat", -10.0),
    ]
    .iter()
    .enumerate()
    {
        let row = row as u32 + 1;
        paid.write_datetime_with_format(
            row,
            0,
            ExcelDateTime::from_ymd(2026, *month, 1).unwrap(),
            &day,
        )
        .unwrap();
        paid.write_string(row, 1, *bill).unwrap();
        paid.write_number(row, 2, *amount).unwrap();
    }
    book.save_to_buffer().unwrap()
}

async fn send(browser: &Browser, path: &str, body: Vec<u8>) -> (u16, serde_json::Value) {
    const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    browser.post_file(path, XLSX, body).await
}

const BILLS: &str = "sheet=My%20bills&kind=bills&name=0&amount=1&date=2&cadence=3&autopay=4";
const PAYMENTS: &str = "sheet=Paid&kind=payments&date=0&bill=1&amount=2";

#[tokio::test]
async fn a_spreadsheet_of_bills_and_payments_is_mapped_previewed_and_imported() {
    let (app, admin) = with_admin(&[]).await;
    let dee = plain_user(&app, &admin, "dee@example.com").await;
    let book = history_workbook();

    let (status, sheets) = send(&dee, "/api/data/history/sheets", book.clone()).await;
    assert_eq!(status, 200, "{sheets}");
    assert_eq!(sheets["sheets"][0]["name"], "My bills");
    assert_eq!(sheets["sheets"][0]["columns"][1], "Monthly cost");
    assert_eq!(sheets["sheets"][0]["rows"], 3);
    assert_eq!(sheets["sheets"][0]["sample"][0][2], "2026-01-01");
    assert_eq!(sheets["sheets"][1]["name"], "Paid");

    let (status, preview) = send(
        &dee,
        &format!("/api/data/history/preview?{BILLS}"),
        book.clone(),
    )
    .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["ready"], 2, "{preview}");
    let gym = &preview["rows"][2];
    assert_eq!(gym["line"], 4);
    assert_eq!(gym["import"], false);
    let fields: Vec<&str> = gym["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["amount", "date"]);

    // Choosing the row with problems refuses the import, naming it.
    let (status, refused) = send(
        &dee,
        &format!("/api/data/history/import?{BILLS}&rows=2,4"),
        book.clone(),
    )
    .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(
        refused["error"]["details"][0]["fieldViolations"][0]["field"],
        "rows[4].amount"
    );
    // The person leaves the insurance out too: only the rent comes in.
    let (status, done) = send(
        &dee,
        &format!("/api/data/history/import?{BILLS}&rows=2"),
        book.clone(),
    )
    .await;
    assert_eq!(status, 201, "{done}");
    assert_eq!(done["imported"], 1);
    let bills: serde_json::Value = dee.json_raw("/api/bills").await;
    let all = bills["bills"].as_array().unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(
        (&all[0]["name"], &all[0]["amountMinor"], &all[0]["autopay"]),
        (&"Rent".into(), &150_000.into(), &true.into())
    );

    // Again: the rent is already here.
    let (_, again) = send(
        &dee,
        &format!("/api/data/history/preview?{BILLS}"),
        book.clone(),
    )
    .await;
    assert_eq!(again["rows"][0]["duplicate"], true, "{again}");
    assert_eq!(again["ready"], 1, "only the insurance is left");

    // Payments find their bill by name, whatever its case; negative
    // amounts are money out.
    let (status, paid) = send(
        &dee,
        &format!("/api/data/history/preview?{PAYMENTS}"),
        book.clone(),
    )
    .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["ready"], 2, "{paid}");
    assert!(paid["rows"][2]["problems"][0]["description"]
        .as_str()
        .unwrap()
        .contains("Boat"));
    let (status, done) = send(
        &dee,
        &format!("/api/data/history/import?{PAYMENTS}"),
        book.clone(),
    )
    .await;
    assert_eq!(status, 201, "{done}");
    assert_eq!(done["imported"], 2);
    let rent = all[0]["id"].as_i64().unwrap();
    let payments: serde_json::Value = dee.json_raw(&format!("/api/bills/{rent}/payments")).await;
    assert_eq!(
        payments["payments"].as_array().map(Vec::len),
        Some(2),
        "{payments}"
    );
    let (_, again) = send(&dee, &format!("/api/data/history/preview?{PAYMENTS}"), book).await;
    assert_eq!(again["ready"], 0, "both payments are already here: {again}");
}

#[tokio::test]
async fn a_wrong_mapping_or_a_file_that_is_not_a_workbook_is_refused_with_its_field() {
    let (app, admin) = with_admin(&[]).await;
    let eli = plain_user(&app, &admin, "eli@example.com").await;
    let field = |body: &serde_json::Value| {
        body["error"]["details"][0]["fieldViolations"][0]["field"].clone()
    };

    let (status, body) = send(
        &eli,
        "/api/data/history/sheets",
        b"Bill,Amount\nRent,1500\n".to_vec(),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "file".into()), "{body}");
    let book = history_workbook();
    let (status, body) = send(
        &eli,
        "/api/data/history/preview?sheet=Nope&kind=bills&name=0&amount=1&date=2",
        book.clone(),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "sheet".into()), "{body}");
    let (status, body) = send(
        &eli,
        "/api/data/history/preview?sheet=Paid&kind=payments&bill=1",
        book.clone(),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "amount".into()), "{body}");
    let (status, body) = send(
        &eli,
        "/api/data/history/preview?sheet=Paid&kind=receipts",
        book.clone(),
    )
    .await;
    assert_eq!((status, field(&body)), (400, "kind".into()), "{body}");
    let (status, body) = send(
        &eli,
        &format!("/api/data/history/preview?{PAYMENTS}&amount=9"),
        book,
    )
    .await;
    assert_eq!(status, 400, "{body}");

    let response = eli
        .request(Method::POST, "/api/data/history/sheets")
        .body(vec![0u8; 10 * 1024 * 1024 + 2])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
}

/// The Data page's workbook form as a browser posts it without
/// JavaScript.
fn workbook_form(browser: &Browser, book: &[u8]) -> reqwest::RequestBuilder {
    browser.file_form_post_from(
        "/api/fn/data/history-upload",
        "/data",
        &[("csrf_token", &browser.csrf)],
        ("file", "history.xlsx", book),
    )
}

#[tokio::test]
async fn every_step_works_without_javascript_and_the_workbook_is_the_persons_own() {
    use crate::support::browser::location;
    use crate::support::form_refusal::refusal_in;

    let (app, admin) = with_admin(&[]).await;
    let dee = plain_user(&app, &admin, "dee@example.com").await;
    let book = history_workbook();

    // Not a workbook: back to the Data page, naming the file.
    let refused = workbook_form(&dee, b"name,amount\n").send().await.unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "file");

    // The workbook: kept, and the Data page at it lists its sheets with a
    // first guess at the columns.
    let kept = workbook_form(&dee, &book).send().await.unwrap();
    let at = location(&kept);
    let id = at
        .strip_prefix("/data?history=")
        .and_then(|rest| rest.strip_suffix("#history-title"))
        .unwrap_or_else(|| panic!("the Data page at the workbook: {at}"))
        .to_owned();
    let page = dee.page_at(&at).await;
    assert!(page.contains("My bills (3 rows)"), "{page}");
    assert!(page.contains("Paid (3 rows)"));

    // The mapping is a `get` form: the preview is the page at its address.
    let previewed = dee
        .page_at(&format!("/data?history={id}&{BILLS}&step=preview"))
        .await;
    assert!(
        previewed.contains("2 of 3 rows marked to import."),
        "{previewed}"
    );
    assert!(previewed.contains("name=\"chosen[2]\""));

    // Another person's page at the same address finds nothing.
    let grace = plain_user(&app, &admin, "grace@example.com").await;
    let theirs = grace.page_at(&at).await;
    assert!(
        theirs.contains("this preview is no longer kept"),
        "{theirs}"
    );
    assert!(!theirs.contains("My bills (3 rows)"));

    // Importing posts the mapping and the rows left checked: the row with
    // problems is refused by name, nothing is written.
    let page = format!("/data?history={id}&{BILLS}&step=preview");
    let import = |browser: &Browser, rows: &[u32]| {
        let chosen: String = rows
            .iter()
            .map(|row| format!("&chosen%5B{row}%5D=on"))
            .collect();
        browser
            .form_post_from("/api/fn/data/history-import", &page)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!(
                "csrf_token={}&id={id}&mapping%5Bsheet%5D=My%20bills&mapping%5Bkind%5D=bills\
                 &mapping%5Bname%5D=0&mapping%5Bamount%5D=1&mapping%5Bdate%5D=2\
                 &mapping%5Bcadence%5D=3&mapping%5Bautopay%5D=4{chosen}",
                browser.csrf
            ))
    };
    let refused = import(&dee, &[2, 4]).send().await.unwrap();
    let refusal = refusal_in(&location(&refused)).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "rows[4].amount");
    let none = import(&dee, &[]).send().await.unwrap();
    let refusal = refusal_in(&location(&none)).expect("a refusal");
    assert_eq!(refusal.field_violations()[0].field, "rows");
    let stolen = import(&grace, &[2]).send().await.unwrap();
    assert_eq!(
        refusal_in(&location(&stolen))
            .expect("a refusal")
            .error
            .status,
        "NOT_FOUND"
    );
    let bills: serde_json::Value = dee.json_raw("/api/bills").await;
    assert!(bills["bills"].as_array().unwrap().is_empty());

    // The rent alone: imported, the page says so, the workbook is gone.
    let done = import(&dee, &[2]).send().await.unwrap();
    assert_eq!(location(&done), "/data?form=history-imported#history-title");
    let bills: serde_json::Value = dee.json_raw("/api/bills").await;
    assert_eq!(bills["bills"].as_array().unwrap().len(), 1);
    assert!(dee
        .page_at("/data?form=history-imported")
        .await
        .contains("The checked rows were imported."));
    let again = import(&dee, &[2]).send().await.unwrap();
    assert!(
        refusal_in(&location(&again)).is_some(),
        "imported once only"
    );
}
