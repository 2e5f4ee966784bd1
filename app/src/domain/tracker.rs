//! The Tracker's view of a month (or a pay period): which bills are
//! overdue, due soon, paid or still to come, and the totals. Pure, so the rules are tested here and
//! the server only gathers the bills and payments.

use serde::{Deserialize, Serialize};

use super::cadence::Cadence;
use super::date::Date;

/// "Due soon" means within this many days.
pub const DUE_SOON_DAYS: i64 = 7;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum Status {
    Overdue,
    DueSoon,
    Upcoming,
    Paid,
}

/// What the Tracker needs of one active bill.
#[derive(Clone, Debug)]
pub struct TrackedBill {
    pub id: i64,
    pub cadence: Cadence,
    pub anchor: Date,
    pub due_day: u8,
    pub amount_minor: i64,
    /// Payment dates of this bill within the period.
    pub paid_on: Vec<Date>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    pub bill_id: i64,
    pub due: String,
    pub status: Status,
    pub amount_minor: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub due_minor: i64,
    pub paid_minor: i64,
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
/// month) and its totals. A bill's payments in the period pay its
/// occurrences from the earliest on; paid amounts count what was due, as
/// the Tracker compares plan with reality per bill.
pub fn period_view(
    today: Date,
    (first, last): (Date, Date),
    bills: &[TrackedBill],
) -> (Vec<Entry>, Totals) {
    let mut entries = Vec::new();
    let mut totals = Totals::default();
    for bill in bills {
        let mut payments_left = bill.paid_on.len();
        let mut from = first;
        while let Some(due) = bill.cadence.next_due(bill.anchor, bill.due_day, from) {
            if due > last {
                break;
            }
            let days_left = due.days_since_epoch() - today.days_since_epoch();
            let status = if payments_left > 0 {
                payments_left -= 1;
                Status::Paid
            } else if days_left < 0 {
                Status::Overdue
            } else if days_left <= DUE_SOON_DAYS {
                Status::DueSoon
            } else {
                Status::Upcoming
            };
            totals.due_minor += bill.amount_minor;
            match status {
                Status::Paid => totals.paid_minor += bill.amount_minor,
                Status::Overdue => totals.overdue_minor += bill.amount_minor,
                Status::DueSoon | Status::Upcoming => {}
            }
            entries.push(Entry {
                bill_id: bill.id,
                due: due.to_string(),
                status,
                amount_minor: bill.amount_minor,
            });
            let Some(next) = due.add_days(1) else {
                break;
            };
            from = next;
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
}
