//! Actual Budget's CSV export of transactions, written by csv-stringify:
//! the app's (an account's menu → Export),
//! `Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared`
//! (before 26.3 without `Category_Group`), and the API's,
//! `Account,Date,Payee,Notes,Category,Amount,Cleared,Reconciled`. Columns
//! are read by name, so each of them is read the same way.
//!
//! Each row is a line of the account named in `Account` (the file names
//! accounts only, so the name is the account's id), with the payee as the
//! line's name and the notes as its memo. Amounts are JS numbers
//! (`-25.5`, `3200`) of a two-decimal currency the file does not name.
//! Rows not yet cleared are on the account too and are imported.
//!
//! A split is a parent row, whose notes begin `(SPLIT INTO n)` and whose
//! `Split_Amount` is the total (its `Amount` is 0), followed by its parts,
//! whose notes begin `(SPLIT i OF n)`. The bank saw one payment, so the
//! parent is one line of the total, and its parts are written into its memo
//! (`Groceries: -60; Household: -25.5 paper towels`) rather than being
//! lines of their own. A part whose parent is not in the file (a filtered
//! view) is money that moved all the same and is kept as a line.
//!
//! The row of an account's starting balance (payee `Starting Balance`) is a
//! balance, not a transaction: it is refused with that reason, so the
//! preview shows it. Actual writes no transaction ids; the import tells
//! rows apart by its fingerprint (day, amount, payee).

use super::{
    amount, dates, Account, AccountKind, Format, Line, ParseError, Refused, Statement, MAX_LINES,
};

/// Actual's amounts are cents shown with two decimals at most.
const DIGITS: u8 = 2;

/// Longest piece of a field quoted in a reason.
const SHOWN_CHARS: usize = 40;

/// The payee Actual gives each account's first row.
const STARTING_BALANCE: &str = "Starting Balance";

/// Whether a header (its fields) is one of Actual's exports: it begins
/// `Account,Date,Payee,Notes` and has an `Amount`.
pub(super) fn is_header(fields: &[&str]) -> bool {
    let names = ["account", "date", "payee", "notes"];
    fields.len() > names.len()
        && names
            .iter()
            .zip(fields)
            .all(|(name, field)| field.trim().eq_ignore_ascii_case(name))
        && fields
            .iter()
            .any(|field| field.trim().eq_ignore_ascii_case("amount"))
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
    let column = |wanted: &str| {
        names
            .iter()
            .position(|name| name.trim().eq_ignore_ascii_case(wanted))
    };
    let (Some(account), Some(date), Some(payee), Some(notes), Some(amount)) = (
        column("account"),
        column("date"),
        column("payee"),
        column("notes"),
        column("amount"),
    ) else {
        return Err(ParseError::NotRecognized);
    };
    let category = column("category");
    let split_amount = column("split_amount");
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
        let text = |index: usize| unguarded(record.get(index).unwrap_or_default()).trim();
        let optional = |index: Option<usize>| index.map_or("", text);
        reading.row(Row {
            position: format!("line {}", record.position().map_or(0, csv::Position::line)),
            account: text(account),
            date: text(date),
            payee: text(payee),
            notes: text(notes),
            category: optional(category),
            amount: text(amount),
            split_amount: optional(split_amount),
        });
    }
    Ok(reading.finish())
}

/// One row's fields, trimmed.
struct Row<'a> {
    position: String,
    account: &'a str,
    date: &'a str,
    payee: &'a str,
    notes: &'a str,
    category: &'a str,
    amount: &'a str,
    split_amount: &'a str,
}

/// What a row's notes say of splits.
#[derive(Debug, PartialEq, Eq)]
enum Mark<'a> {
    /// `(SPLIT INTO n) notes`.
    Parent {
        parts: u64,
        notes: &'a str,
    },
    /// `(SPLIT i OF n) notes`.
    Part {
        parts: u64,
        notes: &'a str,
    },
    None,
}

