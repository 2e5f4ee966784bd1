//! Autopay checked against the bank after every sync (spec v0.99): a
//! returned debit (`ACH RETURN …`) flags the payment it gave back as a
//! failed autopay and is linked to that bill; a bill whose autopay the bank
//! has verified before, and whose debit is missing past a due date plus
//! the grace days, gets a failed-autopay row of amount 0 for that due date
//! (a debit up to ten days late, once matched, removes it). The bill's trust
//! indicator counts its last twelve due dates.

use sqlx::SqlitePool;

use super::store::autopay as stored;

use crate::backend::bills::{self as bills, BillError};
use crate::contract::bills::AutopayTrust;
use crate::domain::bank::autopay::{self, Trust, EARLY_DAYS, LATE_DAYS, RETURN_DAYS};
use crate::domain::bank::merchant;
use crate::domain::date::Date;

/// What a check found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    pub returned: u32,
    pub missing: u32,
}

/// Looks for returned and missing autopay debits of the user.
pub async fn check(pool: &SqlitePool, user_id: i64) -> Result<Checked, BillError> {
    Ok(Checked {
        returned: returns(pool, user_id).await?,
        missing: missing(pool, user_id).await?,
    })
}

/// Flags the autopay payment each new returned debit gave back.
async fn returns(pool: &SqlitePool, user_id: i64) -> Result<u32, BillError> {
    let credits = stored::recent_credits(pool, user_id).await?;
    let return_window = days(-RETURN_DAYS);
    let mut flagged = 0;
    for credit in credits {
        let Some(key) = autopay::returned_debit(&credit.description, credit.amount_cents) else {
            continue;
        };
        let debits = stored::debits_before(
            pool,
            user_id,
            credit.amount_cents,
            &credit.posted_at,
            &return_window,
        )
        .await?;
        let Some(debit) = debits
            .into_iter()
            .find(|debit| merchant::normalize(&debit.description) == key)
        else {
            continue;
        };
        let mut tx = crate::backend::db::write(pool).await?;
        stored::flag_return(&mut tx, &debit, credit.id).await?;
        tx.commit().await?;
        tracing::info!(
            bill = debit.bill_id,
            payment = debit.payment_id,
            "autopay debit returned"
        );
        flagged += 1;
    }
    Ok(flagged)
}

/// Undoes what a returned debit flagged, when the user unmatches it.
pub async fn unflag_return(
    tx: &mut sqlx::SqliteConnection,
    payment_id: i64,
) -> Result<(), sqlx::Error> {
    stored::unflag_return(tx, payment_id).await
}

/// `n` days as an SQLite date modifier: `+5 days`, `-10 days`.
fn days(n: i64) -> String {
    format!("{n:+} days")
}

/// Removes the missed-debit rows a late debit on `day` answers.
pub async fn clear_missed(
    tx: &mut sqlx::SqliteConnection,
    bill_id: i64,
    day: &str,
) -> Result<(), sqlx::Error> {
    let (late, early) = (days(-LATE_DAYS), days(EARLY_DAYS));
    stored::clear_missed(tx, bill_id, day, &late, &early).await
}

/// Records a failed autopay for each due date whose debit is missing, on
/// bills whose autopay the bank has verified before (so their debits are
/// known to come through a connected account).
async fn missing(pool: &SqlitePool, user_id: i64) -> Result<u32, BillError> {
    let (covered_from, synced_through) = stored::coverage(pool, user_id).await?;
    let (Some(Ok(covered_from)), Some(Ok(synced_through))) = (
        covered_from.as_deref().map(Date::parse),
        synced_through.as_deref().map(Date::parse),
    ) else {
        return Ok(0);
    };
    let today = bills::today_for(pool, user_id).await?;
    let mut recorded = 0;
    for bill in bills::list(pool, user_id).await? {
        if !bill.autopay || !bill.active || bill.autopay_verified_at.is_none() {
            continue;
        }
        let mut from = covered_from.add_days(EARLY_DAYS).unwrap_or(covered_from);
        while let Some(due) = bill.due_on_or_after(from) {
            if !autopay::can_be_missing(due, today, covered_from, synced_through) {
                break;
            }
            if record_if_missing(pool, user_id, bill.id, due).await? {
                recorded += 1;
            }
            let Some(next) = due.add_days(1) else { break };
            from = next;
        }
    }
    Ok(recorded)
}

/// Records the missed debit for `due` unless a payment (or a failure)
/// already answers it.
async fn record_if_missing(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    due: Date,
) -> Result<bool, sqlx::Error> {
    let (day, early, late) = (due.to_string(), days(-EARLY_DAYS), days(LATE_DAYS));
    let answered = stored::answered(pool, bill_id, &day, &early, &late).await?;
    if answered {
        return Ok(false);
    }
    let due = due.to_string();
    stored::record_missed(pool, user_id, bill_id, &due).await?;
    tracing::info!(bill = bill_id, %due, "autopay debit missing");
    Ok(true)
}

/// The trust indicator of an autopay bill: its last twelve due dates
/// through today against its failed autopay payments.
pub async fn trust(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
) -> Result<AutopayTrust, BillError> {
    let bill = bills::get(pool, user_id, bill_id).await?;
    let today = bills::today_for(pool, user_id).await?;
    let mut due_dates = Vec::new();
    if bill.autopay {
        let mut from = Date::EPOCH;
        while let Some(due) = bill.due_on_or_after(from).filter(|due| *due <= today) {
            due_dates.push(due);
            if due_dates.len() > autopay::TRUST_DUE_DATES {
                due_dates.remove(0);
            }
            let Some(next) = due.add_days(1) else { break };
            from = next;
        }
    }
    let failures = stored::failure_dates(pool, user_id, bill_id).await?;
    let failures: Vec<Date> = failures
        .iter()
        .filter_map(|day| Date::parse(day.get(..10)?).ok())
        .collect();
    // Which due dates a payment paid: the Tracker's one assignment.
    let paid: Vec<(Date, bool)> = match (due_dates.first(), due_dates.last()) {
        (Some(first), Some(last)) => {
            let tracked =
                bills::views::tracked_in(pool, user_id, std::slice::from_ref(&bill), *first, *last)
                    .await?;
            let paid_in = tracked
                .first()
                .map(|bill| bill.paid_in(*first, *last))
                .unwrap_or_default();
            due_dates
                .iter()
                .map(|due| (*due, paid_in.iter().any(|(at, paid)| at == due && *paid)))
                .collect()
        }
        _ => Vec::new(),
    };
    // A record needs something behind it (`Trust::count`): a new bill
    // with nothing paid has none.
    let counted = Trust::count(&paid, &failures);
    Ok(AutopayTrust {
        autopay: bill.autopay,
        verified_at: bill.autopay_verified_at,
        kept: counted.kept,
        due_dates: counted.due_dates,
        label: if counted.due_dates == 0 {
            String::new()
        } else {
            counted.label()
        },
    })
}
