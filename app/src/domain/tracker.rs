//! The Tracker's view of a month (or a pay period): which bills are
//! overdue, due soon, paid or still to come, and the totals. Pure, so the rules are tested here and
//! the server only gathers the bills and payments.

use serde::{Deserialize, Serialize};

use super::bill_month::{MonthOverride, SNOOZE_MAX_DAYS};
use super::cadence::Cadence;
use super::date::Date;

/// "Due soon" means within this many days.
pub const DUE_SOON_DAYS: i64 = 7;

/// A payment made at most this many days before a due date pays that due
/// date (rent paid on the 24th for the 1st); one made later than that
/// before the next due date pays the one before (a late payment). For
/// day-based cadences shorter than two weeks, half the interval.
pub const PAID_EARLY_DAYS: i64 = 7;

/// How far around a period [`TrackedBill::paid_on`] must reach for the
/// payments that can pay its occurrences: one long month and the early
/// days before, and the early days after.
pub const PAYMENTS_BEFORE_DAYS: i64 = 70;
pub const PAYMENTS_AFTER_DAYS: i64 = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum Status {
    Overdue,
    DueSoon,
    Upcoming,
    Paid,
    /// Skipped this time ([`MonthOverride::skipped`]): not due, not
    /// overdue, not reminded, in no total.
    Skipped,
}

/// What the Tracker needs of one active bill.
#[derive(Clone, Debug)]
pub struct TrackedBill {
    pub id: i64,
    pub cadence: Cadence,
    pub anchor: Date,
    pub due_day: u8,
    pub amount_minor: i64,
    /// Payment dates of this bill from [`PAYMENTS_BEFORE_DAYS`] before
    /// the period to [`PAYMENTS_AFTER_DAYS`] after it.
    pub paid_on: Vec<Date>,
    /// Its occurrences' overrides near the period.
    pub overrides: Vec<MonthOverride>,
}

impl TrackedBill {
    /// The bill's due dates from `from` through `through`, at most 1,000.
    pub fn occurrences(&self, from: Date, through: Date) -> Vec<Date> {
        let mut found = Vec::new();
        let mut next = from;
        while let Some(due) = self.cadence.next_due(self.anchor, self.due_day, next) {
            if due > through || found.len() >= 1000 {
                break;
            }
            found.push(due);
            let Some(after) = due.add_days(1) else {
                break;
            };
            next = after;
        }
        found
    }

    /// The due dates from `first` through `last` with whether each is
    /// paid. Each payment pays the due date whose cycle it falls in: from
    /// [`PAID_EARLY_DAYS`] before that due date to the same before the
    /// next. A second payment in one cycle pays the next due date ahead.
    /// Only payments near the period matter, so the answer does not depend
    /// on history older than [`PAYMENTS_BEFORE_DAYS`].
    pub fn paid_in(&self, first: Date, last: Date) -> Vec<(Date, bool)> {
        let from = first.add_days(-PAYMENTS_BEFORE_DAYS).unwrap_or(first);
        let through = last.add_days(PAYMENTS_AFTER_DAYS).unwrap_or(last);
        let dues = self.occurrences(from, through);
        let early = |i: usize| -> i64 {
            let gap = match i {
                0 => dues
                    .get(1)
                    .map(|next| next.days_since_epoch() - dues[0].days_since_epoch()),
                _ => Some(dues[i].days_since_epoch() - dues[i - 1].days_since_epoch()),
            };
            gap.map_or(PAID_EARLY_DAYS, |gap| (gap / 2).min(PAID_EARLY_DAYS))
        };
        // A skipped due date takes no payment: the next one does.
        let skipped: Vec<bool> = dues
            .iter()
            .map(|due| {
                self.overrides
                    .iter()
                    .any(|change| change.occurrence == *due && change.skipped)
            })
            .collect();
        let mut paid = vec![false; dues.len()];
        let mut payments = self.paid_on.clone();
        payments.sort_unstable();
        for payment in payments {
            let day = payment.days_since_epoch();
            // The last due date whose cycle has begun by the payment; a
            // payment before the first cycle pays the first due date.
            let mut at = (0..dues.len())
                .rev()
                .find(|&i| dues[i].days_since_epoch() - early(i) <= day)
                .unwrap_or(0);
            while paid.get(at) == Some(&true) || skipped.get(at) == Some(&true) {
                at += 1;
            }
            if let Some(slot) = paid.get_mut(at) {
                *slot = true;
            }
        }
        dues.into_iter()
            .zip(paid)
            .filter(|(due, _)| *due >= first && *due <= last)
            .collect()
    }

