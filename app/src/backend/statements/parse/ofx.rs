//! OFX 1 (SGML), OFX 2 (XML) and QFX (OFX with Intuit's tags) bank and
//! card statements: each STMTRS (bank) or CCSTMTRS (card) is an account,
//! its STMTTRN are its lines and its LEDGERBAL the closing balance. Tags
//! this does not need (sign-on, Intuit's `INTU.*`, available balance) are
//! passed over, so an unusual bank's extra tags do not refuse its file.
//!
//! Amounts are read when the statement ends, not when they are met: CURDEF
//! says how many decimals they have and nothing obliges a bank to write it
//! first.

use super::ofx_markup::{self, Context, Event};
use super::{
    amount, dates, Account, AccountKind, Balance, Format, Line, ParseError, Refused, Statement,
    MAX_LINES,
};
use crate::domain::money::Currency;

pub(super) fn parse(text: &str) -> Result<Statement, ParseError> {
    let mut reading = Reading::default();
    ofx_markup::read(text, |event, context| reading.event(event, &context))?;
    if !reading.saw_root {
        return Err(ParseError::NotRecognized);
    }
    Ok(Statement {
        format: Format::Ofx,
        accounts: reading.accounts,
        refused: reading.refused,
    })
}

/// The aggregates a value can belong to; a value belongs to the innermost.
/// Those that hold nothing read here (BANKACCTTO, CURRENCY, AVAILBAL) are
/// listed so that their ACCTID or BALAMT is not taken for the statement's.
const HOLDERS: &[&str] = &[
    "STMTTRN",
    "LEDGERBAL",
    "AVAILBAL",
    "BANKACCTFROM",
    "CCACCTFROM",
    "BANKACCTTO",
    "CCACCTTO",
    "CURRENCY",
    "ORIGCURRENCY",
    "BANKTRANLIST",
    "STMTRS",
    "CCSTMTRS",
];

#[derive(Default)]
struct Reading {
    saw_root: bool,
    accounts: Vec<Account>,
    refused: Vec<Refused>,
    statement: Option<Draft>,
    transaction: Option<RawTransaction>,
    balance: Option<RawBalance>,
    transactions: usize,
}

/// A statement as read so far.
struct Draft {
    kind: AccountKind,
    account_id: Option<String>,
    account_type: Option<String>,
    currency: Option<String>,
    balance: Option<RawBalance>,
    transactions: Vec<RawTransaction>,
}

#[derive(Default)]
struct RawTransaction {
    line: usize,
    fitid: Option<String>,
    posted: Option<String>,
    amount: Option<String>,
    name: Option<String>,
    payee: Option<String>,
    memo: Option<String>,
}

#[derive(Default)]
struct RawBalance {
    line: usize,
    amount: Option<String>,
    as_of: Option<String>,
}

impl Reading {
    fn event(&mut self, event: Event<'_>, context: &Context<'_>) -> Result<(), ParseError> {
        match event {
            Event::Open(name) => self.open(name, context.line)?,
            Event::Leaf { name, value } => self.value(name, value, context),
            Event::Close(name) => self.close(name),
        }
        Ok(())
    }

    fn open(&mut self, name: &str, line: usize) -> Result<(), ParseError> {
        match name {
            "OFX" => self.saw_root = true,
            "STMTRS" | "CCSTMTRS" => {
                self.finish_statement();
                let kind = if name == "STMTRS" {
                    AccountKind::Bank
                } else {
                    AccountKind::Card
                };
                self.statement = Some(Draft {
                    kind,
                    account_id: None,
                    account_type: None,
                    currency: None,
                    balance: None,
                    transactions: Vec::new(),
                });
            }
            "INVSTMTRS" => self.refused.push(Refused {
                position: format!("line {line}"),
                reason: "an investment statement: only bank and card statements are imported"
                    .to_owned(),
            }),
            "STMTTRN" if self.statement.is_some() => {
                self.transactions += 1;
                if self.transactions > MAX_LINES {
                    return Err(ParseError::TooMany);
                }
                self.transaction = Some(RawTransaction {
                    line,
                    ..RawTransaction::default()
                });
            }
            "LEDGERBAL" if self.statement.is_some() => {
                self.balance = Some(RawBalance {
                    line,
                    ..RawBalance::default()
                });
            }
            _ => {}
        }
        Ok(())
    }

