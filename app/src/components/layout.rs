use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

use crate::api::session::current_session;

/// The frame every page sits in: a skip link, the site header with its
/// navigation, the page's `<main>`, and the footer.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    // Effects run only in the browser, so this turns true once the page is
    // hydrated; end-to-end tests wait for it before interacting.
    let hydrated = RwSignal::new(false);
    Effect::new(move || hydrated.set(true));
    // Who is signed in decides the navigation: the app's pages (and Admin
    // for administrators), or the public site's. Known while the server
    // renders the page (the resource blocks the response until it is), so
    // the header is right without JavaScript too; asked again on every
    // navigation, so signing in or out shows at once.
    let location = use_location();
    let user = Resource::new_blocking(
        move || location.pathname.get(),
        |_| async move {
            current_session()
                .await
                .ok()
                .and_then(|session| session.user)
        },
    );

    view! {
        <a class="skip-link" href="#main">"Skip to content"</a>
        <header class="site-header">
            <div class="container site-header__inner">
                <A href="/" attr:class="brand">
                    <span class="brand__mark" aria-hidden="true">"▦"</span>
                    <span class="brand__name">"Tally"</span>
                </A>
                <nav class="site-nav" aria-label="Main">
                    <ul>
                        <Transition fallback=public_links>
                            {move || Suspend::new(async move {
                                match user.await {
                                    Some(user) => app_links(user.is_admin()).into_any(),
                                    None => public_links().into_any(),
                                }
                            })}
                        </Transition>
                    </ul>
                </nav>
            </div>
        </header>
        <main
            id="main"
            class="container"
            tabindex="-1"
            data-hydrated=move || hydrated.get().then_some("true")
        >
            {children()}
        </main>
        <footer class="site-footer">
            <div class="container">
                <p>
                    "Tally " {env!("CARGO_PKG_VERSION")}
                    " · a self-hosted tracker for bills, debts and subscriptions."
                </p>
                <p><A href="/privacy">"Privacy"</A></p>
            </div>
        </footer>
    }
}

/// The signed-in app's pages.
fn app_links(admin: bool) -> impl IntoView {
    view! {
        <li><A href="/tracker">"Tracker"</A></li>
        <li><A href="/bills">"Bills"</A></li>
        <li><A href="/subscriptions">"Subscriptions"</A></li>
        <li><A href="/data">"Data"</A></li>
        <li><A href="/operations">"Operations"</A></li>
        <li><A href="/profile">"Profile"</A></li>
        {admin.then(|| view! { <li><A href="/admin">"Admin"</A></li> })}
    }
}

/// The public site's pages.
fn public_links() -> impl IntoView {
    view! {
        <li><A href="/features">"Features"</A></li>
        <li><A href="/pricing">"Pricing"</A></li>
        <li><A href="/support">"Support"</A></li>
        <li><A href="/contact">"Contact"</A></li>
        <li><A href="/login">"Sign in"</A></li>
    }
}
