//! The writes of the Tracker's rows and its drift panel, read from the
//! one form they share (`act` names the write; the other fields are the
//! ones it needs). Reading is a rule of its own, so the server function
//! only sends the write it was given to the service that does it.

use super::bill_month::MonthOverride;
use super::date::Date;
use super::form_field::{amount_minor, date, given, required, whole};
use super::validation::FieldViolation;

/// The Tracker form's fields besides `act` and `bill`, as posted.
#[derive(Clone, Debug, Default)]
pub struct TrackerFields {
    pub occurrence: Option<String>,
    pub amount: Option<String>,
    pub note: Option<String>,
    pub to: Option<String>,
}

/// One write of the Tracker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackerWrite {
    /// Mark paid: `amount_minor`, else the bill's amount, for the row's
    /// due date (`occurrence`, as scheduled) when the form names it.
    Pay {
        amount_minor: Option<i64>,
        occurrence: Option<String>,
    },
    /// A change to one occurrence (its scheduled due date).
    Amend {
        occurrence: String,
        change: OccurrenceChange,
    },
    /// "Update to" the drifted amount.
    AcceptDrift,
    /// Back to the amount before "Update to".
    UndoDrift {
        amount_minor: i64,
    },
    DismissDrift,
    /// The Tracker's order: the due first (`true`) or the bills' own.
    PinDue(bool),
}

/// What one occurrence changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OccurrenceChange {
    Skipped(bool),
    /// Snoozed to a date, or back (`None`).
    SnoozedTo(Option<Date>),
    /// This time's amount (none: the bill's) and a note.
    ThisTime {
        amount_minor: Option<i64>,
        note: Option<String>,
    },
}

impl OccurrenceChange {
    pub fn apply(self, to: &mut MonthOverride) {
        match self {
            Self::Skipped(skipped) => to.skipped = skipped,
            Self::SnoozedTo(date) => to.snoozed_to = date,
            Self::ThisTime { amount_minor, note } => {
                to.amount_minor = amount_minor;
                to.note = note;
            }
        }
    }
}

const MINOR_UNITS: &str = "send the amount in minor units";

