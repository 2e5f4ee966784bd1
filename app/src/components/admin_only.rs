//! What an Admin page shows when its data cannot be read: a way to sign in
//! for anyone who is not an administrator, the error otherwise.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::api::ApiFailure;

#[component]
pub fn AdminOnly(failure: ApiFailure) -> impl IntoView {
    if matches!(failure.status(), Some(401) | Some(403)) {
        view! {
            <p>"This page is for administrators. " <A href="/login">"Sign in"</A> " with an administrator account."</p>
        }
        .into_any()
    } else {
        view! { <p class="field-error" role="alert">{failure.message()}</p> }.into_any()
    }
}
