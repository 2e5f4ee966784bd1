//! `/subscriptions`: what Tally recommends from the bank charges (cards,
//! see `components::recommendation_card`), then the tracked subscriptions
//! with their monthly and yearly cost. Custom sort keeps the user's order
//! (move up and down, a form that posts without JavaScript too);
//! Cadence sort groups them Weekly, Biweekly, Monthly, Quarterly, Yearly,
//! Other, and reordering is off while it is active (spec, Versioning 5).

use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use crate::api::bills::{get_bills, ReorderBills};
use crate::api::subscriptions::get_recommendations;
use crate::api::{self, ApiFailure};
use crate::components::csrf_field::CsrfField;
use crate::components::recommendation_card::{CardEvents, RecommendationCard};
use crate::contract::bills::{BillList, BillRecord};
use crate::contract::subscriptions::Recommendations;
use crate::domain::cadence::CadenceGroup;
use crate::domain::money::{Currency, Locale, Money};

/// The address's `sort` that groups the subscriptions by cadence.
const CADENCE: &str = "cadence";

fn group_label(group: CadenceGroup) -> &'static str {
    match group {
        CadenceGroup::Weekly => "Weekly",
        CadenceGroup::Biweekly => "Biweekly",
        CadenceGroup::Monthly => "Monthly",
        CadenceGroup::Quarterly => "Quarterly",
        CadenceGroup::Yearly => "Yearly",
        CadenceGroup::Other => "Other",
    }
}