fn mark(notes: &str) -> Mark<'_> {
    let Some((inside, rest)) = notes
        .strip_prefix("(SPLIT ")
        .and_then(|inner| inner.split_once(')'))
    else {
        return Mark::None;
    };
    let number = |text: &str| {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse::<u64>().ok()
    };
    let notes = rest.trim();
    if let Some(parts) = inside.strip_prefix("INTO ").and_then(number) {
        return Mark::Parent { parts, notes };
    }
    match inside.split_once(" OF ") {
        Some((index, parts)) if number(index).is_some() => match number(parts) {
            Some(parts) => Mark::Part { parts, notes },
            None => Mark::None,
        },
        _ => Mark::None,
    }
}

/// A split's parent, waiting for its parts.
struct Parent {
    position: String,
    account: String,
    /// The day and the total, or why the parent cannot be read.
    read: Result<(String, Option<i64>), String>,
    payee: String,
    notes: String,
    parts: u64,
    seen: u64,
    /// The parts as the memo shows them.
    shown: Vec<String>,
    /// The parts' sum, for a parent that does not write its total (None
    /// when a part cannot be read).
    sum: Option<i64>,
}

#[derive(Default)]
struct Reading {
    rows: usize,
    accounts: Vec<Account>,
    refused: Vec<Refused>,
    parent: Option<Parent>,
}

impl Reading {
    fn row(&mut self, row: Row<'_>) {
        match mark(row.notes) {
            Mark::Parent { parts, notes } => {
                self.close_parent();
                self.open_parent(&row, parts, notes);
            }
            Mark::Part { parts, notes } => {
                let belongs = self.parent.as_ref().is_some_and(|parent| {
                    parent.account == row.account && parent.parts == parts && parent.seen < parts
                });
                if belongs {
                    self.add_part(&row, notes);
                } else {
                    self.close_parent();
                    self.plain(&row, notes);
                }
            }
            Mark::None => {
                self.close_parent();
                self.plain(&row, row.notes);
            }
        }
    }

    /// A row that is neither a split nor a part of one in the file.
    fn plain(&mut self, row: &Row<'_>, notes: &str) {
        if row.payee.eq_ignore_ascii_case(STARTING_BALANCE) {
            self.refused.push(Refused {
                position: row.position.clone(),
                reason: "a starting balance, not a transaction".to_owned(),
            });
            return;
        }
        let read = day(row.date).and_then(|day| Ok((day, minor_units(row.amount)?)));
        match read {
            Ok((day, amount_minor)) => self.push(row.account, line(row, day, amount_minor, notes)),
            Err(reason) => self.refused.push(Refused {
                position: row.position.clone(),
                reason,
            }),
        }
    }

    fn open_parent(&mut self, row: &Row<'_>, parts: u64, notes: &str) {
        // The app's export writes the total in Split_Amount (and 0 in
        // Amount); a file without that column may write it in Amount or
        // not at all, when the parts' sum is the total.
        let total = |written: &str| -> Result<Option<i64>, String> {
            if written.is_empty() {
                return Ok(None);
            }
            minor_units(written).map(|minor| (minor != 0).then_some(minor))
        };
        let read = day(row.date).and_then(|day| {
            let total = match total(row.split_amount)? {
                Some(total) => Some(total),
                None => total(row.amount)?,
            };
            Ok((day, total))
        });
        self.parent = Some(Parent {
            position: row.position.clone(),
            account: row.account.to_owned(),
            read,
            payee: row.payee.to_owned(),
            notes: notes.to_owned(),
            parts,
            seen: 0,
            shown: Vec::new(),
            sum: Some(0),
        });
    }

    fn add_part(&mut self, row: &Row<'_>, notes: &str) {
        let Some(parent) = self.parent.as_mut() else {
            return;
        };
        parent.seen += 1;
        let category = if row.category.is_empty() {
            "split"
        } else {
            row.category
        };
        let shown = format!("{category}: {} {notes}", row.amount);
        parent.shown.push(shown.trim_end().to_owned());
        parent.sum = match (parent.sum, minor_units(row.amount)) {
            (Some(sum), Ok(minor)) => sum.checked_add(minor),
            _ => None,
        };
        if parent.seen >= parent.parts {
            self.close_parent();
        }
    }

