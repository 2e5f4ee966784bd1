//! Price drift (the replaced application's rule): a bill's recorded
//! payments differ from its expected amount for two or more months in a
//! row, by at least a percentage and at least an amount (5 % and $1 unless
//! the user chose others), against the median of the last three months
//! with a payment. A bank charge is the bank's word for the price: when
//! the latest month's payments include one and differ, that is a drift at
//! once, to the charged amount. Pure; the server gathers the months.

use super::date::YearMonth;

/// When a difference counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Whole percent of the expected amount, 1–100.
    pub percent: i64,
    /// Minor units, at least 1.
    pub min_minor: i64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            percent: 5,
            min_minor: 100,
        }
    }
}

impl Thresholds {
    pub const PERCENT_MAX: i64 = 100;
    pub const MIN_MINOR_MAX: i64 = 1_000_000;

    /// Whether `paid` is far enough from `expected` to count.
    pub fn differs(self, expected: i64, paid: i64) -> bool {
        let gap = i128::from(paid) - i128::from(expected);
        let gap = gap.abs();
        gap >= i128::from(self.min_minor)
            && gap * 100 >= i128::from(self.percent) * i128::from(expected).abs()
    }
}

/// What one month's payments of a bill came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonthPaid {
    pub month: YearMonth,
    pub paid_minor: i64,
    /// Whether a bank charge matched to the bill is among the month's
    /// payments.
    pub charged: bool,
}

/// A bill whose charges moved away from what Tally expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    pub expected_minor: i64,
    /// The median of the months below: what "Update to" offers.
    pub median_minor: i64,
    /// The last (up to) three months with a payment, oldest first.
    pub months: Vec<MonthPaid>,
}

/// The median of `values` (the lower middle's and upper middle's mean,
/// rounded down, for an even count).
fn median(values: &[i64]) -> Option<i64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]).div_euclid(2)),
    }
}

/// The drift of a bill expected to cost `expected` whose months with a
/// payment are `months` (any order; the last three count): `None` unless
/// the latest two both differ the same way and so does their median.
pub fn find(expected: i64, months: &[MonthPaid], thresholds: Thresholds) -> Option<Drift> {
    let mut recent = months.to_vec();
    recent.sort_by_key(|month| month.month);
    let recent: Vec<MonthPaid> = recent.into_iter().rev().take(3).rev().collect();
    let last = *recent.last()?;
    let in_a_row = match recent.as_slice() {
        [.., before, last] => {
            let same_way = (before.paid_minor > expected) == (last.paid_minor > expected);
            same_way
                && thresholds.differs(expected, before.paid_minor)
                && thresholds.differs(expected, last.paid_minor)
        }
        _ => false,
    };
    if in_a_row {
        let paid: Vec<i64> = recent.iter().map(|month| month.paid_minor).collect();
        let median_minor = median(&paid)?;
        if thresholds.differs(expected, median_minor) {
            return Some(Drift {
                expected_minor: expected,
                median_minor,
                months: recent,
            });
        }
    }
    // The bank charged another amount: the new price, seen once.
    (last.charged && thresholds.differs(expected, last.paid_minor)).then_some(Drift {
        expected_minor: expected,
        median_minor: last.paid_minor,
        months: recent,
    })
}