    fn value(&mut self, name: &str, value: &str, context: &Context<'_>) {
        if name == "OFX" {
            self.saw_root = true;
        }
        if value.is_empty() {
            return;
        }
        let value = Some(value.to_owned());
        let holder = context
            .ancestors
            .iter()
            .rev()
            .find(|ancestor| HOLDERS.contains(&ancestor.as_str()))
            .map(String::as_str);
        let parent = context.ancestors.last().map(String::as_str);
        match (holder, name) {
            (Some("STMTTRN"), _) => {
                let Some(transaction) = self.transaction.as_mut() else {
                    return;
                };
                match name {
                    "FITID" => transaction.fitid = value,
                    "DTPOSTED" => transaction.posted = value,
                    "TRNAMT" => transaction.amount = value,
                    "NAME" if parent == Some("PAYEE") => transaction.payee = value,
                    "NAME" => transaction.name = value,
                    "MEMO" => transaction.memo = value,
                    _ => {}
                }
            }
            (Some("LEDGERBAL"), "BALAMT") => {
                if let Some(balance) = self.balance.as_mut() {
                    balance.amount = value;
                }
            }
            (Some("LEDGERBAL"), "DTASOF") => {
                if let Some(balance) = self.balance.as_mut() {
                    balance.as_of = value;
                }
            }
            (Some("BANKACCTFROM" | "CCACCTFROM"), "ACCTID") => {
                if let Some(statement) = self.statement.as_mut() {
                    statement.account_id = value;
                }
            }
            (Some("BANKACCTFROM"), "ACCTTYPE") => {
                if let Some(statement) = self.statement.as_mut() {
                    statement.account_type = value;
                }
            }
            (Some("STMTRS" | "CCSTMTRS"), "CURDEF") => {
                if let Some(statement) = self.statement.as_mut() {
                    statement.currency = value;
                }
            }
            _ => {}
        }
    }

    fn close(&mut self, name: &str) {
        match name {
            "STMTTRN" => {
                if let (Some(statement), Some(transaction)) =
                    (self.statement.as_mut(), self.transaction.take())
                {
                    statement.transactions.push(transaction);
                }
            }
            "LEDGERBAL" => {
                if let Some(statement) = self.statement.as_mut() {
                    statement.balance = self.balance.take();
                }
            }
            "STMTRS" | "CCSTMTRS" => self.finish_statement(),
            _ => {}
        }
    }

    /// The statement read so far becomes an account; what cannot be read
    /// in it is refused line by line.
    fn finish_statement(&mut self) {
        let Some(draft) = self.statement.take() else {
            return;
        };
        let currency = draft
            .currency
            .as_deref()
            .and_then(|code| Currency::parse(code).ok());
        let digits = currency.map_or(2, |currency| currency.digits());
        let mut lines = Vec::with_capacity(draft.transactions.len());
        for transaction in draft.transactions {
            let position = format!("line {}", transaction.line);
            match transaction.into_line(digits) {
                Ok(line) => lines.push(line),
                Err(reason) => self.refused.push(Refused { position, reason }),
            }
        }
        let closing_balance = draft
            .balance
            .and_then(|balance| match balance.read(digits) {
                Ok(read) => Some(read),
                Err(reason) => {
                    self.refused.push(Refused {
                        position: format!("line {}", balance.line),
                        reason,
                    });
                    None
                }
            });
        let name = draft
            .account_id
            .as_deref()
            .map(|id| account_name(draft.kind, draft.account_type.as_deref(), id));
        self.accounts.push(Account {
            id: draft.account_id.unwrap_or_default(),
            kind: draft.kind,
            name,
            currency: currency.map(|currency| currency.code().to_owned()),
            opening_balance: None,
            closing_balance,
            lines,
        });
    }
}