    /// The split waiting for its parts becomes one line.
    fn close_parent(&mut self) {
        let Some(parent) = self.parent.take() else {
            return;
        };
        let read = parent.read.and_then(|(day, total)| {
            let amount_minor = total.or(parent.sum).ok_or_else(|| {
                "the split writes no total and a part's amount cannot be read".to_owned()
            })?;
            Ok((day, amount_minor))
        });
        match read {
            Ok((day, amount_minor)) => {
                let mut memo: Vec<String> = Some(parent.notes)
                    .filter(|notes| !notes.is_empty())
                    .into_iter()
                    .collect();
                memo.extend(parent.shown);
                let memo = (!memo.is_empty()).then(|| memo.join("; "));
                let name = if parent.payee.is_empty() {
                    memo.clone().unwrap_or_default()
                } else {
                    parent.payee
                };
                let line = Line {
                    position: parent.position,
                    fitid: None,
                    day,
                    amount_minor,
                    name,
                    memo,
                };
                self.push(&parent.account, line);
            }
            Err(reason) => self.refused.push(Refused {
                position: parent.position,
                reason,
            }),
        }
    }

    fn push(&mut self, account: &str, line: Line) {
        match self.accounts.iter_mut().find(|found| found.id == account) {
            Some(found) => found.lines.push(line),
            None => self.accounts.push(Account {
                id: account.to_owned(),
                kind: AccountKind::Bank,
                name: (!account.is_empty()).then(|| account.to_owned()),
                currency: None,
                opening_balance: None,
                closing_balance: None,
                lines: vec![line],
            }),
        }
    }

    fn finish(mut self) -> Statement {
        self.close_parent();
        Statement {
            format: Format::ActualCsv,
            accounts: self.accounts,
            refused: self.refused,
        }
    }
}

/// A line of `row`, named by its payee, else by its notes.
fn line(row: &Row<'_>, day: String, amount_minor: i64, notes: &str) -> Line {
    let memo = (!notes.is_empty()).then(|| notes.to_owned());
    let name = if row.payee.is_empty() {
        notes.to_owned()
    } else {
        row.payee.to_owned()
    };
    Line {
        position: row.position.clone(),
        fitid: None,
        day,
        amount_minor,
        name,
        memo,
    }
}

fn day(written: &str) -> Result<String, String> {
    dates::iso_day(written).ok_or_else(|| format!("the date {:?} is not a date", shown(written)))
}

fn minor_units(written: &str) -> Result<i64, String> {
    amount::minor_units(written, DIGITS).map_err(|error| error.to_string())
}

