//! QIF (Quicken Interchange Format): `!Type:Bank`, `!Type:CCard` and
//! `!Type:Cash` sections of records, one field a line (`D` date, `T` or `U`
//! amount, `P` payee, `M` memo, `S`/`E`/`$` a split's category, memo and
//! amount) and `^` ending each record; `!Account` blocks name the account
//! the sections after them belong to.
//!
//! QIF says neither currency nor transaction id, and its dates may be
//! month or day first, so records are read in two passes: fields first,
//! then the dates once the whole file has shown which order it uses.
//! Sections of other kinds are skipped: lists (categories, classes,
//! memorised transactions) silently, as they hold no transactions, and
//! the others (investments, assets) each named once in `refused` so the
//! person knows they were not imported.

use super::qif_date::{Evidence, WrittenDate};
use super::{
    amount, Account, AccountKind, DateOrder, Format, Line, Options, ParseError, Refused, Statement,
    MAX_LINES,
};

/// QIF has no currency; amounts are read with two decimals.
const DIGITS: u8 = 2;

pub(super) fn parse(text: &str, options: &Options) -> Result<Statement, ParseError> {
    let mut reading = Reading::default();
    for (index, raw) in text.split('\n').enumerate() {
        reading.line(index + 1, raw.trim_end_matches('\r'))?;
    }
    reading.finish(options)
}

#[derive(Default)]
struct Reading {
    /// A `!` header has been seen: without one this is not QIF.
    recognized: bool,
    section: Section,
    accounts: Vec<AccountDraft>,
    /// The account the next transaction section belongs to.
    current: Option<usize>,
    /// The `!Account` record being read.
    account_fields: AccountFields,
    record: Option<RawRecord>,
    records: Vec<Record>,
    records_seen: usize,
    refused: Vec<Refused>,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Section {
    #[default]
    None,
    Accounts,
    Transactions(AccountKind),
    Skipped,
}

struct AccountDraft {
    id: String,
    kind: AccountKind,
    name: Option<String>,
}

#[derive(Default)]
struct AccountFields {
    name: Option<String>,
    kind: Option<AccountKind>,
}

/// A record's fields as written.
#[derive(Default)]
struct RawRecord {
    line: usize,
    date: Option<String>,
    amount: Option<String>,
    payee: Option<String>,
    memo: Option<String>,
    splits: Vec<Split>,
}

#[derive(Default)]
struct Split {
    category: String,
    memo: String,
    amount: String,
}

/// A record whose amount is read and whose date waits for the file's order.
struct Record {
    account: usize,
    line: usize,
    written: String,
    date: WrittenDate,
    amount_minor: i64,
    name: String,
    memo: Option<String>,
}

impl Reading {
    fn line(&mut self, number: usize, raw: &str) -> Result<(), ParseError> {
        let line = raw.trim_start();
        if line.is_empty() {
            return Ok(());
        }
        if let Some(header) = line.strip_prefix('!') {
            self.recognized = true;
            return self.header(number, header.trim());
        }
        if !self.recognized {
            return Err(ParseError::NotRecognized);
        }
        let mut chars = line.chars();
        let code = chars.next().unwrap_or('^');
        let value = chars.as_str().trim();
        match self.section {
            Section::Accounts => self.account_field(code, value),
            Section::Transactions(kind) => self.transaction_field(number, kind, code, value)?,
            Section::None | Section::Skipped => {}
        }
        Ok(())
    }

    fn header(&mut self, number: usize, header: &str) -> Result<(), ParseError> {
        if let Some(record) = &self.record {
            return Err(ParseError::malformed(
                format!("line {}", record.line),
                "the transaction has no closing ^",
            ));
        }
        // Some programs end an `!Account` block with the next header
        // instead of `^`.
        if self.section == Section::Accounts && self.account_fields.name.is_some() {
            self.account_field('^', "");
        }
        let lower = header.to_ascii_lowercase();
        if lower == "account" {
            self.section = Section::Accounts;
            self.account_fields = AccountFields::default();
        } else if lower.starts_with("option:") || lower.starts_with("clear:") {
            // AutoSwitch and friends change how Quicken imports, not what.
        } else if let Some(kind) = lower.strip_prefix("type:") {
            self.section = match account_kind(kind.trim()) {
                Some(kind) => Section::Transactions(kind),
                None => {
                    self.skip(number, header);
                    Section::Skipped
                }
            };
        } else {
            self.skip(number, header);
            self.section = Section::Skipped;
        }
        Ok(())
    }

