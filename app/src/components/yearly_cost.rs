use leptos::prelude::*;

use crate::domain::amount::Amount;

/// What a monthly price costs over a year. The server renders the answer for
/// the default price, so the page reads well without JavaScript; once
/// hydrated, the answer follows what the visitor types.
#[component]
pub fn YearlyCost(#[prop(into)] initial: String) -> impl IntoView {
    let monthly = RwSignal::new(initial);
    let result = move || {
        Amount::parse(&monthly.get())
            .map_err(|error| error.to_string())
            .and_then(|amount| {
                amount
                    .times(12)
                    .ok_or_else(|| "that amount is too large".to_owned())
            })
    };

    view! {
        <form class="card yearly-cost" on:submit=|ev| ev.prevent_default()>
            <h2 id="yearly-cost-title">"What does one subscription cost in a year?"</h2>
            <label for="monthly-price">"Monthly price (USD)"</label>
            <input
                id="monthly-price"
                name="monthly"
                type="text"
                inputmode="decimal"
                autocomplete="off"
                aria-describedby="yearly-cost-answer"
                prop:value=move || monthly.get()
                on:input=move |ev| monthly.set(event_target_value(&ev))
            />
            <p id="yearly-cost-answer" class="yearly-cost__answer" aria-live="polite">
                {move || match result() {
                    Ok(yearly) => {
                        view! {
                            <span>"That is "<strong data-testid="yearly">{format!("${yearly}")}</strong>" a year."</span>
                        }
                            .into_any()
                    }
                    Err(message) => view! { <span class="field-error">{message}</span> }.into_any(),
                }}
            </p>
        </form>
    }
}
