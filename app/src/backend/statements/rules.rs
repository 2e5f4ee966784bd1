//! The decisions of an import, without I/O: each row's stable id, which
//! rows are already there, and the preview's summary.
//!
//! A row's id is the file's own transaction id when it has one (OFX
//! `FITID`, CAMT's entry reference), per account; otherwise the
//! fingerprint bank sync uses (account, day, amount, description, the
//! ordinal among identical twins), so a transaction that came by bank
//! sync and again by file is one transaction, and two identical purchases
//! in one file are both kept.

use std::collections::{HashMap, HashSet};

use super::parse::{Account, Line, Statement};
use crate::contract::statements::{BalanceCheck, ImportAccount, ImportPreviewSummary, RefusedRow};
use crate::domain::bank::fingerprint::{stable_ids, Identity};

/// How many refused rows a preview lists (it counts them all).
pub const REFUSED_LISTED: usize = 100;

/// One row as the preview stages it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub file_account: String,
    pub provider_transaction_id: String,
    pub day: String,
    pub amount_minor: i64,
    pub description: String,
    pub memo: Option<String>,
    pub duplicate: bool,
}

/// The provider account id of the imported account made for a file's
/// account (when the person chose none).
pub fn imported_account_id(file_account: &str, file_name: &str) -> String {
    let key = if file_account.trim().is_empty() {
        file_name.trim()
    } else {
        file_account.trim()
    };
    format!("file:{key}")
}

/// The ids of an account's lines under `prefix` (the target account's
/// provider account id), in line order.
pub fn ids(prefix: &str, lines: &[Line]) -> Vec<String> {
    let identities: Vec<Identity> = lines
        .iter()
        .map(|line| Identity {
            account: prefix.to_owned(),
            day: line.day.clone(),
            amount_minor: line.amount_minor,
            description: line.name.clone(),
        })
        .collect();
    let fingerprints = stable_ids(&identities);
    lines
        .iter()
        .zip(fingerprints)
        .map(|(line, fingerprint)| match &line.fitid {
            Some(fitid) if !fitid.trim().is_empty() => format!("{prefix}:fitid:{}", fitid.trim()),
            _ => fingerprint,
        })
        .collect()
}

/// An account's rows, each marked a duplicate when `existing` (the target
/// account's ids) has it or an earlier row of the file had the same id.
pub fn plan(account: &Account, prefix: &str, existing: &HashSet<String>) -> Vec<Planned> {
    let mut seen: HashSet<String> = HashSet::new();
    account
        .lines
        .iter()
        .zip(ids(prefix, &account.lines))
        .map(|(line, id)| {
            let duplicate = existing.contains(&id) || !seen.insert(id.clone());
            Planned {
                file_account: account.id.clone(),
                provider_transaction_id: id,
                day: line.day.clone(),
                amount_minor: line.amount_minor,
                description: line.name.clone(),
                memo: line.memo.clone(),
                duplicate,
            }
        })
        .collect()
}

/// The preview's summary of a parsed statement and its planned rows
/// (`targets`: each file account's target name and currency).
pub fn summary(
    statement: &Statement,
    planned: &[Planned],
    targets: &HashMap<String, (String, String)>,
) -> ImportPreviewSummary {
    let accounts = statement
        .accounts
        .iter()
        .map(|account| {
            let rows: Vec<&Planned> = planned
                .iter()
                .filter(|row| row.file_account == account.id)
                .collect();
            let total_minor: i64 = account
                .lines
                .iter()
                .fold(0_i64, |sum, line| sum.saturating_add(line.amount_minor));
            let (target, currency) = targets
                .get(&account.id)
                .cloned()
                .unwrap_or_else(|| (account.id.clone(), "USD".into()));
            ImportAccount {
                file_account: account.id.clone(),
                target,
                currency: account.currency.clone().unwrap_or(currency),
                rows: count(rows.len()),
                new_rows: count(rows.iter().filter(|row| !row.duplicate).count()),
                total_minor,
                balance: balance_check(account, total_minor),
            }
        })
        .collect();
    let refused = statement
        .refused
        .iter()
        .take(REFUSED_LISTED)
        .map(|refused| RefusedRow {
            position: refused.position.clone(),
            reason: refused.reason.clone(),
        })
        .collect();
    ImportPreviewSummary {
        rows: count(planned.len()),
        new_rows: count(planned.iter().filter(|row| !row.duplicate).count()),
        duplicates: count(planned.iter().filter(|row| row.duplicate).count()),
        refused,
        refused_count: count(statement.refused.len()),
        first_day: planned.iter().map(|row| row.day.clone()).min(),
        last_day: planned.iter().map(|row| row.day.clone()).max(),
        accounts,
    }
}