#[component]
pub fn SubscriptionsPage() -> impl IntoView {
    // Rendered on the server with the page (a blocking resource): the
    // lists arrive in the HTML, never a false "none tracked yet".
    let data = crate::api::page_resource(
        || (),
        |_| async move {
            let list = get_bills().await.map_err(ApiFailure::from)?;
            let found = get_recommendations().await.map_err(ApiFailure::from)?;
            Ok::<_, ApiFailure>((list, found))
        },
    );
    let said = RwSignal::new(None::<String>);
    let failed = RwSignal::new(None::<String>);
    let events = CardEvents {
        changed: Callback::new(move |text: String| {
            said.set(Some(text));
            data.refetch();
        }),
        failed,
    };
    // Set once the cards answer clicks (effects run only in the browser).
    let live = RwSignal::new(false);
    Effect::new(move || live.set(true));
    view! {
        <Title text="Subscriptions"/>
        <h1>"Subscriptions"</h1>
        <p class="hint">"Found from your bank charges. "<A href="/subscriptions/catalog">"Improve matching"</A></p>
        <p role="status" data-testid="recommendation-status">{move || said.get()}</p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    // The alert with the cards: a refusal the address
                    // carries (a post without JavaScript) is heard as they
                    // are made.
                    Ok((list, found)) => view! {
                        <p class="field-error" role="alert">{move || failed.get()}</p>
                        <Recommended found events live/>
                        <section aria-labelledby="tracked">
                            <h2 id="tracked">"Tracked Subscriptions"</h2>
                            <Subscriptions data=list/>
                        </section>
                    }.into_any(),
                    Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The recommendations from the bank, and apart from them the recurring
/// merchants that are no known service.
#[component]
fn Recommended(found: Recommendations, events: CardEvents, live: RwSignal<bool>) -> impl IntoView {
    let unknown = found.unknown_recurring;
    view! {
        <section aria-labelledby="recommended" data-testid="recommendations"
            data-live=move || live.get().then_some("true")>
            <h2 id="recommended">"Recommended from your bank"</h2>
            {if !found.bank_connected {
                view! { <p>"Connect a bank in " <A href="/data/bank">"Bank Sync"</A>" to see what you subscribe to."</p> }.into_any()
            } else if found.recommendations.is_empty() {
                view! { <p>"Nothing new to suggest. Tally looks again after each bank sync."</p> }.into_any()
            } else {
                view! {
                    <ul class="cards">
                        {found.recommendations.into_iter().map(|recommendation| view! {
                            <RecommendationCard recommendation events/>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
            {(!unknown.is_empty()).then(|| view! {
                <h3>"Recurring, not a known service"</h3>
                <ul data-testid="unknown-recurring">
                    {unknown.into_iter().map(|u| view! {
                        <li>{u.description}" · "{Money::shown(u.amount_minor, &u.currency)}" · "
                            {u.cadence_label}<span class="hint">{format!(" · {} charges", u.charges)}</span></li>
                    }).collect_view()}
                </ul>
            })}
        </section>
    }
}

/// The active subscriptions of `data`, in the user's order, with their
/// totals and the sort switch.
#[component]
fn Subscriptions(data: BillList) -> impl IntoView {
    // The sort is in the address (`?sort=cadence`), so the switch is two
    // links: it works without JavaScript, and a reload or a shared link
    // keeps it.
    let query = use_query_map();
    let by_cadence = Memo::new(move |_| query.with(|q| q.get("sort").as_deref() == Some(CADENCE)));
    let mut tracked: Vec<BillRecord> = data
        .bills
        .into_iter()
        .filter(|b| b.subscription && b.active)
        .collect();
    tracked.sort_by_key(|b| (b.sort_order, b.id));
    let order = RwSignal::new(tracked);
    let error = RwSignal::new(None::<String>);
    let context = RwSignal::new((
        Locale::parse(&data.locale),
        Currency::parse(&data.currency).unwrap_or(Currency::USD),
    ));
    // Move up / move down: a form posting the order shown and the button
    // pressed; the server answers the order it kept.
    let reorder = ServerAction::<ReorderBills>::new();
    let pending = reorder.pending();
    api::each_answer(reorder, move |answer| match answer {
        Ok(kept) => {
            order.update(|all| {
                all.sort_by_key(|bill| kept.iter().position(|id| *id == bill.id));
            });
            error.set(None);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    // Said while the new order is on its way and once it is kept, so
    // nobody leaves (or reloads) believing an unsaved order was saved.
    let status = move || {
        if pending.get() {
            Some("Saving the order…")
        } else if reorder.value().with(|answer| matches!(answer, Some(Ok(_)))) {
            Some("Order saved.")
        } else {
            None
        }
    };
    let totals = move || {
        let (locale, home) = context.get();
        let (monthly, yearly) = order.with(|all| {
            all.iter()
                .filter_map(|b| {
                    Some((
                        b.cadence()?.monthly_cost(b.amount_minor),
                        b.cadence()?.yearly_cost(b.amount_minor),
                    ))
                })
                .fold((0, 0), |(m, y), (bm, by)| (m + bm, y + by))
        });
        (
            Money::new(monthly, home).format(locale),
            Money::new(yearly, home).format(locale),
        )
    };
    let row = move |index: usize, bill: BillRecord, reorderable: bool, count: usize| {
        let (locale, _) = context.get_untracked();
        let cadence = bill.cadence();
        let yearly = cadence
            .map(|c| Money::new(c.yearly_cost(bill.amount_minor), bill.currency()).format(locale));
        let name = bill.name.clone();
        let amount = Money::new(bill.amount_minor, bill.currency()).format(locale);
        let href = format!("/bills/{}", bill.id);
        let link_text = name.clone();
        view! {
            <li class="subscription" data-testid="subscription">
                <A href=href>{link_text}</A>
                <span>{amount}" · "{cadence.map(|c| c.to_string()).unwrap_or_default()}</span>
                <span class="hint">{yearly.map(|y| format!("{y} a year"))}</span>
                {reorderable.then(|| view! {
                    <span class="actions">
                        <button type="submit" name="shift[up]" value=bill.id class="button button--quiet"
                            disabled=move || index == 0 || pending.get()
                            aria-label=format!("Move {name} up")>"↑"</button>
                        <button type="submit" name="shift[down]" value=bill.id class="button button--quiet"
                            disabled=move || index + 1 == count || pending.get()
                            aria-label=format!("Move {name} down")>"↓"</button>
                    </span>
                })}
            </li>
        }
    };
    view! {
        <p class="field-error" role="alert">{move || error.get()}</p>
        <p role="status" data-testid="order-status">{status}</p>
        <section class="totals" aria-label="Subscription totals">
            <div class="total"><span>"Per month"</span><strong data-testid="subs-monthly">{move || totals().0}</strong></div>
            <div class="total"><span>"Per year"</span><strong data-testid="subs-yearly">{move || totals().1}</strong></div>
        </section>
        <div class="segmented" role="group" aria-label="Sort">
            <a href="/subscriptions" class="button button--quiet"
                aria-current=move || (!by_cadence.get()).then_some("page")>"Custom"</a>
            <a href=format!("/subscriptions?sort={CADENCE}") class="button button--quiet"
                aria-current=move || by_cadence.get().then_some("page")>"Cadence"</a>
        </div>
        {move || {
            let all = order.get();
            if all.is_empty() {
                return view! { <p>"No subscriptions tracked yet. Mark a bill as a subscription in " <A href="/bills">"Bills"</A>"."</p> }.into_any();
            }
            if by_cadence.get() {
                let mut groups: Vec<(CadenceGroup, Vec<BillRecord>)> = Vec::new();
                for bill in all {
                    let group = bill.cadence().map_or(CadenceGroup::Other, |c| c.group());
                    match groups.iter_mut().find(|(g, _)| *g == group) {
                        Some((_, bills)) => bills.push(bill),
                        None => groups.push((group, vec![bill])),
                    }
                }
                groups.sort_by_key(|(group, _)| *group);
                view! {
                    <p class="hint">"Reordering is off while sorting by cadence."</p>
                    {groups.into_iter().map(|(group, bills)| {
                        let count = bills.len();
                        view! {
                            <h3 class="group-title">{group_label(group)}</h3>
                            <ul class="subscriptions" data-testid="cadence-group">
                                {bills.into_iter().enumerate().map(|(i, bill)| row(i, bill, false, count)).collect_view()}
                            </ul>
                        }
                    }).collect_view()}
                }.into_any()
            } else {
                let count = all.len();
                view! {
                    <ActionForm action=reorder>
                        <CsrfField/>
                        {all.iter().enumerate().map(|(i, bill)| view! {
                            <input type="hidden" name=format!("ids[{i}]") value=bill.id/>
                        }).collect_view()}
                        <ul class="subscriptions">
                            {all.into_iter().enumerate().map(|(i, bill)| row(i, bill, true, count)).collect_view()}
                        </ul>
                    </ActionForm>
                }.into_any()
            }
        }}
    }
}

/// `SubscriptionsPage`, or the Service Catalog under it, as a route whose
/// code is left out of the first download: `cargo leptos build --split`
/// puts both in one chunk (they share most of their code), fetched when
/// either is first opened (and before hydrating it, when it is the first).
pub struct SubscriptionsRoute {
    catalog: bool,
}

split_route! {
    SubscriptionsRoute in app as SubscriptionsView,
    data {
        let path = leptos_router::hooks::use_location()
            .pathname
            .get_untracked();
        Self {
            catalog: path.trim_end_matches('/').ends_with("/catalog"),
        }
    },
    view(this) {
        if this.catalog {
            view! { <crate::pages::service_catalog::ServiceCatalogPage/> <crate::components::layout::PageLoaded/> }.into_any()
        } else {
            view! { <SubscriptionsPage/> <crate::components::layout::PageLoaded/> }.into_any()
        }
    }
}
