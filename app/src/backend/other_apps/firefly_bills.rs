//! Firefly III's bills ("subscriptions" in newer releases) as its data
//! export writes them (`ExportDataGenerator::exportBills`, v6;
//! docs/formats/other_apps.md): `user_id, bill_id, created_at, updated_at,
//! currency_code, name, amount_min, amount_max, date, repeat_freq, skip,
//! active`, quoted as PHP's `fputcsv` quotes.

use super::{Mapped, Read};
use crate::domain::bill::BillForm;
use crate::domain::money::{parse_minor, Currency};
use crate::domain::validation::FieldViolation;

const HEADER: [&str; 12] = [
    "user_id",
    "bill_id",
    "created_at",
    "updated_at",
    "currency_code",
    "name",
    "amount_min",
    "amount_max",
    "date",
    "repeat_freq",
    "skip",
    "active",
];

/// The most bills one file may hold.
const MAX_ROWS: usize = 5_000;

/// Firefly's bills as Tally's: the expected amount is the top of Firefly's
/// range (the range goes into the notes), the first date anchors the
/// cadence, `skip` widens it.
pub fn read(text: &str) -> Result<Read, String> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|error| format!("the file is not Firefly III's bill export ({error})"))?
        .clone();
    if header.iter().map(str::trim).ne(HEADER) {
        return Err("the file is not Firefly III's bill export (its header differs)".into());
    }
    let mut read = Read::default();
    for (index, record) in reader.records().enumerate() {
        if index >= MAX_ROWS {
            return Err(format!("a file may hold at most {MAX_ROWS} bills"));
        }
        let line = index + 2;
        let record = record.map_err(|error| format!("line {line}: {error}"))?;
        let cell = |column: usize| record.get(column).unwrap_or("").trim().to_owned();
        let name = cell(5);
        if cell(11) != "1" {
            read.not_mapped
                .push(format!("{name}: inactive in Firefly III, so not imported"));
            continue;
        }
        let mut problems = Vec::new();
        let currency = cell(4);
        let digits = Currency::parse(&currency).map_or(2, |known| known.digits());
        let mut amount =
            |column: usize| match parse_minor(&trimmed_decimals(&cell(column), digits), digits) {
                Ok(minor) => Some(minor),
                Err(error) => {
                    problems.push(FieldViolation {
                        field: "amountMinor".into(),
                        description: error.to_string(),
                    });
                    None
                }
            };
        let low = amount(6);
        let high = amount(7);
        let skip: u32 = cell(10).parse().unwrap_or(0);
        let (cadence, interval) = match cadence(&cell(9), skip) {
            Some(found) => found,
            None => {
                problems.push(FieldViolation {
                    field: "cadence".into(),
                    description: format!(
                        "Firefly III's repeat {:?} every {} is not one Tally reads",
                        cell(9),
                        skip + 1
                    ),
                });
                ("monthly", 1)
            }
        };
        let date = cell(8);
        let due_day = date
            .get(8..10)
            .and_then(|day| day.parse().ok())
            .unwrap_or(1);
        let notes = match (low, high) {
            (Some(low), Some(high)) if low != high => format!(
                "Firefly III expected {} to {} {currency}",
                crate::domain::money::minor_to_input(low, digits),
                crate::domain::money::minor_to_input(high, digits),
            ),
            _ => String::new(),
        };
        let form = BillForm {
            name: name.clone(),
            amount_minor: high.unwrap_or(0),
            currency,
            cadence: cadence.to_owned(),
            cadence_interval: Some(i64::from(interval)),
            due_day,
            anchor_date: date,
            category: "Other".into(),
            notes,
            autopay: false,
            subscription: false,
            debt: false,
            balance_minor: None,
            apr_basis_points: None,
            minimum_payment_minor: None,
            catalog_id: None,
        };
        read.rows.push(Mapped {
            line,
            name,
            problems,
            form,
        });
    }
    if !read.rows.is_empty() {
        read.not_mapped.push(
            "Firefly III's rules that link a bill to its transactions were left out; Tally matches by name and amount".into(),
        );
    }
    Ok(read)
}

