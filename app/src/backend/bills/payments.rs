//! Payments: recording one (on a debt, first charging the interest of every
//! calendar month not yet charged up to the payment's month, recorded as
//! the payment's `interest_delta`), undoing one (which gives the month back),
//! and flagging an autopay payment as failed after the fact (spec v0.99).
//! The monthly accrual's interest charges are rows here too, of kind
//! `interest` (see `accrual`).

use sqlx::SqlitePool;

use super::store::payments as stored;
use super::store::{found, get, Bill, BillError};
use crate::domain::bill_month::SNOOZE_MAX_DAYS;
use crate::domain::date::{Date, YearMonth};
use crate::domain::interest::{charged_through_before, charges_due};
use crate::domain::text::{plain_text_problem, Lines};
use crate::domain::tracker::{Paid, TrackedBill, PAYMENTS_AFTER_DAYS, PAYMENTS_BEFORE_DAYS};

pub const METHOD_MAX: usize = 40;

pub use crate::contract::bills::Payment;
use crate::contract::bills::{PaymentInput, RecordPayment};

pub struct NewPayment {
    pub amount_minor: i64,
    pub paid_on: Date,
    pub method: String,
    /// The due date it pays, when the person named one.
    pub for_occurrence: Option<Date>,
}

fn invalid(field: &'static str, description: impl Into<String>) -> BillError {
    BillError::Invalid {
        field,
        description: description.into(),
    }
}

/// A bill's payments, newest first, each with the due date it pays.
pub async fn list_payments(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
) -> Result<Vec<Payment>, BillError> {
    let bill = get(pool, user_id, bill_id).await?;
    let mut payments = stored::of_bill(pool, user_id, bill_id).await?;
    let (Some(cadence), Ok(anchor), Ok(due_day)) = (
        bill.cadence(),
        Date::parse(&bill.anchor_date),
        u8::try_from(bill.due_day),
    ) else {
        return Ok(payments);
    };
    let dated = |payment: &Payment| Date::parse(&payment.paid_on).ok();
    let first = payments
        .iter()
        .filter_map(dated)
        .min()
        .map_or(anchor, |on| on.min(anchor));
    let last = payments
        .iter()
        .filter_map(dated)
        .max()
        .map_or(anchor, |on| on.max(anchor));
    let overrides = crate::backend::bill_months::store::between(
        pool,
        user_id,
        first
            .add_days(-PAYMENTS_BEFORE_DAYS - SNOOZE_MAX_DAYS)
            .unwrap_or(first),
        last.add_days(PAYMENTS_AFTER_DAYS).unwrap_or(last),
    )
    .await?
    .into_iter()
    .filter(|(bill, _)| *bill == bill_id)
    .map(|(_, change)| change)
    .collect();
    // The payments the assignment reads, and where each is in the list.
    let (at, paid): (Vec<usize>, Vec<Paid>) = payments
        .iter()
        .enumerate()
        .filter(|(_, payment)| !payment.is_interest_charge())
        .filter_map(|(i, payment)| {
            Some((
                i,
                Paid {
                    on: dated(payment)?,
                    amount_minor: payment.amount_minor,
                    for_occurrence: payment
                        .for_occurrence
                        .as_deref()
                        .and_then(|due| Date::parse(due).ok()),
                },
            ))
        })
        .unzip();
    let tracked = TrackedBill {
        id: bill.id,
        cadence,
        anchor,
        due_day,
        amount_minor: bill.amount_minor,
        currency: bill.currency.clone(),
        payments: paid,
        overrides,
    };
    let assignment = tracked.assign(first, last);
    for (i, pays) in at.into_iter().zip(assignment.pays) {
        payments[i].pays = pays.map(|due| due.to_string());
    }
    Ok(payments)
}

/// All of the user's payments, oldest first (for the export).
pub async fn list_all_payments(pool: &SqlitePool, user_id: i64) -> Result<Vec<Payment>, BillError> {
    Ok(stored::of_user(pool, user_id).await?)
}

/// Records a payment as a client asks for one (`POST /api/bills/{id}/
/// payments`, and the pages' server function): today (in the user's time
/// zone) when no date is given, the bill's amount when no amount is ("mark
/// paid"). Another user's bill is not found.
pub async fn record_requested(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    request: &RecordPayment,
) -> Result<Payment, BillError> {
    let bill = get(pool, user_id, bill_id).await?;
    record_for(pool, user_id, &bill, request).await
}

