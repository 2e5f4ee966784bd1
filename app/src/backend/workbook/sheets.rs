//! The workbook's sheets. Bills and payments carry exactly the columns of
//! their CSV exports (read back from them, so the two cannot drift), each
//! cell typed: amounts and counts as numbers, days as dates, flags as
//! TRUE/FALSE, the rest as text. Text is always written as text, so a
//! cell starting with `=` is never a formula (the CSV's leading `'` is
//! taken off).

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet};

use super::store::TransactionRow;
use super::WorkbookError;
use crate::backend::bills::transfer::unescape_cell;
use crate::domain::money::{minor_to_input, Currency};

/// How a column's cells are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Number,
    Date,
    Flag,
}

fn kind_of(column: &str) -> Kind {
    match column {
        "amount" | "balance" | "apr_percent" | "minimum_payment" | "interest_charged"
        | "amount_this_time" | "cadence_interval" | "due_day" => Kind::Number,
        "anchor_date" | "paid_on" | "posted_on" | "occurrence" | "snoozed_to" => Kind::Date,
        "autopay" | "subscription" | "debt" | "autopay_failed" | "skipped" => Kind::Flag,
        _ => Kind::Text,
    }
}

/// The workbook as bytes: a sheet per CSV (name, text) and the
/// transactions.
pub fn workbook(
    csv_sheets: &[(&str, &str)],
    transactions: &[TransactionRow],
) -> Result<Vec<u8>, WorkbookError> {
    let mut book = Workbook::new();
    let header = Format::new().set_bold();
    let date = Format::new().set_num_format("yyyy-mm-dd");
    for (name, text) in csv_sheets {
        let sheet = book.add_worksheet();
        sheet.set_name(*name)?;
        write_csv(sheet, text, &header, &date)?;
    }
    let sheet = book.add_worksheet();
    sheet.set_name("Transactions")?;
    write_transactions(sheet, transactions, &header, &date)?;
    Ok(book.save_to_buffer()?)
}

fn write_csv(
    sheet: &mut Worksheet,
    text: &str,
    header: &Format,
    date: &Format,
) -> Result<(), WorkbookError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let columns: Vec<String> = reader.headers()?.iter().map(str::to_owned).collect();
    for (col, name) in (0_u16..).zip(&columns) {
        sheet.write_string_with_format(0, col, name, header)?;
    }
    for (row, record) in (1_u32..).zip(reader.records()) {
        let record = record?;
        for ((col, cell), name) in (0_u16..).zip(record.iter()).zip(&columns) {
            write_cell(sheet, row, col, kind_of(name), cell, date)?;
        }
    }
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

/// One cell as its column's kind; a value that does not read as that kind
/// (an empty amount, say) is written as the text it is.
fn write_cell(
    sheet: &mut Worksheet,
    row: u32,
    col: u16,
    kind: Kind,
    cell: &str,
    date: &Format,
) -> Result<(), WorkbookError> {
    if cell.is_empty() {
        return Ok(());
    }
    match kind {
        Kind::Number => {
            if let Ok(number) = cell.parse::<f64>() {
                sheet.write_number(row, col, number)?;
                return Ok(());
            }
        }
        Kind::Date => {
            if let Ok(day) = ExcelDateTime::parse_from_str(cell) {
                sheet.write_datetime_with_format(row, col, &day, date)?;
                return Ok(());
            }
        }
        Kind::Flag => {
            if let Ok(flag) = cell.parse::<bool>() {
                sheet.write_boolean(row, col, flag)?;
                return Ok(());
            }
        }
        Kind::Text => {}
    }
    sheet.write_string(row, col, unescape_cell(cell))?;
    Ok(())
}

/// The columns of the transactions sheet.
pub const TRANSACTION_HEADER: [&str; 7] = [
    "account",
    "posted_on",
    "amount",
    "currency",
    "description",
    "memo",
    "bill",
];

fn write_transactions(
    sheet: &mut Worksheet,
    transactions: &[TransactionRow],
    header: &Format,
    date: &Format,
) -> Result<(), WorkbookError> {
    for (col, name) in (0_u16..).zip(TRANSACTION_HEADER) {
        sheet.write_string_with_format(0, col, name, header)?;
    }
    for (row, transaction) in (1_u32..).zip(transactions) {
        let digits = Currency::parse(&transaction.currency).map_or(2, |currency| currency.digits());
        let day: String = transaction.posted_at.chars().take(10).collect();
        let amount = minor_to_input(transaction.amount_cents, digits);
        let cells: [(Kind, &str); 7] = [
            (Kind::Text, &transaction.account),
            (Kind::Date, &day),
            (Kind::Number, &amount),
            (Kind::Text, &transaction.currency),
            (Kind::Text, &transaction.description),
            (Kind::Text, transaction.memo.as_deref().unwrap_or_default()),
            (Kind::Text, transaction.bill.as_deref().unwrap_or_default()),
        ];
        for (col, (kind, cell)) in (0_u16..).zip(cells) {
            // Bank text is the bank's: written as text, never unescaped.
            match kind {
                Kind::Text if !cell.is_empty() => {
                    sheet.write_string(row, col, cell)?;
                }
                _ => write_cell(sheet, row, col, kind, cell, date)?,
            }
        }
    }
    sheet.set_freeze_panes(1, 0)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_have_their_kinds() {
        assert_eq!(kind_of("amount"), Kind::Number);
        assert_eq!(kind_of("paid_on"), Kind::Date);
        assert_eq!(kind_of("autopay"), Kind::Flag);
        assert_eq!(kind_of("name"), Kind::Text);
    }

    #[test]
    fn a_workbook_is_a_zip_with_a_sheet_per_table() {
        let bills =
            "name,amount,anchor_date,autopay\nRent,1200.00,2026-01-01,true\n'=SUM(A1),5,,false\n";
        let transactions = [TransactionRow {
            account: "Checking".into(),
            posted_at: "2026-01-02T00:00:00Z".into(),
            amount_cents: -120_000,
            currency: "USD".into(),
            description: "=HYPERLINK(\"x\")".into(),
            memo: None,
            bill: Some("Rent".into()),
        }];
        let bytes = workbook(&[("Bills", bills)], &transactions).unwrap();
        assert_eq!(&bytes[..2], b"PK", "an xlsx file is a zip");
        assert!(bytes.len() > 1000);
    }
}
