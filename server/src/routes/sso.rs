//! Single sign-on's doors: `GET /api/auth/methods`, and the two browser
//! redirects of a provider sign-in, `GET /api/auth/oidc/start` and
//! `GET /api/auth/oidc/callback`. Every failure of the two lands on
//! `/login?error=<code>` (302) with no session; the details go to the log.

use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::current;
use app::backend::client_ip::ClientIp;
use app::backend::cookies;
use app::backend::sso::service::{self, Finished, ProviderAnswer};
use app::backend::sso::{SsoError, BROWSER_COOKIE};
use app::contract::account::AuthMethods;

use crate::session_answer::{new_session_cookie, visitor};
use crate::state::AppState;

/// How long the browser cookie of a sign-in under way lives.
const BROWSER_COOKIE_SECONDS: i64 = 10 * 60;

/// `GET /api/auth/methods`: how people can sign in.
#[utoipa::path(
    get,
    path = "/api/auth/methods",
    tag = "auth",
    security(()),
    responses((status = 200, body = AuthMethods)),
)]
pub async fn methods(State(state): State<AppState>) -> Result<Json<AuthMethods>, ApiError> {
    Ok(Json(service::methods(&state.services.sso).await?))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct StartQuery {
    /// A path of this site to go to after signing in.
    next: Option<String>,
}

/// `GET /api/auth/oidc/start[?next=/path]`: to the identity provider.
#[utoipa::path(
    get,
    path = "/api/auth/oidc/start",
    tag = "auth",
    security(()),
    params(StartQuery),
    responses(
        (status = 302, description = "To the provider; on any failure to /login?error=<code>"),
    ),
)]
pub async fn start(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(query): Query<StartQuery>,
) -> Response {
    let started = service::start(&state.services.sso, ip, query.next.as_deref(), None).await;
    to_provider(&state, ip, started)
}

/// The answer to a start: to the provider with the browser cookie, 429, or
/// back to the sign-in page with a code.
pub fn to_provider(
    state: &AppState,
    ip: std::net::IpAddr,
    started: Result<service::Started, SsoError>,
) -> Response {
    match started {
        Ok(started) => with_browser_cookie(state, found(&started.location), &started),
        Err(error) => refused_start(ip, &error),
    }
}

/// `response` with the cookie that binds the sign-in under way to this
/// browser.
pub fn with_browser_cookie(
    state: &AppState,
    mut response: Response,
    started: &service::Started,
) -> Response {
    if let Some(cookie) = cookies::set(
        BROWSER_COOKIE,
        &started.browser_token,
        BROWSER_COOKIE_SECONDS,
        true,
        state.secure_cookies(),
        // Lax: sent when the provider sends the browser back.
        "Lax",
    ) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// A start that failed: 429 with `Retry-After` when throttled, else back to
/// the sign-in page with the code.
pub fn refused_start(ip: std::net::IpAddr, error: &SsoError) -> Response {
    match error {
        SsoError::Throttled(wait) => {
            tracing::warn!(client = %ip, "single sign-on: too many starts");
            let mut response = (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many sign-in attempts from this address; try again in a few minutes.",
            )
                .into_response();
            if let Ok(value) = HeaderValue::from_str(&wait.as_secs().max(1).to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            response
        }
        error => refused(error),
    }
}

/// `GET /api/auth/oidc/callback`: the provider's answer; signs in and goes
/// to `next`.
#[utoipa::path(
    get,
    path = "/api/auth/oidc/callback",
    tag = "auth",
    security(()),
    responses((status = 302, description = "Signed in (with a session cookie) to `next`; on any failure to /login?error=<code>")),
)]
pub async fn callback(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    Query(answer): Query<ProviderAnswer>,
) -> Response {
    let visitor = visitor(client, &headers);
    let browser_token = cookies::get(&headers, BROWSER_COOKIE);
    let signed_in_as = current::authenticate_browser(&state.pool, &headers)
        .await
        .ok()
        .flatten()
        .map(|current| current.user.id);
    let finished = service::finish(
        &state.services.sso,
        answer,
        &visitor,
        browser_token,
        signed_in_as,
    )
    .await;
    let mut response = match finished {
        Ok(Finished::Linked { next }) => {
            tracing::info!(user = signed_in_as, "identity at the provider linked");
            found(&next)
        }
        Ok(Finished::SignedIn(signed_in)) => {
            tracing::info!(
                user = signed_in.user.id,
                "signed in through the identity provider"
            );
            // With the session cookie, the front door sets the CSRF
            // cookie bound to it (`csrf_cookie::follow_session`).
            let mut response = found(&signed_in.next);
            if let Some(cookie) = new_session_cookie(&state, &signed_in.session) {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
            response
        }
        Err(error) => refused(&error),
    };
    // The sign-in under way is over either way.
    if let Some(cookie) = cookies::set(BROWSER_COOKIE, "", 0, true, state.secure_cookies(), "Lax") {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// A failure: logged with its details, answered with its code only.
fn refused(error: &SsoError) -> Response {
    tracing::warn!(code = error.code(), %error, "single sign-on refused");
    found(&format!("/login?error={}", error.code()))
}

fn found(location: &str) -> Response {
    let mut response = StatusCode::FOUND.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
