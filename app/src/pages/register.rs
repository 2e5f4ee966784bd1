use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::api;
use crate::api::entrance::CreateAccount;
use crate::components::csrf_field::CsrfField;
use crate::components::form_refusal::FormRefusal;
use crate::contract::account::{InvitationPreview, RegistrationStatus};
use crate::domain::password_policy;
use crate::domain::role::Role;

/// `/register[?invitation=…]`: create an account from an invitation link
/// (or the setup link of a fresh install), or freely while an admin has
/// opened registration.
#[component]
pub fn RegisterPage() -> impl IntoView {
    let query = use_query_map();
    let token = move || {
        query
            .with(|q| q.get("invitation"))
            .filter(|t| !t.is_empty())
    };
    let status = api::BrowserResource::new(move || {
        let asked = api::entrance::get_registration(token());
        async move { asked.await.map_err(api::ApiFailure::from) }
    });
    let email = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    // The new account starts in the browser's time zone (an Effect runs
    // only in the browser, after hydration; without JavaScript it is UTC).
    let time_zone = RwSignal::new(String::new());
    Effect::new(move || {
        if let Some(zone) = api::time_zone::browser_time_zone() {
            time_zone.set(zone);
        }
    });
    // The field at fault and the message; a form posted without
    // JavaScript comes back with them in the address, which the action
    // reads.
    let refusal = FormRefusal::new();
    let navigate = use_navigate();

    // An invitation for one address fills it in.
    Effect::new(move |_| {
        if let Some(Ok(RegistrationStatus {
            invitation:
                Some(InvitationPreview {
                    email: Some(invited),
                    ..
                }),
            ..
        })) = status.get()
        {
            email.set(invited);
        }
    });
    let problem = move || {
        let typed = password.get();
        (!typed.is_empty())
            .then(|| password_policy::check(&typed, email.get().trim()).err())
            .flatten()
            .map(|problem| problem.to_string())
    };

    let join = ServerAction::<CreateAccount>::new();
    api::each_answer(join, move |answer| match answer {
        // Signed in as the new account: its session's CSRF token from now.
        Ok(_) => {
            crate::api::page_csrf::forget();
            navigate(crate::domain::redirect::AFTER_SIGN_IN, Default::default());
        }
        Err(failure) => refusal.heard(&failure),
    });
    let pending = join.pending();

    let form = move || {
        view! {
            <ActionForm action=join attr:novalidate=true>
                <CsrfField/>
                <input type="hidden" name="request[invitation]" value=move || token().unwrap_or_default()/>
                <input type="hidden" name="request[timeZone]" value=move || time_zone.get()/>
                <div class="field">
                    <label for="register-email">"Email"</label>
                    <input id="register-email" name="request[email]" type="email" autocomplete="username" required
                        aria-invalid=refusal.marks("email")
                        prop:value=move || email.get()
                        on:input=move |ev| email.set(event_target_value(&ev))/>
                </div>
                <div class="field">
                    <label for="register-name">"Name (optional)"</label>
                    <input id="register-name" name="request[name]" type="text" autocomplete="name" maxlength="200"
                        prop:value=move || name.get()
                        on:input=move |ev| name.set(event_target_value(&ev))/>
                </div>
                <div class="field">
                    <label for="register-password">"Password"</label>
                    <input id="register-password" name="request[password]" type="password" autocomplete="new-password" required
                        aria-describedby="register-password-hint"
                        aria-invalid=move || (problem().is_some() || refusal.blames("password")).then_some("true")
                        prop:value=move || password.get()
                        on:input=move |ev| password.set(event_target_value(&ev))/>
                    <p id="register-password-hint" class="hint">
                        {move || problem().unwrap_or_else(|| format!("At least {} characters; a few unusual words work well.", password_policy::MIN_CHARS))}
                    </p>
                </div>
                <p class="field-error" role="alert">{move || refusal.message()}</p>
                <button type="submit" class="button" disabled=move || pending.get()>
                    {move || if pending.get() { "Creating your account…" } else { "Create account" }}
                </button>
            </ActionForm>
        }
    };

    view! {
        <Title text="Create your account"/>
        <section class="auth card" aria-labelledby="register-title">
            <h1 id="register-title">"Create your Tally account"</h1>
            // Before the link is checked (and without JavaScript, where it
            // never is) the form is there: it posts to the `register`
            // server function, which checks the link itself.
            {move || match status.get() {
                None => form().into_any(),
                Some(Err(failure)) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                Some(Ok(found)) => match (found.invitation, token().is_some(), found.open_registration) {
                    (Some(invitation), _, _) => view! {
                        <p>{if invitation.role == Role::Admin {
                            "You are invited as an administrator of this Tally."
                        } else {
                            "You are invited to this Tally."
                        }}</p>
                        {form()}
                    }.into_any(),
                    (None, true, _) => view! {
                        <p class="field-error">"This invitation link is not valid: it may have expired or been used already. Ask your administrator for a new one."</p>
                    }.into_any(),
                    (None, false, true) => form().into_any(),
                    (None, false, false) => view! {
                        <p>"Accounts on this Tally are by invitation. Ask its administrator for an invitation link, or "
                        <A href="/login">"sign in"</A> "."</p>
                    }.into_any(),
                },
            }}
        </section>
    }
}

/// `RegisterPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct RegisterRoute;

split_route!(RegisterRoute => RegisterPage in public_pages);
