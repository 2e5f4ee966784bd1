use http::StatusCode;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::response_status::set_status;

/// Shown for any path no route matches; the server answers it with 404.
#[component]
pub fn NotFound() -> impl IntoView {
    set_status(StatusCode::NOT_FOUND);
    view! {
        <Title text="Page not found"/>
        <section class="not-found" aria-labelledby="not-found-title">
            <h1 id="not-found-title">"Page not found"</h1>
            <p>"There is nothing at this address. It may have moved, or the link may be mistyped."</p>
            <p><A href="/">"Go to the home page"</A></p>
        </section>
    }
}
