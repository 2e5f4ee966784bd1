use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::api;
use crate::api::entrance::{AnswerWithCode, StartSignIn};
use crate::components::csrf_field::CsrfField;
use crate::contract::account::{SecondFactorChallenge, SecondFactorMethod, SignInAnswer};
use crate::contract::security_keys::KeySignIn;
use crate::domain::redirect;

/// The security-key step: options from the server, the key's answer back.
async fn sign_in_with_key(challenge: String) -> Result<SignInAnswer, api::ApiFailure> {
    let started = api::entrance::start_key_sign_in(challenge.clone()).await?;
    let credential = api::security_key::get(&started.options).await?;
    Ok(api::entrance::answer_with_key(KeySignIn {
        challenge,
        credential,
    })
    .await?)
}

/// What `/login?error=…` says: why single sign-on, or the form posted
/// without JavaScript (an account with a second factor), came back. Only
/// a code is in the address, never a field.
fn form_error(code: &str) -> Option<&'static str> {
    Some(match code {
        "second-factor" => {
            "Your password is right. Finishing with your second factor needs JavaScript: turn it on and sign in again."
        }
        "sso_off" => "Single sign-on is not set up here; sign in with your password.",
        "sso_throttled" => "Too many sign-in attempts; try again in a few minutes.",
        "sso_unavailable" => {
            "The identity provider cannot be reached right now; try again in a moment, or sign in with your password."
        }
        "sso_provider" => "The identity provider did not sign you in. Try again.",
        "sso_state" => "That sign-in took too long or was started in another browser. Start again here.",
        "sso_token" => "The identity provider's answer could not be checked, so you are not signed in. Try again.",
        "sso_no_account" => "There is no Tally account for you yet. Ask your administrator to add one.",
        "sso_unverified_email" => {
            "Your identity provider has not verified your email, which belongs to an account here. Sign in with your password instead, or ask your administrator."
        }
        "sso_email_taken" => {
            "An account here already uses your email. Sign in with your password, then link your provider account from your Profile."
        }
        "sso_link_from_profile" => {
            "Your Tally account is an administrator's or has a second factor, so it is not linked to your provider account by email. Sign in with your password, then link your provider account from Profile → Single sign-on."
        }
        "sso_identity_taken" => {
            "That provider account is already linked to another Tally account, so it was not linked to yours."
        }
        "sso_no_email" => "Your identity provider gave no usable email address, which a new account needs.",
        "sso_disabled" => "This account is disabled. Ask your administrator.",
        "sso_failed" => "Signing in failed; try again in a moment.",
        _ => return None,
    })
}

