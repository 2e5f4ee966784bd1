use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

use leptos::server::codee::{Decoder, Encoder};

use crate::api::signed_in_as::signed_in_as;
use crate::contract::account::Nav;

/// The frame every page sits in: a skip link, the site header with its
/// navigation, the page's `<main>`, and the footer.
#[component]
pub fn Layout(children: Children) -> impl IntoView {
    // Effects run only in the browser, so this turns true once the page is
    // hydrated; end-to-end tests wait for it before interacting. A lazy
    // route hydrates later, once its chunk is loaded: until then the page is
    // not ready (`page_loading` / `PageLoaded`), and a click would be lost.
    let hydrated = RwSignal::new(false);
    Effect::new(move || hydrated.set(true));
    let page_ready = RwSignal::new(true);
    provide_context(PageReady(page_ready));
    // Who is signed in decides the navigation: the app's pages (and Admin
    // for administrators), or the public site's. Known while the server
    // renders the page (the resource blocks the response until it is), so
    // the header is right without JavaScript too; asked again on every
    // navigation, so signing in or out shows at once.
    // The answer goes with the page as one word, and the browser asks
    // with its own fetch (`api::signed_in_as`): the first download then
    // needs neither a JSON decoder nor the server functions' client.
    let location = use_location();
    let nav = Resource::<Nav, NavWord>::new_with_options(
        move || location.pathname.get(),
        |_| signed_in_as(),
        true,
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
                                match nav.await {
                                    Nav::Visitor => public_links().into_any(),
                                    Nav::Member => app_links(false).into_any(),
                                    Nav::Admin => app_links(true).into_any(),
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
            data-hydrated=move || (hydrated.get() && page_ready.get()).then_some("true")
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

/// [`Nav`] in a page's data: one word (`Nav::as_str`).
struct NavWord;

impl Encoder<Nav> for NavWord {
    type Error = ();
    type Encoded = String;

    fn encode(nav: &Nav) -> Result<String, ()> {
        Ok(nav.as_str().to_owned())
    }
}

impl Decoder<Nav> for NavWord {
    type Error = String;
    type Encoded = str;

    fn decode(word: &str) -> Result<Nav, String> {
        Nav::parse(word).ok_or_else(|| format!("no navigation {word:?}"))
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

/// Whether the current route's own view is in place (false while a lazy
/// route's code is loading).
#[derive(Clone, Copy)]
struct PageReady(RwSignal<bool>);

/// A lazy route was chosen: its page is not ready until [`PageLoaded`] runs.
pub fn page_loading() {
    if let Some(PageReady(ready)) = use_context::<PageReady>() {
        ready.set(false);
    }
}

/// Placed after a lazy route's page: marks it ready once it is hydrated.
#[component]
pub fn PageLoaded() -> impl IntoView {
    if let Some(PageReady(ready)) = use_context::<PageReady>() {
        Effect::new(move || ready.set(true));
    }
}