impl RawTransaction {
    fn into_line(self, digits: u8) -> Result<Line, String> {
        let amount = self
            .amount
            .ok_or("the transaction has no amount (TRNAMT)")?;
        let amount_minor = amount::minor_units(&amount, digits).map_err(|e| e.to_string())?;
        let posted = self
            .posted
            .ok_or("the transaction has no posted date (DTPOSTED)")?;
        let day = dates::ofx_day(&posted)
            .ok_or_else(|| format!("the posted date {posted:?} is not a date"))?;
        let name = self
            .name
            .or(self.payee)
            .or_else(|| self.memo.clone())
            .unwrap_or_default();
        Ok(Line {
            position: format!("line {}", self.line),
            fitid: self.fitid,
            day,
            amount_minor,
            name,
            memo: self.memo,
        })
    }
}

impl RawBalance {
    fn read(&self, digits: u8) -> Result<Balance, String> {
        let (Some(amount), Some(as_of)) = (&self.amount, &self.as_of) else {
            return Err("the closing balance (LEDGERBAL) has no BALAMT or DTASOF".to_owned());
        };
        let amount_minor =
            amount::minor_units(amount, digits).map_err(|e| format!("the closing balance: {e}"))?;
        let day = dates::ofx_day(as_of)
            .ok_or_else(|| format!("the closing balance's date {as_of:?} is not a date"))?;
        Ok(Balance { amount_minor, day })
    }
}

/// "Checking ••6789": what the account is and the end of its number, as
/// people recognise their accounts, without the whole number on screen.
fn account_name(kind: AccountKind, account_type: Option<&str>, id: &str) -> String {
    let label = match (kind, account_type) {
        (AccountKind::Card, _) => "Card",
        (_, Some("CHECKING")) => "Checking",
        (_, Some("SAVINGS")) => "Savings",
        (_, Some("MONEYMRKT")) => "Money market",
        (_, Some("CREDITLINE")) => "Credit line",
        _ => "Bank account",
    };
    let tail: String = {
        let mut last: Vec<char> = id.chars().rev().take(4).collect();
        last.reverse();
        last.into_iter().collect()
    };
    format!("{label} ••{tail}")
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_file, Options, MAX_DEPTH};
    use super::*;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    const OFX1_BANK: &str = "OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1>
<SONRS>
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<DTSERVER>20240131120000.000[-5:EST]
<LANGUAGE>ENG
</SONRS>
</SIGNONMSGSRSV1>
<BANKMSGSRSV1>
<STMTTRNRS>
<TRNUID>1001
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<STMTRS>
<CURDEF>USD
<BANKACCTFROM>
<BANKID>121000248
<ACCTID>123456789
<ACCTTYPE>CHECKING
</BANKACCTFROM>
<BANKTRANLIST>
<DTSTART>20240101
<DTEND>20240131
<STMTTRN>
<TRNTYPE>DEBIT
<DTPOSTED>20240115120000.000[-5:EST]
<TRNAMT>-12.34
<FITID>2024011501
<NAME>COFFEE SHOP
<MEMO>POS PURCHASE
</STMTTRN>
<STMTTRN>
<TRNTYPE>CREDIT
<DTPOSTED>20240120
<TRNAMT>1,500.00
<FITID>2024012001
<NAME>ACME PAYROLL
</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL>
<BALAMT>2487.66
<DTASOF>20240131120000
</LEDGERBAL>
<AVAILBAL>
<BALAMT>2400.00
<DTASOF>20240131
</AVAILBAL>
</STMTRS>
</STMTTRNRS>
</BANKMSGSRSV1>
</OFX>
";

    const QFX_CARD: &str = "OFXHEADER:100\r
