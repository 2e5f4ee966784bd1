//! `notifications_run`: the daily run (and "run now") as an operation.
//! For each user with a channel: find today's events, record each once per
//! channel in the delivery log, let go of what went stale, and send what is
//! open (one digest per channel, or one message per event), with progress
//! per user and the counts in the result.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;
use sqlx::SqlitePool;

use super::deliver::{self, Claimed};
use super::notifier::Notifier;
use super::rules::{self, Choices, Occurrence};
use super::store;
use super::transport::MailServer;
use crate::backend::operations::messages::{
    Message, NotificationsRunMetadata, NotificationsRunResponse,
};
use crate::backend::operations::{percent, Engine, Job, JobContext, Running, Status};
use crate::domain::date::Date;
use crate::domain::notification::{Event, STALE_DAYS};
use crate::domain::operation_kind::OperationKind;
use crate::domain::tracker;

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    pub users: i64,
    /// Messages that went out.
    pub sent: i64,
    /// Messages every attempt of which failed (tried again next run).
    pub failed: i64,
    /// Events left alone: stale, or held by another run.
    pub skipped: i64,
}

/// The bill occurrences from `first` through `last`, each with the status
/// the Tracker gives it in its own month.
pub(super) async fn occurrences(
    pool: &SqlitePool,
    user: i64,
    today: Date,
    first: Date,
    last: Date,
) -> Result<Vec<Occurrence>, sqlx::Error> {
    let bills = crate::backend::bills::list(pool, user).await?;
    let mut found = Vec::new();
    let mut month = tracker::month_bounds(first);
    loop {
        let tracked =
            crate::backend::bills::views::tracked_in(pool, user, &bills, month.0, month.1).await?;
        let (entries, _) = tracker::period_view(today, month, &tracked);
        for entry in entries {
            let Ok(due) = Date::parse(&entry.due) else {
                continue;
            };
            if due < first || due > last {
                continue;
            }
            let Some(bill) = bills.iter().find(|bill| bill.id == entry.bill_id) else {
                continue;
            };
            found.push(Occurrence {
                bill_id: bill.id,
                name: bill.name.clone(),
                due,
                scheduled: entry
                    .snoozed_from
                    .as_deref()
                    .and_then(|from| Date::parse(from).ok())
                    .unwrap_or(due),
                status: entry.status,
                amount_minor: entry.amount_minor,
                currency: bill.currency.clone(),
                autopay: bill.autopay,
                autopay_verified: bill.autopay && bill.autopay_verified_at.is_some(),
            });
        }
        let Some(next) = month.1.add_days(1) else {
            break;
        };
        if next > last {
            break;
        }
        month = tracker::month_bounds(next);
    }
    Ok(found)
}

/// Records today's events for one user, marks what went stale, and sends.
async fn run_user(
    notifier: &Notifier,
    pool: &SqlitePool,
    mail: Option<&MailServer>,
    user: i64,
    email: &str,
    counts: &mut RunCounts,
) -> Result<(), sqlx::Error> {
    let today = crate::backend::bills::today_for(pool, user).await?;
    let (preferences, started_on) = store::preferences(pool, user).await?;
    let choices = Choices {
        lead_days: preferences.lead_days,
        include_verified_autopay: preferences.include_verified_autopay,
        overdue_repeat_days: preferences.overdue_repeat_days,
        started_on: started_on.unwrap_or(today),
    };
    let (locale, _) = crate::backend::preferences::locale_and_currency(pool, user).await?;
    let first = rules::first_due_read(today, &choices);
    let last = today.add_days(choices.lead_days).unwrap_or(today);
    let mut found = rules::bill_events(
        today,
        &choices,
        &occurrences(pool, user, today, first, last).await?,
        &locale,
    );
    let since = today.add_days(-STALE_DAYS).unwrap_or(today);
    let (failed_autopay, charged) = store::payment_facts(pool, user, since).await?;
    found.extend(rules::autopay_events(today, &failed_autopay, &locale));
    found.extend(rules::price_events(today, &charged, &locale));
    found.extend(rules::drift_events(
        &crate::backend::drift::service::drifting(pool, user).await?,
        &locale,
    ));
    let now = jiff::Timestamp::now().to_string();
    let (connection_found, changes) =
        rules::connection_events(&store::connection_facts(pool, user).await?, &now);
    found.extend(connection_found);

    let channels: Vec<_> = store::channels(pool, user)
        .await?
        .into_iter()
        .filter(|channel| channel.confirmed_at.is_some())
        .collect();
    let mut tx = crate::backend::db::write(pool).await?;
    for channel in &channels {
        for event in found.iter().filter(|event| channel.takes(event.event)) {
            store::record_found(&mut tx, user, channel.id, event).await?;
        }
    }
    for change in &changes {
        store::set_failing_since(&mut tx, change.id, change.failing_since.as_deref()).await?;
    }
    tx.commit().await?;

    let current: HashSet<(String, String, i64, String)> = found
        .iter()
        .map(|event| {
            (
                event.event.name().to_owned(),
                event.subject.to_owned(),
                event.subject_id,
                event.occurrence.clone(),
            )
        })
        .collect();
    let stale_before = jiff::Timestamp::now()
        .checked_sub(jiff::SignedDuration::from_hours(24 * STALE_DAYS))
        .map(|at| at.to_string())
        .unwrap_or_default();
    for channel in &channels {
        let open = store::open_rows(pool, channel.id).await?;
        let (live, stale): (Vec<_>, Vec<_>) = open
            .into_iter()
            .partition(|row| current.contains(&row.key()) && row.created_at >= stale_before);
        counts.skipped += i64::try_from(stale.len()).unwrap_or(0);
        store::mark_stale(pool, &stale.iter().map(|row| row.id).collect::<Vec<_>>()).await?;
        let held = store::claim(pool, &live.iter().map(|row| row.id).collect::<Vec<_>>()).await?;
        counts.skipped += i64::try_from(live.len() - held.len()).unwrap_or(0);
        let claimed: Vec<Claimed> = live
            .into_iter()
            .filter(|row| held.contains(&row.id))
            .map(|row| Claimed {
                id: row.id,
                event: Event::parse(&row.event),
                line: row.line,
            })
            .collect();
        if claimed.is_empty() {
            continue;
        }
        let groups: Vec<Vec<Claimed>> = if preferences.digest {
            vec![claimed]
        } else {
            claimed.into_iter().map(|row| vec![row]).collect()
        };
        for group in groups {
            match deliver::send_rows(notifier, pool, channel, &group, email, mail).await? {
                Ok(()) => counts.sent += 1,
                Err(_) => counts.failed += 1,
            }
        }
    }
    Ok(())
}

