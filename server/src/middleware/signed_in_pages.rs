//! The bill tracker's pages are for signed-in users: a visitor without a
//! valid session who opens one is sent (303) to `/login?next=<page>`, and
//! comes back after signing in. Checked on the server, so it holds without
//! JavaScript too; the API behind the pages checks the session again.

use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use app::backend::auth::sessions;
use app::domain::redirect;

use crate::state::AppState;
use app::backend::cookies;

/// Pages (and everything under them) that need a session.
pub const SIGNED_IN_PAGES: &[&str] = &["/tracker", "/bills", "/subscriptions", "/data"];

fn protected(path: &str) -> bool {
    SIGNED_IN_PAGES.iter().any(|page| {
        path.strip_prefix(page)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The redirect to sign-in for a visitor without a session who opens a
/// signed-in page.
pub async fn redirect_to_sign_in(state: &AppState, request: &Parts) -> Option<Response> {
    if request.method != Method::GET || !protected(request.uri.path()) {
        return None;
    }
    let signed_in = match cookies::get(&request.headers, cookies::SESSION) {
        Some(token) => matches!(
            sessions::authenticate(&state.pool, token).await,
            Ok(Some(_))
        ),
        None => false,
    };
    if signed_in {
        return None;
    }
    // The page asked for, if it is a plain path the sign-in page will
    // follow (the same rule it applies); otherwise sign-in goes to its default.
    let location = match request
        .uri
        .path_and_query()
        .and_then(|target| redirect::safe_next(target.as_str()))
    {
        Some(target) => format!(
            "/login?next={}",
            app::domain::operation::query_value(target)
        ),
        None => "/login".to_owned(),
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    Some(response)
}

#[cfg(test)]
mod tests {
    use super::protected;

    #[test]
    fn only_the_tracker_pages_are_protected() {
        for path in ["/tracker", "/bills", "/bills/12", "/subscriptions", "/data"] {
            assert!(protected(path), "{path}");
        }
        for path in ["/", "/billsx", "/login", "/api/bills", "/contact"] {
            assert!(!protected(path), "{path}");
        }
    }
}
