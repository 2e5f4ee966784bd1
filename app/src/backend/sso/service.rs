//! The two use cases of a provider sign-in: start it (send the browser to
//! the provider) and finish it (the provider sends the browser back with a
//! code). Finishing signs in exactly as a password does: a hashed session,
//! the sign-in history (method `oidc`), the same `next` check.

use std::net::IpAddr;

use base64::Engine;
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreGenderClaim, CoreIdToken};
use openidconnect::{
    AccessTokenHash, AdditionalClaims, AuthorizationCode, ClaimsVerificationError, ClientId,
    ClientSecret, CsrfToken, LogoutRequest, Nonce, OAuth2TokenResponse, PkceCodeChallenge,
    PostLogoutRedirectUrl, RedirectUrl, Scope, TokenResponse, UserInfoClaims,
};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};

use super::error::SsoError;
use super::pending::Waiting;
use super::provider::describe;
use super::rules::{self, Claims, Entry, Known};
use super::{store, Sso};
use crate::backend::auth::entrance::Visitor;
use crate::backend::auth::login_history::Origin;
use crate::backend::auth::sessions;
use crate::backend::auth::token::{random_token, sha256_hex};
use crate::backend::auth::users::{self, User};
use crate::backend::limiter::ClientKey;
use crate::backend::secrets::SESSION_ID_TOKEN;
use crate::domain::redirect::next_or_default;
use crate::domain::role::Role;

/// Where to send the browser, and the token its `tally_sso` cookie keeps
/// (binding the provider's answer to this browser).
pub struct Started {
    pub location: String,
    pub browser_token: String,
}

/// `GET /api/auth/methods`: how people can sign in now.
pub async fn methods(sso: &Sso) -> Result<crate::contract::account::AuthMethods, SsoError> {
    Ok(sso.current(&sso.pool, &sso.keyring).await?.methods())
}

/// `GET /api/auth/oidc/start[?next=]`, and linking from Profile
/// (`link_to`: the account signed in, which the identity is added to).
pub async fn start(
    sso: &Sso,
    client: IpAddr,
    next: Option<&str>,
    link_to: Option<i64>,
) -> Result<Started, SsoError> {
    let client = ClientKey::of(client);
    sso.starts.check(&client).map_err(SsoError::Throttled)?;
    let current = sso.current(&sso.pool, &sso.keyring).await?;
    let provider = current.provider()?;
    let metadata = provider.metadata().await?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let oidc = client_of(&current.settings, metadata, sso.redirect()?)?;
    let mut request = oidc.authorize_url(
        CoreAuthenticationFlow::AuthorizationCode,
        CsrfToken::new_random,
        Nonce::new_random,
    );
    for scope in current
        .settings
        .scopes
        .iter()
        .filter(|scope| *scope != "openid")
    {
        request = request.add_scope(Scope::new(scope.clone()));
    }
    let (location, state, nonce) = request.set_pkce_challenge(challenge).url();
    let browser_token = random_token();
    let waiting = Waiting::new(
        sha256_hex(&browser_token),
        nonce,
        verifier,
        next_or_default(next),
        link_to,
    );
    sso.pending
        .keep(sha256_hex(state.secret()), client, waiting);
    Ok(Started {
        location: location.to_string(),
        browser_token,
    })
}

/// What the provider sent back to `/api/auth/oidc/callback`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ProviderAnswer {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// A finished sign-in: the account, the session token for the cookie and
/// where to go.
pub struct SignedIn {
    pub user: User,
    pub session: String,
    pub next: String,
}

/// What the provider's answer did.
pub enum Finished {
    /// Signed in (a new session).
    SignedIn(SignedIn),
    /// The identity was added to the account signed in (linking from
    /// Profile); no new session. Where to go.
    Linked { next: String },
}

