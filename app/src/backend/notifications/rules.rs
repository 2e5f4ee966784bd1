//! Pure decisions of reminders: which events a user has today, when a
//! failed send is tried again, and what a message id is. The store gathers
//! the facts; nothing here reads the clock or the database.

use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::contract::drift::DriftingBill;
use crate::domain::date::Date;
use crate::domain::money::{Currency, Locale, Money};
use crate::domain::notification::{Event, STALE_DAYS};
use crate::domain::tracker::Status;

/// What a user chose, as the rules need it.
#[derive(Clone, Debug)]
pub struct Choices {
    pub lead_days: i64,
    pub include_verified_autopay: bool,
    pub overdue_repeat_days: Option<i64>,
    /// The day the first channel was added: what was overdue by
    /// `STALE_DAYS` or more then is history, summed up once.
    pub started_on: Date,
}

/// One occurrence of an active bill, as the Tracker decided its status.
#[derive(Clone, Debug)]
pub struct Occurrence {
    pub bill_id: i64,
    pub name: String,
    /// When it is due: a snoozed occurrence's new date.
    pub due: Date,
    /// Its scheduled date (the calendar's stable `UID`).
    pub scheduled: Date,
    pub status: Status,
    /// This time's amount.
    pub amount_minor: i64,
    pub currency: String,
    pub autopay: bool,
    /// The bank has confirmed this bill's autopay before.
    pub autopay_verified: bool,
}

/// A payment bank sync flagged as a failed or returned autopay debit, or
/// one charged at another amount than the bill's.
#[derive(Clone, Debug)]
pub struct PaymentFact {
    pub payment_id: i64,
    pub name: String,
    pub paid_on: Date,
    pub amount_minor: i64,
    pub expected_minor: i64,
    pub currency: String,
}

/// Something a user is told once, keyed as the delivery log keys it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub event: Event,
    /// `bill`, `payment`, `connection` or `summary`.
    pub subject: &'static str,
    pub subject_id: i64,
    pub occurrence: String,
    /// The message's line for it.
    pub line: String,
}

/// How a person reads an amount in their locale.
pub fn amount(minor: i64, currency: &str, locale: &str) -> String {
    Money::new(minor, Currency::parse(currency).unwrap_or(Currency::USD))
        .format(Locale::parse(locale))
}

fn days_word(days: i64) -> String {
    match days {
        0 => "today".into(),
        1 => "tomorrow".into(),
        n => format!("in {n} days"),
    }
}

/// How many days before reminders started the summary of what was
/// already overdue then reaches back: older unpaid due dates are neither
/// read nor counted.
pub const SUMMARY_DAYS: i64 = 90;

/// Whether the summary of what was overdue when reminders started may
/// still be told today: the first week, as long as any event stays fresh
/// (`STALE_DAYS`). Later it would be news of nothing new.
fn summary_is_live(today: Date, started_on: Date) -> bool {
    today.days_since_epoch() - started_on.days_since_epoch() < STALE_DAYS
}

/// Whether an occurrence was already past the overdue window when
/// reminders started, so it belongs to the summary. One still within it
/// is told like any other overdue bill, with its amount and due date.
/// Counted from the day reminders started, not from today, so that an
/// occurrence listed in the first digest never turns up in the summary
/// days later.
fn summarised(occurrence: &Occurrence, started_on: Date) -> bool {
    started_on.days_since_epoch() - occurrence.due.days_since_epoch() >= STALE_DAYS
}

/// The first due date a run reads for a user: far enough back for every
/// overdue reminder (and its second one) that can still be sent, and,
/// while the summary can still be told, the `SUMMARY_DAYS` before
/// reminders started.
pub fn first_due_read(today: Date, choices: &Choices) -> Date {
    let back = STALE_DAYS + 1 + choices.overdue_repeat_days.unwrap_or(0);
    let reminders = today.add_days(-back).unwrap_or(today);
    if !summary_is_live(today, choices.started_on) {
        return reminders;
    }
    let summary = choices
        .started_on
        .add_days(-SUMMARY_DAYS)
        .unwrap_or(choices.started_on);
    reminders.min(summary)
}

