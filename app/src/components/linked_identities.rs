use leptos::prelude::*;

use crate::api::authentication::{get_identities, UnlinkIdentity};
use crate::api::ApiFailure;
use crate::components::csrf_field::CsrfField;
use crate::contract::authentication::LinkedIdentities as Linked;

/// Profile → Security: the accounts at the identity provider linked to
/// this one, unlinking (while the account has a password), and linking one
/// (a form post that goes through the provider and comes back here).
/// Shown when single sign-on is on here or an identity is linked.
#[component]
pub fn LinkedIdentities() -> impl IntoView {
    let unlink = ServerAction::<UnlinkIdentity>::new();
    let state = crate::api::page_resource(
        move || unlink.version().get(),
        |_| async move { get_identities().await.map_err(ApiFailure::from) },
    );
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                match state.await {
                    Ok(linked) => view! { <Loaded linked unlink/> }.into_any(),
                    Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Loaded(linked: Linked, unlink: ServerAction<UnlinkIdentity>) -> impl IntoView {
    let Linked {
        identities,
        has_password,
        provider_label,
    } = linked;
    if identities.is_empty() && provider_label.is_none() {
        return ().into_any();
    }
    let rows = identities
        .into_iter()
        .map(|identity| {
            let email = identity.email.unwrap_or_else(|| "no email given".into());
            let linked_on = crate::domain::timestamp::day(&identity.linked_at).to_owned();
            view! {
                <li data-testid="linked-identity">
                    <span>{email}" at "{identity.issuer}" · linked "{linked_on}</span>
                    <ActionForm action=unlink attr:class="inline-form">
                        <CsrfField/>
                        <input type="hidden" name="id" value=identity.id/>
                        <button type="submit" class="button button--quiet" disabled=!has_password>"Unlink"</button>
                    </ActionForm>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="card" aria-labelledby="identities-title">
            <h2 id="identities-title">"Single sign-on"</h2>
            <p class="hint">
                "Signing in through your identity provider does not ask for Tally's own authenticator code or security key: the provider checks who you are, with its own second factor."
            </p>
            <ul class="token-list" data-testid="linked-identities">{rows}</ul>
            {(!has_password).then(|| view! {
                <p class="hint">"This account has no password, so it signs in only through the provider and its provider account stays linked."</p>
            })}
            <p class="field-error" role="alert">
                {move || unlink.value().get().and_then(Result::err).map(|error| ApiFailure::from(error).message())}
            </p>
            {provider_label.map(|label| view! {
                <form method="post" action="/profile/single-sign-on">
                    <CsrfField/>
                    <button type="submit" class="button" data-testid="sso-link">{format!("Link your account: {label}")}</button>
                </form>
            })}
        </section>
    }
    .into_any()
}
