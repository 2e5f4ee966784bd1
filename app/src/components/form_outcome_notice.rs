use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::domain::form_outcome::FormOutcome;

/// What a form posted without JavaScript came back with (`?form=<code>`
/// in the address): an alert for a failure, a status for a success.
#[component]
pub fn FormOutcomeNotice() -> impl IntoView {
    outcome_in_address().map(|outcome| {
        if outcome.is_error() {
            view! { <p class="field-error" role="alert">{outcome.message()}</p> }.into_any()
        } else {
            view! { <p class="notice" role="status">{outcome.message()}</p> }.into_any()
        }
    })
}

/// The outcome the address carries (`?form=<code>`), if any.
pub fn outcome_in_address() -> Option<FormOutcome> {
    use_query_map().with_untracked(|query| {
        query
            .get(FormOutcome::PARAMETER)
            .and_then(|code| FormOutcome::from_code(&code))
    })
}

/// The words of `outcome` when the address carries it: a card's own
/// success after its form was posted without JavaScript.
pub fn said_in_address(outcome: FormOutcome) -> Option<&'static str> {
    outcome_in_address()
        .filter(|said| *said == outcome)
        .map(FormOutcome::message)
}
