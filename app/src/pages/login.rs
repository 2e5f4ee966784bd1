use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_navigate;
use serde::Serialize;

use crate::api::{self, MeBody};

#[derive(Serialize)]
struct Credentials {
    email: String,
    password: String,
}

/// `/login`: email and password. Signing in needs JavaScript (every call
/// carries the CSRF token), and the page says so when it is missing.
#[component]
pub fn LoginPage() -> impl IntoView {
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);
    let navigate = use_navigate();

    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        if pending.get_untracked() {
            return;
        }
        let credentials = Credentials {
            email: email.get_untracked().trim().to_owned(),
            password: password.get_untracked(),
        };
        if credentials.email.is_empty() || credentials.password.is_empty() {
            error.set(Some("Enter your email address and your password.".into()));
            return;
        }
        pending.set(true);
        error.set(None);
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            let result = api::send_json::<_, MeBody>("POST", "/api/auth/login", &credentials).await;
            pending.set(false);
            match result {
                Ok(_) => navigate("/profile", Default::default()),
                Err(failure) => error.set(Some(failure.message())),
            }
        });
    };

    view! {
        <Title text="Sign in"/>
        <section class="auth card" aria-labelledby="login-title">
            <h1 id="login-title">"Sign in to Tally"</h1>
            <noscript>
                <p class="field-error">"Signing in needs JavaScript, which is turned off in this browser."</p>
            </noscript>
            <form on:submit=submit novalidate>
                <div class="field">
                    <label for="login-email">"Email"</label>
                    <input
                        id="login-email"
                        name="email"
                        type="email"
                        autocomplete="username"
                        required
                        aria-invalid=move || error.get().is_some().then_some("true")
                        aria-describedby="login-error"
                        prop:value=move || email.get()
                        on:input=move |ev| email.set(event_target_value(&ev))
                    />
                </div>
                <div class="field">
                    <label for="login-password">"Password"</label>
                    <input
                        id="login-password"
                        name="password"
                        type="password"
                        autocomplete="current-password"
                        required
                        aria-invalid=move || error.get().is_some().then_some("true")
                        aria-describedby="login-error"
                        prop:value=move || password.get()
                        on:input=move |ev| password.set(event_target_value(&ev))
                    />
                </div>
                <p id="login-error" class="field-error" role="alert">
                    {move || error.get()}
                </p>
                <button type="submit" class="button" disabled=move || pending.get()>
                    {move || if pending.get() { "Signing in…" } else { "Sign in" }}
                </button>
            </form>
        </section>
    }
}
