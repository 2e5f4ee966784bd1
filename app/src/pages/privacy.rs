use leptos::prelude::*;
use leptos_meta::Title;

/// `/privacy`: what this site and the app keep, and why.
#[component]
pub fn PrivacyPage() -> impl IntoView {
    view! {
        <Title text="Privacy"/>
        <article class="prose">
            <h1>"Privacy"</h1>
            <h2>"The forms on this site"</h2>
            <p>"When you send the contact or support form we keep what you typed and the IP address you sent it from, to answer you and to stop abuse. We pass your name, email and message to our customer-relationship system so the right person can reply. Nothing else is collected: no tracking pixels, no advertising cookies."</p>
            <p>"A bot check may ask your browser to solve a small challenge; its provider sees your IP address for that purpose only."</p>
            <h2>"The Tally app"</h2>
            <p>"A Tally you run yourself keeps its data in one database file on your server. Sign-in history (time, IP address, browser) is encrypted at rest. Looking up the rough location of a sign-in is off unless you turn it on in Profile → Privacy, and even then only when your administrator has configured a lookup service."</p>
            <h2>"Cookies"</h2>
            <p>"Two cookies, both strictly necessary: a session cookie once you sign in, and a token that protects your forms from other sites."</p>
            <h2>"Your rights"</h2>
            <p>"Ask us through the support form to see, correct or delete what we hold about you; we answer within 30 days."</p>
        </article>
    }
}
