//! The Tracker's amber panel of bills whose charges drifted from what
//! Tally expects: the evidence (the last three months), "Update to" (with
//! undo) and "Dismiss", each a form that posts without JavaScript too
//! (through the Tracker's one write, [`TrackerAct`]).

use leptos::prelude::*;

use crate::api::tracker_act::TrackerAct;
use crate::components::csrf_field::CsrfField;
use crate::contract::drift::{AmountChanged, DriftingBill, Drifts};
use crate::domain::money::{Currency, Locale, Money};

#[component]
fn DriftRow(bill: DriftingBill, act: ServerAction<TrackerAct>, locale: Locale) -> impl IntoView {
    let currency = Currency::parse(&bill.currency).unwrap_or(Currency::USD);
    let money = move |minor: i64| Money::new(minor, currency).format(locale);
    let evidence = bill
        .months
        .iter()
        .map(|month| format!("{}: {}", month.month, money(month.paid_minor)))
        .collect::<Vec<_>>()
        .join(" · ");
    let update = format!("Update to {}", money(bill.median_minor));
    let said = format!(
        " was charged about {} lately; Tally expects {}.",
        money(bill.median_minor),
        money(bill.expected_minor)
    );
    let dismiss = format!("Dismiss {}", bill.name);
    let id = bill.bill_id;
    view! {
        <li data-testid="drift">
            <p><strong>{bill.name}</strong>{said}</p>
            <p class="hint">{evidence}</p>
            <div class="actions">
                <ActionForm action=act attr:class="inline-form">
                    <CsrfField/>
                    <input type="hidden" name="act" value="accept-drift"/>
                    <input type="hidden" name="bill" value=id/>
                    <button type="submit" class="button">{update}</button>
                </ActionForm>
                <ActionForm action=act attr:class="inline-form">
                    <CsrfField/>
                    <input type="hidden" name="act" value="dismiss-drift"/>
                    <input type="hidden" name="bill" value=id/>
                    <button type="submit" class="button button--quiet" aria-label=dismiss>"Dismiss"</button>
                </ActionForm>
            </div>
        </li>
    }
}

/// "Updated. Undo" after "Update to", until the next write.
#[component]
fn Updated(changed: AmountChanged, act: ServerAction<TrackerAct>) -> impl IntoView {
    view! {
        <div class="notice" role="status">
            <span>"Updated the bill's amount. "</span>
            <ActionForm action=act attr:class="inline-form">
                <CsrfField/>
                <input type="hidden" name="act" value="undo-drift"/>
                <input type="hidden" name="bill" value=changed.bill_id/>
                <input type="hidden" name="amount" value=changed.previous_minor/>
                <button type="submit" class="button button--quiet">"Undo"</button>
            </ActionForm>
        </div>
    }
}

#[component]
pub fn DriftPanel(found: Drifts, act: ServerAction<TrackerAct>, locale: Locale) -> impl IntoView {
    // The last write, when it was "Update to".
    let updated = move || {
        act.value()
            .get()
            .and_then(Result::ok)
            .and_then(|done| done.drift)
    };
    view! {
        {move || updated().map(|changed| view! { <Updated changed act/> })}
        {(!found.bills.is_empty()).then(|| view! {
            <section class="drift-panel" aria-labelledby="drift-title" data-testid="drift-panel">
                <h2 id="drift-title">"Charged a different amount"</h2>
                <ul>
                    {found.bills.into_iter().map(|bill| view! { <DriftRow bill act locale/> }).collect_view()}
                </ul>
            </section>
        })}
    }
}