/// `/login`: email and password, then a TOTP or recovery code or a
/// security key when the account has two-factor sign-in. The first step is
/// a form posting to the `sign-in` server function, so without JavaScript
/// (or before the page has hydrated) the browser posts it there, the
/// password never in the address, and opens `next` signed in; with
/// JavaScript the page takes the answer and the second step in place (a
/// form posting to `sign-in/code`, or the security key).
#[component]
pub fn LoginPage() -> impl IntoView {
    let challenge = RwSignal::new(None::<String>);
    let methods = RwSignal::new(Vec::<SecondFactorMethod>::new());
    let query = use_query_map();
    let error = RwSignal::new(query.with_untracked(|query| {
        query
            .get("error")
            .as_deref()
            .and_then(form_error)
            .map(str::to_owned)
    }));
    let key_pending = RwSignal::new(false);
    let navigate = use_navigate();
    // The identity provider's button, when single sign-on is set up.
    let sign_in_methods = crate::api::page_resource(
        || (),
        |()| async { api::entrance::get_sign_in_methods().await.ok() },
    );
    // Email and password sign in here (so while the methods load, too).
    let password_on = move || {
        sign_in_methods
            .get()
            .flatten()
            .is_none_or(|methods| methods.password)
    };
    // Where to go afterwards: a page of this site only (`next` is in a
    // link anyone can write).
    let next = move || {
        query.with_untracked(|query| redirect::next_or_default(query.get("next").as_deref()))
    };

    let finish = move |answer: SignInAnswer| match answer {
        SignInAnswer::SignedIn(_) => {
            // Signed in (password, code or security key): the CSRF token
            // is now the one bound to the new session.
            crate::api::page_csrf::forget();
            navigate(&next(), Default::default());
        }
        SignInAnswer::SecondFactor(SecondFactorChallenge {
            challenge: next,
            methods: offered,
            ..
        }) => {
            challenge.set(Some(next));
            methods.set(offered);
            error.set(None);
        }
    };
    let heard = {
        let finish = finish.clone();
        move |answer: Result<SignInAnswer, api::ApiFailure>| match answer {
            Ok(answer) => finish(answer),
            Err(failure) => error.set(Some(failure.message())),
        }
    };
    let with_password = ServerAction::<StartSignIn>::new();
    api::each_answer(with_password, heard.clone());
    let with_code = ServerAction::<AnswerWithCode>::new();
    api::each_answer(with_code, heard);
    let pending =
        move || with_password.pending().get() || with_code.pending().get() || key_pending.get();

    let use_key = {
        let finish = finish.clone();
        move |_| {
            let Some(step) = challenge.get_untracked() else {
                return;
            };
            if key_pending.get_untracked() {
                return;
            }
            key_pending.set(true);
            error.set(None);
            let finish = finish.clone();
            leptos::task::spawn_local(async move {
                let result = sign_in_with_key(step).await;
                key_pending.set(false);
                match result {
                    Ok(answer) => finish(answer),
                    Err(failure) => error.set(Some(failure.message())),
                }
            });
        }
    };
    let offers =
        move |method: SecondFactorMethod| methods.with(|offered| offered.contains(&method));
    // Focus follows the step: the email field when the page opens (also
    // after a client-side navigation, where `autofocus` does not act), then
    // the code field, or the security key's button, once the password was
    // right. A node ref is a signal: each effect runs again when its
    // element is mounted.
    let email_field = NodeRef::<leptos::html::Input>::new();
    let code_field = NodeRef::<leptos::html::Input>::new();
    let key_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move || {
        if let Some(field) = email_field.get() {
            // Never away from a field someone is typing in already.
            let untouched = document()
                .active_element()
                .is_none_or(|focused| focused.tag_name().eq_ignore_ascii_case("body"));
            if untouched && challenge.get_untracked().is_none() {
                let _ = field.focus();
            }
        }
    });
    Effect::new(move || {
        if let Some(field) = code_field.get() {
            let _ = field.focus();
        } else if let Some(button) = key_button.get() {
            let _ = button.focus();
        }
    });
    // Said to screen readers when the second step appears (a live region
    // that is on the page before its words change).
    let step_said = move || {
        challenge.get().map(|_| {
            if offers(SecondFactorMethod::Totp) {
                "Password accepted. Second step: enter the code from your authenticator app."
            } else {
                "Password accepted. Second step: use your security key."
            }
        })
    };
    let invalid = move || error.get().is_some().then_some("true");
    let label = move || match (pending(), challenge.get().is_some()) {
        (true, _) => "Signing in…",
        (false, true) => "Verify",
        (false, false) => "Sign in",
    };

    view! {
        <Title text="Sign in"/>
        <section class="auth card" aria-labelledby="login-title">
            <h1 id="login-title">"Sign in to Tally"</h1>
            <noscript>
                <p class="hint">"JavaScript is off: you can sign in with your password; a second factor needs JavaScript."</p>
            </noscript>
            <Suspense>
                {move || {
                    sign_in_methods.get().flatten().and_then(|methods| methods.oidc).map(|oidc| {
                        let start = format!(
                            "/api/auth/oidc/start?next={}",
                            crate::domain::query_string::encode(&next())
                        );
                        view! {
                            <p><a class="button" data-testid="sso-start" href=start rel="external">{oidc.label}</a></p>
                            <p class="hint" hidden=!password_on()>"Or with your email and password:"</p>
                        }
                    })
                }}
            </Suspense>
            // Hidden once the methods say local sign-in is off. Not inside a
            // Suspense: a page switching to this one would keep the old
            // page on screen until the methods arrive.
            <Show
                when=move || challenge.get().is_none()
                fallback=move || {
                    let use_key = use_key.clone();
                    view! {
                        <Show when=move || offers(SecondFactorMethod::SecurityKey)>
                            <p>"Touch your security key to finish signing in."</p>
                            <button type="button" class="button" on:click=use_key.clone() disabled=pending node_ref=key_button>
                                "Use security key"
                            </button>
                        </Show>
                        <Show when=move || offers(SecondFactorMethod::Totp)>
                            <ActionForm action=with_code attr:novalidate=true>
                                <CsrfField/>
                                <input type="hidden" name="request[challenge]" value=move || challenge.get().unwrap_or_default()/>
                                <div class="field">
                                    <label for="login-code">"Code from your authenticator app"</label>
                                    <input
                                        id="login-code"
                                        name="request[code]"
                                        type="text"
                                        inputmode="numeric"
                                        autocomplete="one-time-code"
                                        node_ref=code_field
                                        aria-invalid=invalid
                                        aria-describedby="login-code-hint login-error"
                                    />
                                    <p id="login-code-hint" class="hint">"Or one of your recovery codes."</p>
                                </div>
                                <button type="submit" class="button" disabled=pending>{label}</button>
                            </ActionForm>
                        </Show>
                    }
                }
            >
                <ActionForm action=with_password attr:novalidate=true attr:hidden=move || !password_on()>
                    <CsrfField/>
                    <input type="hidden" name="next" value=next/>
                    <div class="field">
                        <label for="login-email">"Email"</label>
                        <input
                            id="login-email"
                            name="request[email]"
                            type="email"
                            autocomplete="username"
                            autofocus
                            node_ref=email_field
                            required
                            aria-invalid=invalid
                            aria-describedby="login-error"
                        />
                    </div>
                    <div class="field">
                        <label for="login-password">"Password"</label>
                        <input
                            id="login-password"
                            name="request[password]"
                            type="password"
                            autocomplete="current-password"
                            required
                            aria-invalid=invalid
                            aria-describedby="login-error"
                        />
                    </div>
                    <button type="submit" class="button" disabled=pending>{label}</button>
                </ActionForm>
            </Show>
            <p class="visually-hidden" role="status" data-testid="sign-in-step">{step_said}</p>
            <p id="login-error" class="field-error" role="alert">
                {move || error.get()}
            </p>
        </section>
    }
}

/// `LoginPage` as a route whose code is left out of the first download:
/// `cargo leptos build --split` puts it in its area's chunk (`split_route!`),
/// fetched when a page of that area is first opened (and before hydrating
/// it, when it is the first).
pub struct LoginRoute;

split_route!(LoginRoute => LoginPage in public_pages);