/// Today's bill events for one user: due soon, overdue (and its second
/// reminder). What was already overdue when reminders started is told
/// like the rest while it is within the overdue window; what was older
/// then is summed up in one line instead of replayed.
pub fn bill_events(
    today: Date,
    choices: &Choices,
    occurrences: &[Occurrence],
    locale: &str,
) -> Vec<Found> {
    let mut found = Vec::new();
    let mut history: Vec<&Occurrence> = Vec::new();
    for occurrence in occurrences {
        if matches!(occurrence.status, Status::Paid | Status::Skipped) {
            continue;
        }
        if occurrence.autopay_verified && !choices.include_verified_autopay {
            continue;
        }
        let days_left = occurrence.due.days_since_epoch() - today.days_since_epoch();
        let money = amount(occurrence.amount_minor, &occurrence.currency, locale);
        let autopay = if occurrence.autopay {
            " · autopay"
        } else {
            ""
        };
        if (0..=choices.lead_days).contains(&days_left) {
            found.push(Found {
                event: Event::DueSoon,
                subject: "bill",
                subject_id: occurrence.bill_id,
                occurrence: occurrence.due.to_string(),
                line: format!(
                    "{}: {money} due {} ({}){autopay}",
                    occurrence.name,
                    occurrence.due,
                    days_word(days_left)
                ),
            });
            continue;
        }
        let late = -days_left;
        if late < 1 {
            continue;
        }
        if summarised(occurrence, choices.started_on) {
            history.push(occurrence);
            continue;
        }
        let line = |late: i64| {
            format!(
                "{}: {money} was due {} ({late} day{} ago){autopay}",
                occurrence.name,
                occurrence.due,
                if late == 1 { "" } else { "s" }
            )
        };
        if late < STALE_DAYS {
            found.push(Found {
                event: Event::Overdue,
                subject: "bill",
                subject_id: occurrence.bill_id,
                occurrence: occurrence.due.to_string(),
                line: line(late),
            });
        }
        if let Some(repeat) = choices.overdue_repeat_days {
            let second = late - 1 - repeat;
            if (0..STALE_DAYS).contains(&second) {
                found.push(Found {
                    event: Event::Overdue,
                    subject: "bill",
                    subject_id: occurrence.bill_id,
                    occurrence: format!("{}#2", occurrence.due),
                    line: format!("Still unpaid: {}", line(late)),
                });
            }
        }
    }
    if !history.is_empty() && summary_is_live(today, choices.started_on) {
        // Each bill once, in the order first met: a monthly bill unpaid
        // for three months is three payments of one name.
        let mut names: Vec<&str> = Vec::new();
        for occurrence in &history {
            if !names.contains(&occurrence.name.as_str()) {
                names.push(&occurrence.name);
            }
        }
        found.push(Found {
            event: Event::Overdue,
            subject: "summary",
            subject_id: 0,
            occurrence: choices.started_on.to_string(),
            line: format!(
                "{} payment{} already {STALE_DAYS} days or more overdue when reminders started: {}",
                history.len(),
                if history.len() == 1 { " was" } else { "s were" },
                names.join(", ")
            ),
        });
    }
    found
}

/// Failed autopay debits still fresh today.
pub fn autopay_events(today: Date, failures: &[PaymentFact], locale: &str) -> Vec<Found> {
    failures
        .iter()
        .filter(|fact| today.days_since_epoch() - fact.paid_on.days_since_epoch() < STALE_DAYS)
        .map(|fact| Found {
            event: Event::AutopayFailed,
            subject: "payment",
            subject_id: fact.payment_id,
            occurrence: fact.paid_on.to_string(),
            line: format!(
                "{}: the autopay debit of {} on {} failed or was returned; pay it another way",
                fact.name,
                amount(fact.expected_minor, &fact.currency, locale),
                fact.paid_on
            ),
        })
        .collect()
}

/// Bank-matched payments at another amount than the bill's.
pub fn price_events(today: Date, charged: &[PaymentFact], locale: &str) -> Vec<Found> {
    charged
        .iter()
        .filter(|fact| fact.amount_minor != fact.expected_minor)
        .filter(|fact| today.days_since_epoch() - fact.paid_on.days_since_epoch() < STALE_DAYS)
        .map(|fact| Found {
            event: Event::PriceChanged,
            subject: "payment",
            subject_id: fact.payment_id,
            occurrence: fact.paid_on.to_string(),
            line: format!(
                "{}: charged {} on {}, {} expected",
                fact.name,
                amount(fact.amount_minor, &fact.currency, locale),
                fact.paid_on,
                amount(fact.expected_minor, &fact.currency, locale)
            ),
        })
        .collect()
}

