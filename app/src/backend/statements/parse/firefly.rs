//! Firefly III's transaction export (Export data in the web app, the API's
//! `/api/v1/data/export/transactions` or the `firefly-iii:export-data`
//! command): a CSV file with one row per journal, written by league/csv.
//! The header of v6.3 and later begins `user_id,group_id,journal_id,` and
//! names one column more than each row holds (`recurrence_date` is never
//! written), so rows are read by column name and short rows are accepted.
//!
//! Firefly keeps double-entry books: each journal moves money from a source
//! account to a destination account, and only "Asset account"s are bank
//! accounts. So a row becomes a line of each side that is an asset account:
//! a withdrawal takes money out of its source, a deposit brings it into its
//! destination, and a transfer between two asset accounts is two lines,
//! minus on the source and plus on the destination. The line's name is the
//! other side's account (the shop, the employer, the other bank account).
//!
//! Opening balances and reconciliations are bookings against Firefly's own
//! balancing accounts, not money that moved; they are listed in `refused`,
//! so the preview shows them, rather than left out unsaid. Other types
//! (liability credits) are refused the same way.
//!
//! A split group (rows sharing `group_id`, with a `group_title`) is several
//! journals in Firefly, each with its own amount, description and category;
//! each stays a line of its own, so each keeps its own id.
//!
//! Each line's `fitid` is `firefly-<journal_id>` (`-out` and `-in` on the
//! two sides of a transfer), so importing the same export twice adds
//! nothing.

use super::{
    amount, dates, Account, AccountKind, Format, Line, ParseError, Refused, Statement, MAX_LINES,
};
use crate::domain::money::Currency;

/// The account type of Firefly's bank accounts.
const ASSET: &str = "Asset account";

/// Longest piece of a field quoted in a reason.
const SHOWN_CHARS: usize = 40;

/// Whether a header (its fields) is Firefly's transaction export: it begins
/// `user_id,group_id,journal_id` in every version since v6.1, which no
/// other export (Firefly's bills begin `user_id,bill_id`) shares.
pub(super) fn is_header(fields: &[&str]) -> bool {
    let names = ["user_id", "group_id", "journal_id"];
    fields.len() > names.len()
        && names
            .iter()
            .zip(fields)
            .all(|(name, field)| field.trim().eq_ignore_ascii_case(name))
}

pub(super) fn parse(text: &str) -> Result<Statement, ParseError> {
    let mut records = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .into_records();
    let header = match records.next() {
        Some(Ok(header)) => header,
        _ => return Err(ParseError::NotRecognized),
    };
    let names: Vec<&str> = header.iter().collect();
    if !is_header(&names) {
        return Err(ParseError::NotRecognized);
    }
    let columns = Columns::find(&names)?;
    let mut reading = Reading::default();
    for record in records {
        let record = record.map_err(|error| {
            let line = error.position().map_or(0, csv::Position::line);
            ParseError::malformed(format!("line {line}"), "the CSV cannot be read")
        })?;
        if record.iter().all(|field| field.trim().is_empty()) {
            continue;
        }
        reading.rows += 1;
        if reading.rows > MAX_LINES {
            return Err(ParseError::TooMany);
        }
        let position = format!("line {}", record.position().map_or(0, csv::Position::line));
        let field = |index: usize| record.get(index).unwrap_or_default().trim();
        let optional = |index: Option<usize>| index.map_or("", field);
        let row = Row {
            journal: field(columns.journal_id),
            kind: field(columns.kind),
            currency: field(columns.currency_code),
            amount: field(columns.amount),
            foreign_currency: optional(columns.foreign_currency_code),
            foreign_amount: optional(columns.foreign_amount),
            description: field(columns.description),
            notes: optional(columns.notes),
            date: field(columns.date),
            source: Party {
                name: field(columns.source_name),
                iban: optional(columns.source_iban),
                asset: field(columns.source_type) == ASSET,
            },
            destination: Party {
                name: field(columns.destination_name),
                iban: optional(columns.destination_iban),
                asset: field(columns.destination_type) == ASSET,
            },
        };
        match row.sides(&position) {
            Ok(sides) => sides.into_iter().for_each(|side| reading.add(side)),
            Err(reason) => reading.refused.push(Refused { position, reason }),
        }
    }
    Ok(reading.finish())
}