/// The statement's closing balance against its opening balance plus its
/// rows, when it gives both.
fn balance_check(account: &Account, total_minor: i64) -> Option<BalanceCheck> {
    let closing = account.closing_balance.as_ref()?;
    let opening = account
        .opening_balance
        .as_ref()
        .map(|balance| balance.amount_minor);
    let computed = opening.map(|opening| opening.saturating_add(total_minor));
    Some(BalanceCheck {
        statement_minor: closing.amount_minor,
        day: closing.day.clone(),
        opening_minor: opening,
        computed_minor: computed,
        matches: computed.map(|computed| computed == closing.amount_minor),
    })
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Why an import in `state` cannot be discarded, if it cannot: while its
/// preview or commit runs (`running`) the job is still writing its rows,
/// and a committed import's rows are transactions now, which discarding a
/// preview does not undo. Uploaded, previewed or refused, it can go.
pub fn discard_refusal(state: &str, running: bool) -> Option<&'static str> {
    if running {
        Some("this import is still running; wait for it to finish (Operations shows it), then discard it")
    } else if state == "committed" {
        Some("this import is committed already, so there is no preview to discard; its rows are in Transactions")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::statements::parse::{AccountKind, Balance, Format};

    fn line(day: &str, amount: i64, name: &str, fitid: Option<&str>) -> Line {
        Line {
            position: "line 1".into(),
            fitid: fitid.map(str::to_owned),
            day: day.into(),
            amount_minor: amount,
            name: name.into(),
            memo: None,
        }
    }

    fn account(lines: Vec<Line>) -> Account {
        Account {
            id: "12345".into(),
            kind: AccountKind::Bank,
            name: None,
            currency: Some("USD".into()),
            opening_balance: None,
            closing_balance: None,
            lines,
        }
    }

    #[test]
    fn twins_in_one_file_are_both_kept_and_a_repeated_fitid_is_not() {
        let account = account(vec![
            line("2024-01-02", -450, "COFFEE", None),
            line("2024-01-02", -450, "COFFEE", None),
            line("2024-01-03", -1000, "BOOKS", Some("A1")),
            line("2024-01-04", -1000, "BOOKS AGAIN", Some("A1")),
        ]);
        let planned = plan(&account, "file:12345", &HashSet::new());
        let duplicates: Vec<bool> = planned.iter().map(|row| row.duplicate).collect();
        assert_eq!(duplicates, [false, false, false, true]);
        assert_ne!(
            planned[0].provider_transaction_id,
            planned[1].provider_transaction_id
        );
        assert_eq!(planned[2].provider_transaction_id, "file:12345:fitid:A1");
    }

    #[test]
    fn a_second_import_of_the_same_file_adds_nothing() {
        let account = account(vec![
            line("2024-01-02", -450, "COFFEE", None),
            line("2024-01-02", -450, "COFFEE", None),
        ]);
        let first = plan(&account, "file:12345", &HashSet::new());
        let existing: HashSet<String> = first
            .iter()
            .map(|row| row.provider_transaction_id.clone())
            .collect();
        assert!(plan(&account, "file:12345", &existing)
            .iter()
            .all(|row| row.duplicate));
    }

    #[test]
    fn a_row_bank_sync_brought_is_the_same_transaction() {
        // Bank sync's id for the same account, day, amount and description.
        let synced = stable_ids(&[Identity {
            account: "ACT-1".into(),
            day: "2024-01-02".into(),
            amount_minor: -450,
            description: "Coffee  shop".into(),
        }]);
        let account = account(vec![line("2024-01-02", -450, "COFFEE SHOP", None)]);
        let existing: HashSet<String> = synced.into_iter().collect();
        assert!(plan(&account, "ACT-1", &existing)[0].duplicate);
    }

    #[test]
    fn the_balance_check_needs_an_opening_balance() {
        let mut with = account(vec![line("2024-01-02", -450, "COFFEE", None)]);
        with.closing_balance = Some(Balance {
            amount_minor: 9_550,
            day: "2024-01-31".into(),
        });
        assert_eq!(
            balance_check(&with, -450).and_then(|check| check.matches),
            None
        );
        with.opening_balance = Some(Balance {
            amount_minor: 10_000,
            day: "2024-01-01".into(),
        });
        assert_eq!(
            balance_check(&with, -450).and_then(|check| check.matches),
            Some(true)
        );
        with.opening_balance = Some(Balance {
            amount_minor: 10_001,
            day: "2024-01-01".into(),
        });
        assert_eq!(
            balance_check(&with, -450).and_then(|check| check.matches),
            Some(false)
        );
        let statement = Statement {
            format: Format::Ofx,
            accounts: vec![with],
            refused: Vec::new(),
        };
        let planned = plan(&statement.accounts[0], "file:12345", &HashSet::new());
        let summary = summary(&statement, &planned, &HashMap::new());
        assert_eq!(
            (summary.rows, summary.new_rows, summary.duplicates),
            (1, 1, 0)
        );
        assert_eq!(summary.first_day.as_deref(), Some("2024-01-02"));
    }

    #[test]
    fn a_preview_can_be_discarded_unless_it_runs_or_is_committed() {
        for state in ["uploaded", "previewed", "failed"] {
            assert_eq!(discard_refusal(state, false), None, "{state}");
            let refusal = discard_refusal(state, true).unwrap_or_default();
            assert!(refusal.contains("still running"), "{state}: {refusal}");
        }
        let refusal = discard_refusal("committed", false).unwrap_or_default();
        assert!(refusal.contains("committed already"), "{refusal}");
        assert!(discard_refusal("committed", true).is_some());
    }

    #[test]
    fn an_account_without_an_id_is_named_by_the_file() {
        assert_eq!(imported_account_id("", "march.qif"), "file:march.qif");
        assert_eq!(imported_account_id(" 123 ", "x.ofx"), "file:123");
    }
}
