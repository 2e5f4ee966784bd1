use leptos::prelude::*;
use leptos_meta::Title;

use crate::components::yearly_cost::YearlyCost;

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <Title text=""/>
        <section class="hero" aria-labelledby="hero-title">
            <h1 id="hero-title">"Know what is due, what is paid and what you owe."</h1>
            <p class="lede">
                "Tally keeps your bills, debts and subscriptions in one place, on a machine you own. "
                "It reminds you before a bill is due, charges debt interest the way your lender does, "
                "and spots the subscriptions hiding in your bank statements."
            </p>
        </section>
        <section class="features" aria-label="Highlights">
            <ul class="feature-list">
                <li class="card">
                    <h2>"Bills and payments"</h2>
                    <p>"Every bill with its due day and cadence; mark it paid in one click."</p>
                </li>
                <li class="card">
                    <h2>"Debts with interest"</h2>
                    <p>"Balances, APR and minimum payments, with a payoff projection."</p>
                </li>
                <li class="card">
                    <h2>"Self-hosted"</h2>
                    <p>"One process and one SQLite file. Your data stays on your server."</p>
                </li>
            </ul>
        </section>
        <YearlyCost initial="15.99"/>
    }
}