    fn skip(&mut self, number: usize, header: &str) {
        // Lists (categories, classes, memorised transactions) and options
        // hold no transactions: nothing of the statement is left out.
        let lower = header.trim().to_ascii_lowercase();
        if [
            "type:cat",
            "type:class",
            "type:memorized",
            "option",
            "clear",
        ]
        .iter()
        .any(|list| lower.starts_with(list))
        {
            return;
        }
        let shown: String = header.chars().take(40).collect();
        self.refused.push(Refused {
            position: format!("line {number}"),
            reason: format!(
                "the !{shown} section is skipped: only bank, card and cash transactions are imported"
            ),
        });
    }

    fn account_field(&mut self, code: char, value: &str) {
        match code {
            'N' => self.account_fields.name = Some(value.to_owned()),
            'T' => self.account_fields.kind = account_kind(&value.to_ascii_lowercase()),
            '^' => {
                let fields = std::mem::take(&mut self.account_fields);
                let id = fields.name.unwrap_or_default();
                let kind = fields.kind.unwrap_or(AccountKind::Bank);
                self.current = Some(self.account(id, kind));
            }
            _ => {}
        }
    }

    /// The account named `id`, added if new. The AutoSwitch list at the top
    /// of a Quicken export names every account once before its section
    /// names it again.
    fn account(&mut self, id: String, kind: AccountKind) -> usize {
        if let Some(index) = self.accounts.iter().position(|account| account.id == id) {
            return index;
        }
        let name = (!id.is_empty()).then(|| id.clone());
        self.accounts.push(AccountDraft { id, kind, name });
        self.accounts.len() - 1
    }

    fn transaction_field(
        &mut self,
        number: usize,
        kind: AccountKind,
        code: char,
        value: &str,
    ) -> Result<(), ParseError> {
        if code == '^' {
            return match self.record.take() {
                Some(record) => self.finish_record(record, kind),
                None => Ok(()),
            };
        }
        let record = self.record.get_or_insert_with(|| RawRecord {
            line: number,
            ..RawRecord::default()
        });
        let value = value.to_owned();
        match code {
            'D' => record.date = Some(value),
            'T' => record.amount = Some(value),
            'U' => {
                record.amount.get_or_insert(value);
            }
            'P' => record.payee = Some(value),
            'M' => record.memo = Some(value),
            'S' => record.splits.push(Split {
                category: value,
                ..Split::default()
            }),
            'E' => last_split(&mut record.splits).memo = value,
            '$' => last_split(&mut record.splits).amount = value,
            _ => {}
        }
        Ok(())
    }

    fn finish_record(&mut self, raw: RawRecord, kind: AccountKind) -> Result<(), ParseError> {
        self.records_seen += 1;
        if self.records_seen > MAX_LINES {
            return Err(ParseError::TooMany);
        }
        let account = match self.current {
            Some(index) => index,
            None => self.account(String::new(), kind),
        };
        let position = format!("line {}", raw.line);
        match raw.read(account) {
            Ok(record) => self.records.push(record),
            Err(reason) => self.refused.push(Refused { position, reason }),
        }
        Ok(())
    }

