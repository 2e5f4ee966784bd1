//! SQL for `bills`; its payments' in `payments`, the interest accrual's
//! own in `accrual`.

pub mod accrual;
pub mod payments;

use sqlx::SqlitePool;

use crate::domain::bill::{ValidBill, REASON_MAX};
use crate::domain::date::Date;
use crate::domain::text::{plain_text_problem, Lines};

#[derive(Debug, thiserror::Error)]
pub enum BillError {
    #[error("no such bill")]
    NotFound,
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    /// Several fields at fault, each named.
    #[error("{}", .0.iter().map(|v| format!("{}: {}", v.field, v.description)).collect::<Vec<_>>().join("; "))]
    InvalidFields(Vec<crate::domain::validation::FieldViolation>),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// A bill as stored: the shared record the pages read too.
pub use crate::contract::bills::BillRecord as Bill;

/// A bill as its row holds it: every field of [`Bill`] but the two the
/// views compute after the read (`next_due`, `interest_pending_minor`).
pub(super) struct BillRow {
    pub(super) id: i64,
    pub(super) name: String,
    pub(super) amount_minor: i64,
    pub(super) currency: String,
    pub(super) cadence: String,
    pub(super) cadence_interval: i64,
    pub(super) due_day: i64,
    pub(super) anchor_date: String,
    pub(super) category: String,
    pub(super) notes: String,
    pub(super) autopay: bool,
    pub(super) subscription: bool,
    pub(super) debt: bool,
    pub(super) balance_minor: Option<i64>,
    pub(super) apr_basis_points: Option<i64>,
    pub(super) minimum_payment_minor: Option<i64>,
    pub(super) interest_accrued_month: Option<String>,
    pub(super) catalog_id: Option<i64>,
    pub(super) catalog_name: Option<String>,
    pub(super) active: bool,
    pub(super) inactive_reason: Option<String>,
    pub(super) inactivated_at: Option<String>,
    pub(super) autopay_verified_at: Option<String>,
    pub(super) sort_order: i64,
    pub(super) created_at: String,
    pub(super) updated_at: String,
}

impl From<BillRow> for Bill {
    fn from(row: BillRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            amount_minor: row.amount_minor,
            currency: row.currency,
            cadence: row.cadence,
            cadence_interval: row.cadence_interval,
            due_day: row.due_day,
            anchor_date: row.anchor_date,
            category: row.category,
            notes: row.notes,
            autopay: row.autopay,
            subscription: row.subscription,
            debt: row.debt,
            balance_minor: row.balance_minor,
            apr_basis_points: row.apr_basis_points,
            minimum_payment_minor: row.minimum_payment_minor,
            interest_accrued_month: row.interest_accrued_month,
            catalog_id: row.catalog_id,
            catalog_name: row.catalog_name,
            active: row.active,
            inactive_reason: row.inactive_reason,
            inactivated_at: row.inactivated_at,
            autopay_verified_at: row.autopay_verified_at,
            sort_order: row.sort_order,
            created_at: row.created_at,
            updated_at: row.updated_at,
            next_due: None,
            interest_pending_minor: None,
        }
    }
}

/// A compile-checked read of whole bills: `select_bills!("WHERE id = ?", id)`
/// is `query_as!` with every column of [`BillRow`] and the rest of the
/// statement appended.
macro_rules! select_bills {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            $crate::backend::bills::store::BillRow,
            r#"SELECT id AS "id!", name, amount_cents AS amount_minor, currency, cadence,
                 cadence_interval, due_day, anchor_date, category, notes,
                 autopay AS "autopay: bool", is_subscription AS "subscription: bool",
                 is_debt AS "debt: bool", balance_cents AS balance_minor, apr_basis_points,
                 minimum_payment_cents AS minimum_payment_minor, interest_accrued_month,
                 catalog_id, active AS "active: bool", inactive_reason, inactivated_at,
                 autopay_verified_at, sort_order, created_at, updated_at,
                 (SELECT c.name FROM subscription_catalog c WHERE c.id = bills.catalog_id)
                     AS "catalog_name: String"
             FROM bills "# + $rest
            $(, $arg)*
        )
    };
}
pub(super) use select_bills;

/// Whether `name` is a time zone Tally knows (IANA names like
/// `Europe/Berlin`).
pub fn known_time_zone(name: &str) -> bool {
    jiff::tz::TimeZone::get(name).is_ok()
}

/// "Today" in the user's time zone (`users.time_zone`, UTC when unknown).
pub async fn today_for(pool: &SqlitePool, user_id: i64) -> Result<Date, sqlx::Error> {
    let zone: Option<String> =
        sqlx::query_scalar!("SELECT time_zone FROM users WHERE id = ?", user_id)
            .fetch_optional(pool)
            .await?;
    Ok(date_in(zone.as_deref(), crate::backend::clock::now()))
}

