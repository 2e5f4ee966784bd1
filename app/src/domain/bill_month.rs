//! Per-month overrides: for one bill's one due date (an occurrence, named
//! by its scheduled date), an amount for that time only, a skip, a snooze
//! to a later date, and a note. The rules of what may be set; the Tracker
//! applies them ([`crate::domain::tracker::period_view`]).

use super::cadence::Cadence;
use super::date::{Date, YearMonth};
use super::validation::FieldViolation;

/// A snooze moves a due date at most this many days later.
pub const SNOOZE_MAX_DAYS: i64 = 31;
/// The longest note, in characters.
pub const NOTE_MAX: usize = 500;
/// The largest amount an override may set (as a bill's).
pub const AMOUNT_MAX: i64 = 100_000_000_000;

/// What one occurrence has of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonthOverride {
    /// The occurrence's scheduled due date.
    pub occurrence: Date,
    pub amount_minor: Option<i64>,
    pub skipped: bool,
    pub snoozed_to: Option<Date>,
    pub note: Option<String>,
}

impl MonthOverride {
    /// Nothing of its own yet.
    pub fn of(occurrence: Date) -> Self {
        Self {
            occurrence,
            amount_minor: None,
            skipped: false,
            snoozed_to: None,
            note: None,
        }
    }

    /// Whether it changes nothing (then it is not kept).
    pub fn is_empty(&self) -> bool {
        self.amount_minor.is_none()
            && !self.skipped
            && self.snoozed_to.is_none()
            && self.note.is_none()
    }
}

fn violation(field: &str, description: impl Into<String>) -> FieldViolation {
    FieldViolation {
        field: field.to_owned(),
        description: description.into(),
    }
}

/// Checks an override of `occurrence`: every field at fault, named as on
/// the wire. A note is trimmed; an empty one is none.
pub fn check(mut change: MonthOverride) -> Result<MonthOverride, Vec<FieldViolation>> {
    let mut faults = Vec::new();
    if let Some(amount) = change.amount_minor {
        if !(0..=AMOUNT_MAX).contains(&amount) {
            faults.push(violation(
                "amountMinor",
                "enter an amount from 0 up to 1,000,000,000.00",
            ));
        }
    }
    if let Some(to) = change.snoozed_to {
        let days = to.days_since_epoch() - change.occurrence.days_since_epoch();
        if days <= 0 {
            faults.push(violation(
                "snoozedTo",
                format!("choose a date after {}", change.occurrence),
            ));
        } else if days > SNOOZE_MAX_DAYS {
            faults.push(violation(
                "snoozedTo",
                format!(
                    "snooze at most {SNOOZE_MAX_DAYS} days, to {} at the latest",
                    change
                        .occurrence
                        .add_days(SNOOZE_MAX_DAYS)
                        .map(|d| d.to_string())
                        .unwrap_or_default()
                ),
            ));
        }
    }
    change.note = change
        .note
        .map(|note| note.trim().to_owned())
        .filter(|note| !note.is_empty());
    if change
        .note
        .as_ref()
        .is_some_and(|note| note.chars().count() > NOTE_MAX)
    {
        faults.push(violation(
            "note",
            format!("keep the note to {NOTE_MAX} characters"),
        ));
    }
    if faults.is_empty() {
        Ok(change)
    } else {
        Err(faults)
    }
}

/// The occurrence an address names: `month` (`2026-11`) for a bill due
/// at most once a month, and `occurrence` (a date in that month) for one
/// due more often. `None` when the bill is not due then.
pub fn occurrence_in(
    cadence: Cadence,
    anchor: Date,
    due_day: u8,
    month: YearMonth,
    occurrence: Option<Date>,
) -> Result<Date, FieldViolation> {
    let first = Date::new(month.year, month.month, 1)
        .ok_or_else(|| violation("month", "use a month like 2026-11"))?;
    let last = month
        .last_day()
        .ok_or_else(|| violation("month", "use a month like 2026-11"))?;
    let mut dues = Vec::new();
    let mut from = first;
    while let Some(due) = cadence.next_due(anchor, due_day, from) {
        if due > last {
            break;
        }
        dues.push(due);
        match due.add_days(1) {
            Some(next) => from = next,
            None => break,
        }
    }
    match occurrence {
        Some(date) if dues.contains(&date) => Ok(date),
        Some(date) => Err(violation(
            "occurrence",
            format!(
                "the bill is not due on {date}; its due dates that month: {}",
                list(&dues)
            ),
        )),
        None => match dues.as_slice() {
            [only] => Ok(*only),
            [] => Err(violation(
                "month",
                format!("the bill is not due in {month}"),
            )),
            _ => Err(violation(
                "occurrence",
                format!(
                    "the bill is due more than once in {month}: name one of {}",
                    list(&dues)
                ),
            )),
        },
    }
}

fn list(dues: &[Date]) -> String {
    if dues.is_empty() {
        return "none".into();
    }
    dues.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    #[test]
    fn a_snooze_is_later_and_within_31_days_and_a_note_is_trimmed() {
        let base = MonthOverride::of(date("2026-11-01"));
        let ok = check(MonthOverride {
            snoozed_to: Some(date("2026-12-02")),
            note: Some("  paid by Sam  ".into()),
            ..base.clone()
        })
        .unwrap();
        assert_eq!(ok.note.as_deref(), Some("paid by Sam"));
        let late = check(MonthOverride {
            snoozed_to: Some(date("2026-12-03")),
            ..base.clone()
        })
        .unwrap_err();
        assert_eq!(late[0].field, "snoozedTo");
        let early = check(MonthOverride {
            snoozed_to: Some(date("2026-11-01")),
            amount_minor: Some(-1),
            ..base.clone()
        })
        .unwrap_err();
        let fields: Vec<&str> = early.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["amountMinor", "snoozedTo"]);
        assert!(check(MonthOverride {
            note: Some("   ".into()),
            ..base
        })
        .unwrap()
        .is_empty());
    }

    #[test]
    fn a_month_names_a_monthly_bills_occurrence_and_a_date_a_weekly_ones() {
        let november = YearMonth {
            year: 2026,
            month: 11,
        };
        assert_eq!(
            occurrence_in(Cadence::Monthly, date("2026-01-31"), 31, november, None).unwrap(),
            date("2026-11-30")
        );
        let weekly = |occurrence| {
            occurrence_in(Cadence::Weekly, date("2026-11-02"), 2, november, occurrence)
        };
        assert_eq!(weekly(None).unwrap_err().field, "occurrence");
        assert_eq!(
            weekly(Some(date("2026-11-09"))).unwrap(),
            date("2026-11-09")
        );
        assert_eq!(
            weekly(Some(date("2026-11-10"))).unwrap_err().field,
            "occurrence"
        );
        let quarterly =
            occurrence_in(Cadence::Quarterly, date("2026-01-15"), 15, november, None).unwrap_err();
        assert_eq!(quarterly.field, "month");
    }
}
