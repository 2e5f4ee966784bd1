//! The Tracker's row actions on one occurrence: mark paid, skip (and undo),
//! snooze, this time's amount and a note. Each takes form fields, so the
//! Tracker's `ActionForm`s post them as they are without JavaScript too
//! (the server lets such a post through when its `Origin` is this site),
//! over the same `ssr::bill_months` service as `/api/bills/{id}/months/…`.

use leptos::prelude::*;

use super::CsrfClient;
use crate::contract::bill_months::BillMonth;
use crate::contract::bills::Payment;
use crate::contract::error::ErrorBody;
#[cfg(feature = "ssr")]
use crate::ssr::api_error::ApiError;

/// Records a payment of the bill today ("mark paid"): `amount` (minor
/// units: this time's, from the row), else the bill's usual amount.
#[server(prefix = "/api/fn", endpoint = "tracker/pay", client = CsrfClient)]
pub async fn pay_now(bill: i64, amount: Option<i64>) -> Result<Payment, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(crate::ssr::bills::record_requested(
        me.pool(),
        me.current.user.id,
        bill,
        &crate::contract::bills::RecordPayment {
            amount_minor: amount,
            ..crate::contract::bills::RecordPayment::default()
        },
    )
    .await
    .map_err(ApiError::from)?)
}

/// Skips the occurrence (`undo` present: takes the skip back).
#[server(prefix = "/api/fn", endpoint = "tracker/skip", client = CsrfClient)]
pub async fn skip_occurrence(
    bill: i64,
    occurrence: String,
    undo: Option<String>,
) -> Result<BillMonth, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    let skipped = undo.is_none();
    Ok(crate::ssr::bill_months::service::amend(
        me.pool(),
        me.current.user.id,
        bill,
        &occurrence,
        |change| change.skipped = skipped,
    )
    .await
    .map_err(ApiError::from)?)
}

/// Moves the occurrence to `to` (empty: back to its scheduled date).
#[server(prefix = "/api/fn", endpoint = "tracker/snooze", client = CsrfClient)]
pub async fn snooze_occurrence(
    bill: i64,
    occurrence: String,
    to: Option<String>,
) -> Result<BillMonth, ErrorBody> {
    use crate::domain::date::Date;
    let me = super::signed_in::signed_in().await?;
    let to = match to.filter(|text| !text.trim().is_empty()) {
        Some(text) => Some(
            Date::parse(text.trim()).map_err(|_| ApiError::InvalidField {
                field: "snoozedTo".into(),
                description: "use a date like 2026-12-05".into(),
            })?,
        ),
        None => None,
    };
    Ok(crate::ssr::bill_months::service::amend(
        me.pool(),
        me.current.user.id,
        bill,
        &occurrence,
        |change| change.snoozed_to = to,
    )
    .await
    .map_err(ApiError::from)?)
}

/// This time's amount (empty: the usual one) and a note (empty: none).
#[server(prefix = "/api/fn", endpoint = "tracker/this-time", client = CsrfClient)]
pub async fn change_this_time(
    bill: i64,
    occurrence: String,
    amount: Option<String>,
    note: Option<String>,
) -> Result<BillMonth, ErrorBody> {
    use crate::domain::amount::Amount;
    let me = super::signed_in::signed_in().await?;
    let amount = match amount.filter(|text| !text.trim().is_empty()) {
        Some(text) => Some(
            Amount::parse(&text)
                .map_err(|problem| ApiError::InvalidField {
                    field: "amountMinor".into(),
                    description: problem.to_string(),
                })?
                .minor(),
        ),
        None => None,
    };
    Ok(crate::ssr::bill_months::service::amend(
        me.pool(),
        me.current.user.id,
        bill,
        &occurrence,
        |change| {
            change.amount_minor = amount;
            change.note = note;
        },
    )
    .await
    .map_err(ApiError::from)?)
}