    fn finish(mut self, options: &Options) -> Result<Statement, ParseError> {
        if !self.recognized {
            return Err(ParseError::NotRecognized);
        }
        if let Some(record) = &self.record {
            return Err(ParseError::malformed(
                format!("line {}", record.line),
                "the file ends inside a transaction (no closing ^): is it complete?",
            ));
        }
        let order = match options.date_order {
            Some(order) => order,
            None => file_order(&self.records)?,
        };
        let mut lines: Vec<Vec<Line>> = self.accounts.iter().map(|_| Vec::new()).collect();
        for record in self.records {
            let position = format!("line {}", record.line);
            let Some(day) = record.date.day(order) else {
                self.refused.push(Refused {
                    position,
                    reason: format!(
                        "{:?} is not a date read {}",
                        record.written,
                        match order {
                            DateOrder::MonthFirst => "month first",
                            DateOrder::DayFirst => "day first",
                        }
                    ),
                });
                continue;
            };
            if let Some(account_lines) = lines.get_mut(record.account) {
                account_lines.push(Line {
                    position,
                    fitid: None,
                    day,
                    amount_minor: record.amount_minor,
                    name: record.name,
                    memo: record.memo,
                });
            }
        }
        // Accounts only listed (Quicken's AutoSwitch list) hold nothing to
        // import and would only become empty accounts.
        let accounts = self
            .accounts
            .into_iter()
            .zip(lines)
            .filter(|(_, lines)| !lines.is_empty())
            .map(|(draft, lines)| Account {
                id: draft.id,
                kind: draft.kind,
                name: draft.name,
                currency: None,
                opening_balance: None,
                closing_balance: None,
                lines,
            })
            .collect();
        Ok(Statement {
            format: Format::Qif,
            accounts,
            refused: self.refused,
        })
    }
}

impl RawRecord {
    fn read(self, account: usize) -> Result<Record, String> {
        let written = self.date.ok_or("the transaction has no date (D)")?;
        let date = WrittenDate::read(&written)
            .ok_or_else(|| format!("the date {written:?} is not a date"))?;
        let amount = self.amount.ok_or("the transaction has no amount (T)")?;
        let amount_minor = amount::minor_units(&amount, DIGITS).map_err(|e| e.to_string())?;
        let name = self
            .payee
            .clone()
            .filter(|payee| !payee.is_empty())
            .or_else(|| self.memo.clone())
            .unwrap_or_default();
        let mut parts: Vec<String> = self.memo.into_iter().filter(|m| !m.is_empty()).collect();
        for split in self.splits {
            let said: Vec<&str> = [&split.category, &split.amount, &split.memo]
                .into_iter()
                .map(String::as_str)
                .filter(|part| !part.is_empty())
                .collect();
            if !said.is_empty() {
                parts.push(format!("split: {}", said.join(" ")));
            }
        }
        Ok(Record {
            account,
            line: self.line,
            written,
            date,
            amount_minor,
            name,
            memo: (!parts.is_empty()).then(|| parts.join("; ")),
        })
    }
}

/// The order the file's dates are in, from those that can only be read one
/// way. A file that has both kinds contradicts itself and is refused at the
/// first date that disagrees.
fn file_order(records: &[Record]) -> Result<DateOrder, ParseError> {
    let first = |wanted: Evidence| records.iter().find(|r| r.date.evidence() == wanted);
    let month_first = first(Evidence::Only(DateOrder::MonthFirst));
    let day_first = first(Evidence::Only(DateOrder::DayFirst));
    match (month_first, day_first) {
        (Some(month), Some(day)) => Err(ParseError::malformed(
            format!("line {}", day.line),
            format!(
                "{:?} reads only day first, but {:?} at line {} reads only month first",
                day.written, month.written, month.line
            ),
        )),
        (Some(_), None) => Ok(DateOrder::MonthFirst),
        (None, Some(_)) => Ok(DateOrder::DayFirst),
        (None, None) if first(Evidence::Ambiguous).is_some() => Err(ParseError::AmbiguousDates),
        (None, None) => Ok(DateOrder::MonthFirst),
    }
}

/// `Bank`, `CCard`, `Cash` (and Quicken's other asset and liability
/// accounts, which hold the same kind of transactions), lower-cased.
fn account_kind(lower: &str) -> Option<AccountKind> {
    match lower {
        "bank" | "oth a" | "oth l" => Some(AccountKind::Bank),
        "ccard" => Some(AccountKind::Card),
        "cash" => Some(AccountKind::Cash),
        _ => None,
    }
}

/// The split an `E` or `$` belongs to: the last `S`, or a new one when the
/// file gave the memo or amount first.
fn last_split(splits: &mut Vec<Split>) -> &mut Split {
    if splits.is_empty() {
        splits.push(Split::default());
    }
    let last = splits.len() - 1;
    &mut splits[last]
}

#[cfg(test)]
mod tests {
    use super::super::parse as parse_file;
    use super::*;
    use proptest::prelude::*;

