use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

/// `/pricing`.
#[component]
pub fn PricingPage() -> impl IntoView {
    view! {
        <Title text="Pricing"/>
        <h1>"Pricing"</h1>
        <p class="lede">"Tally itself is free to run on your own hardware. Pay only if you want us to help."</p>
        <ul class="feature-list pricing">
            <li class="card">
                <h2>"Self-hosted"</h2>
                <p class="price">"Free"</p>
                <ul>
                    <li>"Every feature, no limits on bills or accounts"</li>
                    <li>"Runs on a Raspberry Pi or any small server"</li>
                    <li>"Community help on the forum"</li>
                </ul>
            </li>
            <li class="card">
                <h2>"Supported"</h2>
                <p class="price">"$4 per month"</p>
                <ul>
                    <li>"Everything in Self-hosted"</li>
                    <li>"Email support within two working days"</li>
                    <li>"Help with upgrades and backups"</li>
                </ul>
            </li>
            <li class="card">
                <h2>"Team"</h2>
                <p class="price">"Let's talk"</p>
                <ul>
                    <li>"For offices, clubs and shared houses"</li>
                    <li>"Set-up help and a named contact"</li>
                    <li>"Priority fixes"</li>
                </ul>
            </li>
        </ul>
        <p><A href="/contact">"Contact sales"</A> " · " <A href="/support">"Get support"</A></p>
    }
}

/// `PricingPage` as a route whose code is left out of the home page's first
/// download (`cargo leptos build --split`): few visits start here.
pub struct PricingRoute;

split_route!(PricingRoute => PricingPage in public_pages);
