//! Admin → Status's maintenance: seal the stored secrets again (backups
//! have their own page). A form that posts without JavaScript too; it
//! starts an operation, shown here live until it ends (and kept in the
//! Operations viewer).

use leptos::prelude::*;

use crate::api;
use crate::api::operations::StartMaintenance;
use crate::components::csrf_field::CsrfField;
use crate::components::live_operation::LiveOperationCard;
use crate::contract::operations::Operation;

#[component]
pub fn Maintenance() -> impl IntoView {
    let started = RwSignal::new(Vec::<Operation>::new());
    let error = RwSignal::new(None::<String>);
    let start = ServerAction::<StartMaintenance>::new();
    api::each_answer(start, move |answer| match answer {
        Ok(operation) => {
            error.set(None);
            started.update(|all| all.insert(0, operation));
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    view! {
        <section class="card" aria-labelledby="maintenance-title">
            <h2 id="maintenance-title">"Maintenance"</h2>
            <ActionForm action=start attr:class="actions">
                <CsrfField/>
                <input type="hidden" name="task" value="reencryptSecrets"/>
                <button type="submit" class="button button--quiet">"Re-encrypt secrets"</button>
            </ActionForm>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <For each=move || started.get() key=|op| op.name.clone() let:op>
                <LiveOperationCard operation=op/>
            </For>
        </section>
    }
}