/// A cell without the `'` newer versions of Actual put before text that
/// begins like a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR).
fn unguarded(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => cell,
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
        include_str!("../../../../../server/tests/fixtures/other_apps/actual_transactions.csv");

    const HEADER: &str =
        "Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared";
    const API_HEADER: &str = "Account,Date,Payee,Notes,Category,Amount,Cleared,Reconciled";

    fn read(bytes: &[u8]) -> Result<Statement, ParseError> {
        parse_file(bytes, Format::ActualCsv, &Options::default())
    }

    fn lines(statement: &Statement) -> Vec<(&str, &str, i64, &str, Option<&str>)> {
        statement
            .accounts
            .iter()
            .flat_map(|account| {
                account.lines.iter().map(|line| {
                    (
                        account.id.as_str(),
                        line.day.as_str(),
                        line.amount_minor,
                        line.name.as_str(),
                        line.memo.as_deref(),
                    )
                })
            })
            .collect()
    }

    #[test]
    fn the_fixture_is_read() {
        let statement = read(FIXTURE.as_bytes()).unwrap();
        assert_eq!(statement.format, Format::ActualCsv);
        let accounts: Vec<_> = statement
            .accounts
            .iter()
            .map(|a| {
                (
                    a.id.as_str(),
                    a.name.as_deref(),
                    a.currency.as_deref(),
                    a.lines.len(),
                )
            })
            .collect();
        assert_eq!(
            accounts,
            [
                ("Brokerage", Some("Brokerage"), None, 1),
                ("Savings", Some("Savings"), None, 1),
                ("Checking", Some("Checking"), None, 4),
            ]
        );
        assert_eq!(
            lines(&statement),
            [
                (
                    "Brokerage",
                    "2026-01-20",
                    1234,
                    "Vanguard",
                    Some("Q4 dividend")
                ),
                ("Savings", "2026-01-15", 50_000, "Checking", None),
                ("Checking", "2026-01-15", -50_000, "Savings", None),
                (
                    "Checking",
                    "2026-01-10",
                    -8550,
                    "Costco",
                    Some("Costco run; Groceries: -60; Household: -25.5 paper towels, soap")
                ),
                ("Checking", "2026-01-05", -1299, "Netflix", None),
                (
                    "Checking",
                    "2026-01-02",
                    320_000,
                    "ACME Corp",
                    Some("January salary, incl. \"bonus\"")
                ),
            ]
        );
        let checking = &statement.accounts[2].lines;
        assert_eq!(checking[1].position, "line 5");
        assert_eq!(checking[2].position, "line 8");
        assert!(statement
            .accounts
            .iter()
            .flat_map(|a| &a.lines)
            .all(|l| l.fitid.is_none()));
        assert_eq!(
            statement.refused,
            [Refused {
                position: "line 10".into(),
                reason: "a starting balance, not a transaction".into(),
            }]
        );
    }

    #[test]
    fn the_api_export_is_read_too() {
        let text = format!(
            "{API_HEADER}\nChecking,2026-02-01,Shop,'=cheap,Food: Groceries,-3.5,1,\nChecking,2026-02-02,,Refund,,2,,\n"
        );
        let statement = read(text.as_bytes()).unwrap();
        assert_eq!(
            lines(&statement),
            [
                ("Checking", "2026-02-01", -350, "Shop", Some("=cheap")),
                ("Checking", "2026-02-02", 200, "Refund", Some("Refund")),
            ]
        );
    }

    #[test]
    fn splits_without_a_written_total_or_parent() {
        // No Split_Amount column: the parent's total is the parts' sum.
        let text = format!(
            "{API_HEADER}\n\
             A,2026-03-01,Market,(SPLIT INTO 2) ,,0,,\n\
             A,2026-03-01,Market,(SPLIT 1 OF 2) ,Fruit,-1.25,,\n\
             A,2026-03-01,Market,(SPLIT 2 OF 2) ,,-2,,\n\
             A,2026-03-02,Kiosk,(SPLIT 2 OF 3) lone part,News,-4,,\n\
             A,2026-03-03,Bad,(SPLIT INTO 1) ,,0,,\n\
             A,2026-03-03,Bad,(SPLIT 1 OF 1) ,,lots,,\n\
             A,2026-03-04,Late,(SPLIT INTO 2) ,,-9,,\n"
        );
        let statement = read(text.as_bytes()).unwrap();
        assert_eq!(
            lines(&statement),
            [
                (
                    "A",
                    "2026-03-01",
                    -325,
                    "Market",
                    Some("Fruit: -1.25; split: -2")
                ),
                ("A", "2026-03-02", -400, "Kiosk", Some("lone part")),
                ("A", "2026-03-04", -900, "Late", None),
            ]
        );
        assert_eq!(statement.refused.len(), 1);
        assert_eq!(statement.refused[0].position, "line 6");
    }

    #[test]
    fn bad_rows_are_refused_and_the_rest_kept() {
        let text = format!(
            "{HEADER}\n\
             A,2026-02-30,P,,,,-1,0,Cleared\n\
             A,02/01/2026,P,,,,-1,0,Cleared\n\
             A,2026-02-01,P,,,,-1.005,0,Cleared\n\
             A,2026-02-01,P,,,,1e3,0,Cleared\n\
             A,2026-02-01\n\
             A,2026-02-01,P,,,,-1,0,Cleared\n\
             A,2026-02-01,P,(SPLIT INTO 2) x,,,0,oops,Cleared\n\
             A,2026-02-01,P,(SPLIT 1 OF 2) ,,C,-1,0,Cleared\n\
             A,2026-02-01,P,(SPLIT 2 OF 2) ,,C,-1,0,Cleared\n"
        );
        let statement = read(text.as_bytes()).unwrap();
        assert_eq!(lines(&statement), [("A", "2026-02-01", -100, "P", None)]);
        let positions: Vec<_> = statement
            .refused
            .iter()
            .map(|r| r.position.as_str())
            .collect();
        assert_eq!(
            positions,
            ["line 2", "line 3", "line 4", "line 5", "line 6", "line 8"]
        );
        assert!(statement.refused[0].reason.contains("2026-02-30"));
        assert!(statement.refused[2].reason.contains("-1.005"));
        assert!(statement.refused[5].reason.contains("oops"));
    }

    #[test]
    fn split_marks_are_read_strictly() {
        assert_eq!(
            mark("(SPLIT INTO 3) a"),
            Mark::Parent {
                parts: 3,
                notes: "a"
            }
        );
        assert_eq!(
            mark("(SPLIT 2 OF 3) "),
            Mark::Part {
                parts: 3,
                notes: ""
            }
        );
        for plain in [
            "",
            "(SPLIT",
            "(SPLIT INTO) a",
            "(SPLIT INTO x) a",
            "(SPLIT 1 OF) a",
            "(SPLIT a OF 2) a",
            "(split into 2) a",
            "(SPLIT INTO +2) a",
            "(SPLIT INTO 99999999999999999999999) a",
        ] {
            assert_eq!(mark(plain), Mark::None, "{plain:?}");
        }
    }

    #[test]
    fn hostile_and_truncated_files() {
        assert_eq!(read(b""), Err(ParseError::NotRecognized));
        assert_eq!(read(b"\n"), Err(ParseError::NotRecognized));
        assert_eq!(read(b"Account,Date,Payee"), Err(ParseError::NotRecognized));
        assert_eq!(
            read(b"Date,Payee,Category,Notes,Amount,Balance,Cleared\n"),
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
            format!("{HEADER}\nA,2026-01-01,\"P,,,,-1,0,Cleared\nA,2026-01-02,Q,,,,-2,0,Cleared\n");
        let statement = read(unclosed.as_bytes()).unwrap();
        assert!(statement.accounts.is_empty());
        assert_eq!(statement.refused.len(), 1);
        let huge = format!(
            "{HEADER}\nA,2026-01-01,P,{},,,-1,0,Cleared\n",
            "x".repeat(2 * 1024 * 1024)
        );
        let statement = read(huge.as_bytes()).unwrap();
        assert_eq!(statement.accounts[0].lines[0].amount_minor, -100);
        let huge_date = format!(
            "{HEADER}\nA,{},P,,,,-1,0,Cleared\n",
            "2".repeat(2 * 1024 * 1024)
        );
        let statement = read(huge_date.as_bytes()).unwrap();
        assert!(statement.refused[0].reason.len() < 200);
        for cut in (0..FIXTURE.len()).filter(|cut| FIXTURE.is_char_boundary(*cut)) {
            let _ = read(&FIXTURE.as_bytes()[..cut]);
        }
    }

    #[test]
    fn more_rows_than_the_limit_are_refused() {
        let one = "A,2026-01-01,P,,,,-1,0,Cleared\n";
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
                    "(A|B|Starting Balance|\\(SPLIT INTO [0-3]\\) ?|\\(SPLIT [0-3] OF [0-3]\\) |-?[0-9]{1,4}(\\.[0-9]{1,3})?|2026-0[0-9]-[0-3][0-9]|[ -~]{0,8})",
                    0..10,
                ),
                0..30,
            ),
        ) {
            let body: Vec<String> = rows.iter().map(|fields| fields.join(",")).collect();
            let _ = read(format!("{HEADER}\n{}\n", body.join("\n")).as_bytes());
        }
    }
}
