//! Wallos's subscription export (`endpoints/subscriptions/export.php`,
//! Wallos 2.41 to 5.x; docs/formats/other_apps.md): a JSON array of
//! objects, or the same values as CSV with no quoting at all, under
//! `Name, Payment Cycle, Next Payment, Renewal, Category, Payment Method,
//! Paid By, Price, Notes, URL, State, Notifications, Cancellation Date,
//! Active`. Text is HTML-escaped as Wallos stored it; the price is a
//! currency symbol and a number (`$15.49`, `€89.9`, `Fr24.5`).

use std::collections::BTreeMap;

use super::{html_text, Mapped, Read};
use crate::domain::bill::BillForm;
use crate::domain::money::{parse_minor, Currency};
use crate::domain::validation::FieldViolation;

/// The columns of the CSV export, in Wallos's order.
const HEADER: [&str; 14] = [
    "Name",
    "Payment Cycle",
    "Next Payment",
    "Renewal",
    "Category",
    "Payment Method",
    "Paid By",
    "Price",
    "Notes",
    "URL",
    "State",
    "Notifications",
    "Cancellation Date",
    "Active",
];

/// The most subscriptions one file may hold.
const MAX_ITEMS: usize = 5_000;

/// Wallos's currency symbols and the ISO codes they can mean, the usual one
/// first: a symbol several currencies share is read as the person's own
/// currency when it is one of them.
const SYMBOLS: &[(&str, &[&str])] = &[
    (
        "$",
        &[
            "USD", "CAD", "AUD", "NZD", "MXN", "SGD", "HKD", "ARS", "CLP", "COP",
        ],
    ),
    ("US$", &["USD"]),
    ("CA$", &["CAD"]),
    ("C$", &["CAD"]),
    ("A$", &["AUD"]),
    ("NZ$", &["NZD"]),
    ("R$", &["BRL"]),
    ("€", &["EUR"]),
    ("£", &["GBP"]),
    ("¥", &["JPY", "CNY"]),
    ("₹", &["INR"]),
    ("₩", &["KRW"]),
    ("Fr", &["CHF"]),
    ("CHF", &["CHF"]),
    ("kr", &["SEK", "NOK", "DKK", "ISK"]),
    ("zł", &["PLN"]),
    ("Kč", &["CZK"]),
    ("Ft", &["HUF"]),
    ("lei", &["RON"]),
    ("₺", &["TRY"]),
    ("₽", &["RUB"]),
    ("₴", &["UAH"]),
    ("₪", &["ILS"]),
    ("₱", &["PHP"]),
    ("฿", &["THB"]),
    ("₫", &["VND"]),
    ("R", &["ZAR"]),
];

