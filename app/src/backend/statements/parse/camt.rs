//! CAMT.053 (ISO 20022 bank-to-customer statement), the XML statement of
//! European banks: each Stmt is an account (Acct/Id/IBAN, Acct/Ccy,
//! Acct/Nm), its Bal of type CLBD the closing balance and its Ntry the
//! entries.
//!
//! Read as a stream of events (quick-xml) rather than into a tree, so a
//! 10 MiB file never becomes a large DOM; elements are matched by local
//! name and position, ignoring namespaces, because banks use every
//! version of the schema (001.02 to 001.13) and any prefix. Amounts are
//! unsigned with CRDT/DBIT beside them; entries that are pending, planned
//! or for information are not on the account yet and are refused with the
//! reason.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::ofx_markup::entity;
use super::{
    amount, dates, line_at, Account, AccountKind, Balance, Format, Line, ParseError, Refused,
    Statement, MAX_DEPTH, MAX_LINES,
};
use crate::domain::money::Currency;

/// Longest XML error message kept: quick-xml quotes tag names, which a
/// hostile file can make as long as it likes.
const MAX_REASON_CHARS: usize = 200;

pub(super) fn parse(text: &str) -> Result<Statement, ParseError> {
    let mut reader = Reader::from_str(text);
    let mut path: Vec<String> = Vec::new();
    let mut value = String::new();
    let mut reading = Reading::default();
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            // Bytes that are not XML at all are not a statement; once the
            // statement has begun, a break is the file's fault.
            Err(_) if !reading.recognized => return Err(ParseError::NotRecognized),
            Err(error) => {
                let at = usize::try_from(reader.error_position()).unwrap_or(usize::MAX);
                let reason: String = error.to_string().chars().take(MAX_REASON_CHARS).collect();
                return Err(ParseError::malformed(line_at(text, at), reason));
            }
        };
        match event {
            Event::Start(start) => {
                enter(&mut path, &start, text, &reader)?;
                value.clear();
                reading.open(&path, &start)?;
            }
            Event::Empty(start) => {
                enter(&mut path, &start, text, &reader)?;
                reading.open(&path, &start)?;
                reading.close(&path, "");
                path.pop();
                value.clear();
            }
            Event::End(_) => {
                reading.close(&path, value.trim());
                path.pop();
                value.clear();
            }
            Event::Text(chunk) => value.push_str(&chunk.xml10_content()),
            Event::CData(data) => value.push_str(&data.xml10_content()),
            Event::GeneralRef(reference) => match entity(&reference) {
                Some(c) => value.push(c),
                None => {
                    value.push('&');
                    value.push_str(&reference);
                    value.push(';');
                }
            },
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if let Some(open) = path.last() {
        return Err(ParseError::malformed(
            line_at(text, text.len()),
            format!("the file ends before <{open}> is closed: is it complete?"),
        ));
    }
    if !reading.recognized {
        return Err(ParseError::NotRecognized);
    }
    Ok(Statement {
        format: Format::Camt053,
        accounts: reading.accounts,
        refused: reading.refused,
    })
}

/// Pushes the element's local name, refusing nesting past [`MAX_DEPTH`].
fn enter(
    path: &mut Vec<String>,
    start: &BytesStart<'_>,
    text: &str,
    reader: &Reader<&[u8]>,
) -> Result<(), ParseError> {
    if path.len() >= MAX_DEPTH {
        let at = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        return Err(ParseError::malformed(
            line_at(text, at),
            format!("elements are nested more than {MAX_DEPTH} deep"),
        ));
    }
    path.push(start.local_name().as_ref().to_owned());
    Ok(())
}

#[derive(Default)]
struct Reading {
    recognized: bool,
    accounts: Vec<Account>,
    refused: Vec<Refused>,
    /// The open Stmt and its depth.
    statement: Option<(usize, StatementDraft)>,
    /// The open Ntry and its depth.
    entry: Option<(usize, EntryDraft)>,
    /// The open Bal and its depth.
    balance: Option<(usize, BalanceDraft)>,
    entries: usize,
}

