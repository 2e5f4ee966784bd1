//! The monthly interest accrual (spec rule 1): a debt is charged for every
//! calendar month, also for one that ends without a payment. A payment
//! charges its own month (see `payments`); this charges each month that
//! ended uncharged, once that month is over in the owner's time zone, as a
//! payment row of kind `interest` with the charge in `interest_delta`.
//!
//! Both read and advance `bills.interest_accrued_month` inside one write
//! transaction, so whichever comes first charges the month and the other
//! finds nothing: running twice, after a restart, or racing a payment never
//! charges a month twice.

use std::time::Duration;

use sqlx::SqlitePool;

use super::store::accrual as stored;
use super::store::payments;
use super::store::{date_in, BillError};
use crate::domain::date::YearMonth;
use crate::domain::interest::charges_due;

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accrued {
    /// Debts that were charged interest.
    pub debts: u64,
    /// Months charged interest, over all debts (a month at a 0 % rate or a
    /// zero balance is passed over, not counted).
    pub months: u64,
}

/// Charges every active debt for the months that ended uncharged as of
/// `now`.
pub async fn accrue_interest(
    pool: &SqlitePool,
    now: jiff::Timestamp,
) -> Result<Accrued, BillError> {
    let debts = stored::active_debts(pool).await?;
    let mut accrued = Accrued::default();
    for debt in debts {
        let through = date_in(Some(&debt.time_zone), now).year_month().previous();
        let months = charge_through(pool, debt.user_id, debt.id, through).await?;
        if months > 0 {
            accrued.debts += 1;
            accrued.months += months;
        }
    }
    Ok(accrued)
}

/// Charges one debt through `through`; answers how many months it charged.
async fn charge_through(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    through: YearMonth,
) -> Result<u64, BillError> {
    let mut tx = crate::backend::db::write(pool).await?;
    let bill = match payments::bill_for_update(&mut tx, user_id, bill_id).await {
        Ok(bill) => bill,
        // Deleted since the list was read.
        Err(BillError::NotFound) => return Ok(0),
        Err(error) => return Err(error),
    };
    if !bill.debt || !bill.active {
        return Ok(0);
    }
    let Some(accrued) = bill
        .interest_accrued_month
        .as_deref()
        .and_then(YearMonth::parse)
    else {
        // A debt with no charged month (made a debt by an edit, or from
        // before v0.93) starts being charged with the current month.
        stored::start_charging(&mut tx, bill_id, &through.to_string()).await?;
        tx.commit().await?;
        return Ok(0);
    };
    let charges = charges_due(
        bill.balance_minor.unwrap_or(0),
        bill.apr_basis_points.unwrap_or(0),
        Some(accrued),
        through,
    );
    let Some(last) = charges.last() else {
        return Ok(0);
    };
    let mut balance = bill.balance_minor.unwrap_or(0);
    let mut charged = 0;
    for charge in &charges {
        balance = balance.saturating_add(charge.interest);
        if charge.interest == 0 {
            continue;
        }
        charged += 1;
        let day = charge.month.last_day().map(|day| day.to_string());
        payments::insert_interest(&mut tx, user_id, bill_id, day.as_deref(), charge.interest)
            .await?;
    }
    let month = last.month.to_string();
    payments::set_balance(&mut tx, user_id, bill_id, balance, Some(&month)).await?;
    tx.commit().await?;
    Ok(charged)
}

