use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;

use crate::api;
use crate::api::profile::{MakeToken, RevokeToken};
use crate::components::csrf_field::CsrfField;
use crate::contract::tokens::{ApiTokenInfo, CreateToken};
use crate::domain::timestamp;
use crate::domain::token_lifetime::{CHOICES, DEFAULT_DAYS};
use crate::domain::token_scope::{Scope, Scopes};

fn lifetime_label(days: u16) -> String {
    match days {
        7 => "1 week".into(),
        30 => "30 days".into(),
        90 => "90 days".into(),
        365 => "1 year".into(),
        days => format!("{days} days"),
    }
}

/// Personal API tokens: list (as the page was rendered with), create with
/// a chosen lifetime and scopes (the token is shown once), revoke. The
/// administrators' scopes are offered to administrators only.
#[component]
pub fn ApiTokens(tokens: Vec<ApiTokenInfo>, admin: bool) -> impl IntoView {
    let tokens = RwSignal::new(tokens);
    let name = RwSignal::new(String::new());
    let days = RwSignal::new(DEFAULT_DAYS.to_string());
    let chosen = RwSignal::new(Scopes::DEFAULT.iter().collect::<Vec<Scope>>());
    let shown_once = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);

    // The token is shown once: without JavaScript the form posts to
    // `/profile/tokens`, which answers with a page of its own; with it,
    // the form dispatches `make-token` and the token is shown here, the
    // newest first in the list as the list is kept.
    let make = ServerAction::<MakeToken>::new();
    api::each_answer(make, move |answer| match answer {
        Ok(created) => {
            shown_once.set(Some(created.token));
            tokens.update(|list| list.insert(0, created.info));
            name.set(String::new());
            error.set(None);
        }
        Err(failure) => error.set(Some(failure.message())),
    });
    let create = move |event: SubmitEvent| {
        event.prevent_default();
        let request = CreateToken {
            name: name.get_untracked().trim().to_owned(),
            expires_in_days: Some(
                days.get_untracked()
                    .parse()
                    .unwrap_or(i64::from(DEFAULT_DAYS)),
            ),
            scopes: Some(
                chosen
                    .get_untracked()
                    .iter()
                    .map(|scope| scope.as_str().to_owned())
                    .collect(),
            ),
        };
        if request.name.is_empty() {
            error.set(Some("name: give the token a name".into()));
            return;
        }
        if chosen.with_untracked(Vec::is_empty) {
            error.set(Some(
                "scopes: choose at least one thing the token may do".into(),
            ));
            return;
        }
        make.dispatch(MakeToken { request });
    };
    // Each token's Revoke is a form, so it works without JavaScript (the
    // browser comes back to this page, the token gone); with it, the
    // form sends the same server function and the token whose revoke
    // was sent last leaves the list once the server answers.
    let revoke = ServerAction::<RevokeToken>::new();
    let revoking = RwSignal::new(None::<i64>);
    api::each_answer(revoke, move |answer| match answer {
        Ok(()) => {
            error.set(None);
            if let Some(gone) = revoking.get_untracked() {
                tokens.update(|list| list.retain(|token| token.id != gone));
            }
        }
        Err(failure) => error.set(Some(failure.message())),
    });

    view! {
        <section class="card" aria-labelledby="tokens-title">
            <h2 id="tokens-title">"API tokens"</h2>
            <p>"Scripts and other programs use a token in an " <code>"Authorization: Bearer"</code> " header."</p>
            <p class="hint">
                "A token stops working when it expires, when you change your password and when you sign out everywhere. "
                "It does only what its scopes allow, and never makes tokens or changes your password, email or second factors."
            </p>
            {move || {
                shown_once
                    .get()
                    .map(|token| {
                        view! {
                            <div class="notice" role="status">
                                <p>"Copy your new token now; it will not be shown again:"</p>
                                <code data-testid="new-token">{token}</code>
                            </div>
                        }
                    })
            }}
            <form class="inline-form" method="post" action="/profile/tokens" on:submit=create>
                <CsrfField/>
                <label for="token-name">"Token name"</label>
                <input
                    id="token-name"
                    name="name"
                    type="text"
                    maxlength="100"
                    prop:value=move || name.get()
                    on:input=move |ev| name.set(event_target_value(&ev))
                />
                <label for="token-days">"Expires after"</label>
                <select
                    id="token-days"
                    name="days"
                    prop:value=move || days.get()
                    on:change=move |ev| days.set(event_target_value(&ev))
                >
                    {CHOICES
                        .iter()
                        .map(|choice| {
                            let value = choice.to_string();
                            // `selected` as well as the select's value, so
                            // the default shows even if the value was set
                            // before the options existed.
                            let selected = {
                                let value = value.clone();
                                move || days.get() == value
                            };
                            view! { <option value=value selected=selected>{lifetime_label(*choice)}</option> }
                        })
                        .collect_view()}
                </select>
                <fieldset class="token-scopes">
                    <legend>"It may"</legend>
                    {Scope::ALL
                        .into_iter()
                        .filter(|scope| admin || !scope.needs_admin())
                        .map(|scope| {
                            let id = format!("token-scope-{}", scope.as_str().replace(':', "-"));
                            view! {
                                <label>
                                    <input
                                        id=id
                                        type="checkbox"
                                        name="scopes"
                                        value=scope.as_str()
                                        // The defaults, for the page as sent.
                                        checked=Scopes::DEFAULT.contains(scope)
                                        prop:checked=move || chosen.with(|chosen| chosen.contains(&scope))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|chosen| {
                                                chosen.retain(|held| *held != scope);
                                                if on {
                                                    chosen.push(scope);
                                                }
                                            });
                                        }
                                    />
                                    " " <code>{scope.as_str()}</code> ": " {scope.explained()}
                                </label>
                            }
                        })
                        .collect_view()}
                </fieldset>
                <button type="submit" class="button" disabled=move || make.pending().get()>"Create token"</button>
            </form>
            <p class="field-error" role="alert">{move || error.get()}</p>
            <ul class="token-list">
                {move || {
                    tokens
                        .get()
                        .into_iter()
                        .map(|token| {
                            let id = token.id;
                            let expiry = if token.expired {
                                format!(" · expired {}", timestamp::day(&token.expires_at))
                            } else {
                                format!(" · expires {}", timestamp::day(&token.expires_at))
                            };
                            let label = format!("Revoke {}", token.name);
                            view! {
                                <li>
                                    <strong>{token.name}</strong>
                                    " · " <span data-testid="token-scopes">{token.scopes.join(", ")}</span>
                                    " · created " {token.created_at}
                                    " · last used " {token.last_used_at.unwrap_or_else(|| "never".into())}
                                    <span data-testid="token-expiry">{expiry}</span>
                                    <form class="inline-form" method="post" action=RevokeToken::url()
                                        on:submit=move |event: SubmitEvent| {
                                            event.prevent_default();
                                            revoking.set(Some(id));
                                            revoke.dispatch(RevokeToken { id });
                                        }>
                                        <CsrfField/>
                                        <input type="hidden" name="id" value=id/>
                                        <button type="submit" class="button button--quiet"
                                            aria-label=label disabled=move || revoke.pending().get()>
                                            "Revoke"
                                        </button>
                                    </form>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </section>
    }
}