/// Records a payment as typed into a bill page's form: the amount in the
/// bill's currency (`PaymentInput::to_payment`), then as
/// [`record_requested`], with the bill read once.
pub async fn record_typed(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    typed: &PaymentInput,
) -> Result<Payment, BillError> {
    let bill = get(pool, user_id, bill_id).await?;
    let request = typed
        .to_payment(bill.currency().digits())
        .map_err(|violation| BillError::InvalidFields(vec![violation]))?;
    record_for(pool, user_id, &bill, &request).await
}

async fn record_for(
    pool: &SqlitePool,
    user_id: i64,
    bill: &Bill,
    request: &RecordPayment,
) -> Result<Payment, BillError> {
    let paid_on = match request
        .paid_on
        .as_deref()
        .map(str::trim)
        .filter(|date| !date.is_empty())
    {
        Some(text) => Date::parse(text)
            .map_err(|_| invalid("paidOn", "enter the payment date, like 2026-01-31"))?,
        None => super::store::today_for(pool, user_id).await?,
    };
    let for_occurrence = match request
        .for_occurrence
        .as_deref()
        .map(str::trim)
        .filter(|date| !date.is_empty())
    {
        Some(text) => Some(due_date_of(bill, text)?),
        None => None,
    };
    let payment = NewPayment {
        amount_minor: request.amount_minor.unwrap_or(bill.amount_minor),
        paid_on,
        method: request.method.clone(),
        for_occurrence,
    };
    record_payment(pool, user_id, bill.id, &payment).await
}

/// `text` as one of `bill`'s due dates (as scheduled, before any snooze),
/// for a payment's `forOccurrence`.
fn due_date_of(bill: &Bill, text: &str) -> Result<Date, BillError> {
    let field = "forOccurrence";
    let day = Date::parse(text)
        .map_err(|_| invalid(field, "enter the due date it pays, like 2026-01-31"))?;
    let (Some(cadence), Ok(anchor), Ok(due_day)) = (
        bill.cadence(),
        Date::parse(&bill.anchor_date),
        u8::try_from(bill.due_day),
    ) else {
        return Err(invalid(field, "this bill has no due dates to pay"));
    };
    match cadence.next_due(anchor, due_day, day) {
        Some(due) if due == day => Ok(day),
        Some(due) => Err(invalid(
            field,
            format!("{day} is not one of this bill's due dates; the next after it is {due}"),
        )),
        None => Err(invalid(field, "this bill has no due date then")),
    }
}

/// What the payment forms refuse of a payment's amount and method, as the
/// field (its API name) and why; `None` when both pass. The personal
/// import holds a file's payments to it too.
pub fn payment_problem(amount_minor: i64, method: &str) -> Option<(&'static str, String)> {
    if amount_minor < 0 {
        return Some(("amountMinor", "the amount cannot be negative".to_owned()));
    }
    let method = method.trim();
    if method.chars().count() > METHOD_MAX {
        return Some(("method", format!("use at most {METHOD_MAX} characters")));
    }
    plain_text_problem(method, Lines::One).map(|problem| ("method", problem))
}

/// Records a payment. On a debt the balance goes down by the payment and up
/// by the interest charged with it; a payment larger than that balance is
/// refused, so undoing it restores the balance exactly.
pub async fn record_payment(
    pool: &SqlitePool,
    user_id: i64,
    bill_id: i64,
    payment: &NewPayment,
) -> Result<Payment, BillError> {
    let mut tx = crate::backend::db::write(pool).await?;
    let id = record_payment_in(&mut tx, user_id, bill_id, payment).await?;
    tx.commit().await?;
    payment_by_id(pool, user_id, id).await
}