/// Runs the accrual now and then every hour until the pool closes (a month
/// ends at a different hour in each user's time zone).
pub fn spawn_accrual(pool: SqlitePool) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(3600));
        loop {
            every.tick().await;
            if pool.is_closed() {
                return;
            }
            match accrue_interest(&pool, crate::backend::clock::now()).await {
                Ok(Accrued { months: 0, .. }) => {}
                Ok(Accrued { debts, months }) => {
                    tracing::info!(debts, months, "charged monthly interest");
                }
                Err(error) => tracing::warn!(%error, "charging monthly interest failed"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::bills::{list_payments, record_payment, undo_payment, NewPayment};
    use crate::domain::date::Date;

    fn at(text: &str) -> jiff::Timestamp {
        text.parse().unwrap()
    }

    /// A user in `zone` with a 1,000.00 debt at 12 % a year, last charged
    /// for `accrued`.
    async fn debt(pool: &SqlitePool, zone: &str, accrued: Option<&str>) -> (i64, i64) {
        let text = format!("{zone}@example.com");
        let user: i64 = sqlx::query_scalar!(
            r#"INSERT INTO users (email, time_zone) VALUES (?, ?) RETURNING id AS "id!""#,
            text,
            zone,
        )
        .fetch_one(pool)
        .await
        .unwrap();
        let bill: i64 = sqlx::query_scalar!(
            r#"INSERT INTO bills (user_id, name, amount_cents, cadence, due_day, anchor_date,
                 is_debt, balance_cents, apr_basis_points, interest_accrued_month)
             VALUES (?, 'Card', 5000, 'monthly', 20, '2026-01-20', 1, 100000, 1200, ?)
             RETURNING id AS "id!""#,
            user,
            accrued,
        )
        .fetch_one(pool)
        .await
        .unwrap();
        (user, bill)
    }

    async fn state(pool: &SqlitePool, bill: i64) -> (i64, Option<String>) {
        sqlx::query_as("SELECT balance_cents, interest_accrued_month FROM bills WHERE id = ?")
            .bind(bill)
            .fetch_one(pool)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn ended_months_are_charged_once_across_reruns_restarts_and_payments() {
        let (dir, pool) = crate::backend::db::migrated_for_test().await;
        let (user, bill) = debt(&pool, "UTC", Some("2026-08")).await;

        let first = accrue_interest(&pool, at("2026-11-22T10:00:00Z"))
            .await
            .unwrap();
        assert_eq!(
            first,
            Accrued {
                debts: 1,
                months: 2
            },
            "September and October"
        );
        assert_eq!(state(&pool, bill).await, (102_010, Some("2026-10".into())));
        let rows = list_payments(&pool, user, bill).await.unwrap();
        let charged: Vec<(&str, i64, &str)> = rows
            .iter()
            .map(|p| (p.paid_on.as_str(), p.interest_delta_minor, p.kind.as_str()))
            .collect();
        assert_eq!(
            charged,
            [
                ("2026-10-31", 1010, "interest"),
                ("2026-09-30", 1000, "interest")
            ],
            "October compounds on September's charge"
        );

        assert_eq!(
            accrue_interest(&pool, at("2026-11-30T23:00:00Z"))
                .await
                .unwrap(),
            Accrued::default(),
            "a rerun in the same month charges nothing"
        );
        pool.close().await;
        let pool = crate::backend::db::connect(&dir.path().join("t.db"))
            .await
            .unwrap();
        assert_eq!(
            accrue_interest(&pool, at("2026-11-22T11:00:00Z"))
                .await
                .unwrap(),
            Accrued::default(),
            "nor does a run after a restart"
        );

        // A payment in November charges November; the accrual in December
        // then finds November charged.
        let payment = record_payment(
            &pool,
            user,
            bill,
            &NewPayment {
                amount_minor: 10_000,
                paid_on: Date::parse("2026-11-25").unwrap(),
                method: String::new(),
                for_occurrence: None,
            },
        )
        .await
        .unwrap();
        assert_eq!(payment.interest_delta_minor, 1020);
        assert_eq!(
            accrue_interest(&pool, at("2026-12-02T00:00:00Z"))
                .await
                .unwrap(),
            Accrued::default()
        );
        assert_eq!(state(&pool, bill).await, (93_030, Some("2026-11".into())));

        // An interest charge cannot be undone (the accrual would charge it
        // again); a payment can, and gives its month back to the accrual.
        let interest = rows[0].id;
        assert!(matches!(
            undo_payment(&pool, user, interest).await,
            Err(BillError::Invalid {
                field: "paymentId",
                ..
            })
        ));
        undo_payment(&pool, user, payment.id).await.unwrap();
        assert_eq!(state(&pool, bill).await, (102_010, Some("2026-10".into())));
        let december = accrue_interest(&pool, at("2026-12-02T00:00:00Z"))
            .await
            .unwrap();
        assert_eq!(
            december,
            Accrued {
                debts: 1,
                months: 1
            }
        );
        assert_eq!(state(&pool, bill).await, (103_030, Some("2026-11".into())));
    }

    #[tokio::test]
    async fn a_month_ends_in_the_owners_time_zone() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        let (_, east) = debt(&pool, "Pacific/Kiritimati", Some("2026-10")).await;
        let (_, utc) = debt(&pool, "UTC", Some("2026-10")).await;
        // 12:00 UTC on 30 November is already 1 December at UTC+14.
        let run = accrue_interest(&pool, at("2026-11-30T12:00:00Z"))
            .await
            .unwrap();
        assert_eq!(
            run,
            Accrued {
                debts: 1,
                months: 1
            }
        );
        assert_eq!(state(&pool, east).await.1.as_deref(), Some("2026-11"));
        assert_eq!(state(&pool, utc).await.1.as_deref(), Some("2026-10"));
    }

    #[tokio::test]
    async fn uncharged_debts_start_with_this_month_ended_ones_are_left_alone_and_0_percent_charges_nothing(
    ) {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        let (_, fresh) = debt(&pool, "UTC", None).await;
        let (_, ended) = debt(&pool, "Europe/Berlin", Some("2026-01")).await;
        sqlx::query!("UPDATE bills SET active = 0 WHERE id = ?", ended)
            .execute(&pool)
            .await
            .unwrap();
        let (free_user, free) = debt(&pool, "Asia/Tokyo", Some("2026-08")).await;
        sqlx::query!("UPDATE bills SET apr_basis_points = 0 WHERE id = ?", free)
            .execute(&pool)
            .await
            .unwrap();
        let run = accrue_interest(&pool, at("2026-11-22T10:00:00Z"))
            .await
            .unwrap();
        assert_eq!(run, Accrued::default());
        assert_eq!(state(&pool, fresh).await, (100_000, Some("2026-10".into())));
        assert_eq!(state(&pool, ended).await, (100_000, Some("2026-01".into())));
        // At 0 % the months pass without a charge or a row.
        assert_eq!(state(&pool, free).await, (100_000, Some("2026-10".into())));
        assert!(list_payments(&pool, free_user, free)
            .await
            .unwrap()
            .is_empty());
    }
}