/// Where each column the import reads is in this file's header.
struct Columns {
    journal_id: usize,
    kind: usize,
    currency_code: usize,
    amount: usize,
    foreign_currency_code: Option<usize>,
    foreign_amount: Option<usize>,
    description: usize,
    date: usize,
    source_name: usize,
    source_iban: Option<usize>,
    source_type: usize,
    destination_name: usize,
    destination_iban: Option<usize>,
    destination_type: usize,
    notes: Option<usize>,
}

impl Columns {
    fn find(names: &[&str]) -> Result<Self, ParseError> {
        let optional = |wanted: &str| {
            names
                .iter()
                .position(|name| name.trim().eq_ignore_ascii_case(wanted))
        };
        let required = |wanted: &str| {
            optional(wanted).ok_or_else(|| {
                ParseError::malformed("line 1", format!("the header has no {wanted} column"))
            })
        };
        Ok(Self {
            journal_id: required("journal_id")?,
            kind: required("type")?,
            currency_code: required("currency_code")?,
            amount: required("amount")?,
            foreign_currency_code: optional("foreign_currency_code"),
            foreign_amount: optional("foreign_amount"),
            description: required("description")?,
            date: required("date")?,
            source_name: required("source_name")?,
            source_iban: optional("source_iban"),
            source_type: required("source_type")?,
            destination_name: required("destination_name")?,
            destination_iban: optional("destination_iban"),
            destination_type: required("destination_type")?,
            notes: optional("notes"),
        })
    }
}

/// One row's fields, trimmed.
struct Row<'a> {
    journal: &'a str,
    kind: &'a str,
    currency: &'a str,
    amount: &'a str,
    foreign_currency: &'a str,
    foreign_amount: &'a str,
    description: &'a str,
    notes: &'a str,
    date: &'a str,
    source: Party<'a>,
    destination: Party<'a>,
}

/// One side of a journal.
#[derive(Clone, Copy)]
struct Party<'a> {
    name: &'a str,
    iban: &'a str,
    asset: bool,
}

/// A line for one asset account.
struct Side {
    account_id: String,
    account_name: String,
    currency: Currency,
    line: Line,
}

impl Row<'_> {
    /// The lines of the row's asset accounts, or why it is not imported.
    fn sides(&self, position: &str) -> Result<Vec<Side>, String> {
        let transfer = match self.kind.to_ascii_lowercase().as_str() {
            "withdrawal" | "deposit" => false,
            "transfer" => true,
            "opening balance" => return Err("an opening balance, not a transaction".to_owned()),
            "reconciliation" => {
                return Err("a reconciliation adjustment, not a transaction".to_owned())
            }
            "" => return Err("the row has no type".to_owned()),
            other => {
                return Err(format!(
                    "a {} is not imported: only withdrawals, deposits and transfers are",
                    shown(other)
                ))
            }
        };
        if self.journal.is_empty()
            || self.journal.len() > 20
            || !self.journal.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(format!(
                "the journal_id {:?} is not a number",
                shown(self.journal)
            ));
        }
        let day = dates::iso_day(self.date)
            .ok_or_else(|| format!("the date {:?} is not a date", shown(self.date)))?;
        if !self.source.asset && !self.destination.asset {
            return Err(format!(
                "neither {:?} nor {:?} is an asset account",
                shown(self.source.name),
                shown(self.destination.name)
            ));
        }
        let memo_parts: Vec<&str> = [self.description, self.notes]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect();
        let memo = (!memo_parts.is_empty()).then(|| memo_parts.join(" · "));
        let mut sides = Vec::with_capacity(2);
        for (party, other, out) in [
            (self.source, self.destination, true),
            (self.destination, self.source, false),
        ] {
            if !party.asset {
                continue;
            }
            // A transfer between accounts of two currencies is written in
            // the source's currency, with the destination's as the foreign
            // amount. A withdrawal's or deposit's foreign amount is what the
            // shop charged, not what the account moved, and is not read.
            let (currency, written) = if transfer
                && !out
                && !self.foreign_currency.is_empty()
                && !self.foreign_amount.is_empty()
            {
                (self.foreign_currency, self.foreign_amount)
            } else {
                (self.currency, self.amount)
            };
            let currency = Currency::parse(currency).map_err(|_| {
                format!("the currency {:?} is not a currency code", shown(currency))
            })?;
            // The direction comes from which side the account is on, not
            // from the sign: Firefly writes withdrawals negative and the
            // rest positive (v6.2 and later), older versions otherwise.
            let magnitude = amount::minor_units(written, currency.digits())
                .map_err(|error| error.to_string())?
                .checked_abs()
                .ok_or_else(|| format!("the amount {:?} is too large", shown(written)))?;
            let fitid = match (transfer, out) {
                (false, _) => format!("firefly-{}", self.journal),
                (true, true) => format!("firefly-{}-out", self.journal),
                (true, false) => format!("firefly-{}-in", self.journal),
            };
            sides.push(Side {
                account_id: if party.iban.is_empty() {
                    party.name.to_owned()
                } else {
                    party.iban.to_owned()
                },
                account_name: party.name.to_owned(),
                currency,
                line: Line {
                    position: position.to_owned(),
                    fitid: Some(fitid),
                    day: day.clone(),
                    amount_minor: if out { -magnitude } else { magnitude },
                    name: other.name.to_owned(),
                    memo: memo.clone(),
                },
            });
        }
        Ok(sides)
    }
}