/// `GET /api/auth/oidc/callback`.
/// `visitor` is who finishes it; `browser_token`, their `tally_sso`
/// cookie; `signed_in_as`, the account of their session, if any.
pub async fn finish(
    sso: &Sso,
    answer: ProviderAnswer,
    visitor: &Visitor,
    browser_token: Option<&str>,
    signed_in_as: Option<i64>,
) -> Result<Finished, SsoError> {
    let current = sso.current(&sso.pool, &sso.keyring).await?;
    let settings = &current.settings;
    let provider = current.provider()?;
    let redirect = sso.redirect()?;
    // The state first, so an error answer also uses it up.
    let waiting = answer
        .state
        .as_deref()
        .and_then(|state| sso.pending.take(&sha256_hex(state)))
        .ok_or(SsoError::State)?;
    let same_browser = browser_token.is_some_and(|token| sha256_hex(token) == waiting.browser_hash);
    if !same_browser {
        return Err(SsoError::State);
    }
    if let Some(error) = answer.error {
        return Err(SsoError::Provider(error.chars().take(100).collect()));
    }
    let code = answer
        .code
        .ok_or_else(|| SsoError::Provider("no code".into()))?;

    let metadata = provider.metadata().await?;
    let oidc = client_of(settings, metadata, redirect.clone())?;
    let http = provider.http().client();
    let tokens = oidc
        .exchange_code(AuthorizationCode::new(code))
        .map_err(|error| SsoError::Unavailable(error.to_string()))?
        .set_pkce_verifier(waiting.verifier)
        .request_async(&http)
        .await
        .map_err(|error| SsoError::Token(describe(&error)))?;
    let id_token = tokens
        .id_token()
        .ok_or_else(|| SsoError::Token("no ID token".into()))?;

    // The ID token's signature, issuer, audience, expiry and nonce; an
    // unknown key fetches the keys again (at most every 30 s) and retries.
    let verified = {
        let checked = id_token
            .claims(&oidc.id_token_verifier(), &waiting.nonce)
            .cloned();
        match checked {
            Ok(claims) => (claims, oidc),
            Err(ClaimsVerificationError::SignatureVerification(first)) => {
                match provider.refetch_keys().await? {
                    Some(metadata) => {
                        let fresh = client_of(settings, metadata, redirect)?;
                        let claims = id_token
                            .claims(&fresh.id_token_verifier(), &waiting.nonce)
                            .map_err(|error| SsoError::Token(describe(&error)))?
                            .clone();
                        (claims, fresh)
                    }
                    None => return Err(SsoError::Token(describe(&first))),
                }
            }
            Err(other) => return Err(SsoError::Token(describe(&other))),
        }
    };
    let (id_claims, oidc) = verified;
    if let Some(expected) = id_claims.access_token_hash() {
        let verifier = oidc.id_token_verifier();
        let actual = AccessTokenHash::from_token(
            tokens.access_token(),
            id_token
                .signing_alg()
                .map_err(|error| SsoError::Token(error.to_string()))?,
            id_token
                .signing_key(&verifier)
                .map_err(|error| SsoError::Token(error.to_string()))?,
        )
        .map_err(|error| SsoError::Token(error.to_string()))?;
        if actual != *expected {
            return Err(SsoError::Token(
                "the access token does not match its hash".into(),
            ));
        }
    }
    let issuer = id_claims.issuer().as_str().to_owned();
    let mut claims = Claims {
        subject: id_claims.subject().as_str().to_owned(),
        email: id_claims.email().map(|email| email.as_str().to_owned()),
        email_verified: id_claims.email_verified().unwrap_or(false),
        name: id_claims
            .name()
            .and_then(|name| name.get(None))
            .map(|name| name.as_str().to_owned()),
        groups: groups_of(&payload(&id_token.to_string()), &settings.groups_claim),
    };

    // Completed from the userinfo endpoint (Authelia and others put the
    // email and groups only there), for the same subject.
    if let Ok(request) = oidc.user_info(
        tokens.access_token().clone(),
        Some(id_claims.subject().clone()),
    ) {
        let info: UserInfoClaims<Extra, CoreGenderClaim> = request
            .request_async(&http)
            .await
            .map_err(|error| SsoError::Token(describe(&error)))?;
        if claims.email.is_none() {
            claims.email = info.email().map(|email| email.as_str().to_owned());
        }
        if let Some(verified) = info.email_verified() {
            if info.email().map(|email| email.as_str()) == claims.email.as_deref() {
                claims.email_verified = claims.email_verified || verified;
            }
        }
        if claims.name.is_none() {
            claims.name = info
                .name()
                .and_then(|name| name.get(None))
                .map(|name| name.as_str().to_owned());
        }
        for group in groups_of(&info.additional_claims().other, &settings.groups_claim) {
            if !claims.groups.contains(&group) {
                claims.groups.push(group);
            }
        }
    }

    if let Some(account) = waiting.link_to {
        // Linking from Profile: the same account must still be signed in.
        if signed_in_as != Some(account) {
            return Err(SsoError::State);
        }
        link(sso, account, &issuer, &claims).await?;
        return Ok(Finished::Linked { next: waiting.next });
    }
    let user_id = enter(sso, settings, &issuer, &claims).await?;
    let user = users::by_id(&sso.pool, user_id)
        .await?
        .ok_or(SsoError::Disabled)?;
    let user_agent = visitor.user_agent.as_deref();
    let session = sessions::create(&sso.pool, user.id, user_agent).await?;
    // Kept (sealed) for signing out at the provider when this session ends.
    match sso.keyring.seal(SESSION_ID_TOKEN, &id_token.to_string()) {
        Ok(sealed) => store::keep_id_token(&sso.pool, &sha256_hex(&session), &sealed).await?,
        Err(error) => {
            tracing::warn!(%error, "the ID token is not kept; signing out will not reach the provider")
        }
    }
    sso.login_history
        .record_provider_sign_in(
            &sso.pool,
            &sso.keyring,
            user.id,
            Origin {
                ip: visitor.ip,
                user_agent,
            },
        )
        .await?;
    Ok(Finished::SignedIn(SignedIn {
        user,
        session,
        next: waiting.next,
    }))
}

