//! Data export and import. Bills export to CSV (one row per bill, amounts
//! in major units as typed, `1500.00`), payments to a CSV of their own (one
//! row per payment or interest charge, naming its bill), and both to JSON.
//! Importing reads the same CSV: every row is checked with the shared bill
//! rules first (the preview shows each row's problems), and only a file
//! without a single bad row is written, all of it in one transaction.
//!
//! Text cells are escaped against formula injection as OWASP recommends: a
//! cell starting with `=`, `+`, `-`, `@`, tab or carriage return gets one
//! `'` in front, so a spreadsheet shows it as text instead of running it.
//! A cell already starting with `'` gets one too, and the import takes
//! exactly one back off, so export then import gives every value back as it
//! was. Numbers Tally writes itself (amounts, rates) are not text and stay
//! bare: `-5.00` is a number to a spreadsheet, not a formula, and a quote
//! would stop it from adding them up.

use std::borrow::Cow;

use sqlx::SqlitePool;

use super::payments::Payment;
use super::store::{self, Bill, BillError};
use crate::domain::bill::BillForm;
use crate::domain::bill_month::MonthOverride;
use crate::domain::money::{minor_to_input, parse_minor, Currency};
use crate::domain::validation::FieldViolation;

pub const HEADER: [&str; 15] = [
    "name",
    "amount",
    "currency",
    "cadence",
    "cadence_interval",
    "due_day",
    "anchor_date",
    "category",
    "notes",
    "autopay",
    "subscription",
    "debt",
    "balance",
    "apr_percent",
    "minimum_payment",
];

/// The most rows one import takes.
pub const MAX_ROWS: usize = 5000;

/// One row of an import, as read and checked.
#[derive(Clone, Debug)]
pub struct ImportRow {
    /// The line in the file (the header is line 1).
    pub line: usize,
    pub name: String,
    pub problems: Vec<FieldViolation>,
    pub form: Option<BillForm>,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is not CSV with the export's header ({0})")]
    Unreadable(String),
    #[error("a file may hold at most {MAX_ROWS} bills")]
    TooManyRows,
    #[error("{0} rows have problems; nothing was imported")]
    BadRows(usize, Vec<ImportRow>),
    #[error(transparent)]
    Bill(#[from] BillError),
}

/// What a spreadsheet reads as the start of a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether one `'` is written before (and read off) a cell starting so.
fn needs_quote(text: &str) -> bool {
    text.starts_with(FORMULA_STARTS) || text.starts_with('\'')
}

/// A text cell as written to CSV.
pub fn escape_cell(text: &str) -> Cow<'_, str> {
    if needs_quote(text) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A cell as read back: the one `'` [`escape_cell`] wrote taken off.
pub fn unescape_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_quote(rest) => rest,
        _ => cell,
    }
}

fn text(value: &str) -> String {
    escape_cell(value).into_owned()
}

