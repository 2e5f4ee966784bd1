//! Matching bank transactions to bills. A match records the payment (method
//! `bank`, the transaction's date and amount) through the same
//! `record_payment` as a payment made by hand, so a debt's interest is
//! handled exactly alike, and links it to the transaction; a payment
//! already recorded by hand for that bill within a few days is linked
//! instead of paid twice. Matching an autopay bill verifies its autopay.
//! Unmatching undoes the payment (the bill and its interest restored); a
//! returned debit's unmatch clears the failure it flagged.
//!
//! A match is one write transaction (the payment, its link, the autopay
//! marks and a remembered rule), and so is an unmatch: a failure part-way
//! leaves nothing behind, never a payment without its transaction.
//!
//! Automatic matching, which every sync runs (`sync::run`), uses only the
//! merchant rules the user confirmed, and applies a rule only when it names
//! exactly one bill. Transfers, card payments, refunds and money in are
//! never matched.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::store::matching::{self as stored, Candidate};
use super::BankError;
use crate::backend::bills::{self as payments, NewPayment};
use crate::contract::bank::{BankTransaction, MatchTransaction};
use crate::domain::bank::merchant;
use crate::domain::date::Date;

/// How far a payment made by hand may be from the transaction's date and
/// still be the same payment.
const SAME_PAYMENT_DAYS: i64 = 5;
/// Transactions older than this are left alone by automatic matching.
const AUTO_MATCH_DAYS: i64 = 45;

async fn candidate(pool: &SqlitePool, user_id: i64, id: i64) -> Result<Candidate, BankError> {
    stored::candidate(pool, user_id, id)
        .await?
        .ok_or_else(|| BankError::NotFound(format!("no transaction {id}")))
}

