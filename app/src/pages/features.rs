use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

/// `/features`: what Tally does, in plain words.
#[component]
pub fn FeaturesPage() -> impl IntoView {
    view! {
        <Title text="Features"/>
        <h1>"What Tally does"</h1>
        <p class="lede">"Tally is a bill, debt and subscription tracker you run yourself: one program and one database file."</p>
        <ul class="feature-list">
            <li class="card">
                <h2>"Bills on a calendar that understands months"</h2>
                <p>"Weekly, fortnightly, monthly, quarterly, yearly or every N days. A bill due on the 31st is due on the last day of shorter months, and everything is shown in your own time zone."</p>
            </li>
            <li class="card">
                <h2>"Debts with honest interest"</h2>
                <p>"Record a balance, APR and minimum payment. Tally charges interest once per calendar month, never twice, and projects when the debt will be paid off."</p>
            </li>
            <li class="card">
                <h2>"Subscriptions you forgot about"</h2>
                <p>"Connect a bank through a SimpleFIN provider and Tally suggests the recurring charges that look like subscriptions, matched against a catalogue of common services."</p>
            </li>
            <li class="card">
                <h2>"Serious about your account"</h2>
                <p>"Passwords hashed with Argon2id, authenticator apps and hardware security keys, sign-in history, and secrets encrypted at rest."</p>
            </li>
            <li class="card">
                <h2>"Your data, your machine"</h2>
                <p>"Export bills and payments as CSV or JSON at any time. Backups are one command, checked before they are kept."</p>
            </li>
            <li class="card">
                <h2>"Automation friendly"</h2>
                <p>"Personal API tokens and a long-running operations API that Google's own client libraries understand."</p>
            </li>
        </ul>
        <p><A href="/pricing">"See pricing"</A> " · " <A href="/contact">"Talk to us"</A></p>
    }
}

/// `FeaturesPage` as a route whose code is left out of the home page's first
/// download (`cargo leptos build --split`): few visits start here.
pub struct FeaturesRoute;

split_route!(FeaturesRoute => FeaturesPage in public_pages);