DATA:OFXSGML\r
VERSION:102\r
SECURITY:NONE\r
ENCODING:USASCII\r
CHARSET:1252\r
COMPRESSION:NONE\r
OLDFILEUID:NONE\r
NEWFILEUID:NONE\r
\r
<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS>\r
<DTSERVER>20240301<LANGUAGE>ENG<FI><ORG>B1<FID>10898</FI><INTU.BID>10898\r
</SONRS></SIGNONMSGSRSV1>\r
<CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>\r
<CCSTMTRS><CURDEF>USD<CCACCTFROM><ACCTID>4111111111111111</CCACCTFROM>\r
<BANKTRANLIST><DTSTART>20240201<DTEND>20240229\r
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240205000000.000<TRNAMT>-45.67<FITID>FIT-A<NAME>GROCERY MART #12<MEMO>Groceries</STMTTRN>\r
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240210<TRNAMT>200.00<FITID>FIT-B<NAME>PAYMENT - THANK YOU</STMTTRN>\r
</BANKTRANLIST>\r
<LEDGERBAL><BALAMT>-1234.56<DTASOF>20240229</LEDGERBAL>\r
</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\r
";

    const OFX2: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <BANKMSGSRSV1>
    <STMTTRNRS>
      <TRNUID>0</TRNUID>
      <STMTRS>
        <CURDEF>EUR</CURDEF>
        <BANKACCTFROM>
          <BANKID>37040044</BANKID>
          <ACCTID>DE89370400440532013000</ACCTID>
          <ACCTTYPE>SAVINGS</ACCTTYPE>
        </BANKACCTFROM>
        <BANKTRANLIST>
          <STMTTRN>
            <TRNTYPE>DEBIT</TRNTYPE>
            <DTPOSTED>20240305</DTPOSTED>
            <TRNAMT>-9.99</TRNAMT>
            <FITID>X1</FITID>
            <PAYEE><NAME>Streaming &amp; Co</NAME><ADDR1>1 Road</ADDR1></PAYEE>
            <BANKACCTTO><BANKID>1</BANKID><ACCTID>OTHER</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTTO>
            <MEMO>Monthly</MEMO>
          </STMTTRN>
        </BANKTRANLIST>
        <LEDGERBAL><BALAMT>100.00</BALAMT><DTASOF>20240331</DTASOF></LEDGERBAL>
      </STMTRS>
    </STMTTRNRS>
    <STMTTRNRS>
      <TRNUID>1</TRNUID>
      <STMTRS>
        <CURDEF>JPY</CURDEF>
        <BANKACCTFROM><BANKID>1</BANKID><ACCTID>JP-1</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
        <BANKTRANLIST>
          <STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240306</DTPOSTED><TRNAMT>-1500</TRNAMT><FITID>J1</FITID><NAME>Ramen</NAME></STMTTRN>
        </BANKTRANLIST>
      </STMTRS>
    </STMTTRNRS>
  </BANKMSGSRSV1>