    const BANK_WITH_SPLIT: &str = "!Type:Bank
D01/15/2024
T-1,234.56
CX
N1001
PHOME DEPOT
MKitchen
LHome
SHome:Repair
EPaint
$-1,000.00
SHome:Garden
$-234.56
^
D01/20'24
U2,500.00
T2,500.00
PACME PAYROLL
^
";

    fn read(text: &str, order: Option<DateOrder>) -> Result<Statement, ParseError> {
        parse_file(text.as_bytes(), Format::Qif, &Options { date_order: order })
    }

    #[test]
    fn a_bank_file_with_a_split_is_read() {
        let statement = read(BANK_WITH_SPLIT, None).unwrap();
        assert!(statement.refused.is_empty());
        assert_eq!(
            statement.accounts,
            [Account {
                id: String::new(),
                kind: AccountKind::Bank,
                name: None,
                currency: None,
                opening_balance: None,
                closing_balance: None,
                lines: vec![
                    Line {
                        position: "line 2".into(),
                        fitid: None,
                        day: "2024-01-15".into(),
                        amount_minor: -123_456,
                        name: "HOME DEPOT".into(),
                        memo: Some(
                            "Kitchen; split: Home:Repair -1,000.00 Paint; split: Home:Garden -234.56"
                                .into()
                        ),
                    },
                    Line {
                        position: "line 15".into(),
                        fitid: None,
                        day: "2024-01-20".into(),
                        amount_minor: 250_000,
                        name: "ACME PAYROLL".into(),
                        memo: None,
                    },
                ],
            }]
        );
    }

    const AMBIGUOUS: &str =
        "!Type:Bank\nD01/02/2024\nT-5.00\nPBakery\n^\nD03/04/2024\nT-6.00\nPBakery\n^\n";