/// Bills whose charges drifted (the Tracker's rule): one event per bill
/// and drift, so the same drift is told once and a further move again.
pub fn drift_events(drifts: &[DriftingBill], locale: &str) -> Vec<Found> {
    drifts
        .iter()
        .map(|bill| Found {
            event: Event::PriceChanged,
            subject: "bill",
            subject_id: bill.bill_id,
            occurrence: format!("drift:{}", bill.median_minor),
            line: format!(
                "{}: charged about {} lately, {} expected",
                bill.name,
                amount(bill.median_minor, &bill.currency, locale),
                amount(bill.expected_minor, &bill.currency, locale)
            ),
        })
        .collect()
}

/// A bank connection as reminders see it.
#[derive(Clone, Debug)]
pub struct ConnectionFact {
    pub id: i64,
    pub institution: String,
    pub failing: bool,
    /// When the run of failures reminders know of began.
    pub failing_since: Option<String>,
}

/// What changed for a connection since the last run: it started failing
/// (`Some(now)` to record) or recovered (`None` to record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionChange {
    pub id: i64,
    pub failing_since: Option<String>,
}

/// One `bank_sync_failed` per run of failures, one `bank_sync_recovered`
/// when it ends; a connection failing again starts a new run.
pub fn connection_events(
    connections: &[ConnectionFact],
    now: &str,
) -> (Vec<Found>, Vec<ConnectionChange>) {
    let mut found = Vec::new();
    let mut changes = Vec::new();
    for connection in connections {
        let name = if connection.institution.is_empty() {
            "A bank connection".to_owned()
        } else {
            connection.institution.clone()
        };
        match (&connection.failing_since, connection.failing) {
            (None, true) => {
                found.push(Found {
                    event: Event::BankSyncFailed,
                    subject: "connection",
                    subject_id: connection.id,
                    occurrence: now.to_owned(),
                    line: format!(
                        "{name}: bank sync stopped working; open Data → Bank Sync to reconnect"
                    ),
                });
                changes.push(ConnectionChange {
                    id: connection.id,
                    failing_since: Some(now.to_owned()),
                });
            }
            (Some(since), true) => found.push(Found {
                event: Event::BankSyncFailed,
                subject: "connection",
                subject_id: connection.id,
                occurrence: since.clone(),
                line: format!(
                    "{name}: bank sync stopped working; open Data → Bank Sync to reconnect"
                ),
            }),
            (Some(since), false) => {
                found.push(Found {
                    event: Event::BankSyncRecovered,
                    subject: "connection",
                    subject_id: connection.id,
                    occurrence: since.clone(),
                    line: format!("{name}: bank sync works again"),
                });
                changes.push(ConnectionChange {
                    id: connection.id,
                    failing_since: None,
                });
            }
            (None, false) => {}
        }
    }
    (found, changes)
}

/// How many times one message is tried within a run, and the waits.
pub const ATTEMPTS: u32 = 3;
const WAITS: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(4)];
/// The longest `Retry-After` honoured within a run; a longer one waits
/// for the next run.
pub const RETRY_AFTER_MAX: Duration = Duration::from_secs(30);

/// What an attempt came to, as the retry rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttemptFailure {
    /// The HTTP (or SMTP reply) status, when the server answered.
    pub status: Option<u16>,
    pub retry_after: Option<Duration>,
    /// A refusal that no retry can change (a guard refusal, a bad setting).
    pub permanent: bool,
}

/// The wait before attempt `made + 1`, or `None` when the run gives up on
/// it: after three attempts, on a 4xx other than 429, on a 429 whose
/// `Retry-After` is missing or too long.
pub fn retry_after(made: u32, failure: AttemptFailure) -> Option<Duration> {
    if made >= ATTEMPTS || failure.permanent {
        return None;
    }
    match failure.status {
        Some(429) => failure.retry_after.filter(|wait| *wait <= RETRY_AFTER_MAX),
        Some(status) if (400..500).contains(&status) => None,
        _ => WAITS
            .get(usize::try_from(made.saturating_sub(1)).ok()?)
            .copied(),
    }
}