/// The file's subscriptions as bills; `own` is the person's currency, for
/// a symbol several currencies share.
pub fn read(text: &str, own: &str) -> Result<Read, String> {
    let items = if text.trim_start().starts_with('[') {
        json_items(text)?
    } else {
        csv_items(text)?
    };
    if items.len() > MAX_ITEMS {
        return Err(format!("a file may hold at most {MAX_ITEMS} subscriptions"));
    }
    let mut read = Read::default();
    let mut guessed: BTreeMap<String, String> = BTreeMap::new();
    for (number, item) in items.into_iter().enumerate() {
        let line = number + 2;
        let cell = |name: &str| html_text(item.get(name).map(String::as_str).unwrap_or("").trim());
        let name = cell("Name");
        if cell("Active") == "No" || cell("State") == "Disabled" {
            let ended = cell("Cancellation Date");
            let when = if ended.is_empty() {
                String::new()
            } else {
                format!(" on {ended}")
            };
            read.not_mapped.push(format!(
                "{name}: cancelled in Wallos{when}, so not imported"
            ));
            continue;
        }
        let mut problems = Vec::new();
        let (currency, amount) = match price(&cell("Price"), own) {
            Ok(((currency, minor), guess)) => {
                if let Some(symbol) = guess {
                    guessed.insert(symbol, currency.clone());
                }
                (currency, minor)
            }
            Err(description) => {
                problems.push(FieldViolation {
                    field: "amountMinor".into(),
                    description,
                });
                (own.to_owned(), 0)
            }
        };
        let (cadence, interval) = match cycle(&cell("Payment Cycle")) {
            Some(found) => found,
            None => {
                problems.push(FieldViolation {
                    field: "cadence".into(),
                    description: format!(
                        "Wallos's payment cycle {:?} is not one Tally reads",
                        cell("Payment Cycle")
                    ),
                });
                ("monthly", 1)
            }
        };
        let next = cell("Next Payment");
        let due_day = next
            .get(8..10)
            .and_then(|day| day.parse().ok())
            .unwrap_or(1);
        let mut notes = cell("Notes");
        let url = cell("URL");
        if !url.is_empty() {
            notes = if notes.is_empty() {
                url
            } else {
                format!("{notes}\n{url}")
            };
        }
        let category = match cell("Category").as_str() {
            "" | "No category" => "Subscriptions".to_owned(),
            other => other.to_owned(),
        };
        let form = BillForm {
            name: name.clone(),
            amount_minor: amount,
            currency,
            cadence: cadence.to_owned(),
            cadence_interval: Some(i64::from(interval)),
            due_day,
            anchor_date: next,
            category,
            notes,
            // Wallos renews "Automatic" subscriptions by charging the card
            // on file: for Tally that is autopay.
            autopay: cell("Renewal") == "Automatic",
            subscription: true,
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
    for (symbol, code) in guessed {
        read.not_mapped.push(format!(
            "Prices written with {symbol:?} were read as {code}; Wallos does not write the currency's code"
        ));
    }
    if !read.rows.is_empty() {
        read.not_mapped.push(
            "Wallos's payment method, paid-by and notification settings have no place in Tally and were left out".into(),
        );
    }
    Ok(read)
}

fn json_items(text: &str) -> Result<Vec<BTreeMap<String, String>>, String> {
    let values: Vec<BTreeMap<String, serde_json::Value>> = serde_json::from_str(text)
        .map_err(|error| format!("the file is not Wallos's JSON export ({error})"))?;
    Ok(values
        .into_iter()
        .map(|item| {
            item.into_iter()
                .map(|(key, value)| {
                    let text = match value {
                        serde_json::Value::String(text) => text,
                        serde_json::Value::Null => String::new(),
                        other => other.to_string(),
                    };
                    (key, text)
                })
                .collect()
        })
        .collect())
}

/// Wallos writes its CSV without quoting (it turns commas in text into
/// spaces), so each line splits on every comma.
fn csv_items(text: &str) -> Result<Vec<BTreeMap<String, String>>, String> {
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .map(|line| {
            line.trim_start_matches('\u{feff}')
                .split(',')
                .map(str::trim)
                .collect()
        })
        .unwrap_or_default();
    if header != HEADER {
        return Err("the file is not Wallos's subscription export (its header differs)".into());
    }
    lines
        .enumerate()
        .map(|(number, line)| {
            let cells: Vec<&str> = line.split(',').collect();
            if cells.len() != HEADER.len() {
                return Err(format!(
                    "line {}: {} values where Wallos writes {}",
                    number + 2,
                    cells.len(),
                    HEADER.len()
                ));
            }
            Ok(HEADER
                .iter()
                .zip(cells)
                .map(|(name, cell)| ((*name).to_owned(), cell.to_owned()))
                .collect())
        })
        .collect()
}

/// `$15.49` → (USD, 1549); the symbol too when it was a guess between
/// several currencies.
fn price(text: &str, own: &str) -> Result<((String, i64), Option<String>), String> {
    let start = text
        .find(|c: char| c.is_ascii_digit() || c == '-' || c == '.')
        .ok_or_else(|| format!("the price {text:?} has no number"))?;
    let (symbol, number) = text.split_at(start);
    let symbol = symbol.trim();
    let candidates = SYMBOLS
        .iter()
        .find(|(known, _)| *known == symbol)
        .map(|(_, codes)| *codes)
        .ok_or_else(|| {
            format!("the price's currency symbol {symbol:?} is not one Tally can tell")
        })?;
    let (code, guess) = match candidates.iter().find(|code| **code == own) {
        Some(code) => (*code, None),
        None => (
            candidates[0],
            (candidates.len() > 1).then(|| symbol.to_owned()),
        ),
    };
    let digits = Currency::parse(code).map_or(2, |currency| currency.digits());
    let minor = parse_minor(number.trim(), digits).map_err(|error| error.to_string())?;
    Ok(((code.to_owned(), minor), guess))
}

/// Wallos's cycle words as Tally's cadence and interval.
fn cycle(text: &str) -> Option<(&'static str, u32)> {
    let simple = match text {
        "Daily" => Some(("custom_days", 1)),
        "Weekly" => Some(("weekly", 1)),
        "Monthly" => Some(("monthly", 1)),
        "Yearly" => Some(("yearly", 1)),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    let rest = text.strip_prefix("Every ")?;
    let (count, unit) = rest.split_once(' ')?;
    let count: u32 = count
        .parse()
        .ok()
        .filter(|count| (1..=366).contains(count))?;
    let found = match (unit, count) {
        ("Weeks", 2) => ("biweekly", 1),
        ("Months", 3) => ("quarterly", 1),
        ("Days", days) => ("custom_days", days),
        ("Weeks", weeks) if weeks * 7 <= 366 => ("custom_days", weeks * 7),
        ("Months", months) => ("custom_months", months),
        ("Years", years) if years * 12 <= 366 => ("custom_months", years * 12),
        _ => return None,
    };
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = include_str!("../../../../server/tests/fixtures/other_apps/wallos.json");
    const CSV: &str = include_str!("../../../../server/tests/fixtures/other_apps/wallos.csv");

    fn by_name<'a>(read: &'a Read, name: &str) -> &'a Mapped {
        read.rows.iter().find(|row| row.name == name).unwrap()
    }

    #[test]
    fn both_exports_read_the_same_subscriptions() {
        let json = read(JSON, "USD").unwrap();
        let csv = read(CSV, "USD").unwrap();
        assert_eq!(json.rows.len(), 5, "{json:?}");
        let forms = |read: &Read| {
            read.rows
                .iter()
                .map(|row| row.form.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(forms(&json), forms(&csv));
        assert!(
            json.rows.iter().all(|row| row.problems.is_empty()),
            "{json:?}"
        );

        let netflix = &by_name(&json, "Netflix").form;
        assert_eq!(
            (netflix.amount_minor, netflix.currency.as_str()),
            (1549, "USD")
        );
        assert_eq!((netflix.cadence.as_str(), netflix.due_day), ("monthly", 5));
        assert_eq!(netflix.anchor_date, "2026-02-05");
        assert!(netflix.autopay && netflix.subscription);
        assert_eq!(netflix.notes, "https://www.netflix.com");

        let prime = &by_name(&json, "Amazon Prime").form;
        assert_eq!(
            (
                prime.amount_minor,
                prime.currency.as_str(),
                prime.cadence.as_str()
            ),
            (8990, "EUR", "yearly")
        );
        let office = &by_name(&json, "Microsoft 365  Family").form;
        assert_eq!(
            (office.currency.as_str(), office.cadence.as_str()),
            ("CHF", "quarterly")
        );
        assert!(
            office
                .notes
                .starts_with("Shared with Bob  pays half \"on time\""),
            "{}",
            office.notes
        );
        assert!(
            office.notes.contains("tab=family&ref=1"),
            "{}",
            office.notes
        );
        assert!(!office.autopay);
        assert_eq!(by_name(&json, "AT&T Mobile").form.cadence, "biweekly");
        assert_eq!(by_name(&json, "HelloFresh").form.cadence, "weekly");
    }

    #[test]
    fn what_could_not_be_mapped_is_listed() {
        let read = read(JSON, "USD").unwrap();
        assert!(
            read.not_mapped
                .iter()
                .any(|note| note.starts_with("Disney+: cancelled in Wallos on 2025-12-31")),
            "{:?}",
            read.not_mapped
        );
        assert!(read
            .not_mapped
            .iter()
            .any(|note| note.contains("payment method")));
        assert!(
            read.rows.iter().all(|row| row.form.validate().is_ok()),
            "{read:?}"
        );
    }

    #[test]
    fn a_shared_symbol_is_the_persons_own_currency_when_it_can_be() {
        assert_eq!(price("$35", "CAD").unwrap(), (("CAD".into(), 3500), None));
        assert_eq!(
            price("$35", "EUR").unwrap(),
            (("USD".into(), 3500), Some("$".into()))
        );
        assert_eq!(price("kr99", "NOK").unwrap(), (("NOK".into(), 9900), None));
        assert_eq!(price("¥1200", "JPY").unwrap(), (("JPY".into(), 1200), None));
        assert!(price("¤5", "USD").is_err());
        assert!(price("free", "USD").is_err());
    }

    #[test]
    fn cycles_read_as_cadences() {
        assert_eq!(cycle("Every 2 Weeks"), Some(("biweekly", 1)));
        assert_eq!(cycle("Every 3 Months"), Some(("quarterly", 1)));
        assert_eq!(cycle("Every 6 Months"), Some(("custom_months", 6)));
        assert_eq!(cycle("Every 10 Days"), Some(("custom_days", 10)));
        assert_eq!(cycle("Every 2 Years"), Some(("custom_months", 24)));
        assert_eq!(cycle("Daily"), Some(("custom_days", 1)));
        assert_eq!(cycle("Every 0 Days"), None);
        assert_eq!(cycle("Fortnightly"), None);
    }

    #[test]
    fn a_file_that_is_not_a_wallos_export_is_refused() {
        assert!(read("name,amount\nRent,1200\n", "USD").is_err());
        assert!(read("[{\"Name\": 3", "USD").is_err());
        let short = format!("{}\nNetflix,Monthly\n", HEADER.join(","));
        assert!(read(&short, "USD").unwrap_err().contains("line 2"));
    }
}
