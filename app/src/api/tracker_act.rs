//! Every write of the Tracker's rows and its drift panel, as one server
//! function: mark paid, skip (and undo), snooze, this time's amount and a
//! note, "Update to" a drifted amount (and undo), and dismiss a drift.
//! One function (with `act` naming the write) rather than one each keeps
//! the Tracker's bundle small: each `ActionForm` type brings its own form
//! decoding into the WASM. The forms post their fields as they are, so they
//! work without JavaScript too (the CSRF token rides in their
//! `csrf_token` field), over the same services as REST.

// A form's fields are a server function's arguments, one each.
#![allow(clippy::too_many_arguments)]

use leptos::prelude::*;

use super::CsrfClient;
use crate::contract::drift::AmountChanged;
use crate::contract::error::ErrorBody;

/// What a Tracker write did, as far as the page needs to know.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Acted {
    /// After "Update to": the bill's amount before, for Undo.
    pub drift: Option<AmountChanged>,
}

/// The write `act` names ([`TrackerWrite::read`] says which, and what
/// each needs of the other fields); `bill` is not read by `pin-due` and
/// `unpin-due` (the user's order of the Tracker).
#[server(prefix = "/api/fn", endpoint = "tracker/act", client = CsrfClient)]
pub async fn tracker_act(
    act: String,
    bill: i64,
    occurrence: Option<String>,
    amount: Option<String>,
    note: Option<String>,
    to: Option<String>,
) -> Result<Acted, ErrorBody> {
    use crate::backend::{bill_months, bills, drift, preferences};
    use crate::contract::bills::RecordPayment;
    use crate::domain::tracker_write::{TrackerFields, TrackerWrite};
    let me = super::signed_in::as_declared::<TrackerAct>().await?;
    let fields = TrackerFields {
        occurrence,
        amount,
        note,
        to,
    };
    let write = TrackerWrite::read(&act, fields)?;
    let (pool, user) = (me.pool(), me.current.user.id);
    match write {
        TrackerWrite::Pay {
            amount_minor,
            occurrence,
        } => {
            let payment = RecordPayment {
                amount_minor,
                for_occurrence: occurrence,
                ..RecordPayment::default()
            };
            bills::record_requested(pool, user, bill, &payment).await?;
        }
        TrackerWrite::Amend { occurrence, change } => {
            bill_months::service::amend(pool, user, bill, &occurrence, |to| change.apply(to))
                .await?;
        }
        TrackerWrite::AcceptDrift => {
            let drift = Some(drift::service::accept(pool, user, bill).await?);
            return Ok(Acted { drift });
        }
        TrackerWrite::UndoDrift { amount_minor } => {
            drift::service::set_amount(pool, user, bill, amount_minor).await?;
        }
        TrackerWrite::DismissDrift => drift::service::dismiss(pool, user, bill).await?,
        TrackerWrite::PinDue(on) => preferences::set_pin_due(pool, user, on).await?,
    }
    Ok(Acted::default())
}