/// Progress of a run, user by user.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub users_total: i64,
    pub users_done: i64,
    pub counts: RunCounts,
}

/// The `notifications_run` operation's work: [`run_user`] for each user
/// with a channel, progress sent on `progress`, the run recorded for Admin
/// as `operation`. Stops between users once `cancelled()`.
pub async fn run_operation(
    notifier: &Notifier,
    pool: &SqlitePool,
    operation: &str,
    progress: &tokio::sync::watch::Sender<Progress>,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<RunCounts, sqlx::Error> {
    let day = crate::backend::clock::now()
        .to_zoned(jiff::tz::TimeZone::system())
        .date()
        .to_string();
    let run_id = store::start_run(pool, &day, operation).await?;
    let users = store::users_with_channels(pool).await?;
    let total = i64::try_from(users.len()).unwrap_or(i64::MAX);
    // Read once a run, not once a user.
    let mail = notifier.mail_server(pool).await?;
    let mut counts = RunCounts::default();
    let mut last_error = None;
    progress.send_replace(Progress {
        users_total: total,
        ..Progress::default()
    });
    for (done, (user, email)) in users.iter().enumerate() {
        if cancelled() {
            break;
        }
        if let Err(error) = run_user(notifier, pool, mail.as_ref(), *user, email, &mut counts).await
        {
            tracing::error!(user, %error, "reminders for one user failed; the run goes on");
            last_error = Some(error.to_string());
            counts.failed += 1;
        }
        counts.users += 1;
        progress.send_replace(Progress {
            users_total: total,
            users_done: i64::try_from(done + 1).unwrap_or(i64::MAX),
            counts,
        });
    }
    let failed_message = if counts.failed > 0 {
        store::last_failure(pool).await?
    } else {
        None
    };
    store::finish_run(
        pool,
        run_id,
        (counts.sent, counts.failed, counts.skipped),
        last_error.as_deref().or(failed_message.as_deref()),
    )
    .await?;
    Ok(counts)
}

/// The `notifications_run` operation kind. Started again after a restart:
/// a run records each message once, so a second run sends only what the
/// first did not.
#[derive(Clone)]
pub struct NotificationsRun {
    notifier: Arc<Notifier>,
    pool: SqlitePool,
}

impl NotificationsRun {
    pub fn new(notifier: Arc<Notifier>, pool: SqlitePool) -> Self {
        Self { notifier, pool }
    }

    pub fn register(&self, engine: &Engine) {
        let job = self.clone();
        engine.resume_with(
            OperationKind::NotificationsRun,
            Box::new(move |_| Some(Box::new(job.clone()))),
        );
    }
}

impl Job for NotificationsRun {
    fn kind(&self) -> OperationKind {
        OperationKind::NotificationsRun
    }

    fn parameters(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        Box::pin(run(context, self))
    }
}

fn progress_fields(progress: Progress) -> Value {
    NotificationsRunMetadata {
        users_total: progress.users_total,
        users_done: progress.users_done,
        sent: progress.counts.sent,
        failed: progress.counts.failed,
    }
    .to_json()
}

async fn run(context: &JobContext, job: &NotificationsRun) -> Result<Value, Status> {
    let NotificationsRun { notifier, pool } = job;
    let operation = context.id();
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        run_operation(notifier, pool, operation, &sender, &cancelled).await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (
            progress_fields(now),
            percent(now.users_done, now.users_total),
        )
    });
    let (result, ()) = tokio::join!(work, reports);
    notifier.set_running(None);
    let counts = result.map_err(|error| {
        Status::new(
            Status::INTERNAL,
            format!("the reminders run failed: {error}"),
        )
    })?;
    context.checkpoint()?;
    Ok(NotificationsRunResponse {
        users: counts.users,
        sent: counts.sent,
        failed: counts.failed,
        skipped: counts.skipped,
    }
    .to_json())
}
