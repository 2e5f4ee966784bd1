use super::split_route::split_route;
use leptos::ev::SubmitEvent;
use leptos::form::FromFormData;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::api::account::{get_me, get_totp_status, SignOut};
use crate::api::profile::{get_preferences, get_privacy, get_sign_ins, list_tokens};
use crate::api::{self, ApiFailure};
use crate::components::account_details::AccountDetails;
use crate::components::api_tokens::ApiTokens;
use crate::components::csrf_field::CsrfField;
use crate::components::form_outcome_notice::FormOutcomeNotice;
use crate::components::linked_identities::LinkedIdentities;
use crate::components::preferences::PreferencesForm;
use crate::components::privacy::Privacy;
use crate::components::security_keys::SecurityKeys;
use crate::components::sign_in_history::SignInHistory;
use crate::components::two_factor::TwoFactor;
use crate::contract::account::SignedOut;

/// `/profile`: name, email and password, second factors (TOTP, security
/// keys), API tokens, privacy, recent sign-ins, and signing out.
/// Rendered on the server with its data (who is signed in, preferences,
/// privacy, sign-ins, tokens, TOTP); security keys load in the browser.
#[component]
pub fn ProfilePage() -> impl IntoView {
    let me = api::page_data(get_me);
    let preferences = api::page_data(get_preferences);
    let privacy = api::page_data(get_privacy);
    let sign_ins = api::page_data(get_sign_ins);
    let totp = api::page_data(get_totp_status);
    let tokens = api::page_data(list_tokens);
    let loaded = move || async move {
        let me = me.await?;
        Ok::<_, ApiFailure>((
            me,
            preferences.await?,
            privacy.await?,
            sign_ins.await?,
            tokens.await?,
            totp.await?,
        ))
    };
    let navigate = use_navigate();
    let error = RwSignal::new(None::<String>);

    // Signing out is a form: without JavaScript it posts to
    // `/profile/sign-out`, which answers with the sign-in page (or the
    // identity provider's sign-out); with it, the pressed button's
    // `everywhere` goes to the server function. Signed out, the browser
    // holds a new CSRF token (the old one was bound to the session), so
    // the page forgets the one it kept.
    let leave = ServerAction::<SignOut>::new();
    api::each_answer(leave, move |answer| match answer {
        // Signed in through the identity provider: sign out there too (a
        // full page load, to another site).
        Ok(SignedOut {
            redirect: Some(url),
        }) => {
            api::page_csrf::forget();
            let _ = window().location().set_href(&url);
        }
        Ok(SignedOut { redirect: None }) => {
            api::page_csrf::forget();
            navigate("/login", Default::default());
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let sign_out = move |event: SubmitEvent| {
        if let Ok(input) = SignOut::from_event(&event) {
            event.prevent_default();
            leave.dispatch(input);
        }
    };

    view! {
        <Title text="Profile"/>
        <h1>"Profile"</h1>
        <FormOutcomeNotice/>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
        {move || Suspend::new(async move { match loaded().await {
            Err(failure) if failure.status() == Some(401) => {
                view! {
                    <p>"You are signed out. " <A href="/login">"Sign in"</A></p>
                }
                    .into_any()
            }
            Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
            Ok((body, preferences, privacy, sign_ins, tokens, totp)) => {
                let is_admin = body.user.is_admin();
                view! {
                    <Show when=move || is_admin>
                        <p><A href="/admin">"Administration: users and invitations"</A></p>
                    </Show>
                    <p><A href="/profile/notifications">"Notifications: reminders, channels and the calendar feed"</A></p>
                    <AccountDetails user=body.user.clone()/>
                    <TwoFactor status=totp/>
                    // Security keys load in the browser (WebAuthn is there).
                    <SecurityKeys/>
                    <LinkedIdentities/>
                    <ApiTokens tokens admin=is_admin/>
                    <PreferencesForm initial=preferences/>
                    <Privacy initial=privacy/>
                    <SignInHistory history=sign_ins/>
                }
                    .into_any()
            }
        }})}
        </Transition>
        <section class="card" aria-labelledby="sessions-title">
            <h2 id="sessions-title">"Sessions"</h2>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <form class="actions" method="post" action=SIGN_OUT_FORM on:submit=sign_out>
                <CsrfField/>
                <button type="submit" name="everywhere" value="false" class="button">"Sign out"</button>
                <button type="submit" name="everywhere" value="true" class="button button--quiet">
                    "Sign out everywhere"
                </button>
            </form>
        </section>
    }
}

/// Where the sign-out form posts without JavaScript.
const SIGN_OUT_FORM: &str = "/profile/sign-out";

/// `ProfilePage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct ProfileRoute;

split_route!(ProfileRoute => ProfilePage in app);