/// Whether a drift dismissed at `dismissed_median` stays dismissed now
/// that the median is `median` (until its time runs out): it does unless
/// the drift moved by another threshold.
pub fn still_dismissed(dismissed_median: i64, median: i64, thresholds: Thresholds) -> bool {
    !thresholds.differs(dismissed_median, median)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn months(paid: &[(u8, i64)]) -> Vec<MonthPaid> {
        paid.iter()
            .map(|(month, paid_minor)| MonthPaid {
                month: YearMonth {
                    year: 2026,
                    month: *month,
                },
                paid_minor: *paid_minor,
                charged: false,
            })
            .collect()
    }

    #[test]
    fn two_months_in_a_row_off_by_5_percent_and_a_dollar_drift_to_the_median() {
        let t = Thresholds::default();
        let found = find(1549, &months(&[(8, 1549), (9, 1799), (10, 1799)]), t).unwrap();
        assert_eq!(found.median_minor, 1799);
        assert_eq!(found.months.len(), 3);
        // Only the latest month differs: not yet.
        assert_eq!(
            find(1549, &months(&[(8, 1549), (9, 1549), (10, 1799)]), t),
            None
        );
        // Exactly at the thresholds: 5 % of $20.00 is $1.00.
        assert!(find(2000, &months(&[(9, 2100), (10, 2100)]), t).is_some());
        assert_eq!(find(2000, &months(&[(9, 2099), (10, 2099)]), t), None);
        // 5 % but under a dollar (a $10 bill charged $10.60) is noise.
        assert_eq!(find(1000, &months(&[(9, 1060), (10, 1060)]), t), None);
        // A dollar but under 5 % (rent) is noise too.
        assert_eq!(
            find(150_000, &months(&[(9, 150_500), (10, 150_500)]), t),
            None
        );
        // Up then down is not a drift.
        assert_eq!(find(5000, &months(&[(9, 6000), (10, 4000)]), t), None);
    }

    #[test]
    fn fewer_than_three_months_and_the_oldest_months_left_out() {
        let t = Thresholds::default();
        assert_eq!(find(1000, &months(&[(10, 2000)]), t), None);
        assert_eq!(find(1000, &[], t), None);
        let two = find(1000, &months(&[(9, 1200), (10, 1300)]), t).unwrap();
        assert_eq!(two.median_minor, 1250);
        // Only the last three months with a payment count, in any order.
        let four = find(
            1000,
            &months(&[(10, 1300), (2, 9000), (9, 1200), (8, 1250)]),
            t,
        )
        .unwrap();
        assert_eq!(four.months.first().map(|m| m.month.month), Some(8));
        assert_eq!(four.median_minor, 1250);
    }

    #[test]
    fn a_bank_charge_at_another_amount_is_a_drift_at_once_to_the_charged_amount() {
        let t = Thresholds::default();
        let charged = |paid: &[(u8, i64)]| {
            let mut all = months(paid);
            if let Some(last) = all.last_mut() {
                last.charged = true;
            }
            all
        };
        // Netflix at $15.49, the bank charged $17.99 this month.
        let found = find(1549, &charged(&[(9, 1549), (10, 1549), (11, 1799)]), t).unwrap();
        assert_eq!(found.median_minor, 1799);
        assert_eq!(found.months.len(), 3);
        // The first charge ever is enough.
        assert_eq!(
            find(1549, &charged(&[(11, 1799)]), t).map(|d| d.median_minor),
            Some(1799)
        );
        // At the expected amount, or within the thresholds: no drift.
        assert_eq!(find(1549, &charged(&[(10, 1799), (11, 1549)]), t), None);
        assert_eq!(find(2000, &charged(&[(11, 2099)]), t), None);
        // A charge in an older month only is not the latest word.
        let mut older = months(&[(10, 1799), (11, 1549)]);
        older[0].charged = true;
        assert_eq!(find(1549, &older, t), None);
        // Two months in a row still drift to their median.
        let found = find(1000, &charged(&[(9, 1200), (10, 1300)]), t).unwrap();
        assert_eq!(found.median_minor, 1250);
    }

    #[test]
    fn a_dismissal_lasts_until_the_drift_moves_by_another_threshold() {
        let t = Thresholds::default();
        assert!(still_dismissed(1799, 1799, t));
        assert!(still_dismissed(1799, 1850, t));
        assert!(!still_dismissed(1799, 1999, t));
    }

    #[test]
    fn chosen_thresholds_apply() {
        let loose = Thresholds {
            percent: 1,
            min_minor: 1,
        };
        assert!(find(150_000, &months(&[(9, 151_600), (10, 151_600)]), loose).is_some());
    }
}
