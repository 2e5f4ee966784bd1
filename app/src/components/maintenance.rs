//! Admin → Status's maintenance: seal the stored secrets again (backups
//! have their own page). It starts an operation, shown here live until it ends (and
//! kept in the Operations viewer).

use leptos::prelude::*;

use crate::api::operations::start_maintenance;
use crate::api::ApiFailure;
use crate::components::live_operation::LiveOperationCard;
use crate::contract::operations::MaintenanceTask;
use crate::contract::operations::Operation;

#[component]
pub fn Maintenance() -> impl IntoView {
    let started = RwSignal::new(Vec::<Operation>::new());
    let error = RwSignal::new(None::<String>);
    let start = move |task: MaintenanceTask| {
        leptos::task::spawn_local(async move {
            match start_maintenance(task).await {
                Ok(operation) => {
                    error.set(None);
                    started.update(|all| all.insert(0, operation));
                }
                Err(failure) => error.set(Some(ApiFailure::from(failure).message())),
            }
        });
    };
    view! {
        <section class="card" aria-labelledby="maintenance-title">
            <h2 id="maintenance-title">"Maintenance"</h2>
            <div class="actions">
                <button class="button button--quiet" on:click=move |_| start(MaintenanceTask::ReencryptSecrets)>
                    "Re-encrypt secrets"
                </button>
            </div>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <For each=move || started.get() key=|op| op.name.clone() let:op>
                <LiveOperationCard operation=op/>
            </For>
        </section>
    }
}
