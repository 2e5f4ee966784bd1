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
#[cfg(feature = "ssr")]
use crate::backend::api_error::ApiError;
use crate::contract::drift::AmountChanged;
use crate::contract::error::ErrorBody;

/// What a Tracker write did, as far as the page needs to know.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Acted {
    /// After "Update to": the bill's amount before, for Undo.
    pub drift: Option<AmountChanged>,
}

/// The writes `act` names: `pay` (`amount`: minor units, else the bill's),
/// `skip`, `unskip`, `snooze` (`to`, empty: back), `this-time` (`amount`
/// as typed, `note`), `accept-drift`, `undo-drift` (`amount`: minor units)
/// and `dismiss-drift`; and `pin-due` / `unpin-due` (the user's order of
/// the Tracker; `bill` is not read).
#[server(prefix = "/api/fn", endpoint = "tracker/act", client = CsrfClient)]
pub async fn tracker_act(
    act: String,
    bill: i64,
    occurrence: Option<String>,
    amount: Option<String>,
    note: Option<String>,
    to: Option<String>,
) -> Result<Acted, ErrorBody> {
    use crate::backend::bill_months::service as months;
    use crate::backend::drift::service as drift;
    use crate::domain::amount::Amount;
    use crate::domain::date::Date;
    let me = super::signed_in::signed_in().await?;
    let (pool, user) = (me.pool(), me.current.user.id);
    let given = |text: Option<String>| text.filter(|text| !text.trim().is_empty());
    let invalid = |field: &str, description: &str| ApiError::InvalidField {
        field: field.into(),
        description: description.into(),
    };
    let minor = |text: Option<String>| -> Result<Option<i64>, ApiError> {
        given(text)
            .map(|text| {
                text.trim()
                    .parse::<i64>()
                    .map_err(|_| invalid("amountMinor", "send the amount in minor units"))
            })
            .transpose()
    };
    let occurrence =
        || given(occurrence.clone()).ok_or_else(|| invalid("occurrence", "name the due date"));
    match act.as_str() {
        "pay" => {
            let payment = crate::contract::bills::RecordPayment {
                amount_minor: minor(amount)?,
                ..crate::contract::bills::RecordPayment::default()
            };
            crate::backend::bills::record_requested(pool, user, bill, &payment).await?;
        }
        "skip" | "unskip" => {
            let skipped = act == "skip";
            months::amend(pool, user, bill, &occurrence()?, |change| {
                change.skipped = skipped
            })
            .await?;
        }
        "snooze" => {
            let to = given(to)
                .map(|text| {
                    Date::parse(text.trim())
                        .map_err(|_| invalid("snoozedTo", "use a date like 2026-12-05"))
                })
                .transpose()?;
            months::amend(pool, user, bill, &occurrence()?, |change| {
                change.snoozed_to = to
            })
            .await?;
        }
        "this-time" => {
            let amount = given(amount)
                .map(|text| {
                    Amount::parse(&text)
                        .map(Amount::minor)
                        .map_err(|problem| invalid("amountMinor", &problem.to_string()))
                })
                .transpose()?;
            months::amend(pool, user, bill, &occurrence()?, |change| {
                change.amount_minor = amount;
                change.note = note;
            })
            .await?;
        }
        "accept-drift" => {
            let changed = drift::accept(pool, user, bill).await?;
            return Ok(Acted {
                drift: Some(changed),
            });
        }
        "undo-drift" => {
            let amount = minor(amount)?
                .ok_or_else(|| invalid("amountMinor", "send the amount to go back to"))?;
            drift::set_amount(pool, user, bill, amount).await?;
        }
        "dismiss-drift" => drift::dismiss(pool, user, bill).await?,
        "pin-due" | "unpin-due" => {
            crate::backend::preferences::set_pin_due(pool, user, act == "pin-due").await?
        }
        _ => return Err(invalid("act", "not a Tracker action").into()),
    }
    Ok(Acted::default())
}