#[derive(Default)]
struct Reading {
    rows: usize,
    accounts: Vec<Account>,
    refused: Vec<Refused>,
}

impl Reading {
    /// Adds a line to its account, made on its first line with that line's
    /// currency; a line in another currency is refused, as an account holds
    /// one currency.
    fn add(&mut self, side: Side) {
        let code = side.currency.code();
        let found = self
            .accounts
            .iter_mut()
            .find(|account| account.id == side.account_id);
        match found {
            Some(account) if account.currency.as_deref() == Some(code) => {
                account.lines.push(side.line);
            }
            Some(account) => self.refused.push(Refused {
                position: side.line.position,
                reason: format!(
                    "{:?} is in {} (its first row), this row in {code}: one account holds one currency",
                    shown(&side.account_name),
                    account.currency.as_deref().unwrap_or_default(),
                ),
            }),
            None => self.accounts.push(Account {
                id: side.account_id,
                kind: AccountKind::Bank,
                name: (!side.account_name.is_empty()).then_some(side.account_name),
                currency: Some(code.to_owned()),
                opening_balance: None,
                closing_balance: None,
                lines: vec![side.line],
            }),
        }
    }

    fn finish(self) -> Statement {
        Statement {
            format: Format::FireflyCsv,
            accounts: self.accounts,
            refused: self.refused,
        }
    }
}

