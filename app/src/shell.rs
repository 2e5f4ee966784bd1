use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, Link, Meta, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    ParamSegment, StaticSegment,
};

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
                    <Route path=StaticSegment("") view=HomePage/>
                    <Route path=StaticSegment("features") view=FeaturesPage/>
                    <Route path=StaticSegment("pricing") view=PricingPage/>
                    <Route path=StaticSegment("contact") view=ContactPage/>
                    <Route path=StaticSegment("support") view=SupportPage/>
                    <Route path=StaticSegment("privacy") view=PrivacyPage/>
                    <Route path=StaticSegment("login") view=LoginPage/>
                    <Route path=StaticSegment("profile") view=ProfilePage/>
                    <Route path=StaticSegment("register") view=RegisterPage/>
                    <Route path=StaticSegment("admin") view=AdminPage/>
                    <Route path=StaticSegment("operations") view=OperationsPage/>
                    <Route path=StaticSegment("tracker") view=TrackerPage/>
                    <Route path=StaticSegment("bills") view=BillsPage/>
                    <Route path=(StaticSegment("bills"), ParamSegment("id")) view=BillPage/>
                    <Route path=StaticSegment("subscriptions") view=SubscriptionsPage/>
                    <Route path=StaticSegment("data") view=DataPage/>
                </Routes>
            </Layout>
        </Router>
    }
}