    #[test]
    fn dates_that_read_both_ways_need_the_order() {
        assert_eq!(read(AMBIGUOUS, None), Err(ParseError::AmbiguousDates));
        let days = |order| {
            let statement = read(AMBIGUOUS, Some(order)).unwrap();
            statement.accounts[0]
                .lines
                .iter()
                .map(|line| line.day.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(days(DateOrder::MonthFirst), ["2024-01-02", "2024-03-04"]);
        assert_eq!(days(DateOrder::DayFirst), ["2024-02-01", "2024-04-03"]);
    }

    #[test]
    fn one_day_first_date_settles_the_file() {
        let text = "!Type:Bank\nD01/02/2024\nT-5.00\nPA\n^\nD25/12/2024\nT-6.00\nPB\n^\n";
        let statement = read(text, None).unwrap();
        let days: Vec<_> = statement.accounts[0]
            .lines
            .iter()
            .map(|l| l.day.as_str())
            .collect();
        assert_eq!(days, ["2024-02-01", "2024-12-25"]);
        let german = "!Type:Bank\nD01.02.2024\nT-5,00\nPA\n^\n";
        let statement = read(german, None).unwrap();
        assert_eq!(statement.accounts[0].lines[0].day, "2024-02-01");
        assert_eq!(statement.accounts[0].lines[0].amount_minor, -500);
    }

    #[test]
    fn a_chosen_order_refuses_the_dates_it_cannot_read() {
        let text = "!Type:Bank\nD01/02/2024\nT-5.00\n^\nD25/12/2024\nT-6.00\n^\n";
        let statement = read(text, Some(DateOrder::MonthFirst)).unwrap();
        assert_eq!(statement.accounts[0].lines.len(), 1);
        assert_eq!(statement.refused[0].position, "line 5");
        assert!(statement.refused[0].reason.contains("month first"));
    }

    #[test]
    fn a_file_that_contradicts_itself_is_malformed() {
        let text = "!Type:Bank\nD12/25/2024\nT-5.00\n^\nD25/12/2024\nT-6.00\n^\n";
        assert_eq!(
            read(text, None),
            Err(ParseError::Malformed {
                position: "line 5".into(),
                reason: "\"25/12/2024\" reads only day first, but \"12/25/2024\" at line 2 reads only month first".into(),
            })
        );
    }

    #[test]
    fn accounts_sections_and_skipped_kinds() {
        let text = "!Option:AutoSwitch
!Account
NChecking
TBank
^
NVisa
TCCard
^
NUnused
TBank
^
!Clear:AutoSwitch
!Type:Cat
NGroceries
E
^
!Account
NChecking
TBank
^
!Type:Bank
D2024-03-01
T-10.00
PShop
^
!Account
NVisa
TCCard
^
!Type:CCard
D2024-03-02
T-20.00
MNo payee
^
!Type:Invst
D3/3/2024
NBuy
^
";
        let statement = read(text, None).unwrap();
        let unfinished = "!Account\nNSavings\nTBank\n!Type:Bank\nD2024-03-01\nT1\n^\n";
        assert_eq!(read(unfinished, None).unwrap().accounts[0].id, "Savings");
        let accounts: Vec<_> = statement
            .accounts
            .iter()
            .map(|a| (a.id.as_str(), a.kind, a.name.as_deref(), a.lines.len()))
            .collect();
        assert_eq!(
            accounts,
            [
                ("Checking", AccountKind::Bank, Some("Checking"), 1),
                ("Visa", AccountKind::Card, Some("Visa"), 1),
            ]
        );
        assert_eq!(statement.accounts[1].lines[0].name, "No payee");
        assert_eq!(
            statement.accounts[1].lines[0].memo.as_deref(),
            Some("No payee")
        );
        let refused: Vec<_> = statement
            .refused
            .iter()
            .map(|r| r.position.as_str())
            .collect();
        // The category list is no statement: only the investments are named.
        assert_eq!(refused, ["line 35"]);
        assert!(statement.refused[0].reason.contains("!Type:Invst"));
    }

    #[test]
    fn unreadable_records_are_refused_and_the_rest_kept() {
        let text =
            "!Type:Cash\nDsoon\nT1\n^\nD1/1/24\nTlots\n^\nT1\n^\nD1/1/24\n^\nD1/1/24\nT1.50\n^\n";
        let statement = read(text, None).unwrap();
        assert_eq!(statement.accounts[0].kind, AccountKind::Cash);
        assert_eq!(statement.accounts[0].lines.len(), 1);
        assert_eq!(statement.refused.len(), 4);
    }

    #[test]
    fn hostile_and_truncated_files() {
        assert_eq!(read("", None), Err(ParseError::NotRecognized));
        assert_eq!(
            read("D1/1/24\nT1\n^\n", None),
            Err(ParseError::NotRecognized)
        );
        assert_eq!(read("<OFX>", None), Err(ParseError::NotRecognized));
        let cut = &BANK_WITH_SPLIT[..BANK_WITH_SPLIT.len() - 3];
        assert!(matches!(read(cut, None), Err(ParseError::Malformed { .. })));
        for cut in 0..BANK_WITH_SPLIT.len() {
            let _ = read(&BANK_WITH_SPLIT[..cut], None);
        }
        let many = format!("!Type:Bank\n{}", "D1/1/24\nT1\n^\n".repeat(MAX_LINES + 1));
        assert_eq!(read(&many, None), Err(ParseError::TooMany));
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let _ = parse_file(&bytes, Format::Qif, &Options::default());
        }

        #[test]
        fn any_fields_are_read_or_refused(
            lines in prop::collection::vec("[!DTUPMLSE$^N][ -~]{0,20}", 0..60),
            day_first in any::<bool>(),
        ) {
            let text = format!("!Type:Bank\n{}", lines.join("\n"));
            let order = day_first.then_some(DateOrder::DayFirst);
            let _ = read(&text, order);
        }
    }
}