/// A message's stable id: the same delivery rows give the same id, so a
/// message sent again after a crash can be dropped by its receiver.
pub fn message_id(channel_id: i64, delivery_ids: &[i64]) -> String {
    let mut ids = delivery_ids.to_vec();
    ids.sort_unstable();
    let mut hash = Sha256::new();
    hash.update(channel_id.to_be_bytes());
    for id in ids {
        hash.update(id.to_be_bytes());
    }
    let digest = hash.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> Date {
        Date::parse(text).unwrap()
    }

    fn occurrence(id: i64, due: &str, status: Status) -> Occurrence {
        Occurrence {
            bill_id: id,
            name: format!("Bill {id}"),
            due: date(due),
            scheduled: date(due),
            status,
            amount_minor: 12_345,
            currency: "USD".into(),
            autopay: false,
            autopay_verified: false,
        }
    }

    fn choices() -> Choices {
        Choices {
            lead_days: 3,
            include_verified_autopay: false,
            overdue_repeat_days: None,
            started_on: date("2026-11-01"),
        }
    }

    #[test]
    fn due_soon_within_the_lead_time_and_overdue_the_day_after() {
        let today = date("2026-11-20");
        let found = bill_events(
            today,
            &choices(),
            &[
                occurrence(1, "2026-11-23", Status::DueSoon),
                occurrence(2, "2026-11-24", Status::DueSoon),
                occurrence(3, "2026-11-19", Status::Overdue),
                occurrence(4, "2026-11-13", Status::Overdue),
                occurrence(5, "2026-11-21", Status::Paid),
            ],
            "en-US",
        );
        let keys: Vec<(Event, i64)> = found.iter().map(|f| (f.event, f.subject_id)).collect();
        assert_eq!(keys, [(Event::DueSoon, 1), (Event::Overdue, 3)]);
        assert_eq!(found[0].line, "Bill 1: $123.45 due 2026-11-23 (in 3 days)");
        assert_eq!(
            found[1].line,
            "Bill 3: $123.45 was due 2026-11-19 (1 day ago)"
        );
    }

    #[test]
    fn verified_autopay_is_left_out_unless_asked_for() {
        let today = date("2026-11-20");
        let mut verified = occurrence(1, "2026-11-21", Status::DueSoon);
        verified.autopay = true;
        verified.autopay_verified = true;
        assert!(bill_events(today, &choices(), &[verified.clone()], "en-US").is_empty());
        let mut asked = choices();
        asked.include_verified_autopay = true;
        let found = bill_events(today, &asked, &[verified], "en-US");
        assert!(found[0].line.ends_with("· autopay"));
    }

    #[test]
    fn what_was_overdue_a_week_or_more_before_reminders_started_is_one_summary_line() {
        let today = date("2026-11-03");
        let found = bill_events(
            today,
            &choices(),
            &[
                occurrence(1, "2026-10-20", Status::Overdue),
                occurrence(2, "2026-10-25", Status::Overdue),
                occurrence(3, "2026-11-02", Status::Overdue),
            ],
            "en-US",
        );
        let keys: Vec<(&str, i64)> = found.iter().map(|f| (f.subject, f.subject_id)).collect();
        assert_eq!(keys, [("bill", 3), ("summary", 0)]);
        assert_eq!(found[1].event, Event::Overdue);
        assert_eq!(found[1].occurrence, "2026-11-01");
        assert_eq!(
            found[1].line,
            "2 payments were already 7 days or more overdue when reminders started: Bill 1, Bill 2"
        );
    }

    #[test]
    fn an_occurrence_overdue_within_the_window_when_reminders_started_is_listed_with_its_amount() {
        // Reminders started on the 1st; the first run is the next day.
        let found = bill_events(
            date("2026-11-02"),
            &choices(),
            &[
                occurrence(1, "2026-10-20", Status::Overdue),
                occurrence(2, "2026-10-28", Status::Overdue),
            ],
            "en-US",
        );
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            (found[0].event, found[0].subject, found[0].subject_id),
            (Event::Overdue, "bill", 2)
        );
        assert_eq!(found[0].occurrence, "2026-10-28");
        assert_eq!(
            found[0].line,
            "Bill 2: $123.45 was due 2026-10-28 (5 days ago)"
        );
        assert_eq!(found[1].subject, "summary");
        assert!(
            found[1].line.starts_with("1 payment was already"),
            "{}",
            found[1].line
        );
        assert!(found[1].line.ends_with(": Bill 1"), "{}", found[1].line);

        // Two days on it is past the window, and still not in the summary:
        // the first digest told it already.
        let later = bill_events(
            date("2026-11-04"),
            &choices(),
            &[occurrence(2, "2026-10-28", Status::Overdue)],
            "en-US",
        );
        assert!(later.is_empty(), "{later:?}");
    }

    #[test]
    fn the_summary_names_each_bill_once_and_is_told_only_in_the_first_week() {
        let mut rent = occurrence(1, "2026-09-15", Status::Overdue);
        rent.name = "Rent".into();
        let mut rent_again = occurrence(1, "2026-10-15", Status::Overdue);
        rent_again.name = "Rent".into();
        let mut power = occurrence(2, "2026-10-01", Status::Overdue);
        power.name = "Power".into();
        let all = [rent, power, rent_again];
        let found = bill_events(date("2026-11-07"), &choices(), &all, "en-US");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].line,
            "3 payments were already 7 days or more overdue when reminders started: Rent, Power"
        );
        let after_the_week = bill_events(date("2026-11-08"), &choices(), &all, "en-US");
        assert!(after_the_week.is_empty(), "{after_the_week:?}");
    }

    #[test]
    fn a_run_reads_back_to_the_summarys_days_only_while_it_can_be_told() {
        let mut chosen = choices();
        // The first week: the 90 days before the 1st of November.
        assert_eq!(
            first_due_read(date("2026-11-02"), &chosen),
            date("2026-08-03")
        );
        // Then only what reminders can still send: 7 days and one more.
        assert_eq!(
            first_due_read(date("2026-11-08"), &chosen),
            date("2026-10-31")
        );
        chosen.overdue_repeat_days = Some(3);
        assert_eq!(
            first_due_read(date("2026-11-20"), &chosen),
            date("2026-11-09")
        );
    }

    #[test]
    fn a_second_overdue_reminder_comes_after_the_chosen_days() {
        let mut chosen = choices();
        chosen.overdue_repeat_days = Some(3);
        let due = occurrence(1, "2026-11-10", Status::Overdue);
        let on = |day: &str| bill_events(date(day), &chosen, std::slice::from_ref(&due), "en-US");
        assert_eq!(on("2026-11-11").len(), 1);
        let fourth = on("2026-11-14");
        assert_eq!(fourth.len(), 2);
        assert_eq!(fourth[1].occurrence, "2026-11-10#2");
    }

    #[test]
    fn a_connection_fails_once_per_run_of_failures_then_recovers() {
        let failing = ConnectionFact {
            id: 7,
            institution: "First Bank".into(),
            failing: true,
            failing_since: None,
        };
        let (found, changes) =
            connection_events(std::slice::from_ref(&failing), "2026-11-20T06:00:00Z");
        assert_eq!(found[0].event, Event::BankSyncFailed);
        assert_eq!(
            changes[0].failing_since.as_deref(),
            Some("2026-11-20T06:00:00Z")
        );
        let still = ConnectionFact {
            failing_since: Some("2026-11-20T06:00:00Z".into()),
            ..failing.clone()
        };
        let (found, changes) =
            connection_events(std::slice::from_ref(&still), "2026-11-21T06:00:00Z");
        assert_eq!(found[0].occurrence, "2026-11-20T06:00:00Z", "the same key");
        assert!(changes.is_empty());
        let back = ConnectionFact {
            failing: false,
            ..still
        };
        let (found, changes) = connection_events(&[back], "2026-11-22T06:00:00Z");
        assert_eq!(found[0].event, Event::BankSyncRecovered);
        assert_eq!(changes[0].failing_since, None);
    }

    #[test]
    fn retries_wait_one_then_four_seconds_and_skip_client_errors_but_429() {
        let server = AttemptFailure {
            status: Some(503),
            retry_after: None,
            permanent: false,
        };
        assert_eq!(retry_after(1, server), Some(Duration::from_secs(1)));
        assert_eq!(retry_after(2, server), Some(Duration::from_secs(4)));
        assert_eq!(retry_after(3, server), None);
        let client = AttemptFailure {
            status: Some(404),
            ..server
        };
        assert_eq!(retry_after(1, client), None);
        let slow_down = AttemptFailure {
            status: Some(429),
            retry_after: Some(Duration::from_secs(2)),
            permanent: false,
        };
        assert_eq!(retry_after(1, slow_down), Some(Duration::from_secs(2)));
        let no_hint = AttemptFailure {
            retry_after: None,
            ..slow_down
        };
        assert_eq!(retry_after(1, no_hint), None);
        let unreachable = AttemptFailure {
            status: None,
            retry_after: None,
            permanent: false,
        };
        assert_eq!(retry_after(1, unreachable), Some(Duration::from_secs(1)));
    }

    #[test]
    fn the_message_id_is_the_same_for_the_same_rows_in_any_order() {
        assert_eq!(message_id(1, &[3, 1, 2]), message_id(1, &[1, 2, 3]));
        assert_ne!(message_id(1, &[1, 2]), message_id(2, &[1, 2]));
        assert_eq!(message_id(1, &[1]).len(), 32);
    }
}
