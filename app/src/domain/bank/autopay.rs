//! Autopay, checked against the bank (spec v0.99): a returned debit
//! (`ACH RETURN …`) fails the payment it gave back, a debit missing past
//! its due date plus a grace period fails that due date, and a bill's trust
//! indicator counts its last twelve due dates.

use super::merchant;
use crate::domain::date::Date;

/// Days after a due date before a debit that has not posted is missing.
pub const GRACE_DAYS: i64 = 3;
/// Days before a due date an early debit still pays it.
pub const EARLY_DAYS: i64 = 5;
/// Days after a due date a late debit still answers it (no longer
/// missing, though past the grace).
pub const LATE_DAYS: i64 = 10;
/// How many due dates the trust indicator looks back over.
pub const TRUST_DUE_DATES: usize = 12;
/// How long after the debit a return can come.
pub const RETURN_DAYS: i64 = 14;

/// Words a bank puts before a returned debit's payee.
const RETURN_WORDS: &[&str] = &["RETURNED", "RETURN", "RET", "NSF", "ITEM", "REVERSAL"];

/// The merchant key of the debit a credit gave back, when the credit is a
/// returned debit (`ACH RETURN CITY POWER & LIGHT`); `None` otherwise.
pub fn returned_debit(description: &str, amount_minor: i64) -> Option<String> {
    let upper = description.to_uppercase();
    if amount_minor <= 0 || !(upper.contains("RETURN") || upper.contains("REVERSAL")) {
        return None;
    }
    let rest: Vec<&str> = upper
        .split_whitespace()
        .filter(|word| !RETURN_WORDS.contains(word))
        .collect();
    let key = merchant::normalize(&rest.join(" "));
    (!key.is_empty()).then_some(key)
}

/// Whether a missing debit for `due` can be told: its grace has passed by
/// `today`, and the bank data reaches from before it (`covered_from`, the
/// oldest transaction's day) to after its grace (`synced_through`).
pub fn can_be_missing(due: Date, today: Date, covered_from: Date, synced_through: Date) -> bool {
    let Some(grace_end) = due.add_days(GRACE_DAYS) else {
        return false;
    };
    let Some(earliest) = due.add_days(-EARLY_DAYS) else {
        return false;
    };
    grace_end < today && covered_from <= earliest && grace_end <= synced_through
}

/// The trust indicator: of the last due dates looked at, how many went
/// through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trust {
    pub kept: u32,
    pub due_dates: u32,
}

impl Trust {
    /// Counts `due_dates` (the last up to twelve, oldest first, each with
    /// whether a payment paid it: the Tracker's assignment) against the
    /// days of failed autopay payments: a failure belongs to the due date
    /// it lies on or after (less the early days), before the next one. A
    /// due date went through when a payment paid it and no failure belongs
    /// to it; one nothing paid is not counted as kept. The record starts at
    /// the first due date with something behind it (a payment or a
    /// failure): the ones before are from before Tally knew, so a new bill,
    /// or one whose payments were never entered, has no record at all
    /// (`due_dates` 0).
    pub fn count(due_dates: &[(Date, bool)], failures: &[Date]) -> Self {
        let starts: Vec<Date> = due_dates
            .iter()
            .map(|(due, _)| due.add_days(-EARLY_DAYS).unwrap_or(*due))
            .collect();
        let mut kept = 0;
        let mut looked_at = 0;
        for (index, start) in starts.iter().enumerate() {
            let end = starts.get(index + 1);
            let failed = failures
                .iter()
                .any(|day| day >= start && end.is_none_or(|end| day < end));
            let paid = due_dates[index].1;
            if looked_at == 0 && !paid && !failed {
                continue;
            }
            looked_at += 1;
            if paid && !failed {
                kept += 1;
            }
        }
        Self {
            kept,
            due_dates: looked_at,
        }
    }

