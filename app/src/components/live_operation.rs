//! Following one operation as it runs: the row or card is re-drawn each
//! time the wait server function (the twin of `POST /v1/{name}:wait`)
//! answers, which is at once when the operation ends and otherwise after a
//! second with fresh progress.

use leptos::prelude::*;

use crate::api::operations::wait_operation;
use crate::contract::operations::Operation;
use crate::domain::operation::State;

/// A signal holding `initial`, kept up to date until the operation is done
/// (or whatever shows it goes away).
pub fn follow(initial: Operation) -> RwSignal<Operation> {
    let live = RwSignal::new(initial);
    Effect::new(move |started: Option<()>| {
        if started.is_some() || live.get_untracked().done {
            return;
        }
        leptos::task::spawn_local(async move {
            loop {
                let name = live.try_get_untracked().map(|op| op.name);
                let Some(name) = name else { return };
                match wait_operation(name).await {
                    Ok(latest) => {
                        let done = latest.done;
                        if live.try_set(latest).is_some() || done {
                            return;
                        }
                    }
                    // Gone (deleted) or unreachable: stop following.
                    _ => return,
                }
            }
        });
    });
    live
}

/// A progress bar with its percentage for people and assistive technology.
#[component]
pub fn OperationProgressBar(operation: Signal<Operation>) -> impl IntoView {
    view! {
        <div class="op-progress">
            <progress
                max="100"
                value=move || operation.get().percent()
                aria-label=move || format!("{} progress", operation.get().kind_label())
            ></progress>
            <span class="op-progress__label">{move || format!("{}%", operation.get().percent())}</span>
        </div>
    }
}

/// A card for an operation just started from a page (Admin's maintenance
/// buttons): kind, live progress, and the outcome. `on_done` runs once it
/// has ended.
#[component]
pub fn LiveOperationCard(
    operation: Operation,
    #[prop(optional)] on_done: Option<Callback<()>>,
) -> impl IntoView {
    let live = follow(operation);
    let state = move || live.get().state();
    if let Some(on_done) = on_done {
        Effect::new(move |told: Option<bool>| {
            let done = live.get().done;
            if done && told != Some(true) {
                on_done.run(());
            }
            done
        });
    }
    view! {
        <div class="op-card" role="status" aria-live="polite" data-testid="live-operation">
            <p>
                <strong>{move || live.get().kind_label()}</strong>
                " · "
                <span class=move || format!("op-state op-state--{}", state().label().to_lowercase())>
                    {move || state().label()}
                </span>
            </p>
            <OperationProgressBar operation=live.into()/>
            <p class="hint">{move || live.get().summary()}</p>
            {move || (state() != State::Running).then(|| view! {
                <p><a href="/operations">"All operations"</a></p>
            })}
        </div>
    }
}
