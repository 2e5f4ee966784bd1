//! Debt interest, charged once per calendar month (spec rule 1).
//!
//! A debt remembers the last month it was charged for
//! (`bills.interest_accrued_month`). Accrual on a given day charges every
//! month after that one up to the day's month, each on the balance as it
//! then stands (so missed months are caught up and compound), and records
//! the new month with the charges. Running it again in the same month, after
//! a restart, or for a month already charged finds nothing to charge. A debt
//! that was never charged starts with the month charged through.
//!
//! Two things charge: a payment charges through its own month, on the
//! balance before it is paid; the monthly accrual charges each month that
//! ended without one (see `backend::bills::accrual`).

use super::date::YearMonth;

/// At most this many missed months are caught up at once (ten years).
pub const MAX_CATCH_UP_MONTHS: usize = 120;

/// One month's interest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    pub month: YearMonth,
    /// Minor units.
    pub interest: i64,
}

/// One month of interest on `balance` (minor units) at an APR in basis
/// points (1,999 = 19.99 %), rounded half away from zero.
pub fn monthly_interest(balance: i64, apr_basis_points: i64) -> i64 {
    let numerator = i128::from(balance) * i128::from(apr_basis_points);
    let denominator = 10_000_i128 * 12;
    let rounded = (numerator * 2 + denominator).div_euclid(denominator * 2);
    i64::try_from(rounded).unwrap_or(i64::MAX)
}

/// The charges owed through `through` (a month) for a debt last charged
/// for `accrued_month`.
pub fn charges_due(
    balance: i64,
    apr_basis_points: i64,
    accrued_month: Option<YearMonth>,
    through: YearMonth,
) -> Vec<Charge> {
    let current = through;
    let mut month = match accrued_month {
        Some(done) if done >= current => return Vec::new(),
        Some(done) => done.next(),
        None => current,
    };
    let mut balance = balance;
    let mut charges = Vec::new();
    while month <= current && charges.len() < MAX_CATCH_UP_MONTHS {
        let interest = monthly_interest(balance, apr_basis_points);
        charges.push(Charge { month, interest });
        balance = balance.saturating_add(interest);
        month = month.next();
    }
    charges
}

