//! A user's preferences: locale (number format), default currency for new
//! bills, time zone (what "today" is), and an optional pay schedule (the
//! Tracker's pay period). The first three are columns of `users`; the
//! schedule and its payday are per-user `settings`.

mod store;

use sqlx::SqlitePool;

use super::settings::{self, Scope};
use crate::contract::preferences::{Preferences, UpdatePreferences};
use crate::domain::date::Date;
use crate::domain::drift::Thresholds;
use crate::domain::money::{Currency, LOCALES};
use crate::domain::pay_period::PaySchedule;
use crate::domain::validation::FieldViolation;

/// Settings keys of the pay schedule.
const PAY_SCHEDULE: &str = "pay_schedule";
const PAYDAY: &str = "payday";
/// Settings keys of the price drift thresholds.
const DRIFT_PERCENT: &str = "drift_percent";
const DRIFT_MIN_MINOR: &str = "drift_min_minor";
/// Settings key of the Tracker's "Pin due" order (`domain::pin_due`).
const PIN_DUE: &str = "pin_due";

/// Whether the user keeps the Tracker in the "Pin due" order.
pub async fn pin_due(pool: &SqlitePool, user: i64) -> Result<bool, sqlx::Error> {
    settings::get_flag(pool, Scope::User(user), PIN_DUE, false).await
}

/// Turns the Tracker's "Pin due" order on or off for the user.
pub async fn set_pin_due(pool: &SqlitePool, user: i64, on: bool) -> Result<(), sqlx::Error> {
    settings::set_flag(pool, Scope::User(user), PIN_DUE, on).await
}

/// The user's price drift thresholds (5 % and 1.00 unless they chose
/// others).
pub async fn drift_thresholds(pool: &SqlitePool, user: i64) -> Result<Thresholds, sqlx::Error> {
    let scope = Scope::User(user);
    let read = |text: Option<String>| text.and_then(|text| text.parse::<i64>().ok());
    let default = Thresholds::default();
    Ok(Thresholds {
        percent: read(settings::get(pool, scope, DRIFT_PERCENT).await?)
            .filter(|n| (1..=Thresholds::PERCENT_MAX).contains(n))
            .unwrap_or(default.percent),
        min_minor: read(settings::get(pool, scope, DRIFT_MIN_MINOR).await?)
            .filter(|n| (1..=Thresholds::MIN_MINOR_MAX).contains(n))
            .unwrap_or(default.min_minor),
    })
}

#[derive(Debug, thiserror::Error)]
pub enum PreferencesError {
    /// Every field at fault, each named.
    #[error("{} field(s) are invalid", .0.len())]
    Invalid(Vec<FieldViolation>),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// The user's pay schedule and payday, when one is set.
pub async fn pay_schedule(
    pool: &SqlitePool,
    user: i64,
) -> Result<Option<(PaySchedule, Date)>, sqlx::Error> {
    let scope = Scope::User(user);
    let Some(schedule) = settings::get(pool, scope, PAY_SCHEDULE).await? else {
        return Ok(None);
    };
    let Ok(schedule) = PaySchedule::parse(&schedule) else {
        return Ok(None);
    };
    let payday = settings::get(pool, scope, PAYDAY)
        .await?
        .and_then(|text| Date::parse(&text).ok())
        .unwrap_or(Date::EPOCH);
    Ok(Some((schedule, payday)))
}

/// How the user's amounts are written: their locale and default currency.
pub async fn locale_and_currency(
    pool: &SqlitePool,
    user: i64,
) -> Result<(String, String), sqlx::Error> {
    store::locale_and_currency(pool, user).await
}

pub async fn read(pool: &SqlitePool, user: i64) -> Result<Preferences, sqlx::Error> {
    let store::Columns {
        locale,
        currency,
        time_zone,
    } = store::columns(pool, user).await?;
    let schedule = pay_schedule(pool, user).await?;
    let drift = drift_thresholds(pool, user).await?;
    Ok(Preferences {
        drift_percent: drift.percent,
        drift_min_minor: drift.min_minor,
        locale,
        currency,
        time_zone,
        pay_schedule: schedule.map_or_else(String::new, |(s, _)| s.as_str().to_owned()),
        payday: schedule
            .filter(|(s, _)| s.needs_payday())
            .map_or_else(String::new, |(_, day)| day.to_string()),
    })
}

/// Checks every field (all problems at once), then stores them in one
/// transaction; answers what is stored now.
pub async fn set(
    pool: &SqlitePool,
    user: i64,
    wanted: &UpdatePreferences,
) -> Result<Preferences, PreferencesError> {
    let mut problems = Vec::new();
    let violation = |field: &str, description: &str| FieldViolation {
        field: field.to_owned(),
        description: description.to_owned(),
    };
    if !LOCALES.iter().any(|(tag, _)| *tag == wanted.locale) {
        problems.push(violation("locale", "choose one of the offered locales"));
    }
    let currency = Currency::parse(&wanted.currency);
    if currency.is_err() {
        problems.push(violation(
            "currency",
            "enter a currency code like USD or EUR",
        ));
    }
    if !super::bills::known_time_zone(&wanted.time_zone) {
        problems.push(violation(
            "timeZone",
            "enter a time zone like Europe/Berlin or America/New_York",
        ));
    }
    let schedule = match wanted.pay_schedule.trim() {
        "" => None,
        text => match PaySchedule::parse(text) {
            Ok(schedule) => Some(schedule),
            Err(error) => {
                problems.push(violation("paySchedule", &error.to_string()));
                None
            }
        },
    };
    let payday = Date::parse(wanted.payday.trim()).ok();
    if schedule.is_some_and(PaySchedule::needs_payday) && payday.is_none() {
        problems.push(violation(
            "payday",
            "enter the date of one payday, like 2026-11-13",
        ));
    }
    if wanted
        .drift_percent
        .is_some_and(|n| !(1..=Thresholds::PERCENT_MAX).contains(&n))
    {
        problems.push(violation("driftPercent", "choose 1 to 100 percent"));
    }
    if wanted
        .drift_min_minor
        .is_some_and(|n| !(1..=Thresholds::MIN_MINOR_MAX).contains(&n))
    {
        problems.push(violation(
            "driftMinMinor",
            "choose an amount from 0.01 to 10,000.00",
        ));
    }
    if !problems.is_empty() {
        return Err(PreferencesError::Invalid(problems));
    }
    let code = currency
        .map(|c| c.code().to_owned())
        .unwrap_or_else(|_| "USD".into());
    let mut tx = crate::backend::db::write(pool).await?;
    let columns = store::Columns {
        locale: wanted.locale.clone(),
        currency: code,
        time_zone: wanted.time_zone.clone(),
    };
    store::update_columns(&mut tx, user, &columns).await?;
    store::delete_pair(&mut tx, user, [PAY_SCHEDULE, PAYDAY]).await?;
    if let Some(schedule) = schedule {
        let payday = payday.map(|day| day.to_string()).unwrap_or_default();
        for (key, value) in [(PAY_SCHEDULE, schedule.as_str()), (PAYDAY, payday.as_str())] {
            store::insert(&mut tx, user, key, value).await?;
        }
    }
    for (key, value) in [
        (DRIFT_PERCENT, wanted.drift_percent),
        (DRIFT_MIN_MINOR, wanted.drift_min_minor),
    ] {
        let Some(value) = value else {
            continue;
        };
        store::delete(&mut tx, user, key).await?;
        store::insert(&mut tx, user, key, &value.to_string()).await?;
    }
    tx.commit().await?;
    Ok(read(pool, user).await?)
}