</OFX>
"#;

    fn read(text: &[u8]) -> Result<Statement, ParseError> {
        parse_file(text, Format::Ofx, &Options::default())
    }

    /// A bank statement around `transactions`, in OFX 1.
    fn bank(transactions: &str) -> String {
        format!(
            "OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD\n\
             <BANKACCTFROM><BANKID>1<ACCTID>42<ACCTTYPE>CHECKING</BANKACCTFROM>\n\
             <BANKTRANLIST>\n{transactions}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
        )
    }

    #[test]
    fn an_ofx1_bank_statement_is_read() {
        let statement = read(OFX1_BANK.as_bytes()).unwrap();
        assert_eq!(statement.format, Format::Ofx);
        assert!(statement.refused.is_empty());
        assert_eq!(
            statement.accounts,
            [Account {
                id: "123456789".into(),
                kind: AccountKind::Bank,
                name: Some("Checking ••6789".into()),
                currency: Some("USD".into()),
                opening_balance: None,
                closing_balance: Some(Balance {
                    amount_minor: 248_766,
                    day: "2024-01-31".into(),
                }),
                lines: vec![
                    Line {
                        position: "line 39".into(),
                        fitid: Some("2024011501".into()),
                        day: "2024-01-15".into(),
                        amount_minor: -1234,
                        name: "COFFEE SHOP".into(),
                        memo: Some("POS PURCHASE".into()),
                    },
                    Line {
                        position: "line 47".into(),
                        fitid: Some("2024012001".into()),
                        day: "2024-01-20".into(),
                        amount_minor: 150_000,
                        name: "ACME PAYROLL".into(),
                        memo: None,
                    },
                ],
            }]
        );
    }

    #[test]
    fn a_qfx_card_statement_is_read() {
        let statement = read(QFX_CARD.as_bytes()).unwrap();
        let [account] = statement.accounts.as_slice() else {
            panic!("one account: {statement:?}");
        };
        assert_eq!(account.kind, AccountKind::Card);
        assert_eq!(account.id, "4111111111111111");
        assert_eq!(account.name.as_deref(), Some("Card ••1111"));
        assert_eq!(
            account.closing_balance,
            Some(Balance {
                amount_minor: -123_456,
                day: "2024-02-29".into()
            })
        );
        let amounts: Vec<_> = account.lines.iter().map(|l| l.amount_minor).collect();
        assert_eq!(amounts, [-4567, 20_000]);
        assert_eq!(account.lines[0].name, "GROCERY MART #12");
        assert_eq!(account.lines[0].memo.as_deref(), Some("Groceries"));
        assert_eq!(account.lines[0].day, "2024-02-05");
        assert_eq!(account.lines[1].fitid.as_deref(), Some("FIT-B"));
        assert_eq!(account.lines[1].position, "line 18");
    }

    #[test]
    fn an_ofx2_file_with_two_accounts_is_read() {
        let statement = read(OFX2.as_bytes()).unwrap();
        assert!(statement.refused.is_empty());
        let [euro, yen] = statement.accounts.as_slice() else {
            panic!("two accounts: {statement:?}");
        };
        assert_eq!(euro.id, "DE89370400440532013000");
        assert_eq!(euro.name.as_deref(), Some("Savings ••3000"));
        assert_eq!(euro.currency.as_deref(), Some("EUR"));
        assert_eq!(euro.lines.len(), 1);
        assert_eq!(euro.lines[0].name, "Streaming & Co");
        assert_eq!(euro.lines[0].memo.as_deref(), Some("Monthly"));
        assert_eq!(euro.lines[0].amount_minor, -999);
        assert_eq!(euro.lines[0].position, "line 15");
        assert_eq!(
            euro.closing_balance.as_ref().map(|b| b.amount_minor),
            Some(10_000)
        );
        assert_eq!(yen.currency.as_deref(), Some("JPY"));
        assert_eq!(yen.lines[0].amount_minor, -1500);
        assert_eq!(yen.closing_balance, None);
    }

    #[test]
    fn windows_1252_text_is_decoded() {
        let mut bytes = bank(
            "<STMTTRN><DTPOSTED>20240102<TRNAMT>-3.50<FITID>1<NAME>Caf\u{fffd} du Coin</STMTTRN>\n",
        )
        .into_bytes();
        let mark = "\u{fffd}".as_bytes();
        let at = bytes.windows(mark.len()).position(|w| w == mark).unwrap();
        bytes.splice(at..at + mark.len(), [0xe9]);
        let statement = read(&bytes).unwrap();
        assert_eq!(statement.accounts[0].lines[0].name, "Café du Coin");
    }

    #[test]
    fn identical_purchases_without_fitid_are_both_kept() {
        let purchase =
            "<STMTTRN><TRNTYPE>POS<DTPOSTED>20240105<TRNAMT>-4.00<NAME>BUS FARE</STMTTRN>\n";
        let statement = read(bank(&purchase.repeat(2)).as_bytes()).unwrap();
        let lines = &statement.accounts[0].lines;
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].fitid, None);
        assert_eq!(
            (
                lines[0].day.as_str(),
                lines[0].amount_minor,
                lines[0].name.as_str()
            ),
            (
                lines[1].day.as_str(),
                lines[1].amount_minor,
                lines[1].name.as_str()
            )
        );
        assert_ne!(lines[0].position, lines[1].position);
    }

    #[test]
    fn an_unreadable_transaction_is_refused_and_the_rest_kept() {
        let transactions = "<STMTTRN><DTPOSTED>20240105<TRNAMT>-4.005<NAME>A</STMTTRN>\n\
             <STMTTRN><DTPOSTED>20241305<TRNAMT>-4.00<NAME>B</STMTTRN>\n\
             <STMTTRN><TRNAMT>-4.00<NAME>C</STMTTRN>\n\
             <STMTTRN><DTPOSTED>20240105<TRNAMT>-4.00<MEMO>only a memo</STMTTRN>\n";
        let statement = read(bank(transactions).as_bytes()).unwrap();
        let lines = &statement.accounts[0].lines;
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].name, "only a memo");
        let positions: Vec<_> = statement
            .refused
            .iter()
            .map(|r| r.position.as_str())
            .collect();
        assert_eq!(positions, ["line 6", "line 7", "line 8"]);
        assert!(statement.refused[0].reason.contains("-4.005"));
        assert!(statement.refused[2].reason.contains("DTPOSTED"));
    }

    #[test]
    fn investment_statements_are_named_as_skipped() {
        let text = "<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><CURDEF>USD</INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1></OFX>";
        let statement = read(text.as_bytes()).unwrap();
        assert!(statement.accounts.is_empty());
        assert_eq!(statement.refused.len(), 1);
    }

    #[test]
    fn more_transactions_than_the_limit_are_refused() {
        let transaction = "<STMTTRN><DTPOSTED>20240105<TRNAMT>1</STMTTRN>\n";
        let text = bank(&transaction.repeat(MAX_LINES + 1));
        assert_eq!(read(text.as_bytes()), Err(ParseError::TooMany));
    }

    #[test]
    fn nesting_past_the_limit_is_malformed_on_a_small_stack() {
        let nested = |depth: usize| {
            let inner = depth - 1;
            format!("<OFX>{}{}</OFX>", "<A>".repeat(inner), "</A>".repeat(inner))
        };
        let deepest = nested(MAX_DEPTH);
        assert!(on_small_stack(move || read(deepest.as_bytes())).is_ok());
        let deep = nested(MAX_DEPTH + 1);
        let result = on_small_stack(move || read(deep.as_bytes()));
        assert!(
            matches!(result, Err(ParseError::Malformed { .. })),
            "{result:?}"
        );
        let deep = format!("{}{}", "<A>".repeat(1_000_000), "</A>".repeat(1_000_000));
        let result = on_small_stack(move || read(deep.as_bytes()));
        assert!(
            matches!(result, Err(ParseError::Malformed { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn truncated_files_are_refused_never_half_read() {
        for fixture in [OFX1_BANK, QFX_CARD, OFX2] {
            let start = fixture.find("<OFX>").unwrap() + "<OFX>".len();
            let end = fixture.trim_end().len() - "</OFX>".len();
            for cut in (start..end).filter(|cut| fixture.is_char_boundary(*cut)) {
                let result = read(&fixture.as_bytes()[..cut]);
                assert!(
                    matches!(result, Err(ParseError::Malformed { .. })),
                    "cut at {cut}: {result:?}"
                );
            }
        }
    }

    #[test]
    fn other_files_are_not_recognized() {
        assert_eq!(read(b""), Err(ParseError::NotRecognized));
        assert_eq!(read(b"!Type:Bank\n^\n"), Err(ParseError::NotRecognized));
        assert_eq!(
            read(b"\x00\xff\xfe garbage"),
            Err(ParseError::NotRecognized)
        );
        assert!(
            read(b"<html><body>hi</body></html>").is_err_and(|e| e == ParseError::NotRecognized)
        );
        assert!(matches!(
            read(b"<OFX><</OFX"),
            Err(ParseError::Malformed { .. })
        ));
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let _ = read(&bytes);
        }

        #[test]
        fn any_change_to_a_statement_is_read_or_refused(
            at in 0_usize..OFX1_BANK.len(),
            bytes in prop::collection::vec(any::<u8>(), 0..16),
        ) {
            let mut text = OFX1_BANK.as_bytes().to_vec();
            text.splice(at..at, bytes);
            let _ = read(&text);
        }
    }
}
