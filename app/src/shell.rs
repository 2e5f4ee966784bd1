use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, Link, Meta, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    ParamSegment, SsrMode, StaticSegment,
};

/// How every page is rendered on the server: streamed, except that blocking
/// resources (who is signed in, for the header) are rendered in place, so
/// the HTML is right without JavaScript. With the default out-of-order mode
/// the header's fallback went out whenever the session lookup was slower
/// than the first chunk.
const PAGES: SsrMode = SsrMode::PartiallyBlocked;

use crate::components::layout::Layout;
use crate::pages::{
    admin::AdminPage, bill::BillPage, bills::BillsPage, contact::ContactPage, data::DataPage,
    features::FeaturesPage, home::HomePage, login::LoginPage, not_found::NotFound,
    operations::OperationsPage, pricing::PricingPage, privacy::PrivacyPage, profile::ProfilePage,
    register::RegisterPage, subscriptions::SubscriptionsPage, support::SupportPage,
    tracker::TrackerPage,
};

/// The HTML document the server streams for every page. Only the server calls
/// it; the browser hydrates [`App`] inside `<body>`.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    crate::response_status::apply_content_security_policy();
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options=options.clone()/>
                <HashedStylesheet options id="leptos"/>
                <script src="/webauthn.js" defer></script>
                <script src="/captcha.js" defer></script>
                <script src="/files.js" defer></script>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The application: a router inside the common layout.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();

    view! {
        <Title formatter=|page: String| {
            if page.is_empty() { "Tally".to_owned() } else { format!("{page} · Tally") }
        }/>
        <Meta name="description" content="Tally is a self-hosted tracker for bills, debts and subscriptions."/>
        <Meta name="color-scheme" content="light dark"/>
        <Link rel="icon" href="/favicon.svg" type_="image/svg+xml"/>
        <Router>
            <Layout>
                <Routes fallback=NotFound>
                    <Route path=StaticSegment("") view=HomePage ssr=PAGES/>
                    <Route path=StaticSegment("features") view=FeaturesPage ssr=PAGES/>
                    <Route path=StaticSegment("pricing") view=PricingPage ssr=PAGES/>
                    <Route path=StaticSegment("contact") view=ContactPage ssr=PAGES/>
                    <Route path=StaticSegment("support") view=SupportPage ssr=PAGES/>
                    <Route path=StaticSegment("privacy") view=PrivacyPage ssr=PAGES/>
                    <Route path=StaticSegment("login") view=LoginPage ssr=PAGES/>
                    <Route path=StaticSegment("profile") view=ProfilePage ssr=PAGES/>
                    <Route path=StaticSegment("register") view=RegisterPage ssr=PAGES/>
                    <Route path=StaticSegment("admin") view=AdminPage ssr=PAGES/>
                    <Route path=StaticSegment("operations") view=OperationsPage ssr=PAGES/>
                    <Route path=StaticSegment("tracker") view=TrackerPage ssr=PAGES/>
                    <Route path=StaticSegment("bills") view=BillsPage ssr=PAGES/>
                    <Route path=(StaticSegment("bills"), ParamSegment("id")) view=BillPage ssr=PAGES/>
                    <Route path=StaticSegment("subscriptions") view=SubscriptionsPage ssr=PAGES/>
                    <Route path=StaticSegment("data") view=DataPage ssr=PAGES/>
                </Routes>
            </Layout>
        </Router>
    }
}
