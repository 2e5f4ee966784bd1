//! A sheet's rows read through the person's column mapping into bills or
//! payments, each with its problems and whether the account has it
//! already (pure: what the account has comes in as arguments).

use std::collections::{HashMap, HashSet};

use super::cells::{Cell, Sheet};
use crate::contract::history::HistoryMapping;
use crate::domain::bill::BillForm;
use crate::domain::date::Date;
use crate::domain::money::{minor_to_input, parse_minor, Currency};
use crate::domain::validation::FieldViolation;

/// What a sheet's rows are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bills,
    Payments,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "bills" => Some(Self::Bills),
            "payments" => Some(Self::Payments),
            _ => None,
        }
    }
}

/// A payment read from a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentRow {
    pub bill_id: i64,
    pub paid_on: Date,
    pub amount_minor: i64,
}

/// What a row becomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Planned {
    Bill(Box<BillForm>),
    Payment(PaymentRow),
    /// The row has problems; nothing can be made of it.
    Nothing,
}

/// One row read.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's number in the sheet (the heading is 1).
    pub line: usize,
    pub summary: String,
    pub problems: Vec<FieldViolation>,
    pub duplicate: bool,
    pub planned: Planned,
}

impl Row {
    /// What the import takes unless told otherwise.
    pub fn import_by_default(&self) -> bool {
        self.problems.is_empty() && !self.duplicate
    }
}

/// What the account has, to tell duplicates and find bills by name.
#[derive(Clone, Debug, Default)]
pub struct Existing {
    /// Bill names, lower-cased, with their ids.
    pub bills: HashMap<String, i64>,
    /// Payments as (bill, day, amount).
    pub payments: HashSet<(i64, Date, i64)>,
}

fn problem(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

/// Checks the mapping names the columns its kind needs, each within the
/// sheet; problems name the query parameter.
pub fn check(mapping: &HistoryMapping, kind: Kind, width: usize) -> Vec<FieldViolation> {
    let mut problems = Vec::new();
    let needed: &[(&str, Option<usize>)] = match kind {
        Kind::Bills => &[
            ("name", mapping.name),
            ("amount", mapping.amount),
            ("date", mapping.date),
        ],
        Kind::Payments => &[
            ("bill", mapping.bill),
            ("amount", mapping.amount),
            ("date", mapping.date),
        ],
    };
    for (field, column) in needed {
        if column.is_none() {
            problems.push(problem(field, "choose the column that holds it"));
        }
    }
    for (field, column) in mapping.columns() {
        if column.is_some_and(|column| column >= width) {
            problems.push(problem(field, format!("the sheet has {width} columns")));
        }
    }
    problems
}

/// An amount cell: a number, or text like `$1,234.56` or `1234,56 €`.
fn amount(cell: &Cell, digits: u8) -> Result<i64, String> {
    let text = match cell {
        Cell::Number(number) => format!("{number:.prec$}", prec = usize::from(digits)),
        Cell::Text(text) => {
            let kept: String = text
                .chars()
                .filter(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '-'))
                .collect();
            // "1.234,56" and "1234,56": the last separator with one or two
            // digits after it is the decimal one.
            match kept.rfind([',', '.']) {
                Some(at) if kept[at..].starts_with(',') && kept.len() - at <= 3 => {
                    format!("{}.{}", kept[..at].replace(['.', ','], ""), &kept[at + 1..])
                }
                _ => kept.replace(',', ""),
            }
        }
        Cell::Empty => return Err("the amount is empty".into()),
        _ => return Err("write the amount as a number".into()),
    };
    // A spreadsheet of payments often writes money out as negative: the
    // amount is what was paid either way.
    let unsigned = text.trim().trim_start_matches('-');
    parse_minor(unsigned, digits).map_err(|error| error.to_string())
}

fn date(cell: &Cell) -> Result<Date, String> {
    match cell {
        Cell::Date(day) => Ok(*day),
        Cell::Text(text) => Date::parse(text.get(..10).unwrap_or(text))
            .map_err(|_| "write the date as 2026-01-31 or as an Excel date".to_owned()),
        Cell::Empty => Err("the date is empty".into()),
        _ => Err("write the date as 2026-01-31 or as an Excel date".into()),
    }
}