/// The month a debt was charged through before a payment made in `paid`
/// charged `interest` on `balance_before` at `apr_basis_points`: the payment
/// charged the months up to its own, one after another, each on the balance
/// as it then stood ([`charges_due`]), so the number of months is the one
/// whose charges add up to `interest`. `None` when no run of months does
/// (the balance was edited since): the caller then knows less.
pub fn charged_through_before(
    balance_before: i64,
    apr_basis_points: i64,
    interest: i64,
    paid: YearMonth,
) -> Option<YearMonth> {
    let mut balance = balance_before;
    let mut total = 0_i64;
    let mut month = paid;
    for _ in 0..MAX_CATCH_UP_MONTHS {
        let charge = monthly_interest(balance, apr_basis_points);
        total = total.saturating_add(charge);
        balance = balance.saturating_add(charge);
        month = month.previous();
        if total == interest {
            return Some(month);
        }
        if total > interest {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payments_charges_tell_the_month_charged_before_it() {
        let december = YearMonth::parse("2026-12").unwrap();
        let one = charges_due(1_000_000, 1_999, YearMonth::parse("2026-11"), december);
        let interest: i64 = one.iter().map(|charge| charge.interest).sum();
        assert_eq!(
            charged_through_before(1_000_000, 1_999, interest, december),
            YearMonth::parse("2026-11")
        );
        // Three months caught up at once, compounding.
        let three = charges_due(1_000_000, 1_999, YearMonth::parse("2026-09"), december);
        assert_eq!(three.len(), 3);
        let interest: i64 = three.iter().map(|charge| charge.interest).sum();
        assert_eq!(
            charged_through_before(1_000_000, 1_999, interest, december),
            YearMonth::parse("2026-09")
        );
        // Across a year's end.
        let january = YearMonth::parse("2027-01").unwrap();
        let interest = monthly_interest(50_000, 2_400);
        assert_eq!(
            charged_through_before(50_000, 2_400, interest, january),
            YearMonth::parse("2026-12")
        );
        // No run of months adds up to it.
        assert_eq!(charged_through_before(1_000_000, 1_999, 1, december), None);
    }
    use crate::domain::date::Date;
    use proptest::prelude::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn a_month_of_interest_is_rounded_to_the_minor_unit() {
        // 1,000.00 at 19.99 % a year: 16.658… a month.
        assert_eq!(monthly_interest(100_000, 1999), 1666);
        assert_eq!(monthly_interest(100_000, 0), 0);
        assert_eq!(monthly_interest(0, 2500), 0);
        assert_eq!(monthly_interest(6, 10_000), 1, "0.5 rounds up");
    }

    #[test]
    fn charging_twice_in_a_month_charges_once_and_missed_months_catch_up() {
        let today = date("2026-11-22");
        let first = charges_due(100_000, 1200, None, today.year_month());
        assert_eq!(
            first,
            [Charge {
                month: today.year_month(),
                interest: 1000
            }]
        );
        assert!(charges_due(
            101_000,
            1200,
            Some(today.year_month()),
            date("2026-11-30").year_month()
        )
        .is_empty());
        let later = charges_due(
            101_000,
            1200,
            Some(today.year_month()),
            date("2027-02-01").year_month(),
        );
        let months: Vec<String> = later.iter().map(|c| c.month.to_string()).collect();
        assert_eq!(months, ["2026-12", "2027-01", "2027-02"]);
        assert_eq!(later[0].interest, 1010);
        assert_eq!(later[1].interest, 1020, "compounds on the charged balance");
    }

    /// A stored debt: what `bills` holds between runs (so a "restart" is
    /// just running again from the stored state).
    #[derive(Clone, Debug)]
    struct Stored {
        balance: i64,
        accrued_month: Option<YearMonth>,
        charged: Vec<YearMonth>,
    }

    impl Stored {
        fn accrue(&mut self, apr: i64, today: Date) {
            for charge in charges_due(self.balance, apr, self.accrued_month, today.year_month()) {
                self.balance += charge.interest;
                self.accrued_month = Some(charge.month);
                self.charged.push(charge.month);
            }
        }
    }

    /// What charges: a payment through its own month, the monthly accrual
    /// through the month before today.
    #[derive(Clone, Copy, Debug)]
    enum Event {
        Payment(i64),
        Accrual(i64),
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            (0_i64..1500).prop_map(Event::Payment),
            (0_i64..1500).prop_map(Event::Accrual),
        ]
    }

    proptest! {
        /// Payments and accrual runs in any order (backdated payments,
        /// reruns, a rerun after a restart) charge a gap-free run of months,
        /// each once, up to the latest month any of them charged through.
        #[test]
        fn payments_and_the_monthly_accrual_never_charge_a_month_twice(
            apr in 1_i64..5000,
            balance in 1_i64..10_000_000,
            events in proptest::collection::vec(event(), 1..40),
        ) {
            let start = date("2026-01-15");
            let mut stored = Stored { balance, accrued_month: None, charged: Vec::new() };
            let mut latest = None::<YearMonth>;
            for event in &events {
                let through = match *event {
                    Event::Payment(offset) => start.add_days(offset).unwrap().year_month(),
                    Event::Accrual(offset) => start.add_days(offset).unwrap().year_month().previous(),
                };
                for _run in 0..2 {
                    for charge in charges_due(stored.balance, apr, stored.accrued_month, through) {
                        stored.balance += charge.interest;
                        stored.accrued_month = Some(charge.month);
                        stored.charged.push(charge.month);
                    }
                }
                latest = latest.max(Some(through));
            }
            for pair in stored.charged.windows(2) {
                prop_assert_eq!(pair[0].next(), pair[1], "no month twice, no gap");
            }
            prop_assert_eq!(stored.charged.last().copied(), latest);
        }


        /// Any sequence of runs (repeated days, out-of-order days, reruns
        /// from the stored state) charges every month from the first run's
        /// month to the latest run's month exactly once, and nothing else.
        #[test]
        fn each_calendar_month_is_charged_exactly_once(
            apr in 0_i64..5000,
            balance in 0_i64..10_000_000,
            days in proptest::collection::vec(0_i64..1500, 1..40),
        ) {
            let start = date("2026-01-15");
            let mut stored = Stored { balance, accrued_month: None, charged: Vec::new() };
            let mut latest = None::<Date>;
            let first = start.add_days(days[0]).unwrap().year_month();
            for offset in &days {
                let today = start.add_days(*offset).unwrap();
                stored.accrue(apr, today);
                // A restart re-reads the same stored state and runs again.
                let mut restarted = stored.clone();
                restarted.accrue(apr, today);
                prop_assert_eq!(restarted.charged.len(), stored.charged.len());
                latest = latest.max(Some(today));
            }
            let mut expected = Vec::new();
            let mut month = first;
            let last = latest.unwrap().year_month();
            while month <= last {
                expected.push(month);
                month = month.next();
            }
            prop_assert_eq!(stored.charged, expected);
            prop_assert!(stored.balance >= balance);
        }
    }
}