fn flag(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

pub fn to_csv(bills: &[Bill]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(HEADER)?;
    for bill in bills {
        let digits = Currency::parse(&bill.currency).map_or(2, |c| c.digits());
        let money =
            |minor: Option<i64>| minor.map(|m| minor_to_input(m, digits)).unwrap_or_default();
        writer.write_record([
            text(&bill.name),
            minor_to_input(bill.amount_minor, digits),
            text(&bill.currency),
            text(&bill.cadence),
            bill.cadence_interval.to_string(),
            bill.due_day.to_string(),
            text(&bill.anchor_date),
            text(&bill.category),
            text(&bill.notes),
            flag(bill.autopay).to_owned(),
            flag(bill.subscription).to_owned(),
            flag(bill.debt).to_owned(),
            money(bill.balance_minor),
            bill.apr_basis_points
                .map(|bp| minor_to_input(bp, 2))
                .unwrap_or_default(),
            money(bill.minimum_payment_minor),
        ])?;
    }
    written(writer)
}

pub const PAYMENT_HEADER: [&str; 8] = [
    "bill",
    "paid_on",
    "amount",
    "currency",
    "method",
    "kind",
    "interest_charged",
    "autopay_failed",
];

/// The payments export: each payment (or monthly interest charge) with its
/// bill's name and currency.
pub fn payments_to_csv(bills: &[Bill], payments: &[Payment]) -> Result<String, csv::Error> {
    let items = payments.iter().map(|payment| (payment.bill_id, payment));
    per_bill_csv(PAYMENT_HEADER, bills, items, |bill, digits, payment| {
        [
            text(&bill.name),
            text(&payment.paid_on),
            minor_to_input(payment.amount_minor, digits),
            text(&bill.currency),
            text(&payment.method),
            text(payment.kind.as_str()),
            minor_to_input(payment.interest_delta_minor, digits),
            flag(payment.autopay_failure).to_owned(),
        ]
    })
}

/// The columns of the per-month overrides export.
pub const MONTH_HEADER: [&str; 7] = [
    "bill",
    "occurrence",
    "amount_this_time",
    "currency",
    "skipped",
    "snoozed_to",
    "note",
];

/// The per-month overrides export (issue 30): each changed occurrence with
/// its bill's name; an empty amount or date is "as scheduled".
pub fn months_to_csv(
    bills: &[Bill],
    months: &[(i64, MonthOverride)],
) -> Result<String, csv::Error> {
    let items = months.iter().map(|(bill_id, month)| (*bill_id, month));
    per_bill_csv(MONTH_HEADER, bills, items, |bill, digits, month| {
        [
            text(&bill.name),
            month.occurrence.to_string(),
            month
                .amount_minor
                .map(|minor| minor_to_input(minor, digits))
                .unwrap_or_default(),
            text(&bill.currency),
            flag(month.skipped).to_owned(),
            month
                .snoozed_to
                .map(|to| to.to_string())
                .unwrap_or_default(),
            text(month.note.as_deref().unwrap_or_default()),
        ]
    })
}

/// An export of things that belong to bills (payments, overrides): under
/// `header`, one row per item by `row(bill, its currency's digits, item)`;
/// an item whose bill is not in `bills` is left out.
fn per_bill_csv<'a, T: 'a, const N: usize>(
    header: [&str; N],
    bills: &[Bill],
    items: impl IntoIterator<Item = (i64, &'a T)>,
    row: impl Fn(&Bill, u8, &T) -> [String; N],
) -> Result<String, csv::Error> {
    let by_id: std::collections::HashMap<i64, &Bill> =
        bills.iter().map(|bill| (bill.id, bill)).collect();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for (bill_id, item) in items {
        let Some(bill) = by_id.get(&bill_id) else {
            continue;
        };
        let digits = Currency::parse(&bill.currency).map_or(2, |c| c.digits());
        writer.write_record(row(bill, digits, item))?;
    }
    written(writer)
}

/// What `writer` wrote, as text.
fn written(writer: csv::Writer<Vec<u8>>) -> Result<String, csv::Error> {
    let bytes = writer.into_inner().map_err(|error| error.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn parse_flag(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some(true),
        "false" | "no" | "0" | "" => Some(false),
        _ => None,
    }
}

/// Reads and checks every row; writes nothing.
pub fn read_csv(text: &str) -> Result<Vec<ImportRow>, ImportError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|error| ImportError::Unreadable(error.to_string()))?
        .clone();
    let position = |name: &str| header.iter().position(|column| column.trim() == name);
    let columns: Vec<Option<usize>> = HEADER.iter().map(|name| position(name)).collect();
    for required in ["name", "amount", "cadence", "due_day", "anchor_date"] {
        if position(required).is_none() {
            return Err(ImportError::Unreadable(format!("no {required} column")));
        }
    }
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        if index >= MAX_ROWS {
            return Err(ImportError::TooManyRows);
        }
        let line = index + 2;
        let record =
            record.map_err(|error| ImportError::Unreadable(format!("line {line}: {error}")))?;
        let cell = |name: &str| {
            HEADER
                .iter()
                .position(|h| *h == name)
                .and_then(|i| columns[i])
                .and_then(|i| record.get(i))
                .map(|cell| unescape_cell(cell.trim()))
                .unwrap_or("")
                .to_owned()
        };
        let mut problems = Vec::new();
        let mut problem = |field: &str, description: String| {
            problems.push(FieldViolation {
                field: field.to_owned(),
                description,
            })
        };
        let currency_text = cell("currency");
        let digits = if currency_text.is_empty() {
            2
        } else {
            Currency::parse(&currency_text).map_or(2, |c| c.digits())
        };
        let mut money = |field: &str, column: &str, required: bool| {
            let text = cell(column);
            if text.is_empty() && !required {
                return None;
            }
            match parse_minor(&text, digits) {
                Ok(minor) => Some(minor),
                Err(error) => {
                    problem(field, error.to_string());
                    None
                }
            }
        };
        let amount = money("amountMinor", "amount", true);
        let balance = money("balanceMinor", "balance", false);
        let minimum = money("minimumPaymentMinor", "minimum_payment", false);
        let apr_text = cell("apr_percent");
        let apr = if apr_text.is_empty() {
            None
        } else {
            match parse_minor(&apr_text, 2) {
                Ok(bp) => Some(bp),
                Err(error) => {
                    problems.push(FieldViolation {
                        field: "aprBasisPoints".into(),
                        description: error.to_string(),
                    });
                    None
                }
            }
        };
        let mut flags = [false; 3];
        for (slot, name) in flags.iter_mut().zip(["autopay", "subscription", "debt"]) {
            match parse_flag(&cell(name)) {
                Some(value) => *slot = value,
                None => problems.push(FieldViolation {
                    field: name.to_owned(),
                    description: "use true or false".into(),
                }),
            }
        }
        let form = BillForm {
            name: cell("name"),
            amount_minor: amount.unwrap_or(0),
            currency: currency_text,
            cadence: cell("cadence"),
            cadence_interval: cell("cadence_interval").parse().ok(),
            due_day: cell("due_day").parse().unwrap_or(0),
            anchor_date: cell("anchor_date"),
            category: cell("category"),
            notes: cell("notes"),
            autopay: flags[0],
            subscription: flags[1],
            debt: flags[2],
            balance_minor: balance,
            apr_basis_points: apr,
            minimum_payment_minor: minimum,
            catalog_id: None,
        };
        rows.push(ImportRow::checked(line, problems, form));
    }
    Ok(rows)
}