/// "Monthly", "every 2 weeks", "annual"… as Tally's cadence and interval.
fn cadence(text: &str) -> Option<(&'static str, i64)> {
    let text = text.trim().to_lowercase();
    let found = match text.as_str() {
        "" | "monthly" | "month" | "every month" => ("monthly", 1),
        "weekly" | "week" | "every week" => ("weekly", 1),
        "biweekly" | "bi-weekly" | "fortnightly" | "every 2 weeks" | "every two weeks" => {
            ("biweekly", 1)
        }
        "quarterly" | "every 3 months" | "every three months" => ("quarterly", 1),
        "yearly" | "annual" | "annually" | "year" | "every year" => ("yearly", 1),
        "every 6 months" | "half-yearly" | "semiannual" | "semi-annually" => ("custom_months", 6),
        _ => return None,
    };
    Some(found)
}

fn flag(cell: &Cell) -> Option<bool> {
    match cell {
        Cell::Bool(value) => Some(*value),
        Cell::Empty => Some(false),
        Cell::Number(number) => Some(*number != 0.0),
        Cell::Text(text) => match text.trim().to_lowercase().as_str() {
            "yes" | "y" | "true" | "x" | "1" | "auto" | "autopay" => Some(true),
            "no" | "n" | "false" | "0" | "" => Some(false),
            _ => None,
        },
        Cell::Date(_) => None,
    }
}

/// The sheet's rows under its heading (the first row), read as `kind`.
/// `currency`: the person's, which the amounts are in.
pub fn rows(
    sheet: &Sheet,
    mapping: &HistoryMapping,
    kind: Kind,
    currency: &str,
    existing: &Existing,
) -> Vec<Row> {
    let digits = Currency::parse(currency).map_or(2, |known| known.digits());
    let empty = Cell::Empty;
    let mut seen_names: HashSet<String> = HashSet::new();
    let mut seen_payments: HashSet<(i64, Date, i64)> = HashSet::new();
    sheet
        .rows
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, cells)| cells.iter().any(|cell| *cell != Cell::Empty))
        .map(|(index, cells)| {
            let at = |column: Option<usize>| column.and_then(|column| cells.get(column)).unwrap_or(&empty);
            let mut problems = Vec::new();
            let amount_minor = amount(at(mapping.amount), digits)
                .map_err(|description| problems.push(problem("amount", description)))
                .unwrap_or(0);
            let day = date(at(mapping.date)).map_err(|description| problems.push(problem("date", description))).ok();
            let shown_amount = format!("{} {currency}", minor_to_input(amount_minor, digits));
            let line = index + 1;
            match kind {
                Kind::Bills => {
                    let name = at(mapping.name).text();
                    let (cadence_name, interval) = match cadence(&at(mapping.cadence).text()) {
                        Some(found) => found,
                        None => {
                            problems.push(problem("cadence", format!("{:?} is not a cadence Tally knows (monthly, weekly, every 2 weeks, quarterly, yearly)", at(mapping.cadence).text())));
                            ("monthly", 1)
                        }
                    };
                    let autopay = flag(at(mapping.autopay)).unwrap_or_else(|| {
                        problems.push(problem("autopay", "write yes or no"));
                        false
                    });
                    let form = BillForm {
                        name: name.clone(),
                        amount_minor,
                        currency: currency.to_owned(),
                        cadence: cadence_name.to_owned(),
                        cadence_interval: Some(interval),
                        due_day: day.map_or(1, |day| i64::from(day.day())),
                        anchor_date: day.map(|day| day.to_string()).unwrap_or_default(),
                        category: match at(mapping.category).text() {
                            category if category.is_empty() => "Other".into(),
                            category => category,
                        },
                        notes: at(mapping.notes).text(),
                        autopay,
                        subscription: false,
                        debt: false,
                        balance_minor: None,
                        apr_basis_points: None,
                        minimum_payment_minor: None,
                        catalog_id: None,
                    };
                    if let Err(more) = form.validate() {
                        for violation in more {
                            let field = match violation.field.as_str() {
                                "amountMinor" => "amount",
                                "anchorDate" | "dueDay" => "date",
                                other => other,
                            };
                            if !problems.iter().any(|known| known.field == field) {
                                problems.push(problem(field, violation.description));
                            }
                        }
                    }
                    let key = name.trim().to_lowercase();
                    let duplicate = existing.bills.contains_key(&key) || !seen_names.insert(key);
                    Row {
                        line,
                        summary: format!("{name} · {shown_amount} · {cadence_name} from {}", form.anchor_date),
                        duplicate,
                        planned: if problems.is_empty() { Planned::Bill(Box::new(form)) } else { Planned::Nothing },
                        problems,
                    }
                }
                Kind::Payments => {
                    let bill_name = at(mapping.bill).text();
                    let bill_id = existing.bills.get(&bill_name.trim().to_lowercase()).copied();
                    if bill_id.is_none() {
                        problems.push(problem(
                            "bill",
                            if bill_name.is_empty() {
                                "the bill's name is empty".to_owned()
                            } else {
                                format!("you have no bill named {bill_name:?}; import your bills first")
                            },
                        ));
                    }
                    let planned = match (bill_id, day) {
                        (Some(bill_id), Some(paid_on)) if problems.is_empty() => Some(PaymentRow { bill_id, paid_on, amount_minor }),
                        _ => None,
                    };
                    let duplicate = planned.as_ref().is_some_and(|payment| {
                        let key = (payment.bill_id, payment.paid_on, payment.amount_minor);
                        existing.payments.contains(&key) || !seen_payments.insert(key)
                    });
                    Row {
                        line,
                        summary: format!(
                            "{bill_name} · {shown_amount} · paid {}",
                            day.map(|day| day.to_string()).unwrap_or_default()
                        ),
                        duplicate,
                        planned: planned.map_or(Planned::Nothing, Planned::Payment),
                        problems,
                    }
                }
            }
        })
        .collect()
}

