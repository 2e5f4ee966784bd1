use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::api;
use crate::components::account_details::AccountDetails;
use crate::components::api_tokens::ApiTokens;
use crate::components::preferences::PreferencesForm;
use crate::components::privacy::Privacy;
use crate::components::security_keys::SecurityKeys;
use crate::components::sign_in_history::SignInHistory;
use crate::components::two_factor::TwoFactor;
use crate::contract::account::Me;

/// `/profile`: name, email and password, second factors (TOTP, security
/// keys), API tokens, privacy, recent sign-ins, and signing out.
/// Loaded in the browser, where the session cookie is.
#[component]
pub fn ProfilePage() -> impl IntoView {
    let me = LocalResource::new(|| api::get_json::<Me>("/api/auth/me"));
    let navigate = use_navigate();
    let error = RwSignal::new(None::<String>);

    let sign_out = move |path: &'static str| {
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            match api::send_json::<_, serde_json::Value>("POST", path, &serde_json::json!({})).await
            {
                Ok(_) => navigate("/login", Default::default()),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };
    let sign_out_here = {
        let sign_out = sign_out.clone();
        move |_| sign_out("/api/auth/logout")
    };
    let sign_out_everywhere = move |_| sign_out("/api/auth/logout-all");

    view! {
        <Title text="Profile"/>
        <h1>"Profile"</h1>
        {move || match me.get() {
            None => view! { <p aria-busy="true">"Loading…"</p> }.into_any(),
            Some(Err(failure)) if failure.status() == Some(401) => {
                view! {
                    <p>"You are signed out. " <A href="/login">"Sign in"</A></p>
                }
                    .into_any()
            }
            Some(Err(failure)) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
            Some(Ok(body)) => {
                let is_admin = body.user.is_admin();
                view! {
                    <Show when=move || is_admin>
                        <p><A href="/admin">"Administration: users and invitations"</A></p>
                    </Show>
                    <AccountDetails user=body.user.clone()/>
                    <TwoFactor/>
                    <SecurityKeys/>
                    <ApiTokens/>
                    <PreferencesForm/>
                    <Privacy/>
                    <SignInHistory/>
                }
                    .into_any()
            }
        }}
        <section class="card" aria-labelledby="sessions-title">
            <h2 id="sessions-title">"Sessions"</h2>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <div class="actions">
                <button type="button" class="button" on:click=sign_out_here>"Sign out"</button>
                <button type="button" class="button button--quiet" on:click=sign_out_everywhere>
                    "Sign out everywhere"
                </button>
            </div>
        </section>
    }
}