/// Adds the identity to `account` (linking from Profile): refused when it
/// already belongs to another account; nothing to do when it is this one's.
async fn link(sso: &Sso, account: i64, issuer: &str, claims: &Claims) -> Result<(), SsoError> {
    let mut tx = crate::backend::db::write(&sso.pool).await?;
    match store::linked_in(&mut tx, issuer, &claims.subject).await? {
        Some(linked) if linked.user_id != account => return Err(SsoError::IdentityTaken),
        Some(_) => {}
        None => {
            store::link(
                &mut tx,
                account,
                issuer,
                &claims.subject,
                claims.email.as_deref(),
                false,
            )
            .await?
        }
    }
    store::touch(&mut tx, issuer, &claims.subject, claims.email.as_deref()).await?;
    tx.commit().await?;
    Ok(())
}

/// The account the identity signs into, linked or created as the settings
/// say, with its role from the groups; one transaction.
async fn enter(
    sso: &Sso,
    settings: &super::SsoSettings,
    issuer: &str,
    claims: &Claims,
) -> Result<i64, SsoError> {
    let linked = store::linked(&sso.pool, issuer, &claims.subject).await?;
    let same_email = match claims.email.as_deref() {
        Some(email) => match users::by_email(&sso.pool, email).await? {
            Some(user) => store::email_owner(&sso.pool, user.id).await?,
            None => None,
        },
        None => None,
    };
    let known = Known {
        linked: linked.as_ref().map(|linked| linked.user_id),
        same_email,
    };
    let entry = rules::entry(
        claims,
        known,
        settings.link_by_email,
        settings.auto_provision,
    );
    let mut tx = crate::backend::db::write(&sso.pool).await?;
    let (user_id, provisioned) = match entry {
        Entry::Linked(user_id) => (user_id, linked.is_some_and(|linked| linked.provisioned)),
        Entry::Link(user_id) => {
            store::link(
                &mut tx,
                user_id,
                issuer,
                &claims.subject,
                claims.email.as_deref(),
                false,
            )
            .await?;
            (user_id, false)
        }
        Entry::Provision { email } => {
            // What the provider says goes through the rules a registration
            // meets: a plausible email (else refused), a one-line name
            // (else none).
            let email = users::check_email(&email).map_err(|error| {
                tracing::warn!(%error, "the provider's email cannot be an account's");
                SsoError::NoEmail
            })?;
            let name = claims
                .name
                .as_deref()
                .and_then(|name| users::check_name(name).ok())
                .unwrap_or_default();
            let user_id = store::create_account(&mut tx, &email, name).await?;
            store::link(
                &mut tx,
                user_id,
                issuer,
                &claims.subject,
                Some(&email),
                true,
            )
            .await?;
            (user_id, true)
        }
        Entry::Refused(refusal) => return Err(refusal.into()),
    };
    let (role, disabled) = store::standing(&mut tx, user_id)
        .await?
        .ok_or(SsoError::NoAccount)?;
    if disabled {
        return Err(SsoError::Disabled);
    }
    let wanted = rules::role(
        provisioned,
        role,
        &claims.groups,
        settings.admin_group.as_deref(),
    );
    if wanted != role {
        store::set_role(&mut tx, user_id, wanted).await?;
        if role == Role::Admin {
            // A demotion: the rights end everywhere, not at the next sign-in.
            store::end_sessions(&mut tx, user_id).await?;
        }
    }
    store::touch(&mut tx, issuer, &claims.subject, claims.email.as_deref()).await?;
    tx.commit().await?;
    Ok(user_id)
}