    /// The first due date on or after `today` that no payment paid.
    pub fn next_unpaid(&self, today: Date) -> Option<Date> {
        let horizon = today.add_days(PAYMENTS_AFTER_DAYS).unwrap_or(today);
        self.paid_in(today, horizon)
            .into_iter()
            .find(|(_, paid)| !paid)
            .map(|(due, _)| due)
            .or_else(|| {
                let after = horizon.add_days(1)?;
                self.cadence.next_due(self.anchor, self.due_day, after)
            })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub bill_id: i64,
    /// The due date: the snoozed-to date when snoozed.
    pub due: String,
    pub status: Status,
    /// This time's amount (an override's, or the bill's).
    pub amount_minor: i64,
    /// The bill's usual amount, when this time's differs.
    pub usual_amount_minor: Option<i64>,
    pub skipped: bool,
    /// The scheduled date of a snoozed occurrence.
    pub snoozed_from: Option<String>,
    pub note: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub due_minor: i64,
    /// The payments dated in the period (what the spending chart shows).
    pub paid_minor: i64,
    /// What the period's unpaid due dates still ask.
    pub remaining_minor: i64,
    pub overdue_minor: i64,
}

/// The first day of `today`'s month and the last.
pub fn month_bounds(today: Date) -> (Date, Date) {
    let first = Date::clamped(today.year(), today.month(), 1).unwrap_or(today);
    let last = Date::clamped(today.year(), today.month(), 31).unwrap_or(today);
    (first, last)
}

/// The entries of the period from `first` to `last` (each time a bill
/// falls due in it, by due date: a weekly bill is due four or five times a
/// month) and its totals. Which due dates are paid is
/// [`TrackedBill::paid_in`]'s rule. `paid_minor` here counts what was due
/// on the paid entries; the Tracker answers with the payments dated in the
/// period instead ([`Totals::paid_minor`]), and `remaining_minor` is what
/// the unpaid entries still ask.
pub fn period_view(
    today: Date,
    (first, last): (Date, Date),
    bills: &[TrackedBill],
) -> (Vec<Entry>, Totals) {
    let mut entries = Vec::new();
    let mut totals = Totals::default();
    // A due date snoozed from before the period can land in it.
    let reach = first.add_days(-SNOOZE_MAX_DAYS).unwrap_or(first);
    for bill in bills {
        for (scheduled, paid) in bill.paid_in(reach, last) {
            let change = bill
                .overrides
                .iter()
                .find(|change| change.occurrence == scheduled);
            let due = change
                .and_then(|change| change.snoozed_to)
                .unwrap_or(scheduled);
            if due < first || due > last {
                continue;
            }
            let skipped = change.is_some_and(|change| change.skipped);
            let amount = change
                .and_then(|change| change.amount_minor)
                .unwrap_or(bill.amount_minor);
            let days_left = due.days_since_epoch() - today.days_since_epoch();
            let status = if skipped {
                Status::Skipped
            } else if paid {
                Status::Paid
            } else if days_left < 0 {
                Status::Overdue
            } else if days_left <= DUE_SOON_DAYS {
                Status::DueSoon
            } else {
                Status::Upcoming
            };
            if !skipped {
                totals.due_minor += amount;
            }
            match status {
                Status::Paid => totals.paid_minor += amount,
                Status::Overdue => totals.overdue_minor += amount,
                Status::DueSoon | Status::Upcoming | Status::Skipped => {}
            }
            entries.push(Entry {
                bill_id: bill.id,
                due: due.to_string(),
                status,
                amount_minor: amount,
                usual_amount_minor: (amount != bill.amount_minor).then_some(bill.amount_minor),
                skipped,
                snoozed_from: (due != scheduled).then(|| scheduled.to_string()),
                note: change.and_then(|change| change.note.clone()),
            });
        }
    }
    totals.remaining_minor = totals.due_minor - totals.paid_minor;
    entries.sort_by(|a, b| a.due.cmp(&b.due).then(a.bill_id.cmp(&b.bill_id)));
    (entries, totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    fn bill(id: i64, due_day: u8, amount: i64, paid: &[&str]) -> TrackedBill {
        TrackedBill {
            id,
            cadence: Cadence::Monthly,
            anchor: date("2026-01-01"),
            due_day,
            amount_minor: amount,
            paid_on: paid.iter().map(|d| date(d)).collect(),
            overrides: Vec::new(),
        }
    }

    #[test]
    fn the_month_sorts_bills_into_overdue_due_soon_upcoming_and_paid() {
        let today = date("2026-11-10");
        let bills = [
            bill(1, 5, 1000, &[]),
            bill(2, 12, 2000, &[]),
            bill(3, 25, 3000, &[]),
            bill(4, 1, 4000, &["2026-11-01"]),
            TrackedBill {
                cadence: Cadence::Quarterly,
                anchor: date("2026-01-15"),
                ..bill(5, 15, 5000, &[])
            },
        ];
        let (entries, totals) = period_view(today, month_bounds(today), &bills);
        let statuses: Vec<(i64, Status)> = entries.iter().map(|e| (e.bill_id, e.status)).collect();
        assert_eq!(
            statuses,
            [
                (4, Status::Paid),
                (1, Status::Overdue),
                (2, Status::DueSoon),
                (3, Status::Upcoming)
            ],
            "the quarterly bill is not due in November"
        );
        // The same bills over a pay period from the 9th to the 22nd.
        let period = (date("2026-11-09"), date("2026-11-22"));
        let (in_period, period_totals) = period_view(today, period, &bills);
        let ids: Vec<i64> = in_period.iter().map(|e| e.bill_id).collect();
        assert_eq!(ids, [2], "only the bill due on the 12th");
        assert_eq!(period_totals.due_minor, 2000);
        assert_eq!(
            totals,
            Totals {
                due_minor: 10_000,
                paid_minor: 4000,
                remaining_minor: 6000,
                overdue_minor: 1000
            }
        );
    }

    #[test]
    fn a_weekly_bill_is_due_each_week_and_payments_pay_the_earliest_first() {
        let today = date("2026-11-18");
        let gym = TrackedBill {
            cadence: Cadence::Weekly,
            anchor: date("2026-11-02"),
            ..bill(7, 2, 1500, &["2026-11-02", "2026-11-10"])
        };
        let (entries, totals) = period_view(today, month_bounds(today), &[gym]);
        let seen: Vec<(&str, Status)> =
            entries.iter().map(|e| (e.due.as_str(), e.status)).collect();
        assert_eq!(
            seen,
            [
                ("2026-11-02", Status::Paid),
                ("2026-11-09", Status::Paid),
                ("2026-11-16", Status::Overdue),
                ("2026-11-23", Status::DueSoon),
                ("2026-11-30", Status::Upcoming),
            ]
        );
        assert_eq!(
            totals,
            Totals {
                due_minor: 7500,
                paid_minor: 3000,
                remaining_minor: 4500,
                overdue_minor: 1500
            }
        );
    }

    fn monthly(anchor: &str, paid: &[&str]) -> TrackedBill {
        TrackedBill {
            anchor: date(anchor),
            ..bill(9, date(anchor).day(), 150_000, paid)
        }
    }

    fn statuses(bill: &TrackedBill, first: &str, last: &str) -> Vec<(String, bool)> {
        bill.paid_in(date(first), date(last))
            .into_iter()
            .map(|(due, paid)| (due.to_string(), paid))
            .collect()
    }

    #[test]
    fn rent_paid_a_week_early_pays_the_next_due_date_and_moves_next_due_on() {
        let rent = monthly("2026-12-01", &["2026-11-24"]);
        assert!(statuses(&rent, "2026-11-01", "2026-11-30").is_empty());
        assert_eq!(
            statuses(&rent, "2026-12-01", "2026-12-31"),
            [("2026-12-01".to_owned(), true)]
        );
        assert_eq!(
            rent.next_unpaid(date("2026-11-25")),
            Some(date("2027-01-01"))
        );
        let unpaid = monthly("2026-12-01", &[]);
        assert_eq!(
            unpaid.next_unpaid(date("2026-11-25")),
            Some(date("2026-12-01"))
        );
    }

    #[test]
    fn someone_who_always_pays_early_is_paid_up_every_month() {
        let rent = monthly("2026-01-01", &["2026-09-24", "2026-10-24", "2026-11-24"]);
        assert_eq!(
            statuses(&rent, "2026-10-01", "2026-12-31"),
            [
                ("2026-10-01".to_owned(), true),
                ("2026-11-01".to_owned(), true),
                ("2026-12-01".to_owned(), true)
            ]
        );
    }

    #[test]
    fn a_late_payment_pays_the_missed_due_date_until_a_week_before_the_next() {
        let late = monthly("2026-01-01", &["2026-11-20"]);
        assert_eq!(
            statuses(&late, "2026-11-01", "2026-12-31"),
            [
                ("2026-11-01".to_owned(), true),
                ("2026-12-01".to_owned(), false)
            ]
        );
        let later = monthly("2026-01-01", &["2026-11-25"]);
        assert_eq!(
            statuses(&later, "2026-11-01", "2026-12-31"),
            [
                ("2026-11-01".to_owned(), false),
                ("2026-12-01".to_owned(), true)
            ]
        );
    }

    #[test]
    fn a_second_payment_in_one_cycle_pays_ahead() {
        let twice = monthly("2026-01-15", &["2026-11-14", "2026-11-16"]);
        assert_eq!(
            statuses(&twice, "2026-11-01", "2026-12-31"),
            [
                ("2026-11-15".to_owned(), true),
                ("2026-12-15".to_owned(), true)
            ]
        );
    }

    fn skip(occurrence: &str) -> MonthOverride {
        MonthOverride {
            skipped: true,
            ..MonthOverride::of(date(occurrence))
        }
    }

    #[test]
    fn a_skipped_due_date_is_listed_but_never_due_and_in_no_total() {
        let today = date("2026-11-20");
        let gym = TrackedBill {
            overrides: vec![skip("2026-11-05")],
            ..bill(1, 5, 3000, &[])
        };
        let (entries, totals) = period_view(today, month_bounds(today), std::slice::from_ref(&gym));
        assert_eq!(entries.len(), 1);
        assert!(entries[0].skipped);
        assert_eq!(entries[0].status, Status::Skipped);
        assert_eq!(totals, Totals::default());
        // The next month is untouched.
        let december = (date("2026-12-01"), date("2026-12-31"));
        let (next, next_totals) = period_view(today, december, std::slice::from_ref(&gym));
        assert_eq!((next[0].status, next[0].skipped), (Status::Upcoming, false));
        assert_eq!(next_totals.due_minor, 3000);
        // A payment made for the skipped month pays the next one.
        let paid = TrackedBill {
            paid_on: vec![date("2026-11-06")],
            ..gym
        };
        let (next, _) = period_view(today, december, &[paid]);
        assert_eq!(next[0].status, Status::Paid);
    }

    #[test]
    fn a_snoozed_due_date_is_due_once_on_its_new_date_with_this_times_amount() {
        let today = date("2026-11-20");
        let power = TrackedBill {
            overrides: vec![MonthOverride {
                snoozed_to: Some(date("2026-12-03")),
                amount_minor: Some(9_000),
                note: Some("winter".into()),
                ..MonthOverride::of(date("2026-11-28"))
            }],
            ..bill(2, 28, 6_000, &[])
        };
        let (november, totals) =
            period_view(today, month_bounds(today), std::slice::from_ref(&power));
        assert!(november.is_empty(), "{november:?}");
        assert_eq!(totals.due_minor, 0);
        let (december, totals) =
            period_view(today, (date("2026-12-01"), date("2026-12-31")), &[power]);
        let moved: Vec<(&str, Option<&str>, i64, Option<i64>)> = december
            .iter()
            .map(|e| {
                (
                    e.due.as_str(),
                    e.snoozed_from.as_deref(),
                    e.amount_minor,
                    e.usual_amount_minor,
                )
            })
            .collect();
        assert_eq!(
            moved,
            [
                ("2026-12-03", Some("2026-11-28"), 9_000, Some(6_000)),
                ("2026-12-28", None, 6_000, None)
            ]
        );
        assert_eq!(december[0].note.as_deref(), Some("winter"));
        assert_eq!(totals.due_minor, 15_000);
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn another_payment_never_unpays_a_due_date_and_pays_at_most_one_more(
                step in prop_oneof![Just(Cadence::Weekly), Just(Cadence::Monthly), Just(Cadence::Quarterly), (1_u16..40).prop_map(Cadence::EveryDays)],
                anchor in 20_000_i64..20_400,
                payments in proptest::collection::vec(20_300_i64..20_500, 0..12),
                extra in 20_300_i64..20_500,
            ) {
                let anchor = Date::from_days_since_epoch(anchor).unwrap();
                let day = |d: i64| Date::from_days_since_epoch(d).unwrap();
                let before = TrackedBill {
                    cadence: step,
                    anchor,
                    due_day: anchor.day(),
                    ..bill(1, 1, 100, &[])
                };
                let before = TrackedBill { paid_on: payments.iter().map(|d| day(*d)).collect(), ..before };
                let mut after = before.clone();
                after.paid_on.push(day(extra));
                let (first, last) = (day(20_380), day(20_420));
                let was = before.paid_in(first, last);
                let is = after.paid_in(first, last);
                prop_assert_eq!(was.len(), is.len());
                let mut gained = 0;
                for ((due, paid_before), (_, paid_after)) in was.iter().zip(&is) {
                    prop_assert!(!paid_before || *paid_after, "{} was paid", due);
                    if !paid_before && *paid_after {
                        gained += 1;
                    }
                }
                prop_assert!(gained <= 1);
                let paid = is.iter().filter(|(_, paid)| *paid).count();
                prop_assert!(paid <= after.paid_on.len());
            }
        }
    }
}
