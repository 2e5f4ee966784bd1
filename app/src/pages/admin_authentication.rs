use super::split_route::split_route;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;

use crate::api::authentication::{get_authentication, SaveAuthentication, TestDiscovery};
use crate::api::ApiFailure;
use crate::components::csrf_field::CsrfField;
use crate::contract::authentication::AuthenticationSettings;

/// A text field of the form; read-only with a note when the environment
/// sets it.
fn text_field(
    id: &'static str,
    name: &'static str,
    label: &'static str,
    value: Option<String>,
    fixed: Option<&'static str>,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id name=name type="text" autocomplete="off" value=value.unwrap_or_default()
                disabled=fixed.is_some() aria-describedby=fixed.map(|_| hint_id.clone())/>
            {fixed.map(|variable| view! { <p id=hint_id class="hint">{format!("Set by {variable} in the server's environment.")}</p> })}
        </div>
    }
}

/// A checkbox of the form, like [`text_field`].
fn checkbox(
    name: &'static str,
    label: &'static str,
    checked: bool,
    fixed: Option<&'static str>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label>
                <input type="checkbox" name=name value="true" checked=checked disabled=fixed.is_some()/>
                " " {label}
            </label>
            {fixed.map(|variable| view! { <p class="hint">{format!("Set by {variable} in the server's environment.")}</p> })}
        </div>
    }
}