/// The lines of `rows=` ("3,5,8"), or `None` for "the preview's choice".
pub fn chosen_lines(text: Option<&str>) -> Result<Option<HashSet<usize>>, FieldViolation> {
    let Some(text) = text.map(str::trim) else {
        return Ok(None);
    };
    if text.is_empty() {
        return Ok(Some(HashSet::new()));
    }
    text.split(',')
        .map(|part| part.trim().parse::<usize>())
        .collect::<Result<HashSet<_>, _>>()
        .map(Some)
        .map_err(|_| problem("rows", "list row numbers separated by commas, like 2,3,7"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Cell {
        Cell::Text(value.into())
    }

    fn sheet(rows: Vec<Vec<Cell>>) -> Sheet {
        Sheet {
            name: "Sheet1".into(),
            rows,
        }
    }

    fn bills_mapping() -> HistoryMapping {
        HistoryMapping {
            sheet: "Sheet1".into(),
            kind: "bills".into(),
            name: Some(0),
            amount: Some(1),
            date: Some(2),
            cadence: Some(3),
            ..HistoryMapping::default()
        }
    }

    #[test]
    fn bills_read_through_the_mapping_with_problems_by_field() {
        let day = Date::new(2026, 1, 31).unwrap();
        let rows = rows(
            &sheet(vec![
                vec![
                    text("Bill"),
                    text("Amount"),
                    text("First due"),
                    text("How often"),
                ],
                vec![
                    text("Rent"),
                    Cell::Number(1500.0),
                    Cell::Date(day),
                    text("Monthly"),
                ],
                vec![
                    text("Gym"),
                    text("$1,234.50"),
                    text("2026-02-05"),
                    text("every 2 weeks"),
                ],
                vec![Cell::Empty, Cell::Empty, Cell::Empty, Cell::Empty],
                vec![
                    text("Water"),
                    text("lots"),
                    text("31/01/2026"),
                    text("sometimes"),
                ],
                vec![
                    text("rent"),
                    Cell::Number(10.0),
                    Cell::Date(day),
                    Cell::Empty,
                ],
            ]),
            &bills_mapping(),
            Kind::Bills,
            "USD",
            &Existing::default(),
        );
        assert_eq!(rows.len(), 4, "the empty row is skipped");
        let Planned::Bill(rent) = &rows[0].planned else {
            panic!("{:?}", rows[0])
        };
        assert_eq!(
            (rent.amount_minor, rent.due_day, rent.anchor_date.as_str()),
            (150_000, 31, "2026-01-31")
        );
        assert_eq!(
            rows[0].summary,
            "Rent · 1500.00 USD · monthly from 2026-01-31"
        );
        assert!(rows[0].import_by_default());
        let Planned::Bill(gym) = &rows[1].planned else {
            panic!()
        };
        assert_eq!(
            (gym.amount_minor, gym.cadence.as_str()),
            (123_450, "biweekly")
        );
        let water = &rows[2];
        assert_eq!(water.line, 5);
        let fields: Vec<&str> = water.problems.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["amount", "date", "cadence"]);
        assert!(!water.import_by_default());
        // A second "rent" is a duplicate of the first, not imported by default.
        assert!(rows[3].duplicate && !rows[3].import_by_default());
    }

    #[test]
    fn payments_find_their_bill_and_known_payments_are_duplicates() {
        let day = Date::new(2026, 3, 1).unwrap();
        let mut existing = Existing::default();
        existing.bills.insert("rent".into(), 7);
        existing.payments.insert((7, day, 150_000));
        let mapping = HistoryMapping {
            sheet: "Paid".into(),
            kind: "payments".into(),
            bill: Some(0),
            date: Some(1),
            amount: Some(2),
            ..HistoryMapping::default()
        };
        let rows = rows(
            &sheet(vec![
                vec![text("Bill"), text("Paid on"), text("Amount")],
                vec![text("RENT"), Cell::Date(day), Cell::Number(-1500.0)],
                vec![text("Rent"), text("2026-04-01"), Cell::Number(1500.0)],
                vec![text("Boat"), text("2026-04-01"), Cell::Number(10.0)],
            ]),
            &mapping,
            Kind::Payments,
            "USD",
            &existing,
        );
        assert!(rows[0].duplicate, "{:?}", rows[0]);
        assert_eq!(
            rows[1].planned,
            Planned::Payment(PaymentRow {
                bill_id: 7,
                paid_on: Date::new(2026, 4, 1).unwrap(),
                amount_minor: 150_000
            })
        );
        assert!(rows[1].import_by_default());
        assert_eq!(rows[2].problems[0].field, "bill");
        assert!(rows[2].problems[0]
            .description
            .contains("import your bills first"));
    }

    #[test]
    fn amounts_read_the_way_people_write_them() {
        assert_eq!(amount(&text("1.234,56 €"), 2), Ok(123_456));
        assert_eq!(amount(&text("1234,5"), 2), Ok(123_450));
        assert_eq!(amount(&text("$1,234"), 2), Ok(123_400));
        assert_eq!(amount(&Cell::Number(12.345), 2), Ok(1235));
        assert_eq!(amount(&Cell::Number(1200.0), 0), Ok(1200));
        assert!(amount(&Cell::Bool(true), 2).is_err());
    }

    #[test]
    fn the_mapping_must_name_what_its_kind_needs() {
        let missing = check(&HistoryMapping::default(), Kind::Payments, 3);
        let fields: Vec<&str> = missing.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["bill", "amount", "date"]);
        let outside = check(&bills_mapping(), Kind::Bills, 3);
        assert_eq!(outside.len(), 1);
        assert_eq!(outside[0].field, "cadence");
        assert!(check(&bills_mapping(), Kind::Bills, 4).is_empty());
    }

    #[test]
    fn chosen_rows_read_from_the_query() {
        assert_eq!(chosen_lines(None), Ok(None));
        assert_eq!(chosen_lines(Some("")), Ok(Some(HashSet::new())));
        assert_eq!(
            chosen_lines(Some("2, 5")),
            Ok(Some([2, 5].into_iter().collect()))
        );
        assert!(chosen_lines(Some("2;5")).is_err());
    }
}