/// [`record_payment`] inside the caller's write transaction (a bank match
/// records the payment and links it as one step); the new payment's id.
pub async fn record_payment_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    user_id: i64,
    bill_id: i64,
    payment: &NewPayment,
) -> Result<i64, BillError> {
    if let Some((field, problem)) = payment_problem(payment.amount_minor, &payment.method) {
        return Err(invalid(field, problem));
    }
    let method = payment.method.trim();
    let method = if method.is_empty() { "manual" } else { method };
    let bill = stored::bill_for_update(tx, user_id, bill_id).await?;
    let mut interest = 0;
    if bill.debt {
        let balance = bill.balance_minor.unwrap_or(0);
        let accrued = bill
            .interest_accrued_month
            .as_deref()
            .and_then(YearMonth::parse);
        let charges = charges_due(
            balance,
            bill.apr_basis_points.unwrap_or(0),
            accrued,
            payment.paid_on.year_month(),
        );
        interest = charges.iter().map(|charge| charge.interest).sum::<i64>();
        let owed = balance + interest;
        if payment.amount_minor > owed {
            return Err(invalid(
                "amountMinor",
                format!("more than the {owed} (minor units) still owed, interest included"),
            ));
        }
        let charged_through = charges
            .last()
            .map(|charge| charge.month.to_string())
            .or(bill.interest_accrued_month.clone());
        let owed = owed - payment.amount_minor;
        stored::set_balance(tx, user_id, bill_id, owed, charged_through.as_deref()).await?;
    }
    let paid_on = payment.paid_on.to_string();
    let for_occurrence = payment.for_occurrence.map(|due| due.to_string());
    let row = stored::NewRow {
        amount_minor: payment.amount_minor,
        paid_on: &paid_on,
        method,
        interest_delta_minor: interest,
        for_occurrence: for_occurrence.as_deref(),
    };
    let id = stored::insert(tx, user_id, bill_id, &row).await?;
    Ok(id)
}

/// One of the user's payments.
pub async fn payment_by_id(pool: &SqlitePool, user_id: i64, id: i64) -> Result<Payment, BillError> {
    let mut conn = pool.acquire().await?;
    stored::one(&mut conn, user_id, id).await
}

/// Undoes a payment: a debt's balance is restored and the interest charged
/// with the payment is taken back (its months become uncharged again).
pub async fn undo_payment(
    pool: &SqlitePool,
    user_id: i64,
    payment_id: i64,
) -> Result<(), BillError> {
    let mut tx = crate::backend::db::write(pool).await?;
    undo_payment_in(&mut tx, user_id, payment_id).await?;
    tx.commit().await?;
    Ok(())
}

/// [`undo_payment`] inside the caller's write transaction (a bank unmatch
/// undoes the payment and unlinks the transaction as one step).
pub async fn undo_payment_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    user_id: i64,
    payment_id: i64,
) -> Result<(), BillError> {
    let payment = stored::one(tx, user_id, payment_id).await?;
    if payment.is_interest_charge() {
        // The accrual would only charge the month again.
        return Err(invalid(
            "paymentId",
            "an interest charge cannot be undone; edit the debt's balance instead",
        ));
    }
    let bill = stored::bill_for_update(tx, user_id, payment.bill_id).await?;
    stored::delete(tx, user_id, payment_id).await?;
    if bill.debt {
        let restored =
            bill.balance_minor.unwrap_or(0) + payment.amount_minor - payment.interest_delta_minor;
        let accrued = if payment.interest_delta_minor > 0 {
            // The months this payment charged become uncharged: back to
            // the month charged before it, or to the latest charge left
            // when that is later (a charge after it stays).
            let before = Date::parse(&payment.paid_on).ok().and_then(|paid| {
                charged_through_before(
                    restored,
                    bill.apr_basis_points.unwrap_or(0),
                    payment.interest_delta_minor,
                    paid.year_month(),
                )
            });
            let left = stored::last_month_charged(tx, payment.bill_id)
                .await?
                .as_deref()
                .and_then(YearMonth::parse);
            before.max(left).map(|month| month.to_string())
        } else {
            bill.interest_accrued_month.clone()
        };
        let restored = restored.max(0);
        stored::set_balance(tx, user_id, payment.bill_id, restored, accrued.as_deref()).await?;
    }
    Ok(())
}

/// Marks (or clears) a payment as a failed autopay, after the fact.
pub async fn flag_autopay_failure(
    pool: &SqlitePool,
    user_id: i64,
    payment_id: i64,
    failed: bool,
) -> Result<Payment, BillError> {
    let changed = stored::set_autopay_failure(pool, user_id, payment_id, failed).await?;
    found(changed)?;
    payment_by_id(pool, user_id, payment_id).await
}
