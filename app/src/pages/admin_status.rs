//! `/admin/status`: Admin → Status, the rows `app::backend::status` words
//! (version, uptime, database, migrations, backups, workers, CRM, bank
//! sync, secrets, recent errors), laid out, and the re-sealing of stored
//! secrets. Administrators only; it
//! arrives with the page, in the same lazy chunk as Backups
//! (`admin_backups::AdminBackupsRoute`).

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api;
use crate::api::admin_backups::get_system_status;
use crate::components::admin_only::AdminOnly;
use crate::components::maintenance::Maintenance;
use crate::contract::admin::StatusSection;

#[component]
pub fn AdminStatusPage() -> impl IntoView {
    let status = api::page_data(get_system_status);
    view! {
        <Title text="Status · Administration"/>
        <p><A href="/admin">"Administration"</A> " › Status"</p>
        <h1>"Status"</h1>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match status.await {
                    Err(failure) => view! { <AdminOnly failure/> }.into_any(),
                    Ok(found) => view! {
                        {found.sections.into_iter().map(|section| view! { <Section section/> }).collect_view()}
                        <Maintenance/>
                    }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Section(section: StatusSection) -> impl IntoView {
    view! {
        <section class="card">
            <h2>{section.title}</h2>
            <dl class="facts">
                {section.rows.into_iter().map(|row| view! {
                    <dt>{row.label}</dt>
                    <dd class=format!("status status--{}", row.state)>{row.value}</dd>
                }).collect_view()}
            </dl>
        </section>
    }
}
