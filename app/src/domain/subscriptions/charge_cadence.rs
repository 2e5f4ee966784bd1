//! How often a merchant charges, from the days of its charges: the median
//! interval picks weekly, biweekly, monthly, quarterly or yearly (each with
//! a tolerance), every interval must fit it (a skipped month, twice the
//! interval, is allowed and counted), and each cadence needs a minimum
//! number of charges.

use crate::domain::cadence::Cadence;
use crate::domain::date::Date;

/// The cadences a subscription can have, with the days between charges
/// they allow and the fewest charges that show them.
const KINDS: &[(Cadence, i64, i64, usize)] = &[
    (Cadence::Weekly, 6, 8, 3),
    (Cadence::Biweekly, 13, 15, 3),
    (Cadence::Monthly, 27, 33, 2),
    (Cadence::Quarterly, 85, 97, 2),
    (Cadence::Yearly, 355, 375, 2),
];

/// What the charges show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detected {
    pub cadence: Cadence,
    pub charges: usize,
    /// Charges the cadence expected but that did not come (a skipped month).
    pub skipped: usize,
}

/// The cadence of charges on `days` (any order; one day counted once), if
/// they have one.
pub fn detect(days: &[Date]) -> Option<Detected> {
    let mut days: Vec<i64> = days.iter().map(|day| day.days_since_epoch()).collect();
    days.sort_unstable();
    days.dedup();
    if days.len() < 2 {
        return None;
    }
    let mut intervals: Vec<i64> = days.windows(2).map(|pair| pair[1] - pair[0]).collect();
    let sorted = {
        let mut copy = intervals.clone();
        copy.sort_unstable();
        copy
    };
    let median = sorted[sorted.len() / 2];
    let &(cadence, low, high, fewest) = KINDS
        .iter()
        .find(|(_, low, high, _)| (*low..=*high).contains(&median))?;
    let mut skipped = 0;
    for interval in &mut intervals {
        if (low..=high).contains(interval) {
            continue;
        }
        // One charge missing in between (a skipped month) still fits.
        if (2 * low..=2 * high).contains(interval) {
            skipped += 1;
            continue;
        }
        return None;
    }
    (days.len() >= fewest && skipped * 3 <= intervals.len()).then_some(Detected {
        cadence,
        charges: days.len(),
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(start: &str, steps: &[i64]) -> Vec<Date> {
        let first = Date::parse(start).unwrap();
        let mut out = vec![first];
        let mut at = first;
        for step in steps {
            at = at.add_days(*step).unwrap();
            out.push(at);
        }
        out
    }

    #[test]
    fn each_cadence_is_told_from_its_intervals() {
        let cases: &[(&[i64], Cadence)] = &[
            (&[7, 7, 7], Cadence::Weekly),
            (&[14, 14], Cadence::Biweekly),
            (&[31, 30, 31], Cadence::Monthly),
            (&[28], Cadence::Monthly),
            (&[91, 92], Cadence::Quarterly),
            (&[365], Cadence::Yearly),
        ];
        for (steps, cadence) in cases {
            let found = detect(&days("2026-01-05", steps)).unwrap();
            assert_eq!(found.cadence, *cadence, "{steps:?}");
            assert_eq!(found.charges, steps.len() + 1);
        }
    }

    #[test]
    fn a_skipped_month_fits_but_irregular_or_too_few_charges_do_not() {
        let skipped = detect(&days("2026-01-15", &[31, 59, 30, 31])).unwrap();
        assert_eq!((skipped.cadence, skipped.skipped), (Cadence::Monthly, 1));
        assert_eq!(detect(&days("2026-01-15", &[3, 20, 9, 40])), None);
        assert_eq!(
            detect(&days("2026-01-15", &[7])),
            None,
            "weekly needs three"
        );
        assert_eq!(detect(&days("2026-01-15", &[])), None);
        let shuffled = {
            let mut d = days("2026-01-15", &[7, 7, 7]);
            d.reverse();
            d
        };
        assert_eq!(detect(&shuffled).unwrap().cadence, Cadence::Weekly);
    }
}
