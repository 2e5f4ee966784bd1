//! The request policies every page and API route passes, in one layer:
//! the cookies' names behind https (`backend::cookies`: `__Host-`
//! prefixed in the browser, the app's own names inside), the deadline
//! around everything, then the canonical host, CSRF (and, on the way
//! out, the CSRF cookie of a session just started or ended) and the
//! signed-in pages' redirect, then the handler (or, for a marketing page an
//! anonymous visitor asks for, its copy in `page_cache`), and the cache policy on
//! whatever comes back. Each policy is a plain function in its own module;
//! this layer only runs them in order. As five `from_fn` layers they cost a
//! boxed clone of the inner service and a boxed future each, per request,
//! which showed up in every cheap route's profile; as one they cost one.

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use app::backend::cookies;

use super::{cache_control, csrf, deadline, hosts, signed_in_pages};
use crate::page_cache::PageCache;
use crate::state::AppState;

pub async fn apply(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let limit = state.settings.limits.request_timeout;
    let path = request.uri().path().to_owned();
    // Behind https the browser holds Tally's cookies `__Host-` prefixed;
    // everything after this reads and writes them by the app's names.
    let host_prefixed = state.secure_cookies();
    if host_prefixed {
        cookies::from_browser(request.headers_mut());
    }
    // A page with forms, opened without the CSRF cookie it should hold,
    // gets it.
    let issued = csrf::issue_for_page(&mut request, &state.keyring);
    let mut response = match tokio::time::timeout(limit, admit(&state, request, next)).await {
        Ok(response) => response,
        Err(_) => deadline::exceeded(&path, limit),
    };
    if let Some(cookie) = issued.and_then(|token| crate::csrf_cookie::cookie(&state, &token)) {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    // An answer that starts or ends a session, whichever door gave it,
    // sets the CSRF cookie that goes with the new state.
    crate::csrf_cookie::follow_session(&state, response.headers_mut());
    cache_control::apply(&path, &mut response);
    // Said only to the page cache.
    response.headers_mut().remove(app::api::signed_in::PERSONAL);
    if host_prefixed {
        cookies::to_browser(response.headers_mut());
    }
    response
}

async fn admit(state: &AppState, request: Request, next: Next) -> Response {
    if let Some(redirect) = hosts::redirect(&state.settings, &request) {
        return redirect;
    }
    let request = match csrf::check(request, &state.keyring).await {
        Ok(request) => request,
        Err(refusal) => return refusal,
    };
    // The head alone crosses the await: a request's body is not `Sync`.
    let (head, body) = request.into_parts();
    if let Some(redirect) = signed_in_pages::redirect_to_sign_in(state, &head).await {
        return redirect;
    }
    let Some(page) = PageCache::key(&head) else {
        return next.run(Request::from_parts(head, body)).await;
    };
    if let Some(answer) = state.page_cache.answer(page) {
        return answer;
    }
    let rendered = next.run(Request::from_parts(head, body)).await;
    state.page_cache.keep(page, rendered).await
}