/// Claims beyond the standard ones (the groups), as they came.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct Extra {
    #[serde(flatten)]
    pub other: serde_json::Map<String, serde_json::Value>,
}

impl AdditionalClaims for Extra {}

/// The JSON payload of a JWT already verified, as a map (empty if it
/// cannot be read).
fn payload(jwt: &str) -> serde_json::Map<String, serde_json::Value> {
    jwt.split('.')
        .nth(1)
        .and_then(|part| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(part)
                .ok()
        })
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// The groups of a claim: a list of names, or one name.
fn groups_of(claims: &serde_json::Map<String, serde_json::Value>, claim: &str) -> Vec<String> {
    match claims.get(claim) {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|item| item.as_str())
            .map(str::to_owned)
            .collect(),
        Some(serde_json::Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

/// The client for one request (building it is cheap).
fn client_of(
    settings: &super::SsoSettings,
    metadata: super::provider::Metadata,
    redirect: RedirectUrl,
) -> Result<
    CoreClient<
        openidconnect::EndpointSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointNotSet,
        openidconnect::EndpointMaybeSet,
        openidconnect::EndpointMaybeSet,
    >,
    SsoError,
> {
    let (Some(client_id), Some(secret)) = (&settings.client_id, &settings.client_secret) else {
        return Err(SsoError::Off);
    };
    Ok(CoreClient::from_provider_metadata(
        metadata,
        ClientId::new(client_id.clone()),
        Some(ClientSecret::new(secret.expose_secret().to_owned())),
    )
    .set_redirect_uri(redirect))
}

/// Where to send the browser when the session `session_id` (its hash)
/// ends, so the provider ends its own session too: the provider's
/// end-session endpoint with the ID token as hint and the sign-in page as
/// where to come back. `None` for a password session, or when the provider
/// offers no end-session endpoint or cannot be reached (the session still
/// ends here).
pub async fn end_session_url(sso: &Sso, session_id: &str) -> Option<String> {
    let current = sso.current(&sso.pool, &sso.keyring).await.ok()?;
    let provider = current.provider().ok()?;
    let sealed = store::id_token(&sso.pool, session_id)
        .await
        .ok()
        .flatten()?;
    let id_token: CoreIdToken = sso
        .keyring
        .open(SESSION_ID_TOKEN, &sealed)
        .ok()?
        .expose_secret()
        .parse()
        .ok()?;
    let metadata = match provider.metadata().await {
        Ok(metadata) => metadata,
        Err(error) => {
            tracing::warn!(%error, "signed out here only: the provider cannot be reached");
            return None;
        }
    };
    let endpoint = metadata
        .additional_metadata()
        .end_session_endpoint
        .clone()?;
    let back = PostLogoutRedirectUrl::new(sso.post_logout_redirect_uri()).ok()?;
    let mut request = LogoutRequest::from(endpoint)
        .set_id_token_hint(&id_token)
        .set_post_logout_redirect_uri(back);
    if let Some(client_id) = &current.settings.client_id {
        request = request.set_client_id(ClientId::new(client_id.clone()));
    }
    Some(request.http_get_url().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_a_list_or_one_name() {
        let claims: serde_json::Map<String, serde_json::Value> = serde_json::from_str(
            r#"{"groups": ["a", 3, "b"], "role": "admins", "other": {"x": 1}}"#,
        )
        .unwrap();
        assert_eq!(groups_of(&claims, "groups"), ["a", "b"]);
        assert_eq!(groups_of(&claims, "role"), ["admins"]);
        assert!(groups_of(&claims, "other").is_empty());
        assert!(groups_of(&claims, "missing").is_empty());
    }

    #[test]
    fn a_jwt_payload_is_read_or_empty() {
        let body = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(r#"{"groups":["x"]}"#);
        assert_eq!(groups_of(&payload(&format!("h.{body}.s")), "groups"), ["x"]);
        assert!(payload("not a jwt").is_empty());
        assert!(payload("a.!!!.c").is_empty());
    }
}