/// The calendar date at `now` in the time zone named `zone` (UTC when
/// unknown).
pub fn date_in(zone: Option<&str>, now: jiff::Timestamp) -> Date {
    let zone = zone
        .and_then(|name| jiff::tz::TimeZone::get(name).ok())
        .unwrap_or(jiff::tz::TimeZone::UTC);
    let date = now.to_zoned(zone).date();
    Date::new(
        i32::from(date.year()),
        u8::try_from(date.month()).unwrap_or(1),
        u8::try_from(date.day()).unwrap_or(1),
    )
    .unwrap_or(Date::EPOCH)
}

pub async fn list(pool: &SqlitePool, user_id: i64) -> Result<Vec<Bill>, sqlx::Error> {
    let rows = select_bills!(
        "WHERE user_id = ? ORDER BY active DESC, sort_order, name COLLATE NOCASE, id",
        user_id,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Bill::from).collect())
}

pub async fn get(pool: &SqlitePool, user_id: i64, id: i64) -> Result<Bill, BillError> {
    select_bills!("WHERE id = ? AND user_id = ?", id, user_id)
        .fetch_optional(pool)
        .await?
        .map(Bill::from)
        .ok_or(BillError::NotFound)
}

/// Refuses a catalog id that names no service (`catalogId`).
pub async fn check_catalog(pool: &SqlitePool, catalog_id: Option<i64>) -> Result<(), BillError> {
    if let Some(id) = catalog_id {
        let known: Option<i64> =
            sqlx::query_scalar!("SELECT id FROM subscription_catalog WHERE id = ?", id)
                .fetch_optional(pool)
                .await?;
        if known.is_none() {
            return Err(BillError::Invalid {
                field: "catalogId",
                description: format!("there is no catalog service {id}"),
            });
        }
    }
    Ok(())
}

/// `query_scalar!` of `$sql` with a bill's sixteen [`Stored`] columns bound
/// first, in the order both the insert and the update name them, then the
/// rest.
macro_rules! with_stored {
    ($sql:literal, $stored:ident $(, $rest:expr)* $(,)?) => {
        sqlx::query_scalar!(
            $sql,
            $stored.name,
            $stored.amount_minor,
            $stored.currency,
            $stored.cadence,
            $stored.interval,
            $stored.due_day,
            $stored.anchor,
            $stored.category,
            $stored.notes,
            $stored.debt,
            $stored.balance_minor,
            $stored.apr_basis_points,
            $stored.minimum_payment_minor,
            $stored.autopay,
            $stored.subscription,
            $stored.catalog_id,
            $($rest),*
        )
    };
}

pub async fn create(pool: &SqlitePool, user_id: i64, bill: &ValidBill) -> Result<Bill, BillError> {
    check_catalog(pool, bill.catalog_id).await?;
    let today = today_for(pool, user_id).await?;
    let mut tx = crate::backend::db::write(pool).await?;
    let id = create_in(&mut tx, user_id, bill, today).await?;
    tx.commit().await?;
    get(pool, user_id, id).await
}

/// Inserts a checked bill inside `tx`; answers its id. A debt's balance is
/// taken as of `today`, so its interest counts as charged through last
/// month: this month is the first Tally charges.
pub async fn create_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    user_id: i64,
    bill: &ValidBill,
    today: Date,
) -> Result<i64, BillError> {
    let charged_through = bill.debt.map(|_| today.year_month().previous().to_string());
    let stored = Stored::of(bill);
    let id = with_stored!(
        r#"INSERT INTO bills (name, amount_cents, currency, cadence, cadence_interval, due_day,
             anchor_date, category, notes, is_debt, balance_cents, apr_basis_points,
             minimum_payment_cents, autopay, is_subscription, catalog_id,
             interest_accrued_month, user_id, sort_order)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                 (SELECT ifnull(max(sort_order), 0) + 1 FROM bills WHERE user_id = ?))
         RETURNING id AS "id!""#,
        stored,
        charged_through,
        user_id,
        user_id
    )
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn update(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    bill: &ValidBill,
) -> Result<Bill, BillError> {
    check_catalog(pool, bill.catalog_id).await?;
    let stored = Stored::of(bill);
    let changed = with_stored!(
        r#"UPDATE bills SET name = ?, amount_cents = ?, currency = ?, cadence = ?,
             cadence_interval = ?, due_day = ?, anchor_date = ?, category = ?, notes = ?,
             is_debt = ?, balance_cents = ?, apr_basis_points = ?, minimum_payment_cents = ?,
             autopay = ?, is_subscription = ?, catalog_id = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ? RETURNING id AS "id!""#,
        stored,
        id,
        user_id
    )
    .fetch_optional(pool)
    .await?;
    if changed.is_none() {
        return Err(BillError::NotFound);
    }
    get(pool, user_id, id).await
}

