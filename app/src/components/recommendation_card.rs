//! One subscription recommendation: the service, its amount (a range when
//! amounts vary, a notice when the price rose) and cadence, how sure Tally
//! is, one primary action (Track Subscription, or Link Existing Bill when
//! the person likely has it already), a Details button that shows the
//! evidence in words and the charges behind it, and a compact More menu
//! (decline, not a subscription, another service). Ambiguous ones carry a
//! Review mark (spec, Versioning 5). Each action is a form that posts
//! without JavaScript too.

use leptos::prelude::*;

use crate::api::bills::get_catalog;
use crate::api::subscriptions::{
    DeclineSuggestedService, LinkSuggestedService, RelinkSuggestedService, TrackSuggestedService,
};
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::contract::bills::CatalogService;
use crate::contract::subscriptions::Recommendation;
use crate::domain::money::Money;
use crate::domain::timestamp;

/// What a card's actions report to the page.
#[derive(Clone, Copy)]
pub struct CardEvents {
    /// Something changed: reload recommendations and tracked bills.
    pub changed: Callback<String>,
    pub failed: RwSignal<Option<String>>,
}

#[component]
pub fn RecommendationCard(recommendation: Recommendation, events: CardEvents) -> impl IntoView {
    let r = recommendation;
    let id = r.id.clone();
    let name = r.service_name.clone();
    let details_open = RwSignal::new(false);
    let details_id = format!("rec-details-{}", r.id);
    let money = |minor: i64| Money::shown(minor, &r.currency);
    let amount = if r.evidence.amount.pattern == "range" {
        format!(
            "{}–{}",
            money(r.evidence.amount.low_minor),
            money(r.evidence.amount.high_minor)
        )
    } else {
        money(r.amount_minor)
    };
    let rise = r.evidence.amount.price_rise.then(|| {
        format!(
            "Price rise: {} → {} on {}",
            money(r.evidence.amount.from_minor.unwrap_or_default()),
            money(r.evidence.amount.to_minor.unwrap_or_default()),
            r.evidence.amount.changed_on.clone().unwrap_or_default()
        )
    });
    // Each action is a form that posts without JavaScript too; with it,
    // the page reloads the lists once one is done.
    let track = ServerAction::<TrackSuggestedService>::new();
    let link = ServerAction::<LinkSuggestedService>::new();
    let decline = ServerAction::<DeclineSuggestedService>::new();
    let relink = ServerAction::<RelinkSuggestedService>::new();
    let heard = move |said: String| {
        move |answer: Result<(), ApiFailure>| match answer {
            Ok(()) => {
                events.failed.set(None);
                events.changed.run(said.clone());
            }
            Err(failure) => events.failed.set(Some(failure.message())),
        }
    };
    let tracked = heard(format!("{name} is tracked."));
    api::each_answer(track, move |answer| tracked(answer.map(drop)));
    let linked = heard(format!(
        "{name} linked to {}.",
        r.suggested_bill_name.clone().unwrap_or_default()
    ));
    api::each_answer(link, move |answer| linked(answer.map(drop)));
    api::each_answer(
        decline,
        heard(format!(
            "{name} will not be suggested again unless its price changes."
        )),
    );
    api::each_answer(relink, heard("Linked to that service.".to_owned()));
    let busy = Signal::derive(move || {
        track.pending().get()
            || link.pending().get()
            || decline.pending().get()
            || relink.pending().get()
    });
    let primary_id = id.clone();
    let primary = match (r.suggested_bill_id, r.suggested_bill_name.clone()) {
        (Some(bill_id), Some(bill_name)) => view! {
            <ActionForm action=link attr:class="inline-form">
                <CsrfField/>
                <input type="hidden" name="id" value=primary_id/>
                <input type="hidden" name="request[billId]" value=bill_id/>
                <button type="submit" class="button" disabled=move || busy.get()>
                    {format!("Link Existing Bill ({bill_name})")}
                </button>
            </ActionForm>
        }
        .into_any(),
        _ => view! {
            <ActionForm action=track attr:class="inline-form">
                <CsrfField/>
                <input type="hidden" name="id" value=primary_id/>
                <button type="submit" class="button" disabled=move || busy.get()>"Track Subscription"</button>
            </ActionForm>
        }
        .into_any(),
    };
    let evidence = r.evidence.clone();
    let transactions = r.transactions.clone();
    let alternatives = r.alternatives.clone();
    let relink_id = id.clone();
    let decline_id = id.clone();
    view! {
        <li class="card recommendation" data-testid="recommendation" data-service=name.clone()>
            <div class="card-head">
                <h3>{name.clone()}</h3>
                {r.ambiguous.then(|| view! {
                    <span class="badge badge--warn" title="The bank descriptor fits several services">"Review"</span>
                })}
                <span class="hint">{format!("{} % sure", r.confidence)}</span>
            </div>
            <p>
                <strong>{amount}</strong>" · "{r.cadence_label.clone()}
                <span class="hint">{format!(" · {} a year · last charged {}", money(r.yearly_minor), r.last_charged)}</span>
            </p>
            {rise.map(|text| view! { <p class="notice" data-testid="price-rise">{text}</p> })}
            {(r.evidence.cadence.source == "catalog").then(|| {
                let seen = match r.evidence.cadence.charges {
                    1 => "one charge so far".to_owned(),
                    n => format!("{n} charges, no steady interval yet"),
                };
                view! { <p class="hint">"Candidate: "{seen}</p> }
            })}
            <div class="actions">
                {primary}
                <button type="button" class="button button--quiet" aria-expanded=move || details_open.get().to_string()
                    aria-controls=details_id.clone() aria-label=format!("Details of {name}")
                    on:click=move |_| details_open.update(|open| *open = !*open)>"ⓘ Details"</button>
                <details class="more">
                    <summary class="button button--quiet" aria-label=format!("More actions for {}", r.service_name)>"More ▾"</summary>
                    <div class="menu">
                        <ActionForm action=decline>
                            <CsrfField/>
                            <input type="hidden" name="id" value=decline_id/>
                            <button type="submit" class="button button--quiet"
                                disabled=move || busy.get()>"Decline"</button>
                            <button type="submit" name="request[reason]" value="not_a_subscription"
                                class="button button--quiet" disabled=move || busy.get()>"Not a subscription"</button>
                        </ActionForm>
                        <details class="relink">
                            <summary class="button button--quiet">"Link to another service…"</summary>
                            <Relink id=relink_id alternatives relink busy/>
                        </details>
                    </div>
                </details>
            </div>
            <div id=details_id.clone() hidden=move || !details_open.get() data-testid="recommendation-details">
                <dl class="evidence">
                    <dt>"Who"</dt><dd>{evidence.identity.summary.clone()}</dd>
                    <dt>"Amount"</dt><dd>{evidence.amount.summary.clone()}</dd>
                    <dt>"How often"</dt><dd>{evidence.cadence.summary.clone()}</dd>
                </dl>
                <table class="data-table">
                    <caption>"The charges"</caption>
                    <thead><tr><th>"Date"</th><th>"Description"</th><th>"Amount"</th></tr></thead>
                    <tbody>{transactions.into_iter().map(|t| view! {
                        <tr>
                            <td>{timestamp::day(&t.posted_at).to_owned()}</td>
                            <td>{t.description.clone()}</td>
                            <td>{Money::shown(t.amount_minor, &t.currency)}</td>
                        </tr>
                    }).collect_view()}</tbody>
                </table>
            </div>
        </li>
    }
}

/// Picks the service these charges really are: the descriptor's other
/// services first, then (with JavaScript) the whole catalog.
#[component]
fn Relink(
    id: String,
    alternatives: Vec<CatalogService>,
    relink: ServerAction<RelinkSuggestedService>,
    busy: Signal<bool>,
) -> impl IntoView {
    let catalog = crate::api::BrowserResource::new(|| async {
        get_catalog(None).await.map_err(ApiFailure::from)
    });
    let select_id = format!("relink-{id}");
    view! {
        <ActionForm action=relink attr:class="inline-form">
            <CsrfField/>
            <input type="hidden" name="id" value=id/>
            <label for=select_id.clone()>"These charges are"</label>
            <select id=select_id name="request[catalogId]" required>
                <option value="">"Choose a service"</option>
                {alternatives.into_iter().map(|s| view! { <option value=s.id>{s.name}</option> }).collect_view()}
                {move || catalog.get().and_then(Result::ok).map(|all| all.services.into_iter().map(|s| {
                    view! { <option value=s.id>{s.name}</option> }
                }).collect_view())}
            </select>
            <button type="submit" class="button" disabled=move || busy.get()>"Link"</button>
        </ActionForm>
    }
}