fn shown(text: &str) -> String {
    text.chars().take(SHOWN_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_file, Options};
    use super::*;
    use proptest::prelude::*;

    const FIXTURE: &str =
        include_str!("../../../../../server/tests/fixtures/other_apps/firefly_transactions.csv");

    /// The v6.3 header without the meta fields, which are not read.
    const HEADER: &str = "user_id,group_id,journal_id,created_at,updated_at,group_title,type,currency_code,amount,foreign_currency_code,foreign_amount,primary_currency_code,pc_amount,pc_foreign_amount,description,date,source_name,source_iban,source_type,destination_name,destination_iban,destination_type,reconciled,category,budget,bill,tags,notes";

    fn read(bytes: &[u8]) -> Result<Statement, ParseError> {
        parse_file(bytes, Format::FireflyCsv, &Options::default())
    }

    /// A row of [`HEADER`].
    fn row(
        journal: &str,
        kind: &str,
        currency: &str,
        amount: &str,
        date: &str,
        source: (&str, &str),
        destination: (&str, &str),
    ) -> String {
        format!(
            "1,1,{journal},,,,{kind},{currency},{amount},,,,,,Thing,{date},{},,\"{}\",{},,\"{}\",,,,,,",
            source.0, source.1, destination.0, destination.1
        )
    }

    fn file(rows: &[String]) -> String {
        format!("{HEADER}\n{}\n", rows.join("\n"))
    }

    #[test]
    fn the_fixture_is_read() {
        let statement = read(FIXTURE.as_bytes()).unwrap();
        assert_eq!(statement.format, Format::FireflyCsv);
        assert_eq!(statement.refused, []);
        let accounts: Vec<_> = statement
            .accounts
            .iter()
            .map(|a| {
                (
                    a.id.as_str(),
                    a.name.as_deref(),
                    a.currency.as_deref(),
                    a.kind,
                    a.lines.len(),
                )
            })
            .collect();
        assert_eq!(
            accounts,
            [
                (
                    "NL91ABNA0417164300",
                    Some("Main checking"),
                    Some("EUR"),
                    AccountKind::Bank,
                    8
                ),
                (
                    "NL20INGB0001234567",
                    Some("Savings account"),
                    Some("EUR"),
                    AccountKind::Bank,
                    1
                ),
            ]
        );
        let checking: Vec<_> = statement.accounts[0]
            .lines
            .iter()
            .map(|l| {
                (
                    l.position.as_str(),
                    l.fitid.as_deref(),
                    l.day.as_str(),
                    l.amount_minor,
                    l.name.as_str(),
                )
            })
            .collect();
        assert_eq!(
            checking,
            [
                ("line 2", Some("firefly-207"), "2026-01-20", -1500, "Gandi"),
                (
                    "line 3",
                    Some("firefly-206"),
                    "2026-01-15",
                    -1099,
                    "Spotify"
                ),
                (
                    "line 4",
                    Some("firefly-205-out"),
                    "2026-01-10",
                    -50_000,
                    "Savings account"
                ),
                (
                    "line 5",
                    Some("firefly-202"),
                    "2026-01-08",
                    -4520,
                    "Albert Heijn"
                ),
                (
                    "line 6",
                    Some("firefly-203"),
                    "2026-01-08",
                    -1480,
                    "Albert Heijn"
                ),
                (
                    "line 7",
                    Some("firefly-201"),
                    "2026-01-05",
                    -1299,
                    "Netflix"
                ),
                (
                    "line 8",
                    Some("firefly-208"),
                    "2026-01-04",
                    -2900,
                    "Basic-Fit"
                ),
                (
                    "line 9",
                    Some("firefly-204"),
                    "2026-01-02",
                    320_000,
                    "ACME Corp"
                ),
            ]
        );
        let lines = &statement.accounts[0].lines;
        // The foreign amount (USD) is what Spotify charged, not what moved.
        assert_eq!(
            lines[1].memo.as_deref(),
            Some("Spotify Premium · Family plan, billed \"monthly\"")
        );
        assert_eq!(
            lines[7].memo.as_deref(),
            Some("Salary January · January salary, incl. bonus")
        );
        assert_eq!(lines[0].memo.as_deref(), Some("Annual domain renewal"));
        // The split group's two journals stay two lines.
        assert_eq!(lines[3].memo.as_deref(), Some("Groceries"));
        assert_eq!(lines[4].memo.as_deref(), Some("Household supplies"));
        assert_eq!(
            statement.accounts[1].lines,
            [Line {
                position: "line 4".into(),
                fitid: Some("firefly-205-in".into()),
                day: "2026-01-10".into(),
                amount_minor: 50_000,
                name: "Main checking".into(),
                memo: Some("Monthly savings".into()),
            }]
        );
    }

    #[test]
    fn balancing_rows_and_other_types_are_refused_with_the_reason() {
        let text = file(&[
            row(
                "1",
                "Opening balance",
                "EUR",
                "100.00",
                "2026-01-01T00:00:00+01:00",
                ("Initial balance for \"Cash\"", "Initial balance account"),
                ("Cash", ASSET),
            ),
            row(
                "2",
                "Reconciliation",
                "EUR",
                "1.00",
                "2026-01-02T00:00:00+01:00",
                ("Cash", ASSET),
                ("Reconciliation", "Reconciliation account"),
            ),
            row(
                "3",
                "Liability credit",
                "EUR",
                "5.00",
                "2026-01-03T00:00:00+01:00",
                ("Loan", "Liability credit account"),
                ("Car loan", "Loan"),
            ),
            row(
                "4",
                "Withdrawal",
                "EUR",
                "-5.00",
                "2026-01-04T00:00:00+01:00",
                ("Car loan", "Loan"),
                ("Garage", "Expense account"),
            ),
            row(
                "5",
                "Withdrawal",
                "EUR",
                "-5.00",
                "2026-01-04T00:00:00+01:00",
                ("Cash", ASSET),
                ("Bakery", "Expense account"),
            ),
        ]);
        let statement = read(text.as_bytes()).unwrap();
        assert_eq!(statement.accounts.len(), 1);
        assert_eq!(statement.accounts[0].id, "Cash");
        assert_eq!(statement.accounts[0].name.as_deref(), Some("Cash"));
        assert_eq!(statement.accounts[0].lines.len(), 1);
        assert_eq!(statement.accounts[0].lines[0].amount_minor, -500);
        let refused: Vec<_> = statement
            .refused
            .iter()
            .map(|r| (r.position.as_str(), r.reason.as_str()))
            .collect();
        assert_eq!(
            refused,
            [
                ("line 2", "an opening balance, not a transaction"),
                ("line 3", "a reconciliation adjustment, not a transaction"),
                (
                    "line 4",
                    "a liability credit is not imported: only withdrawals, deposits and transfers are"
                ),
                (
                    "line 5",
                    "neither \"Car loan\" nor \"Garage\" is an asset account"
                ),
            ]
        );
    }

    #[test]
    fn bad_rows_are_refused_and_the_rest_kept() {
        let checking = ("Checking", ASSET);
        let shop = ("Shop", "Expense account");
        let day = "2026-02-01T10:00:00+00:00";
        let text = file(&[
            row("1", "Withdrawal", "EUR", "-1.005", day, checking, shop),
            row("2", "Withdrawal", "EUR", "lots", day, checking, shop),
            row(
                "3",
                "Withdrawal",
                "EUR",
                "-1.00",
                "2026-02-30",
                checking,
                shop,
            ),
            row(
                "4",
                "Withdrawal",
                "EUR",
                "-1.00",
                "01/02/2026",
                checking,
                shop,
            ),
            row("", "Withdrawal", "EUR", "-1.00", day, checking, shop),
            row("6", "Withdrawal", "EURO", "-1.00", day, checking, shop),
            row("7", "", "EUR", "-1.00", day, checking, shop),
            row("8", "Withdrawal", "EUR", "-2.00", day, checking, shop),
            row("9", "Withdrawal", "JPY", "-1200", day, ("Yen", ASSET), shop),
            row("10", "Withdrawal", "EUR", "-3.00", day, checking, shop),
            "1,1".to_owned(),
        ]);
        let statement = read(text.as_bytes()).unwrap();
        let lines: Vec<_> = statement
            .accounts
            .iter()
            .flat_map(|a| a.lines.iter().map(|l| (a.id.as_str(), l.amount_minor)))
            .collect();
        assert_eq!(
            lines,
            [("Checking", -200), ("Checking", -300), ("Yen", -1200)]
        );
        assert_eq!(statement.accounts[0].currency.as_deref(), Some("EUR"));
        assert_eq!(statement.accounts[1].currency.as_deref(), Some("JPY"));
        let positions: Vec<_> = statement
            .refused
            .iter()
            .map(|r| r.position.as_str())
            .collect();
        assert_eq!(
            positions,
            ["line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 12"]
        );
        assert!(statement.refused[0].reason.contains("-1.005"));
        assert!(statement.refused[2].reason.contains("2026-02-30"));
        assert!(statement.refused[4].reason.contains("journal_id"));
        assert!(statement.refused[5].reason.contains("EURO"));
        assert_eq!(statement.refused[6].reason, "the row has no type");
        assert_eq!(statement.refused[7].reason, "the row has no type");
    }

    #[test]
    fn an_account_keeps_the_currency_of_its_first_row() {
        let checking = ("Checking", ASSET);
        let shop = ("Shop", "Expense account");
        let day = "2026-02-01";
        let text = file(&[
            row("1", "Withdrawal", "EUR", "-1.00", day, checking, shop),
            row("2", "Withdrawal", "USD", "-2.00", day, checking, shop),
        ]);
        let statement = read(text.as_bytes()).unwrap();
        assert_eq!(statement.accounts[0].lines.len(), 1);
        assert_eq!(
            statement.refused,
            [Refused {
                position: "line 3".into(),
                reason: "\"Checking\" is in EUR (its first row), this row in USD: one account holds one currency".into(),
            }]
        );
    }

    #[test]
    fn a_transfer_between_currencies_reads_each_side_in_its_own() {
        let header = "user_id,group_id,journal_id,type,currency_code,amount,foreign_currency_code,foreign_amount,description,date,source_name,source_type,destination_name,destination_type";
        let text = format!(
            "{header}\n1,1,9,Transfer,EUR,100.00,USD,108.50,Move,2026-03-01,Euro,{ASSET},Dollar,{ASSET}\n"
        );
        let statement = read(text.as_bytes()).unwrap();
        let sides: Vec<_> = statement
            .accounts
            .iter()
            .map(|a| {
                (
                    a.id.as_str(),
                    a.currency.as_deref(),
                    a.lines[0].amount_minor,
                    a.lines[0].fitid.as_deref(),
                    a.lines[0].memo.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            sides,
            [
                (
                    "Euro",
                    Some("EUR"),
                    -10_000,
                    Some("firefly-9-out"),
                    Some("Move")
                ),
                (
                    "Dollar",
                    Some("USD"),
                    10_850,
                    Some("firefly-9-in"),
                    Some("Move")
                ),
            ]
        );
    }

    #[test]
    fn a_header_without_a_needed_column_is_malformed() {
        let text = "user_id,group_id,journal_id,type,amount\n1,1,1,Withdrawal,-1.00\n";
        assert_eq!(
            read(text.as_bytes()),
            Err(ParseError::Malformed {
                position: "line 1".into(),
                reason: "the header has no currency_code column".into(),
            })
        );
    }

    #[test]
    fn hostile_and_truncated_files() {
        assert_eq!(read(b""), Err(ParseError::NotRecognized));
        assert_eq!(read(b"\n\n"), Err(ParseError::NotRecognized));
        assert_eq!(
            read(b"user_id,bill_id,created_at\n"),
            Err(ParseError::NotRecognized)
        );
        assert_eq!(
            read(b"\x00\xff\xfe garbage"),
            Err(ParseError::NotRecognized)
        );
        let header_only = read(format!("{HEADER}\n").as_bytes()).unwrap();
        assert!(header_only.accounts.is_empty() && header_only.refused.is_empty());
        // A quote never closed swallows the rest of the file into one field.
        let unclosed =
            format!(
            "{HEADER}\n1,1,5,,,,Withdrawal,EUR,-1.00,,,,,,\"never closed,2026-01-01,A,,{ASSET}\n{}",
            row("6", "Withdrawal", "EUR", "-1.00", "2026-01-01", ("A", ASSET), ("B", "x"))
        );
        let statement = read(unclosed.as_bytes()).unwrap();
        assert!(statement.accounts.is_empty());
        assert_eq!(statement.refused.len(), 1);
        assert!(statement.refused[0].reason.contains("date"));
        let huge = format!(
            "{HEADER}\n1,1,1,,,,Withdrawal,EUR,-1.00,,,,,,{},2026-01-01,A,,{ASSET},B,,x,,,,,,\n",
            "x".repeat(2 * 1024 * 1024)
        );
        let statement = read(huge.as_bytes()).unwrap();
        assert_eq!(statement.accounts[0].lines[0].amount_minor, -100);
        let huge_amount = format!(
            "{HEADER}\n1,1,1,,,,Withdrawal,EUR,{},,,,,,d,2026-01-01,A,,{ASSET},B,,x,,,,,,\n",
            "9".repeat(2 * 1024 * 1024)
        );
        let statement = read(huge_amount.as_bytes()).unwrap();
        assert!(statement.refused[0].reason.len() < 200);
        for cut in (0..FIXTURE.len()).filter(|cut| FIXTURE.is_char_boundary(*cut)) {
            let _ = read(&FIXTURE.as_bytes()[..cut]);
        }
    }

    #[test]
    fn more_rows_than_the_limit_are_refused() {
        let one = "1,1,1,,,,Withdrawal,EUR,-1.00,,,,,,d,2026-01-01,A,,x,B,,x\n";
        let text = format!("{HEADER}\n{}", one.repeat(MAX_LINES + 1));
        assert_eq!(read(text.as_bytes()), Err(ParseError::TooMany));
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let _ = read(&bytes);
            let mut text = format!("{HEADER}\n").into_bytes();
            text.extend(bytes);
            let _ = read(&text);
        }

        #[test]
        fn any_change_to_the_fixture_is_read_or_refused(
            at in 0_usize..FIXTURE.len(),
            bytes in prop::collection::vec(any::<u8>(), 0..16),
        ) {
            let mut text = FIXTURE.as_bytes().to_vec();
            text.splice(at..at, bytes);
            let _ = read(&text);
        }

        #[test]
        fn any_rows_are_read_or_refused(
            rows in prop::collection::vec(
                prop::collection::vec(
                    "(Withdrawal|Deposit|Transfer|Asset account|EUR|JPY|-?[0-9]{1,4}\\.[0-9]{0,3}|2026-0[0-9]-[0-3][0-9]|[ -~]{0,8})",
                    0..24,
                ),
                0..20,
            ),
        ) {
            let body: Vec<String> = rows.iter().map(|fields| fields.join(",")).collect();
            let _ = read(file(&body).as_bytes());
        }
    }
}