/// A bill's sixteen stored fields as their columns hold them, for the
/// insert and the update.
struct Stored<'a> {
    name: &'a str,
    amount_minor: i64,
    currency: &'a str,
    cadence: &'static str,
    interval: i64,
    due_day: i64,
    anchor: String,
    category: &'a str,
    notes: &'a str,
    debt: bool,
    balance_minor: Option<i64>,
    apr_basis_points: Option<i64>,
    minimum_payment_minor: Option<i64>,
    autopay: bool,
    subscription: bool,
    catalog_id: Option<i64>,
}

impl<'a> Stored<'a> {
    fn of(bill: &'a ValidBill) -> Self {
        let (cadence, interval) = bill.cadence.to_stored();
        Self {
            name: &bill.name,
            amount_minor: bill.amount_minor,
            currency: bill.currency.code(),
            cadence,
            interval,
            due_day: i64::from(bill.due_day),
            anchor: bill.anchor.to_string(),
            category: &bill.category,
            notes: &bill.notes,
            debt: bill.debt.is_some(),
            balance_minor: bill.debt.map(|debt| debt.balance_minor),
            apr_basis_points: bill.debt.map(|debt| debt.apr_basis_points),
            minimum_payment_minor: bill.debt.and_then(|debt| debt.minimum_payment_minor),
            autopay: bill.autopay,
            subscription: bill.subscription,
            catalog_id: bill.catalog_id,
        }
    }
}

/// `NotFound` when an update or delete touched none of the user's rows.
pub(super) fn found(rows_affected: u64) -> Result<(), BillError> {
    if rows_affected == 0 {
        Err(BillError::NotFound)
    } else {
        Ok(())
    }
}

/// Ends a bill (it stays, with its history) with an optional reason.
pub async fn deactivate(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    reason: &str,
) -> Result<Bill, BillError> {
    let reason = reason.trim();
    if reason.chars().count() > REASON_MAX {
        return Err(BillError::Invalid {
            field: "reason",
            description: format!("use at most {REASON_MAX} characters"),
        });
    }
    if let Some(problem) = plain_text_problem(reason, Lines::Many) {
        return Err(BillError::Invalid {
            field: "reason",
            description: problem,
        });
    }
    let bound = (!reason.is_empty()).then_some(reason);
    let changed = sqlx::query!(
        "UPDATE bills SET active = 0, inactive_reason = ?,
             inactivated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ?",
        bound,
        id,
        user_id,
    )
    .execute(pool)
    .await?
    .rows_affected();
    found(changed)?;
    get(pool, user_id, id).await
}

/// Restarts an ended bill. An ended debt was not charged interest, so a
/// restarted one is charged from this month on, not for the months between.
pub async fn reactivate(pool: &SqlitePool, user_id: i64, id: i64) -> Result<Bill, BillError> {
    let last_month = today_for(pool, user_id).await?.year_month().previous();
    let last_month = last_month.to_string();
    let changed = sqlx::query!(
        "UPDATE bills SET active = 1, inactive_reason = NULL, inactivated_at = NULL,
             interest_accrued_month = CASE
                 WHEN is_debt = 1 AND active = 0
                 THEN max(ifnull(interest_accrued_month, ''), ?1)
                 ELSE interest_accrued_month END,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?2 AND user_id = ?3",
        last_month,
        id,
        user_id,
    )
    .execute(pool)
    .await?
    .rows_affected();
    found(changed)?;
    get(pool, user_id, id).await
}

/// Deletes a bill and its payments.
pub async fn delete(pool: &SqlitePool, user_id: i64, id: i64) -> Result<(), BillError> {
    let deleted = sqlx::query!(
        "DELETE FROM bills WHERE id = ? AND user_id = ?",
        id,
        user_id,
    )
    .execute(pool)
    .await?
    .rows_affected();
    found(deleted)
}

/// Puts the user's bills in the order of `ids` (the Subscriptions page's
/// Custom sort). Every id must be one of the user's bills, each once.
pub async fn reorder(pool: &SqlitePool, user_id: i64, ids: &[i64]) -> Result<(), BillError> {
    let mut unique = ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    if unique.len() != ids.len() {
        return Err(BillError::Invalid {
            field: "ids",
            description: "each bill may appear once".into(),
        });
    }
    let mut tx = crate::backend::db::write(pool).await?;
    for (position, id) in ids.iter().enumerate() {
        let i64 = i64::try_from(position).unwrap_or(i64::MAX);
        let changed = sqlx::query!(
            "UPDATE bills SET sort_order = ? WHERE id = ? AND user_id = ?",
            i64,
            id,
            user_id,
        )
        .execute(&mut *tx)
        .await?
        .rows_affected();
        // On NotFound nothing is kept: the transaction rolls back when dropped.
        found(changed)?;
    }
    tx.commit().await?;
    Ok(())
}