/// Databases hand Firefly's amounts out with twelve decimals
/// (`12.990000000000`): the zeros past the currency's digits go.
fn trimmed_decimals(text: &str, digits: u8) -> String {
    match text.split_once('.') {
        Some((whole, fraction)) if fraction.len() > usize::from(digits) => {
            let (kept, rest) = fraction.split_at(usize::from(digits));
            if rest.bytes().all(|b| b == b'0') {
                if kept.is_empty() {
                    whole.to_owned()
                } else {
                    format!("{whole}.{kept}")
                }
            } else {
                text.to_owned()
            }
        }
        _ => text.to_owned(),
    }
}

/// Firefly's period and skip as Tally's cadence and interval: `skip` is
/// the number of periods left out between two bills.
fn cadence(period: &str, skip: u32) -> Option<(&'static str, u32)> {
    let every = skip.checked_add(1)?;
    let found = match (period, every) {
        ("weekly", 1) => ("weekly", 1),
        ("weekly", 2) => ("biweekly", 1),
        ("monthly", 1) => ("monthly", 1),
        ("quarterly", 1) | ("monthly", 3) => ("quarterly", 1),
        ("yearly", 1) => ("yearly", 1),
        ("daily", days) => ("custom_days", days),
        ("weekly", weeks) => ("custom_days", weeks.checked_mul(7)?),
        ("monthly", months) => ("custom_months", months),
        ("quarterly", quarters) => ("custom_months", quarters.checked_mul(3)?),
        ("half-year", halves) => ("custom_months", halves.checked_mul(6)?),
        ("yearly", years) => ("custom_months", years.checked_mul(12)?),
        _ => return None,
    };
    (found.1 <= 366).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BILLS: &str =
        include_str!("../../../../server/tests/fixtures/other_apps/firefly_bills.csv");

    #[test]
    fn active_bills_read_with_their_cadence_and_range() {
        let read = read(BILLS).unwrap();
        assert_eq!(read.rows.len(), 2, "{read:?}");
        let netflix = &read.rows[0].form;
        assert_eq!(
            (
                netflix.name.as_str(),
                netflix.amount_minor,
                netflix.currency.as_str()
            ),
            ("Netflix", 1299, "EUR")
        );
        assert_eq!(
            (
                netflix.cadence.as_str(),
                netflix.due_day,
                netflix.anchor_date.as_str()
            ),
            ("monthly", 5, "2025-03-05")
        );
        let domain = &read.rows[1].form;
        assert_eq!(
            (domain.amount_minor, domain.cadence.as_str()),
            (1800, "yearly")
        );
        assert_eq!(domain.notes, "Firefly III expected 15.00 to 18.00 EUR");
        assert!(
            read.rows
                .iter()
                .all(|row| row.problems.is_empty() && row.form.validate().is_ok()),
            "{read:?}"
        );
        assert!(
            read.not_mapped
                .iter()
                .any(|note| note.starts_with("Window cleaner: inactive")),
            "{:?}",
            read.not_mapped
        );
    }

    #[test]
    fn skips_widen_the_cadence() {
        assert_eq!(cadence("weekly", 1), Some(("biweekly", 1)));
        assert_eq!(cadence("monthly", 2), Some(("quarterly", 1)));
        assert_eq!(cadence("half-year", 0), Some(("custom_months", 6)));
        assert_eq!(cadence("yearly", 1), Some(("custom_months", 24)));
        assert_eq!(cadence("daily", 0), Some(("custom_days", 1)));
        assert_eq!(cadence("hourly", 0), None);
        assert_eq!(cadence("yearly", u32::MAX), None);
    }

    #[test]
    fn twelve_decimals_shrink_to_the_currencys() {
        assert_eq!(trimmed_decimals("12.990000000000", 2), "12.99");
        assert_eq!(trimmed_decimals("1200.000000000000", 0), "1200");
        assert_eq!(trimmed_decimals("12.999", 2), "12.999");
        assert_eq!(trimmed_decimals("12.5", 2), "12.5");
    }

    #[test]
    fn another_csv_is_refused() {
        assert!(read("name,amount\nRent,1200\n").is_err());
        assert!(read("").is_err());
    }
}