impl ImportRow {
    /// A row read as `form` with the problems its reader found, and then
    /// the form's own (one per field).
    pub fn checked(line: usize, mut problems: Vec<FieldViolation>, form: BillForm) -> Self {
        if let Err(more) = form.validate() {
            for violation in more {
                if !problems.iter().any(|p| p.field == violation.field) {
                    problems.push(violation);
                }
            }
        }
        Self {
            line,
            name: form.name.clone(),
            problems,
            form: Some(form),
        }
    }
}

/// Imports every row, or none: one bad row refuses the whole file.
pub async fn import(
    pool: &SqlitePool,
    user_id: i64,
    rows: Vec<ImportRow>,
) -> Result<usize, ImportError> {
    let bad: Vec<ImportRow> = rows
        .iter()
        .filter(|row| !row.problems.is_empty())
        .cloned()
        .collect();
    if !bad.is_empty() {
        return Err(ImportError::BadRows(bad.len(), bad));
    }
    let today = store::today_for(pool, user_id)
        .await
        .map_err(BillError::from)?;
    let mut tx = crate::backend::db::write(pool)
        .await
        .map_err(BillError::from)?;
    for row in &rows {
        if let Some(valid) = row.form.as_ref().and_then(|form| form.validate().ok()) {
            store::create_in(&mut tx, user_id, &valid, today).await?;
        }
    }
    tx.commit().await.map_err(BillError::from)?;
    Ok(rows.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "name,amount,currency,cadence,cadence_interval,due_day,anchor_date,category,notes,autopay,subscription,debt,balance,apr_percent,minimum_payment\n\
        Rent,1500.00,USD,monthly,1,1,2026-01-01,Housing,,true,false,false,,,\n\
        Card,50,USD,monthly,1,20,2026-01-20,Credit cards,\"notes, with comma\",false,false,true,1000.00,19.99,25\n";

    #[test]
    fn good_rows_read_with_their_values() {
        let rows = read_csv(GOOD).unwrap();
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|row| row.problems.is_empty()), "{rows:?}");
        let card = rows[1].form.as_ref().unwrap();
        assert_eq!(card.balance_minor, Some(100_000));
        assert_eq!(card.apr_basis_points, Some(1999));
        assert_eq!(card.notes, "notes, with comma");
    }

    #[test]
    fn bad_rows_are_named_by_line_and_field() {
        let text = "name,amount,cadence,due_day,anchor_date,autopay\n\
            ,12.999,monthly,40,2026-02-30,maybe\n\
            Water,30,weekly,1,2026-01-05,no\n";
        let rows = read_csv(text).unwrap();
        let fields: Vec<&str> = rows[0].problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(rows[0].line, 2);
        assert_eq!(
            fields,
            ["amountMinor", "autopay", "name", "dueDay", "anchorDate"]
        );
        assert!(rows[1].problems.is_empty());
        assert!(matches!(
            read_csv("just,some,columns\n1,2,3\n"),
            Err(ImportError::Unreadable(_))
        ));
    }

    pub(super) fn bill(name: &str, category: &str, notes: &str) -> Bill {
        Bill {
            name: name.to_owned(),
            amount_minor: 1000,
            currency: "USD".into(),
            cadence: "monthly".into(),
            cadence_interval: 1,
            due_day: 1,
            anchor_date: "2026-01-01".into(),
            category: category.to_owned(),
            notes: notes.to_owned(),
            ..Bill::default()
        }
    }

    #[test]
    fn formula_starts_are_written_as_text_and_read_back_exactly() {
        let names = [
            "=1+2",
            "-5",
            "+1",
            "@x",
            "'=already",
            "'plain",
            "''=x",
            "plain",
        ];
        let bills: Vec<Bill> = names
            .iter()
            .map(|name| bill(name, "=cat", "\t=HYPERLINK(\"x\")\nsecond line"))
            .collect();
        let csv = to_csv(&bills).unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        for record in reader.records() {
            for cell in record.unwrap().iter() {
                let number = cell.parse::<f64>().is_ok();
                assert!(number || !cell.starts_with(FORMULA_STARTS), "{cell:?}");
            }
        }
        assert!(csv.contains("\n'=1+2,10.00,"), "{csv}");
        assert!(csv.contains("\n''=already,"), "{csv}");
        assert!(csv.contains("\nplain,"), "{csv}");
        let rows = read_csv(&csv).unwrap();
        let read: Vec<(&str, &str, &str)> = rows
            .iter()
            .map(|row| {
                let form = row.form.as_ref().unwrap();
                (
                    form.name.as_str(),
                    form.category.as_str(),
                    form.notes.as_str(),
                )
            })
            .collect();
        for (name, (read_name, category, notes)) in names.iter().zip(read) {
            assert_eq!(*name, read_name);
            assert_eq!(category, "=cat");
            assert_eq!(notes, "\t=HYPERLINK(\"x\")\nsecond line");
        }
        assert!(rows.iter().all(|row| row.problems.is_empty()), "{rows:?}");
    }

    #[test]
    fn negative_numbers_stay_numbers() {
        let mut refund = bill("Refund", "", "");
        refund.debt = true;
        refund.balance_minor = Some(-500);
        let csv = to_csv(&[refund]).unwrap();
        assert!(csv.contains(",-5.00,"), "{csv}");
    }

    #[test]
    fn a_quote_is_only_taken_off_where_one_was_put() {
        assert_eq!(unescape_cell("'hello"), "'hello");
        assert_eq!(unescape_cell("'=x"), "=x");
        assert_eq!(unescape_cell("''"), "'");
        assert_eq!(unescape_cell("'"), "'");
        assert_eq!(escape_cell("'"), "''");
        assert_eq!(escape_cell("hello"), "hello");
    }
}

