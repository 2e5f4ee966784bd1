//! `/subscriptions/catalog`, the Service Catalog: the person's tracked
//! services with how their price compares to the catalog's (re-link or
//! unlink each), the bank descriptors they taught Tally (add, delete), and
//! every known service, searchable through the address (`?q=`, so a search
//! works before the page's code arrives), to track one at a time or
//! several at once. It all arrives with the page, whose code is loaded
//! with the Subscriptions page's (`subscriptions::SubscriptionsRoute`), and
//! each write is a form that posts without JavaScript too.

use std::collections::BTreeSet;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::bills::get_catalog;
use leptos::server_fn::ServerFn;

use crate::api::subscriptions::{
    get_own_descriptors, get_tracked_services, AddOwnDescriptor, DeleteOwnDescriptor,
    SetCatalogLink, TrackCatalogServices,
};
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::contract::bills::{BillRecord, CatalogService};
use crate::contract::error::ErrorBody;
use crate::contract::subscriptions::{OwnDescriptor, TrackedBills, TrackedService};
use crate::domain::money::Money;

/// What a change reports to the page.
#[derive(Clone, Copy)]
struct Events {
    said: RwSignal<Option<String>>,
    failed: RwSignal<Option<String>>,
    refresh: Callback<()>,
}

impl Events {
    /// Hears `action`'s answers: on success says what `done` words and
    /// reloads the page's data, otherwise says what was refused.
    fn follow<S>(self, action: ServerAction<S>, done: impl Fn(&S::Output) -> String + 'static)
    where
        S: ServerFn<Error = ErrorBody> + Clone + Send + Sync + 'static,
        S::Output: Clone + Send + Sync + 'static,
    {
        api::each_answer(action, move |answer| match answer {
            Ok(output) => {
                self.failed.set(None);
                self.said.set(Some(done(&output)));
                self.refresh.run(());
            }
            Err(failure) => self.failed.set(Some(failure.message())),
        });
    }
}

#[component]
pub fn ServiceCatalogPage() -> impl IntoView {
    let query = use_query_map();
    let q = move || query.with(|map| map.get("q").unwrap_or_default());
    let data = crate::api::page_resource(q, |q: String| async move {
        let tracked = get_tracked_services().await.map_err(ApiFailure::from)?;
        let own = get_own_descriptors().await.map_err(ApiFailure::from)?;
        let all = get_catalog(None).await.map_err(ApiFailure::from)?;
        let shown = if q.trim().is_empty() {
            all.services.clone()
        } else {
            get_catalog(Some(q.clone()))
                .await
                .map_err(ApiFailure::from)?
                .services
        };
        Ok::<_, ApiFailure>((q, tracked.services, own.descriptors, all.services, shown))
    });
    let events = Events {
        said: RwSignal::new(None),
        failed: RwSignal::new(None),
        refresh: Callback::new(move |()| data.refetch()),
    };
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));
    view! {
        <Title text="Service Catalog"/>
        <p><A href="/subscriptions">"Subscriptions"</A>" › Service Catalog"</p>
        <h1>"Service Catalog"</h1>
        <p role="status" data-testid="catalog-status">{move || events.said.get()}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                    // The alert with the forms: a refusal the address
                    // carries (a post without JavaScript) is heard as they
                    // are made.
                    Ok((q, tracked, own, all, shown)) => view! {
                        <p class="field-error" role="alert">{move || events.failed.get()}</p>
                        <div data-testid="service-catalog" data-live=move || live.get().then_some("true")>
                            <Tracked tracked all=all.clone() events/>
                            <Descriptors own all events/>
                            <Services q shown events live/>
                        </div>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

/// How the bill's price compares with the catalog's for the plan it is on
/// ("▲ 16 % over the Standard price"), or with the starting price when the
/// catalog lists no plans.
fn drift_text(service: &TrackedService) -> (String, &'static str) {
    let price = service.catalog_tier.as_deref().map_or_else(
        || "the starting price".to_owned(),
        |tier| format!("the {tier} price"),
    );
    match service.drift_percent {
        None => ("—".into(), "hint"),
        Some(0) => (format!("at {price}"), "hint"),
        Some(up) if up > 0 => (format!("▲ {up} % over {price}"), "badge badge--warn"),
        Some(down) => (format!("▼ {} % under {price}", -down), "badge"),
    }
}

/// The bills linked to a service, with price drift, re-link and unlink.
#[component]
fn Tracked(
    tracked: Vec<TrackedService>,
    all: Vec<CatalogService>,
    events: Events,
) -> impl IntoView {
    if tracked.is_empty() {
        return view! {
            <h2>"Your tracked services"</h2>
            <p>"None yet. Track a service from the list below, or choose the known service in a subscription bill's form."</p>
        }
        .into_any();
    }
    let link = ServerAction::<SetCatalogLink>::new();
    events.follow(link, |bill: &BillRecord| {
        if bill.catalog_id.is_some() {
            format!("{} re-linked.", bill.name)
        } else {
            format!("{} is no longer linked to a service.", bill.name)
        }
    });
    view! {
        <h2>"Your tracked services"</h2>
        <div class="table-wrap"><table class="data-table" data-testid="tracked-services">
            <thead><tr><th>"Bill"</th><th>"Service"</th><th>"You pay"</th><th>"vs catalog"</th><th>"Service link"</th></tr></thead>
            <tbody>{tracked.into_iter().map(|service| {
                let (drift, class) = drift_text(&service);
                let bill_id = service.bill_id;
                let select_id = format!("relink-bill-{bill_id}");
                let bill_name = service.bill_name.clone();
                let current = service.catalog_id;
                let service_label = format!("Service of {bill_name}");
                let unlink_label = format!("Unlink {bill_name}");
                let options = all.iter().map(|s| view! {
                    <option value=s.id selected=s.id == current>{s.name.clone()}</option>
                }).collect_view();
                view! {
                    <tr>
                        <td><A href=format!("/bills/{bill_id}")>{bill_name}</A></td>
                        <td>{service.service_name.clone()}</td>
                        <td>{Money::shown(service.amount_minor, &service.currency)}" · "{service.cadence_label.clone()}</td>
                        <td><span class=class data-testid="drift">{drift}</span></td>
                        <td>
                            <ActionForm action=link attr:class="inline-form">
                                <CsrfField/>
                                <input type="hidden" name="bill_id" value=bill_id/>
                                <label class="visually-hidden" for=select_id.clone()>{service_label}</label>
                                <select id=select_id name="request[catalogId]">{options}</select>
                                <button type="submit" class="button button--quiet">"Re-link"</button>
                            </ActionForm>
                            // No service at all: the same function, without one.
                            <ActionForm action=link attr:class="inline-form">
                                <CsrfField/>
                                <input type="hidden" name="bill_id" value=bill_id/>
                                <button type="submit" class="button button--quiet"
                                    aria-label=unlink_label>"Unlink"</button>
                            </ActionForm>
                        </td>
                    </tr>
                }
            }).collect_view()}</tbody>
        </table></div>
    }
    .into_any()
}

/// The person's own bank descriptors, and a form to add one.
#[component]
fn Descriptors(own: Vec<OwnDescriptor>, all: Vec<CatalogService>, events: Events) -> impl IntoView {
    let add = ServerAction::<AddOwnDescriptor>::new();
    let delete = ServerAction::<DeleteOwnDescriptor>::new();
    let form = NodeRef::<leptos::html::Form>::new();
    events.follow(add, move |_| {
        if let Some(form) = form.get_untracked() {
            form.reset();
        }
        "Descriptor added.".into()
    });
    events.follow(delete, |_| "Descriptor forgotten.".into());
    view! {
        <h2>"Your bank descriptors"</h2>
        <p class="hint">"How a service appears on your statement; yours are matched first."</p>
        {if own.is_empty() {
            view! { <p>"None yet. Add one below when a charge on your statement is not recognised."</p> }.into_any()
        } else {
            view! {
                <ul data-testid="own-descriptors">
                    {own.into_iter().map(|d| {
                        let label = format!("Delete {}", d.descriptor);
                        view! {
                            <li><code>{d.descriptor.clone()}</code>" → "{d.service_name.clone()}" "
                                <ActionForm action=delete attr:class="inline-form">
                                    <CsrfField/>
                                    <input type="hidden" name="id" value=d.id/>
                                    <button type="submit" class="button button--quiet" aria-label=label>"Delete"</button>
                                </ActionForm>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
        <ActionForm action=add node_ref=form attr:class="inline-form">
            <CsrfField/>
            <label for="descriptor-text">"Descriptor"</label>
            <input id="descriptor-text" name="request[descriptor]" maxlength="200" required
                placeholder="e.g. PF CLUB FEES 0412"/>
            <label for="descriptor-service">"is"</label>
            <select id="descriptor-service" name="request[catalogId]" required>
                <option value="">"Choose a service"</option>
                {all.into_iter().map(|s| view! { <option value=s.id>{s.name}</option> }).collect_view()}
            </select>
            <button type="submit" class="button">"Add descriptor"</button>
        </ActionForm>
    }
}

/// The form "Track selected" posts: the rows' boxes belong to it through
/// their `form` attribute, so each row can hold a form of its own (its
/// Track button) without nesting one form in another.
const TRACK_SELECTED: &str = "track-selected";

/// Every service (or those matching `q`), each trackable, several at once.
#[component]
fn Services(
    q: String,
    shown: Vec<CatalogService>,
    events: Events,
    live: RwSignal<bool>,
) -> impl IntoView {
    let picked = RwSignal::new(BTreeSet::<i64>::new());
    let track = ServerAction::<TrackCatalogServices>::new();
    events.follow(track, move |tracked: &TrackedBills| {
        picked.set(BTreeSet::new());
        match tracked.bills.len() {
            1 => "Tracked.".into(),
            count => format!("{count} services tracked."),
        }
    });
    let count = shown.len();
    view! {
        <h2>"All services"</h2>
        <form method="get" action="/subscriptions/catalog" role="search" class="inline-form">
            <label for="catalog-q">"Search"</label>
            <input id="catalog-q" name="q" type="search" maxlength="100" value=q
                placeholder="Name, category or web address"/>
            <button type="submit" class="button">"Search"</button>
        </form>
        <p class="hint">{format!("{count} services")}</p>
        <ActionForm action=track attr:id=TRACK_SELECTED>
            <CsrfField/>
            // Enabled until the page's script runs: without it the server
            // says when nothing was picked.
            <p><button type="submit" class="button" disabled=move || live.get() && picked.with(BTreeSet::is_empty)>
                {move || if live.get() {
                    format!("Track selected ({})", picked.with(BTreeSet::len))
                } else {
                    "Track selected".to_owned()
                }}
            </button></p>
        </ActionForm>
        <div class="table-wrap"><table class="data-table" data-testid="catalog-services">
            <thead><tr><th>"Pick"</th><th>"Service"</th><th>"Category"</th><th>"From"</th><th></th></tr></thead>
            <tbody>{shown.into_iter().map(|s| {
                let id = s.id;
                let price = match (s.starting_monthly_minor, s.starting_annual_minor) {
                    (Some(monthly), _) => format!("{} a month", Money::shown(monthly, "USD")),
                    (None, Some(yearly)) => format!("{} a year", Money::shown(yearly, "USD")),
                    (None, None) => String::new(),
                };
                let pick_label = format!("Pick {}", s.name);
                let track_label = format!("Track {}", s.name);
                view! {
                    <tr>
                        <td><input type="checkbox" form=TRACK_SELECTED name=format!("request[catalogIds][{id}]")
                            value=id aria-label=pick_label
                            prop:checked=move || picked.with(|all| all.contains(&id))
                            on:change=move |_| picked.update(|all| if !all.remove(&id) { all.insert(id); })/></td>
                        <td>{s.name.clone()}</td>
                        <td>{s.category.clone()}</td>
                        <td>{price}</td>
                        <td><ActionForm action=track attr:class="inline-form">
                            <CsrfField/>
                            <input type="hidden" name="request[catalogIds][0]" value=id/>
                            <button type="submit" class="button button--quiet" aria-label=track_label>"Track"</button>
                        </ActionForm></td>
                    </tr>
                }
            }).collect_view()}</tbody>
        </table></div>
    }
}
