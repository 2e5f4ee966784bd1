//! One subscription recommendation: the service, its amount (a range when
//! amounts vary, a notice when the price rose) and cadence, how sure Tally
//! is, one primary action (Track Subscription, or Link Existing Bill when
//! the person likely has it already), a Details button that shows the
//! evidence in words and the charges behind it, and a compact More menu
//! (decline, not a subscription, another service). Ambiguous ones carry a
//! Review mark (spec, Versioning 5).

use leptos::prelude::*;

use crate::api::bills::get_catalog;
use crate::api::subscriptions::{
    decline_suggested_service, link_suggested_service, relink_suggested_service,
    track_suggested_service,
};
use crate::api::ApiFailure;
use crate::contract::bills::CatalogService;
use crate::contract::subscriptions::{
    DeclineRecommendation, LinkRecommendation, Recommendation, RelinkRecommendation,
};
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
    let busy = RwSignal::new(false);
    let details_open = RwSignal::new(false);
    let relinking = RwSignal::new(false);
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
    // Runs one action; the page reloads once it is done.
    let act = move |work: std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<String, ApiFailure>>>,
    >| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            match work.await {
                Ok(said) => {
                    events.failed.set(None);
                    events.changed.run(said);
                }
                Err(failure) => events.failed.set(Some(failure.message())),
            }
            busy.set(false);
        });
    };
    let primary = match (r.suggested_bill_id, r.suggested_bill_name.clone()) {
        (Some(bill_id), Some(bill_name)) => {
            let id = id.clone();
            let name = name.clone();
            let label = format!("Link Existing Bill ({bill_name})");
            view! {
                <button type="button" class="button" disabled=move || busy.get()
                    on:click=move |_| {
                        let id = id.clone();
                        let said = format!("{} linked to {bill_name}.", name);
                        act(Box::pin(async move {
                            link_suggested_service(id, LinkRecommendation { bill_id })
                                .await
                                .map(|_| said)
                                .map_err(ApiFailure::from)
                        }))
                    }>{label}</button>
            }
            .into_any()
        }
        _ => {
            let id = id.clone();
            let name = name.clone();
            view! {
                <button type="button" class="button" disabled=move || busy.get()
                    on:click=move |_| {
                        let id = id.clone();
                        let said = format!("{name} is tracked.");
                        act(Box::pin(async move {
                            track_suggested_service(id).await.map(|_| said).map_err(ApiFailure::from)
                        }))
                    }>"Track Subscription"</button>
            }
            .into_any()
        }
    };
    let decline = {
        let id = id.clone();
        let name = name.clone();
        move |reason: Option<&'static str>| {
            let id = id.clone();
            let said = format!("{name} will not be suggested again unless its price changes.");
            act(Box::pin(async move {
                decline_suggested_service(
                    id,
                    DeclineRecommendation {
                        reason: reason.map(str::to_owned),
                    },
                )
                .await
                .map(|_| said)
                .map_err(ApiFailure::from)
            }))
        }
    };
    let decline_not = decline.clone();
    let evidence = r.evidence.clone();
    let transactions = r.transactions.clone();
    let alternatives = r.alternatives.clone();
    let relink_id = id.clone();
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
                        <button type="button" class="button button--quiet" disabled=move || busy.get()
                            on:click=move |_| decline(None)>"Decline"</button>
                        <button type="button" class="button button--quiet" disabled=move || busy.get()
                            on:click=move |_| decline_not(Some("not_a_subscription"))>"Not a subscription"</button>
                        <button type="button" class="button button--quiet"
                            on:click=move |_| relinking.set(true)>"Link to another service…"</button>
                    </div>
                </details>
            </div>
            {move || relinking.get().then(|| view! {
                <Relink id=relink_id.clone() alternatives=alternatives.clone() busy act_changed=events/>
            })}
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
/// services first, then the whole catalog.
#[component]
fn Relink(
    id: String,
    alternatives: Vec<CatalogService>,
    busy: RwSignal<bool>,
    act_changed: CardEvents,
) -> impl IntoView {
    let catalog = crate::api::BrowserResource::new(|| async {
        get_catalog(None).await.map_err(ApiFailure::from)
    });
    let chosen = RwSignal::new(String::new());
    let select_id = format!("relink-{id}");
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let Ok(catalog_id) = chosen.get_untracked().parse::<i64>() else {
            act_changed
                .failed
                .set(Some("service: choose the service these charges are".into()));
            return;
        };
        let id = id.clone();
        busy.set(true);
        leptos::task::spawn_local(async move {
            match relink_suggested_service(id, RelinkRecommendation { catalog_id }).await {
                Ok(()) => act_changed.changed.run("Linked to that service.".into()),
                Err(failure) => act_changed
                    .failed
                    .set(Some(ApiFailure::from(failure).message())),
            }
            busy.set(false);
        });
    };
    view! {
        <form class="inline-form" on:submit=submit>
            <label for=select_id.clone()>"These charges are"</label>
            <select id=select_id on:change=move |event| chosen.set(event_target_value(&event))>
                <option value="">"Choose a service"</option>
                {alternatives.into_iter().map(|s| view! { <option value=s.id.to_string()>{s.name}</option> }).collect_view()}
                {move || catalog.get().and_then(Result::ok).map(|all| all.services.into_iter().map(|s| {
                    view! { <option value=s.id.to_string()>{s.name}</option> }
                }).collect_view())}
            </select>
            <button type="submit" class="button" disabled=move || busy.get()>"Link"</button>
        </form>
    }
}
