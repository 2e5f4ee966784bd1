use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, Link, Meta, MetaTags, Title};
use leptos_router::{
    components::{Route, Router, Routes},
    Lazy, ParamSegment, SsrMode, StaticSegment,
};

/// How every page is rendered on the server: streamed, except that blocking
/// resources (who is signed in, for the header) are rendered in place, so
/// the HTML is right without JavaScript. With the default out-of-order mode
/// the header's fallback went out whenever the session lookup was slower
/// than the first chunk.
const PAGES: SsrMode = SsrMode::PartiallyBlocked;

/// The pages split out with `split_route!` (the signed-in app, sign-in,
/// registration and the forms) are sent whole, once all of their data is
/// loaded: their view is built asynchronously, and a resource made there
/// could miss partially-blocked streaming's cut (its `Suspense` then went
/// out as "Loading…", swapped in only by JavaScript). They are small, and
/// a signed-in user needs the data anyway.
const LAZY: SsrMode = SsrMode::Async;

use crate::components::layout::Layout;
use crate::pages::{
    admin::AdminRoute, admin_authentication::AdminAuthenticationRoute,
    admin_backups::AdminBackupsRoute, admin_bank::AdminBankRoute,
    admin_notifications::AdminNotificationsRoute, bank_sync::BankSyncRoute, bill::BillRoute,
    bills::BillsRoute, contact::ContactRoute, data::DataRoute, features::FeaturesRoute,
    home::HomePage, login::LoginRoute, not_found::NotFound, notifications::NotificationsRoute,
    operations::OperationsRoute, pricing::PricingRoute, privacy::PrivacyPage,
    profile::ProfileRoute, register::RegisterRoute, subscriptions::SubscriptionsRoute,
    support::SupportRoute, tracker::TrackerRoute, transactions::TransactionsRoute,
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
                    <Route path=StaticSegment("features") view={Lazy::<FeaturesRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("pricing") view={Lazy::<PricingRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("contact") view={Lazy::<ContactRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("support") view={Lazy::<SupportRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("privacy") view=PrivacyPage ssr=PAGES/>
                    <Route path=StaticSegment("login") view={Lazy::<LoginRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("profile") view={Lazy::<ProfileRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("register") view={Lazy::<RegisterRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("admin") view={Lazy::<AdminRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("operations") view={Lazy::<OperationsRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("tracker") view={Lazy::<TrackerRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("bills") view={Lazy::<BillsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("bills"), ParamSegment("id")) view={Lazy::<BillRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("subscriptions") view={Lazy::<SubscriptionsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("subscriptions"), StaticSegment("catalog")) view={Lazy::<SubscriptionsRoute>::new()} ssr=LAZY/>
                    <Route path=StaticSegment("data") view={Lazy::<DataRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("data"), StaticSegment("bank")) view={Lazy::<BankSyncRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("data"), StaticSegment("transactions")) view={Lazy::<TransactionsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("admin"), StaticSegment("bank")) view={Lazy::<AdminBankRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("admin"), StaticSegment("notifications")) view={Lazy::<AdminNotificationsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("admin"), StaticSegment("authentication")) view={Lazy::<AdminAuthenticationRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("profile"), StaticSegment("notifications")) view={Lazy::<NotificationsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("admin"), StaticSegment("backups")) view={Lazy::<AdminBackupsRoute>::new()} ssr=LAZY/>
                    <Route path=(StaticSegment("admin"), StaticSegment("status")) view={Lazy::<AdminBackupsRoute>::new()} ssr=LAZY/>
                </Routes>
            </Layout>
        </Router>
    }
}