#[component]
fn Loaded(
    state: AuthenticationSettings,
    save: ServerAction<SaveAuthentication>,
    test: ServerAction<TestDiscovery>,
) -> impl IntoView {
    let fixed_fields = state.fixed_by_environment.clone();
    let fixed = move |field: &str| -> Option<&'static str> {
        fixed_fields
            .iter()
            .any(|name| name == field)
            .then(|| crate::contract::authentication::environment_variable(field))
            .flatten()
    };
    let status = if state.oidc_enabled {
        "Single sign-on is on."
    } else {
        "Single sign-on is off: set the issuer URL, the client id and the client secret to switch it on."
    };
    let local = match (state.local_login_enabled, state.local_login_break_glass) {
        (true, true) => "Email and password sign in: turned back on from the command line (tally auth local-login on).",
        (true, false) => "Email and password sign in.",
        (false, _) => "Email and password are switched off: people sign in through the identity provider only.",
    };
    let secret_hint = if state.client_secret_set {
        "A secret is stored (sealed). Leave empty to keep it."
    } else {
        "Stored sealed; never shown again."
    };
    view! {
        <section class="card" aria-labelledby="provider-title">
            <h2 id="provider-title">"Identity provider (OpenID Connect)"</h2>
            <p role="status" data-testid="sso-status">{status}</p>
            <p>"Register Tally at the provider with:"</p>
            <dl class="facts">
                <dt>"Redirect URI"</dt><dd><code data-testid="redirect-uri">{state.redirect_uri.clone()}</code></dd>
                <dt>"Post-logout redirect URI"</dt><dd><code>{state.post_logout_redirect_uri.clone()}</code></dd>
            </dl>
            <ActionForm action=save>
                <CsrfField/>
                {text_field("auth-issuer", "issuer_url", "Issuer URL", state.issuer_url.clone(), fixed("issuerUrl"))}
                {text_field("auth-client-id", "client_id", "Client id", state.client_id.clone(), fixed("clientId"))}
                <div class="field">
                    <label for="auth-client-secret">"Client secret"</label>
                    <input id="auth-client-secret" name="client_secret" type="password" autocomplete="new-password"
                        disabled=fixed("clientSecret").is_some() aria-describedby="auth-client-secret-hint"/>
                    <p id="auth-client-secret-hint" class="hint">{match fixed("clientSecret") {
                        Some(_) => "Set in the server's environment (OIDC_CLIENT_SECRET or OIDC_CLIENT_SECRET_FILE).",
                        None => secret_hint,
                    }}</p>
                    {(state.client_secret_set && fixed("clientSecret").is_none()).then(|| view! {
                        <label><input type="checkbox" name="forget_client_secret" value="true"/>" Forget the stored secret"</label>
                    })}
                </div>
                {text_field("auth-scopes", "scopes", "Scopes", Some(state.scopes.clone()), fixed("scopes"))}
                {text_field("auth-groups-claim", "groups_claim", "Groups claim", Some(state.groups_claim.clone()), fixed("groupsClaim"))}
                {text_field("auth-admin-group", "admin_group", "Administrators' group (empty: nobody becomes an administrator through the provider)", state.admin_group.clone(), fixed("adminGroup"))}
                {checkbox("auto_provision", "Create an account at a person's first provider sign-in", state.auto_provision, fixed("autoProvision"))}
                {checkbox("link_by_email", "Link a person to the account with the email the provider verified (never an administrator's or one with a second factor: they link from Profile)", state.link_by_email, fixed("linkByEmail"))}
                {text_field("auth-button-label", "button_label", "Sign-in button", Some(state.button_label.clone()), fixed("buttonLabel"))}
                <h3>"Local sign-in"</h3>
                <p data-testid="local-status">{local}</p>
                {checkbox("local_login_enabled", "Email and password sign in", state.local_login_enabled, fixed("localLoginEnabled"))}
                <p class="hint">{if state.admin_signed_in_through_provider {
                    "An administrator has signed in through the provider, so local sign-in can be switched off. tally auth local-login on, on the server, switches it back on."
                } else {
                    "Local sign-in can be switched off once single sign-on is on and an administrator has signed in through it."
                }}</p>
                // Asked again at every save: these settings decide who
                // signs in as whom, so an open session alone does not do.
                <div class="field">
                    <label for="auth-current-password">"Your password, to save these settings"</label>
                    <input id="auth-current-password" name="confirm[currentPassword]" type="password"
                        autocomplete="current-password" aria-describedby="auth-current-password-hint"/>
                    <p id="auth-current-password-hint" class="hint">
                        "Every change is listed on Admin → Status and mailed to every administrator. A new issuer unlinks the accounts linked at the previous one."
                    </p>
                </div>
                <p class="field-error" role="alert" data-testid="save-error">
                    {move || save.value().get().and_then(Result::err).map(|error| ApiFailure::from(error).message())}
                </p>
                <button type="submit" class="button">"Save"</button>
            </ActionForm>
        </section>
        <section class="card" aria-labelledby="discovery-title">
            <h2 id="discovery-title">"Test discovery"</h2>
            <ActionForm action=test>
                <CsrfField/>
                <div class="field">
                    <label for="discovery-issuer">"Issuer URL (empty: the one in force)"</label>
                    <input id="discovery-issuer" name="issuer_url" type="url" autocomplete="off"/>
                </div>
                <button type="submit" class="button button--quiet">"Test discovery"</button>
            </ActionForm>
            <div role="status" data-testid="discovery-result">
                {move || test.value().get().map(|result| match result {
                    Ok(found) if found.ok => view! {
                        <dl class="facts">
                            <dt>"Issuer"</dt><dd>{found.issuer_url}</dd>
                            <dt>"Authorization"</dt><dd>{found.authorization_endpoint.unwrap_or_default()}</dd>
                            <dt>"Token"</dt><dd>{found.token_endpoint.unwrap_or_default()}</dd>
                            <dt>"Userinfo"</dt><dd>{found.userinfo_endpoint.unwrap_or_else(|| "none".into())}</dd>
                            <dt>"Sign-out"</dt><dd>{found.end_session_endpoint.unwrap_or_else(|| "none: signing out will not reach the provider".into())}</dd>
                        </dl>
                    }.into_any(),
                    Ok(found) => view! {
                        <p class="field-error">{format!("Discovery failed: {}", found.error.unwrap_or_default())}</p>
                    }.into_any(),
                    Err(error) => view! { <p class="field-error">{ApiFailure::from(error).message()}</p> }.into_any(),
                })}
            </div>
        </section>
    }
}

/// `/admin/authentication`: the identity provider (the environment wins
/// over this page, and the page says which fields it fixed), local
/// sign-in, and a test of the provider's discovery.
#[component]
pub fn AdminAuthenticationPage() -> impl IntoView {
    let save = ServerAction::<SaveAuthentication>::new();
    let test = ServerAction::<TestDiscovery>::new();
    let state = crate::api::page_resource(
        move || save.version().get(),
        |_| async move { get_authentication().await.map_err(ApiFailure::from) },
    );
    view! {
        <Title text="Admin: authentication"/>
        <h1>"Authentication"</h1>
        <p><A href="/admin">"Admin"</A></p>
        <Transition fallback=|| view! { <p aria-busy="true">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match state.await {
                    Ok(state) => view! { <Loaded state save test/> }.into_any(),
                    Err(failure) => view! { <p class="field-error">{failure.message()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

pub struct AdminAuthenticationRoute;

split_route!(AdminAuthenticationRoute => AdminAuthenticationPage in admin);