    /// `✓ 12/12` or `⚠ 11/12`.
    pub fn label(self) -> String {
        let mark = if self.kept == self.due_dates {
            "✓"
        } else {
            "⚠"
        };
        format!("{mark} {}/{}", self.kept, self.due_dates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn returns_name_the_debit_they_gave_back() {
        assert_eq!(
            returned_debit("ACH RETURN CITY POWER & LIGHT AUTOPAY", 8_450).as_deref(),
            Some("CITY POWER & LIGHT AUTOPAY")
        );
        assert_eq!(
            returned_debit("RETURNED ITEM METRO WATER UTILITY", 4_100).as_deref(),
            Some("METRO WATER UTILITY")
        );
        assert_eq!(returned_debit("ACH RETURN CITY POWER", -8_450), None);
        assert_eq!(returned_debit("PAYROLL ACME", 250_000), None);
    }

    #[test]
    fn a_missing_debit_needs_the_grace_over_and_the_data_around_it() {
        let due = day("2026-10-15");
        let (from, through) = (day("2026-09-20"), day("2026-11-01"));
        assert!(can_be_missing(due, day("2026-10-19"), from, through));
        assert!(
            !can_be_missing(due, day("2026-10-18"), from, through),
            "grace not over"
        );
        assert!(
            !can_be_missing(due, day("2026-11-20"), day("2026-10-12"), through),
            "no data before"
        );
        assert!(
            !can_be_missing(due, day("2026-11-20"), from, day("2026-10-17")),
            "not synced since"
        );
    }

    #[test]
    fn only_a_paid_due_date_counts_and_the_record_starts_with_the_first_evidence() {
        let dues: Vec<(Date, bool)> = (1..=3)
            .map(|m| (Date::new(2026, m, 15).unwrap(), m != 2))
            .collect();
        assert_eq!(Trust::count(&dues, &[]).label(), "⚠ 2/3");
        // Issue 53: a new bill, nothing paid and no failure: no record.
        let unpaid: Vec<(Date, bool)> = dues.iter().map(|(due, _)| (*due, false)).collect();
        assert_eq!(
            Trust::count(&unpaid, &[]),
            Trust {
                kept: 0,
                due_dates: 0
            }
        );
        assert_eq!(
            Trust::count(&unpaid[..1], &[]),
            Trust {
                kept: 0,
                due_dates: 0
            }
        );
        // Paid only lately: the record is of the due dates since.
        let lately: Vec<(Date, bool)> = dues
            .iter()
            .map(|(due, _)| (*due, due.month() == 3))
            .collect();
        assert_eq!(Trust::count(&lately, &[]).label(), "✓ 1/1");
        // A failure the bank showed is evidence too.
        assert_eq!(Trust::count(&unpaid, &[day("2026-02-16")]).label(), "⚠ 0/2");
    }

    #[test]
    fn trust_counts_due_dates_without_a_failure_in_their_window() {
        let dues: Vec<(Date, bool)> = (1..=12)
            .map(|m| (Date::new(2026, m, 15).unwrap(), true))
            .collect();
        let clean = Trust::count(&dues, &[]);
        assert_eq!(
            clean,
            Trust {
                kept: 12,
                due_dates: 12
            }
        );
        assert_eq!(clean.label(), "✓ 12/12");
        let one = Trust::count(&dues, &[day("2026-03-16")]);
        assert_eq!(one.label(), "⚠ 11/12");
        let same = Trust::count(&dues, &[day("2026-03-11"), day("2026-04-09")]);
        assert_eq!(same.kept, 11, "both belong to March's due date");
        let two = Trust::count(&dues, &[day("2026-03-11"), day("2026-04-10")]);
        assert_eq!(two.label(), "⚠ 10/12");
        let before = Trust::count(&dues, &[day("2025-12-20")]);
        assert_eq!(before.kept, 12, "before the first due date looked at");
        assert_eq!(Trust::count(&dues[..3], &[]).label(), "✓ 3/3");
    }
}
