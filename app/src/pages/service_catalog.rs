//! `/subscriptions/catalog`, the Service Catalog: the person's tracked
//! services with how their price compares to the catalog's (re-link or
//! unlink each), the bank descriptors they taught Tally (add, delete), and
//! every known service, searchable through the address (`?q=`, so a search
//! works before the page's code arrives), to track one at a time or
//! several at once. It all arrives with the page, whose code is loaded
//! with the Subscriptions page's (`subscriptions::SubscriptionsRoute`).

use std::collections::BTreeSet;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::bills::get_catalog;
use crate::api::subscriptions::{
    add_own_descriptor, delete_own_descriptor, get_own_descriptors, get_tracked_services,
    set_catalog_link, track_catalog_services,
};
use crate::api::ApiFailure;
use crate::contract::bills::CatalogService;
use crate::contract::subscriptions::{
    CatalogLink, NewDescriptor, OwnDescriptor, TrackCatalog, TrackedService,
};
use crate::domain::money::Money;

/// What a change reports to the page.
#[derive(Clone, Copy)]
struct Events {
    said: RwSignal<Option<String>>,
    failed: RwSignal<Option<String>>,
    refresh: Callback<()>,
}

impl Events {
    /// Runs `work`; on success says `done` and reloads the page's data.
    fn run<F>(self, done: String, work: F)
    where
        F: std::future::Future<Output = Result<(), ApiFailure>> + 'static,
    {
        leptos::task::spawn_local(async move {
            match work.await {
                Ok(()) => {
                    self.failed.set(None);
                    self.said.set(Some(done));
                    self.refresh.run(());
                }
                Err(failure) => self.failed.set(Some(failure.message())),
            }
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
        <p class="field-error" role="alert">{move || events.failed.get()}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Err(failure) => view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any(),
                    Ok((q, tracked, own, all, shown)) => view! {
                        <div data-testid="service-catalog" data-live=move || live.get().then_some("true")>
                            <Tracked tracked all=all.clone() events/>
                            <Descriptors own all events/>
                            <Services q shown events/>
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
    view! {
        <h2>"Your tracked services"</h2>
        <div class="table-wrap"><table class="data-table" data-testid="tracked-services">
            <thead><tr><th>"Bill"</th><th>"Service"</th><th>"You pay"</th><th>"vs catalog"</th><th>"Service link"</th></tr></thead>
            <tbody>{tracked.into_iter().map(|service| {
                let (drift, class) = drift_text(&service);
                let bill_id = service.bill_id;
                let select_id = format!("relink-bill-{bill_id}");
                let chosen = RwSignal::new(service.catalog_id.to_string());
                let bill_name = service.bill_name.clone();
                let relink_name = bill_name.clone();
                let relink = move |event: leptos::ev::SubmitEvent| {
                    event.prevent_default();
                    let catalog_id = chosen.get_untracked().parse::<i64>().ok();
                    events.run(format!("{relink_name} re-linked."), async move {
                        set_catalog_link(bill_id, CatalogLink { catalog_id })
                            .await
                            .map(|_| ())
                            .map_err(ApiFailure::from)
                    });
                };
                let unlink_name = bill_name.clone();
                let unlink = move |_| {
                    events.run(format!("{unlink_name} is no longer linked to a service."), async move {
                        set_catalog_link(bill_id, CatalogLink { catalog_id: None })
                            .await
                            .map(|_| ())
                            .map_err(ApiFailure::from)
                    });
                };
                let current = service.catalog_id;
                let service_label = format!("Service of {bill_name}");
                let unlink_label = format!("Unlink {bill_name}");
                view! {
                    <tr>
                        <td><A href=format!("/bills/{bill_id}")>{bill_name}</A></td>
                        <td>{service.service_name.clone()}</td>
                        <td>{Money::shown(service.amount_minor, &service.currency)}" · "{service.cadence_label.clone()}</td>
                        <td><span class=class data-testid="drift">{drift}</span></td>
                        <td>
                            <form class="inline-form" on:submit=relink>
                                <label class="visually-hidden" for=select_id.clone()>{service_label}</label>
                                <select id=select_id on:change=move |event| chosen.set(event_target_value(&event))>
                                    {all.iter().map(|s| view! {
                                        <option value=s.id.to_string() selected=s.id == current>{s.name.clone()}</option>
                                    }).collect_view()}
                                </select>
                                <button type="submit" class="button button--quiet">"Re-link"</button>
                                <button type="button" class="button button--quiet" on:click=unlink
                                    aria-label=unlink_label>"Unlink"</button>
                            </form>
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
    let text = RwSignal::new(String::new());
    let service = RwSignal::new(String::new());
    let add = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let descriptor = text.get_untracked();
        let Ok(catalog_id) = service.get_untracked().parse::<i64>() else {
            events
                .failed
                .set(Some("catalogId: choose the service it is".into()));
            return;
        };
        events.run("Descriptor added.".into(), async move {
            add_own_descriptor(NewDescriptor {
                catalog_id,
                descriptor,
            })
            .await
            .map(|_| ())
            .map_err(ApiFailure::from)
        });
    };
    view! {
        <h2>"Your bank descriptors"</h2>
        <p class="hint">"How a service appears on your statement; yours are matched first."</p>
        {if own.is_empty() {
            view! { <p>"None yet. Add one below when a charge on your statement is not recognised."</p> }.into_any()
        } else {
            view! {
                <ul data-testid="own-descriptors">
                    {own.into_iter().map(|d| {
                        let id = d.id;
                        let label = format!("Delete {}", d.descriptor);
                        let said = format!("“{}” forgotten.", d.descriptor);
                        view! {
                            <li><code>{d.descriptor.clone()}</code>" → "{d.service_name.clone()}" "
                                <button type="button" class="button button--quiet" aria-label=label
                                    on:click=move |_| {
                                        let said = said.clone();
                                        events.run(said, async move {
                                            delete_own_descriptor(id).await.map_err(ApiFailure::from)
                                        })
                                    }>"Delete"</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
        <form class="inline-form" on:submit=add>
            <label for="descriptor-text">"Descriptor"</label>
            <input id="descriptor-text" name="descriptor" maxlength="200" required
                placeholder="e.g. PF CLUB FEES 0412"
                on:input=move |event| text.set(event_target_value(&event)) prop:value=move || text.get()/>
            <label for="descriptor-service">"is"</label>
            <select id="descriptor-service" name="catalogId" required
                on:change=move |event| service.set(event_target_value(&event))>
                <option value="">"Choose a service"</option>
                {all.into_iter().map(|s| view! { <option value=s.id.to_string()>{s.name}</option> }).collect_view()}
            </select>
            <button type="submit" class="button">"Add descriptor"</button>
        </form>
    }
}

/// Every service (or those matching `q`), each trackable, several at once.
#[component]
fn Services(q: String, shown: Vec<CatalogService>, events: Events) -> impl IntoView {
    let picked = RwSignal::new(BTreeSet::<i64>::new());
    let track = move |ids: Vec<i64>| {
        let count = ids.len();
        picked.set(BTreeSet::new());
        events.run(
            if count == 1 {
                "Tracked.".into()
            } else {
                format!("{count} services tracked.")
            },
            async move {
                track_catalog_services(TrackCatalog { catalog_ids: ids })
                    .await
                    .map(|_| ())
                    .map_err(ApiFailure::from)
            },
        );
    };
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
        <p>
            <button type="button" class="button" disabled=move || picked.with(BTreeSet::is_empty)
                on:click=move |_| track(picked.get_untracked().into_iter().collect())>
                {move || format!("Track selected ({})", picked.with(BTreeSet::len))}
            </button>
        </p>
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
                        <td><input type="checkbox" aria-label=pick_label
                            prop:checked=move || picked.with(|all| all.contains(&id))
                            on:change=move |_| picked.update(|all| if !all.remove(&id) { all.insert(id); })/></td>
                        <td>{s.name.clone()}</td>
                        <td>{s.category.clone()}</td>
                        <td>{price}</td>
                        <td><button type="button" class="button button--quiet" aria-label=track_label
                            on:click=move |_| track(vec![id])>"Track"</button></td>
                    </tr>
                }
            }).collect_view()}</tbody>
        </table></div>
    }
}