#[cfg(test)]
mod proptests {
    use super::tests::bill;
    use super::*;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    /// Text that starts the way hostile cells do.
    fn hostile_text() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec![
                "", "=", "+", "-", "@", "\t", "\r", "'", "''", "'=", "\"", ",",
            ]),
            "[^\u{0}-\u{1f}\u{7f}-\u{9f}]{0,40}",
        )
            .prop_map(|(start, rest)| format!("{start}{rest}"))
    }

    proptest! {
        #[test]
        fn escaping_round_trips_anything(text in any::<String>()) {
            let escaped = escape_cell(&text);
            prop_assert!(!escaped.starts_with(FORMULA_STARTS));
            prop_assert_eq!(unescape_cell(&escaped), text.as_str());
        }

        /// Whatever a bill's text holds, export then import gives it back.
        #[test]
        fn export_then_import_gives_the_same_text(
            name in hostile_text(),
            category in hostile_text(),
            notes in hostile_text(),
        ) {
            let name = name.trim().to_owned();
            let category = category.trim().to_owned();
            let notes = notes.trim().to_owned();
            let csv = to_csv(&[bill(&name, &category, &notes)]).unwrap();
            let rows = read_csv(&csv).unwrap();
            let form = rows[0].form.as_ref().unwrap();
            prop_assert_eq!(&form.name, &name);
            prop_assert_eq!(&form.category, &category);
            prop_assert_eq!(&form.notes, &notes);
        }

        #[test]
        fn any_file_is_read_or_refused_without_panicking(
            bytes in prop::collection::vec(any::<u8>(), 0..4000),
        ) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            on_small_stack(move || {
                let _ = read_csv(&text);
            });
        }

        #[test]
        fn hostile_rows_are_read_or_refused_without_panicking(
            cells in prop::collection::vec(
                prop_oneof![
                    hostile_text(),
                    Just("9".repeat(400)),
                    Just("-9223372036854775808".to_owned()),
                    Just("1e308".to_owned()),
                    Just("\"unfinished".to_owned()),
                    Just("99999999999999999999.99".to_owned()),
                    "[0-9.,-]{0,30}",
                ],
                15..=15,
            ),
            rows in 1_usize..40,
        ) {
            let mut text = HEADER.join(",");
            for _ in 0..rows {
                text.push('\n');
                text.push_str(&cells.join(","));
            }
            on_small_stack(move || {
                if let Ok(rows) = read_csv(&text) {
                    for row in rows {
                        if row.problems.is_empty() {
                            assert!(row.form.as_ref().is_some_and(|f| f.validate().is_ok()));
                        }
                    }
                }
            });
        }
    }
}