/// One transaction as the contract shows it.
pub async fn transaction(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<BankTransaction, BankError> {
    super::store::transactions::one(pool, user_id, id)
        .await?
        .ok_or_else(|| BankError::NotFound(format!("no transaction {id}")))
}

/// Matches a transaction to one of the user's bills by hand; `remember`
/// teaches the merchant rule (refused for a payee too short or generic).
pub async fn match_by_hand(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    request: MatchTransaction,
) -> Result<BankTransaction, BankError> {
    let found = candidate(pool, user_id, id).await?;
    if found.pending {
        return Err(BankError::field(
            "transactionId",
            "a pending transaction can be matched once it has posted",
        ));
    }
    if found.bill_id.is_some() {
        return Err(BankError::field(
            "transactionId",
            "this transaction is already matched; unmatch it first",
        ));
    }
    if merchant::never_a_bill(&found.description, found.amount_cents) {
        return Err(BankError::field(
            "transactionId",
            "money in, transfers, card payments and refunds are never a bill's payment",
        ));
    }
    let key = merchant::normalize(&found.description);
    if request.remember {
        if let Some(problem) = merchant::rule_problem(&key) {
            return Err(BankError::field("remember", problem));
        }
    }
    let mut tx = crate::backend::db::write(pool).await?;
    link(&mut tx, user_id, &found, request.bill_id, "manual").await?;
    if request.remember {
        stored::remember_rule(&mut tx, user_id, request.bill_id, &key).await?;
    }
    tx.commit().await?;
    transaction(pool, user_id, id).await
}

/// Records (or finds) the bill's payment for the transaction and links
/// them, inside the caller's write transaction.
async fn link(
    tx: &mut sqlx::Transaction<'static, sqlx::Sqlite>,
    user_id: i64,
    found: &Candidate,
    bill_id: i64,
    by: &str,
) -> Result<(), BankError> {
    let day = found.posted_at.get(..10).unwrap_or_default();
    let paid_on = Date::parse(day)
        .map_err(|_| BankError::Internal(format!("transaction {} has date {day:?}", found.id)))?;
    let by_hand = stored::payment_near(tx, user_id, bill_id, day, SAME_PAYMENT_DAYS).await?;
    let payment_id = match by_hand {
        Some(id) => id,
        None => {
            payments::record_payment_in(
                tx,
                user_id,
                bill_id,
                &NewPayment {
                    amount_minor: -found.amount_cents,
                    paid_on,
                    method: "bank".into(),
                    for_occurrence: None,
                },
            )
            .await?
        }
    };
    stored::link(tx, found.id, payment_id, bill_id, by).await?;
    // A debit that came late answers the due date it was missing for.
    super::autopay::clear_missed(tx, bill_id, day).await?;
    Ok(())
}

/// Undoes a match: the payment it recorded is undone (a debt's balance and
/// interest restored); one the user had recorded by hand stays, unlinked.
/// Automatic matching leaves the transaction alone from then on.
pub async fn unmatch(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<BankTransaction, BankError> {
    let found = candidate(pool, user_id, id).await?;
    if found.bill_id.is_none() {
        return Err(BankError::field(
            "transactionId",
            "this transaction is not matched",
        ));
    }
    let mut tx = crate::backend::db::write(pool).await?;
    if let Some(payment_id) = found.returns_payment_id {
        // A returned debit: the payment it failed counts again.
        super::autopay::unflag_return(&mut tx, payment_id).await?;
    }
    let payment = stored::linked_payment(&mut tx, user_id, id).await?;
    match payment {
        Some((payment_id, method)) if method == "bank" => {
            payments::undo_payment_in(&mut tx, user_id, payment_id).await?;
        }
        Some((payment_id, _)) => {
            stored::unlink_payment(&mut tx, payment_id).await?;
        }
        None => {}
    }
    stored::unmatch(&mut tx, user_id, id).await?;
    tx.commit().await?;
    transaction(pool, user_id, id).await
}

/// Ignores a transaction (or stops ignoring it): automatic matching and
/// suggestions leave it alone.
pub async fn set_ignored(
    pool: &SqlitePool,
    user_id: i64,
    id: i64,
    ignored: bool,
) -> Result<BankTransaction, BankError> {
    candidate(pool, user_id, id).await?;
    stored::set_ignored(pool, user_id, id, ignored).await?;
    transaction(pool, user_id, id).await
}

/// Matches the user's recent unmatched debits through their merchant
/// rules; a payee whose rules name more than one bill is left for the user.
/// Returns how many were matched; none while a personal import of the
/// user's is being copied.
pub async fn auto_match(pool: &SqlitePool, user_id: i64) -> Result<u32, BankError> {
    // Half an import's bills and payments would match twice: the next
    // sync matches once it is whole.
    if crate::backend::personal_data::service::importing(pool, user_id).await? {
        return Ok(0);
    }
    // The user's rules, read once: payee key → the active bills it names.
    let mut rules: HashMap<String, Vec<i64>> = HashMap::new();
    for (merchant, bill_id) in stored::rules(pool, user_id).await? {
        rules.entry(merchant).or_default().push(bill_id);
    }
    if rules.is_empty() {
        return Ok(0);
    }
    let window = format!("-{AUTO_MATCH_DAYS} days");
    let candidates = stored::unmatched_debits(pool, user_id, &window).await?;
    let mut matched = 0;
    for found in candidates {
        if merchant::never_a_bill(&found.description, found.amount_cents) {
            continue;
        }
        let key = merchant::normalize(&found.description);
        if let Some([bill_id]) = rules.get(&key).map(Vec::as_slice) {
            let mut tx = crate::backend::db::write(pool).await?;
            let linked = match link(&mut tx, user_id, &found, *bill_id, "auto").await {
                Ok(()) => tx.commit().await.map_err(BankError::from),
                Err(error) => Err(error),
            };
            match linked {
                Ok(()) => matched += 1,
                // A payment the bill refuses (more than a debt's balance):
                // left for the user to look at.
                Err(error) => {
                    tracing::info!(transaction = found.id, %error, "automatic match skipped");
                }
            }
        }
    }
    Ok(matched)
}