#[derive(Default)]
struct StatementDraft {
    iban: Option<String>,
    other_id: Option<String>,
    currency: Option<String>,
    name: Option<String>,
    opening_balance: Option<Balance>,
    /// The opening balance came from an OPBD, which a PRCD does not replace.
    opening_is_opbd: bool,
    closing_balance: Option<Balance>,
    lines: Vec<Line>,
}

#[derive(Default)]
struct EntryDraft {
    number: usize,
    currency: Option<String>,
    amount: Option<String>,
    direction: Option<String>,
    status: Option<String>,
    booked: Option<String>,
    value_day: Option<String>,
    entry_ref: Option<String>,
    servicer_ref: Option<String>,
    creditor: Option<String>,
    debtor: Option<String>,
    remittance: Vec<String>,
    additional: Option<String>,
}

#[derive(Default)]
struct BalanceDraft {
    kind: Option<String>,
    currency: Option<String>,
    amount: Option<String>,
    direction: Option<String>,
    day: Option<String>,
}

impl Reading {
    fn open(&mut self, path: &[String], start: &BytesStart<'_>) -> Result<(), ParseError> {
        let depth = path.len();
        let name = path.last().map(String::as_str);
        let parent = depth
            .checked_sub(2)
            .and_then(|i| path.get(i))
            .map(String::as_str);
        let in_statement = self
            .statement
            .as_ref()
            .is_some_and(|(d, _)| *d + 1 == depth);
        match name {
            Some("BkToCstmrStmt") => self.recognized = true,
            Some("Stmt") if parent == Some("BkToCstmrStmt") => {
                self.statement = Some((depth, StatementDraft::default()));
            }
            Some("Ntry") if in_statement => {
                self.entries += 1;
                if self.entries > MAX_LINES {
                    return Err(ParseError::TooMany);
                }
                let entry = EntryDraft {
                    number: self.entries,
                    ..EntryDraft::default()
                };
                self.entry = Some((depth, entry));
            }
            Some("Bal") if in_statement => {
                self.balance = Some((depth, BalanceDraft::default()));
            }
            Some("Amt") => {
                let currency = start
                    .try_get_attribute("Ccy")
                    .ok()
                    .flatten()
                    .map(|attribute| attribute.value.trim().to_owned());
                match (&mut self.entry, &mut self.balance) {
                    (Some((d, entry)), _) if *d + 1 == depth => entry.currency = currency,
                    (_, Some((d, balance))) if *d + 1 == depth => balance.currency = currency,
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn close(&mut self, path: &[String], value: &str) {
        let depth = path.len();
        if let Some((at, entry)) = &mut self.entry {
            let at = *at;
            if depth > at {
                entry.field(path.get(at..).unwrap_or_default(), value);
                return;
            }
            if depth == at {
                self.finish_entry();
                return;
            }
        }
        if let Some((at, balance)) = &mut self.balance {
            let at = *at;
            if depth > at {
                balance.field(path.get(at..).unwrap_or_default(), value);
                return;
            }
            if depth == at {
                self.finish_balance();
                return;
            }
        }
        if let Some((at, statement)) = &mut self.statement {
            let at = *at;
            if depth > at {
                statement.field(path.get(at..).unwrap_or_default(), value);
            } else if depth == at {
                self.finish_statement();
            }
        }
    }

    fn finish_entry(&mut self) {
        let Some((_, entry)) = self.entry.take() else {
            return;
        };
        let Some((_, statement)) = self.statement.as_mut() else {
            return;
        };
        let position = format!("Ntry {}", entry.number);
        let digits = digits(entry.currency.as_deref().or(statement.currency.as_deref()));
        match entry.into_line(digits) {
            Ok(line) => statement.lines.push(line),
            Err(reason) => self.refused.push(Refused { position, reason }),
        }
    }

    fn finish_balance(&mut self) {
        let Some((_, balance)) = self.balance.take() else {
            return;
        };
        let Some((_, statement)) = self.statement.as_mut() else {
            return;
        };
        // OPBD is the opening balance; PRCD (the previous statement's
        // closing balance) stands in for it when a bank writes only that.
        let kind = balance.kind.clone().unwrap_or_default();
        let wanted = match kind.as_str() {
            "CLBD" | "OPBD" => true,
            "PRCD" => !statement.opening_is_opbd,
            _ => false,
        };
        if !wanted {
            return;
        }
        let digits = digits(
            balance
                .currency
                .as_deref()
                .or(statement.currency.as_deref()),
        );
        match balance.read(digits) {
            Ok(read) if kind == "CLBD" => statement.closing_balance = Some(read),
            Ok(read) => {
                statement.opening_balance = Some(read);
                statement.opening_is_opbd = kind == "OPBD";
            }
            Err(reason) => self.refused.push(Refused {
                position: format!("Bal {kind}"),
                reason,
            }),
        }
    }

    fn finish_statement(&mut self) {
        let Some((_, statement)) = self.statement.take() else {
            return;
        };
        let currency = statement
            .currency
            .as_deref()
            .and_then(|code| Currency::parse(code).ok())
            .map(|currency| currency.code().to_owned());
        self.accounts.push(Account {
            id: statement.iban.or(statement.other_id).unwrap_or_default(),
            kind: AccountKind::Bank,
            name: statement.name,
            currency,
            opening_balance: statement.opening_balance,
            closing_balance: statement.closing_balance,
            lines: statement.lines,
        });
    }
}

/// Decimals of a currency code; two when the file names none or an odd one.
fn digits(code: Option<&str>) -> u8 {
    code.and_then(|code| Currency::parse(code).ok())
        .map_or(2, |currency| currency.digits())
}

/// `value` if the file gave one, so an empty element does not erase a
/// value read before it.
fn some(value: &str) -> Option<String> {
    (!value.is_empty()).then(|| value.to_owned())
}

impl StatementDraft {
    /// A value at `relative` below Stmt.
    fn field(&mut self, relative: &[String], value: &str) {
        let relative: Vec<&str> = relative.iter().map(String::as_str).collect();
        let slot = match relative.as_slice() {
            ["Acct", "Id", "IBAN"] => &mut self.iban,
            ["Acct", "Id", "Othr", "Id"] => &mut self.other_id,
            ["Acct", "Ccy"] => &mut self.currency,
            ["Acct", "Nm"] => &mut self.name,
            _ => return,
        };
        if slot.is_none() {
            *slot = some(value);
        }
    }
}

impl BalanceDraft {
    /// A value at `relative` below Bal.
    fn field(&mut self, relative: &[String], value: &str) {
        let relative: Vec<&str> = relative.iter().map(String::as_str).collect();
        let slot = match relative.as_slice() {
            ["Tp", "CdOrPrtry", "Cd"] => &mut self.kind,
            ["Amt"] => &mut self.amount,
            ["CdtDbtInd"] => &mut self.direction,
            ["Dt", "Dt" | "DtTm"] => &mut self.day,
            _ => return,
        };
        if slot.is_none() {
            *slot = some(value);
        }
    }

    fn read(self, digits: u8) -> Result<Balance, String> {
        let amount = self.amount.ok_or("the closing balance has no amount")?;
        let magnitude = amount::minor_units(&amount, digits)
            .map_err(|e| format!("the closing balance: {e}"))?;
        let amount_minor = match self.direction.as_deref() {
            Some("DBIT") => -magnitude,
            _ => magnitude,
        };
        let written = self.day.ok_or("the closing balance has no date")?;
        let day = dates::iso_day(&written)
            .ok_or_else(|| format!("the closing balance's date {written:?} is not a date"))?;
        Ok(Balance { amount_minor, day })
    }
}

impl EntryDraft {
    /// A value at `relative` below Ntry.
    fn field(&mut self, relative: &[String], value: &str) {
        let relative: Vec<&str> = relative.iter().map(String::as_str).collect();
        if let ["NtryDtls", "TxDtls", "RmtInf", "Ustrd"] = relative.as_slice() {
            if let Some(line) = some(value) {
                self.remittance.push(line);
            }
            return;
        }
        let slot = match relative.as_slice() {
            ["Amt"] => &mut self.amount,
            ["CdtDbtInd"] => &mut self.direction,
            ["Sts"] | ["Sts", "Cd" | "Prtry"] => &mut self.status,
            ["BookgDt", "Dt" | "DtTm"] => &mut self.booked,
            ["ValDt", "Dt" | "DtTm"] => &mut self.value_day,
            ["NtryRef"] => &mut self.entry_ref,
            ["AcctSvcrRef"] => &mut self.servicer_ref,
            ["AddtlNtryInf"] => &mut self.additional,
            ["NtryDtls", "TxDtls", "RltdPties", "Cdtr", "Nm"]
            | ["NtryDtls", "TxDtls", "RltdPties", "Cdtr", "Pty", "Nm"] => &mut self.creditor,
            ["NtryDtls", "TxDtls", "RltdPties", "Dbtr", "Nm"]
            | ["NtryDtls", "TxDtls", "RltdPties", "Dbtr", "Pty", "Nm"] => &mut self.debtor,
            _ => return,
        };
        if slot.is_none() {
            *slot = some(value);
        }
    }

    fn into_line(self, digits: u8) -> Result<Line, String> {
        if let Some(status) = &self.status {
            let status = status.to_ascii_uppercase();
            if status == "PDNG" || status.contains("PENDING") {
                return Err("pending, not booked".to_owned());
            }
            if status == "FUTR" {
                return Err("planned for a later day, not booked".to_owned());
            }
            if status == "INFO" {
                return Err("for information only, not booked".to_owned());
            }
        }
        let amount = self.amount.ok_or("the entry has no amount (Amt)")?;
        let magnitude = amount::minor_units(&amount, digits).map_err(|e| e.to_string())?;
        if magnitude < 0 {
            return Err(format!(
                "the amount {amount:?} is negative: CdtDbtInd says which way"
            ));
        }
        let debit = match self.direction.as_deref() {
            Some("DBIT") => true,
            Some("CRDT") => false,
            _ => return Err("the entry does not say credit or debit (CdtDbtInd)".to_owned()),
        };
        let written = self
            .booked
            .or(self.value_day)
            .ok_or("the entry has no booking date (BookgDt)")?;
        let day = dates::iso_day(&written)
            .ok_or_else(|| format!("the booking date {written:?} is not a date"))?;
        let party = if debit { self.creditor } else { self.debtor };
        let remittance = (!self.remittance.is_empty()).then(|| self.remittance.join(" "));
        let name = party
            .or_else(|| self.remittance.first().cloned())
            .or_else(|| self.additional.clone())
            .unwrap_or_default();
        Ok(Line {
            position: format!("Ntry {}", self.number),
            fitid: self.entry_ref.or(self.servicer_ref),
            day,
            amount_minor: if debit { -magnitude } else { magnitude },
            name,
            memo: remittance.or(self.additional),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse as parse_file, Options};
    use super::*;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    const CAMT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr>
      <MsgId>MSG-2024-01</MsgId>
      <CreDtTm>2024-02-01T06:00:00</CreDtTm>
    </GrpHdr>
    <Stmt>
      <Id>STMT-2024-01</Id>
      <CreDtTm>2024-02-01T06:00:00</CreDtTm>
      <Acct>
        <Id><IBAN>DE89370400440532013000</IBAN></Id>
        <Ccy>EUR</Ccy>
        <Nm>Girokonto</Nm>
        <Ownr><Nm>Erika Mustermann</Nm></Ownr>
      </Acct>
      <Bal>
        <Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">1000.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2024-01-01</Dt></Dt>
      </Bal>
      <Bal>
        <Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">2957.66</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2024-01-31</Dt></Dt>
      </Bal>
      <Ntry>
        <NtryRef>E-1</NtryRef>
        <Amt Ccy="EUR">42.34</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>2024-01-15</Dt></BookgDt>
        <ValDt><Dt>2024-01-15</Dt></ValDt>
        <AcctSvcrRef>REF-1</AcctSvcrRef>
        <BkTxCd/>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>TX-REF</AcctSvcrRef></Refs>
            <AmtDtls><TxAmt><Amt Ccy="EUR">42.34</Amt></TxAmt></AmtDtls>
            <RltdPties>
              <Dbtr><Nm>Erika Mustermann</Nm></Dbtr>
              <Cdtr><Nm>Stadtwerke M&#252;nchen</Nm></Cdtr>
            </RltdPties>
            <RmtInf><Ustrd>Strom Januar</Ustrd><Ustrd>Kunde 4711</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>SEPA-LASTSCHRIFT</AddtlNtryInf>
      </Ntry>
      <Ntry>
        <Amt Ccy="EUR">2000.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><DtTm>2024-01-25T09:30:00+01:00</DtTm></BookgDt>
        <AcctSvcrRef>REF-2</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <RltdPties><Dbtr><Nm>ACME GmbH &amp; Co. KG</Nm></Dbtr></RltdPties>
          <RmtInf><Ustrd>Gehalt Januar</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>
      <Ntry>
        <Amt Ccy="EUR">15.00</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts>PDNG</Sts>
        <ValDt><Dt>2024-02-01</Dt></ValDt>
        <AddtlNtryInf>Kartenzahlung</AddtlNtryInf>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>
"#;

    fn read(text: &[u8]) -> Result<Statement, ParseError> {
        parse_file(text, Format::Camt053, &Options::default())
    }

    /// A statement around `entries`, with a namespace prefix as some banks
    /// write it.
    fn statement(entries: &str) -> String {
        format!(
            r#"<c:Document xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><c:BkToCstmrStmt><c:Stmt>
<c:Acct><c:Id><c:Othr><c:Id>12345678</c:Id></c:Othr></c:Id><c:Ccy>JPY</c:Ccy></c:Acct>
{entries}</c:Stmt></c:BkToCstmrStmt></c:Document>"#
        )
    }

    #[test]
    fn a_statement_with_a_debit_a_credit_and_a_pending_entry_is_read() {
        let read = read(CAMT.as_bytes()).unwrap();
        assert_eq!(read.format, Format::Camt053);
        assert_eq!(
            read.refused,
            [Refused {
                position: "Ntry 3".into(),
                reason: "pending, not booked".into(),
            }]
        );
        assert_eq!(
            read.accounts,
            [Account {
                id: "DE89370400440532013000".into(),
                kind: AccountKind::Bank,
                name: Some("Girokonto".into()),
                currency: Some("EUR".into()),
                opening_balance: Some(Balance {
                    amount_minor: 100_000,
                    day: "2024-01-01".into(),
                }),
                closing_balance: Some(Balance {
                    amount_minor: 295_766,
                    day: "2024-01-31".into(),
                }),
                lines: vec![
                    Line {
                        position: "Ntry 1".into(),
                        fitid: Some("E-1".into()),
                        day: "2024-01-15".into(),
                        amount_minor: -4234,
                        name: "Stadtwerke München".into(),
                        memo: Some("Strom Januar Kunde 4711".into()),
                    },
                    Line {
                        position: "Ntry 2".into(),
                        fitid: Some("REF-2".into()),
                        day: "2024-01-25".into(),
                        amount_minor: 200_000,
                        name: "ACME GmbH & Co. KG".into(),
                        memo: Some("Gehalt Januar".into()),
                    },
                ],
            }]
        );
    }

    #[test]
    fn newer_versions_with_prefixes_are_read() {
        let entries = r#"<c:Ntry><c:Amt Ccy="JPY">1500</c:Amt><c:CdtDbtInd>DBIT</c:CdtDbtInd>
<c:Sts><c:Cd>BOOK</c:Cd></c:Sts><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt>
<c:NtryDtls><c:TxDtls><c:RltdPties><c:Cdtr><c:Pty><c:Nm>Ramen-ya</c:Nm></c:Pty></c:Cdtr></c:RltdPties></c:TxDtls></c:NtryDtls></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">300</c:Amt><c:CdtDbtInd>DBIT</c:CdtDbtInd><c:Sts><c:Cd>PDNG</c:Cd></c:Sts></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">200</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-03-02</c:Dt></c:BookgDt><c:AddtlNtryInf>Refund</c:AddtlNtryInf></c:Ntry>
"#;
        let read = read(statement(entries).as_bytes()).unwrap();
        let account = &read.accounts[0];
        assert_eq!(account.id, "12345678");
        assert_eq!(account.currency.as_deref(), Some("JPY"));
        assert_eq!(account.name, None);
        let lines: Vec<_> = account
            .lines
            .iter()
            .map(|l| {
                (
                    l.amount_minor,
                    l.name.as_str(),
                    l.memo.as_deref(),
                    l.fitid.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            lines,
            [
                (-1500, "Ramen-ya", None, None),
                (200, "Refund", Some("Refund"), None)
            ]
        );
        assert_eq!(read.refused.len(), 1);
        assert_eq!(read.refused[0].position, "Ntry 2");
    }

    #[test]
    fn unreadable_entries_are_refused_and_the_rest_kept() {
        let entries = r#"<c:Ntry><c:Amt Ccy="JPY">1.5</c:Amt><c:CdtDbtInd>DBIT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">1</c:Amt><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">1</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-02-30</c:Dt></c:BookgDt></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">-1</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt></c:Ntry>
<c:Ntry><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt></c:Ntry>
<c:Ntry><c:Amt Ccy="JPY">7</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:BookgDt><c:Dt>2024-03-01</c:Dt></c:BookgDt></c:Ntry>
"#;
        let read = read(statement(entries).as_bytes()).unwrap();
        assert_eq!(read.accounts[0].lines.len(), 1);
        assert_eq!(read.accounts[0].lines[0].amount_minor, 7);
        let positions: Vec<_> = read.refused.iter().map(|r| r.position.as_str()).collect();
        assert_eq!(
            positions,
            ["Ntry 1", "Ntry 2", "Ntry 3", "Ntry 4", "Ntry 5"]
        );
    }

    #[test]
    fn more_entries_than_the_limit_are_refused() {
        let entry = "<c:Ntry><c:Amt Ccy=\"JPY\">1</c:Amt></c:Ntry>\n";
        let text = statement(&entry.repeat(MAX_LINES + 1));
        assert_eq!(read(text.as_bytes()), Err(ParseError::TooMany));
    }

    #[test]
    fn nesting_past_the_limit_is_malformed_on_a_small_stack() {
        // Document, BkToCstmrStmt and Stmt are three levels already.
        let nested = |depth: usize| {
            let inner = depth - 3;
            statement(&format!("{}{}", "<a>".repeat(inner), "</a>".repeat(inner)))
        };
        let deepest = nested(MAX_DEPTH);
        assert!(on_small_stack(move || read(deepest.as_bytes())).is_ok());
        let deep = nested(MAX_DEPTH + 1);
        let result = on_small_stack(move || read(deep.as_bytes()));
        assert!(
            matches!(result, Err(ParseError::Malformed { .. })),
            "{result:?}"
        );
        let deep = "<a>".repeat(1_000_000);
        let result = on_small_stack(move || read(deep.as_bytes()));
        assert!(
            matches!(result, Err(ParseError::Malformed { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn truncated_files_are_refused_never_half_read() {
        let start = CAMT.find("<Stmt>").unwrap();
        let end = CAMT.find("</Document>").unwrap();
        for cut in start..end {
            let result = read(&CAMT.as_bytes()[..cut]);
            assert!(
                matches!(result, Err(ParseError::Malformed { .. })),
                "cut at {cut}: {result:?}"
            );
        }
    }

    #[test]
    fn other_files_are_not_recognized() {
        assert_eq!(read(b""), Err(ParseError::NotRecognized));
        assert_eq!(
            read(b"\x00\x01\xff garbage <<<"),
            Err(ParseError::NotRecognized)
        );
        assert_eq!(
            read(b"<Document><BkToCstmrAcctRpt/></Document>"),
            Err(ParseError::NotRecognized)
        );
        assert_eq!(
            read(b"OFXHEADER:100\n<OFX></OFX>"),
            Err(ParseError::NotRecognized)
        );
        let broken =
            read(b"<Document><BkToCstmrStmt><Stmt></Ntry></Stmt></BkToCstmrStmt></Document>");
        assert!(
            matches!(broken, Err(ParseError::Malformed { .. })),
            "{broken:?}"
        );
    }

    proptest! {
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
            let _ = read(&bytes);
        }

        #[test]
        fn any_change_to_a_statement_is_read_or_refused(
            at in 0_usize..CAMT.len(),
            bytes in prop::collection::vec(any::<u8>(), 0..16),
        ) {
            let mut text = CAMT.as_bytes().to_vec();
            text.splice(at..at, bytes);
            let _ = read(&text);
        }
    }
}