impl TrackerWrite {
    /// The write `act` names, with what it needs from `fields`: `pay`
    /// (`amount` in minor units, optional), `skip`, `unskip`, `snooze`
    /// (`to`; empty: back), `this-time` (`amount` as typed, `note`),
    /// `accept-drift`, `undo-drift` (`amount` in minor units),
    /// `dismiss-drift`, `pin-due` and `unpin-due`. The occurrence's writes
    /// need `occurrence`.
    pub fn read(act: &str, fields: TrackerFields) -> Result<Self, FieldViolation> {
        let TrackerFields {
            occurrence,
            amount,
            note,
            to,
        } = fields;
        let amend = |change| {
            Ok(Self::Amend {
                occurrence: required("occurrence", given(occurrence.clone()), "name the due date")?,
                change,
            })
        };
        match act {
            "pay" => Ok(Self::Pay {
                amount_minor: whole("amountMinor", amount, MINOR_UNITS)?,
                occurrence: given(occurrence.clone()),
            }),
            "skip" | "unskip" => amend(OccurrenceChange::Skipped(act == "skip")),
            "snooze" => amend(OccurrenceChange::SnoozedTo(date("snoozedTo", to)?)),
            "this-time" => amend(OccurrenceChange::ThisTime {
                amount_minor: amount_minor("amountMinor", amount)?,
                note,
            }),
            "accept-drift" => Ok(Self::AcceptDrift),
            "undo-drift" => Ok(Self::UndoDrift {
                amount_minor: required(
                    "amountMinor",
                    whole("amountMinor", amount, MINOR_UNITS)?,
                    "send the amount to go back to",
                )?,
            }),
            "dismiss-drift" => Ok(Self::DismissDrift),
            "pin-due" | "unpin-due" => Ok(Self::PinDue(act == "pin-due")),
            _ => Err(FieldViolation::new("act", "not a Tracker action")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(occurrence: Option<&str>, amount: Option<&str>, to: Option<&str>) -> TrackerFields {
        TrackerFields {
            occurrence: occurrence.map(str::to_owned),
            amount: amount.map(str::to_owned),
            note: Some("paid at the desk".into()),
            to: to.map(str::to_owned),
        }
    }

    #[test]
    fn pay_takes_minor_units_or_the_bills_amount() {
        assert_eq!(
            TrackerWrite::read("pay", fields(Some("2026-12-31"), Some("1250"), None)),
            Ok(TrackerWrite::Pay {
                amount_minor: Some(1250),
                occurrence: Some("2026-12-31".into())
            })
        );
        assert_eq!(
            TrackerWrite::read("pay", fields(None, Some(" "), None)),
            Ok(TrackerWrite::Pay {
                amount_minor: None,
                occurrence: None
            })
        );
        assert_eq!(
            TrackerWrite::read("pay", fields(None, Some("12.50"), None)),
            Err(FieldViolation::new("amountMinor", MINOR_UNITS))
        );
    }

    #[test]
    fn an_occurrences_write_needs_its_due_date() {
        assert_eq!(
            TrackerWrite::read("skip", fields(None, None, None)),
            Err(FieldViolation::new("occurrence", "name the due date"))
        );
        assert_eq!(
            TrackerWrite::read("unskip", fields(Some("2026-12-01"), None, None)),
            Ok(TrackerWrite::Amend {
                occurrence: "2026-12-01".into(),
                change: OccurrenceChange::Skipped(false),
            })
        );
    }

    #[test]
    fn snooze_reads_its_date_and_an_empty_one_is_back() {
        let to = Date::parse("2026-12-05").unwrap();
        assert_eq!(
            TrackerWrite::read(
                "snooze",
                fields(Some("2026-12-01"), None, Some("2026-12-05"))
            ),
            Ok(TrackerWrite::Amend {
                occurrence: "2026-12-01".into(),
                change: OccurrenceChange::SnoozedTo(Some(to)),
            })
        );
        assert_eq!(
            TrackerWrite::read("snooze", fields(Some("2026-12-01"), None, Some(""))),
            Ok(TrackerWrite::Amend {
                occurrence: "2026-12-01".into(),
                change: OccurrenceChange::SnoozedTo(None),
            })
        );
        assert_eq!(
            TrackerWrite::read("snooze", fields(Some("2026-12-01"), None, Some("soon")))
                .unwrap_err()
                .field,
            "snoozedTo"
        );
    }

    #[test]
    fn this_time_reads_the_amount_as_typed_with_the_note() {
        let write =
            TrackerWrite::read("this-time", fields(Some("2026-12-01"), Some("12.50"), None));
        let Ok(TrackerWrite::Amend { change, .. }) = write else {
            panic!("not an amendment: {write:?}");
        };
        let mut month = MonthOverride::of(Date::parse("2026-12-01").unwrap());
        change.apply(&mut month);
        assert_eq!(month.amount_minor, Some(1250));
        assert_eq!(month.note.as_deref(), Some("paid at the desk"));
    }

    #[test]
    fn undo_drift_needs_the_amount_to_go_back_to() {
        assert_eq!(
            TrackerWrite::read("undo-drift", fields(None, None, None)),
            Err(FieldViolation::new(
                "amountMinor",
                "send the amount to go back to"
            ))
        );
        assert_eq!(
            TrackerWrite::read("undo-drift", fields(None, Some("900"), None)),
            Ok(TrackerWrite::UndoDrift { amount_minor: 900 })
        );
    }

    #[test]
    fn the_order_and_the_drift_writes_need_nothing_else() {
        let none = || fields(None, None, None);
        assert_eq!(
            TrackerWrite::read("pin-due", none()),
            Ok(TrackerWrite::PinDue(true))
        );
        assert_eq!(
            TrackerWrite::read("unpin-due", none()),
            Ok(TrackerWrite::PinDue(false))
        );
        assert_eq!(
            TrackerWrite::read("accept-drift", none()),
            Ok(TrackerWrite::AcceptDrift)
        );
        assert_eq!(
            TrackerWrite::read("dismiss-drift", none()),
            Ok(TrackerWrite::DismissDrift)
        );
        assert_eq!(
            TrackerWrite::read("fly", none()),
            Err(FieldViolation::new("act", "not a Tracker action"))
        );
    }
}
