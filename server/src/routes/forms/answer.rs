//! How the forms answer: a `303 See Other` to a page of this site (with the
//! cookies a service asked for), or a small page of their own for what is
//! shown once. Neither is kept by any cache.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use app::backend::api_error::ApiError;
use app::domain::form_outcome::FormOutcome;
use app::domain::operation::query_value;
pub use app::domain::text::escape_html as escape;

use crate::config::{hash_file_path, recorded_hash};
use crate::state::AppState;

const NO_STORE: HeaderValue = HeaderValue::from_static("no-store");

pub fn see_other(location: &str) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, NO_STORE);
    response
}

/// `path` with the outcome's code.
pub fn outcome(path: &str, outcome: FormOutcome) -> Response {
    see_other(&outcome.address(path))
}

/// A form of a signed-in page posted without a session: sign in first,
/// then back to `page`.
pub fn sign_in_first(page: &str) -> Response {
    see_other(&format!("/login?next={}", query_value(page)))
}

/// The outcome a service's error stands for on an account form.
pub fn failure(error: &ApiError) -> FormOutcome {
    match error {
        ApiError::WrongCredentials => FormOutcome::WrongPassword,
        ApiError::TooManyRequests { .. } => FormOutcome::Throttled,
        ApiError::InvalidField { field, .. } => match field.as_str() {
            "email" => FormOutcome::InvalidEmail,
            "password" | "newPassword" => FormOutcome::WeakPassword,
            "currentPassword" => FormOutcome::WrongPassword,
            "code" => FormOutcome::WrongCode,
            "invitation" => FormOutcome::RegistrationClosed,
            _ => FormOutcome::MissingField,
        },
        ApiError::BadRequest(_) | ApiError::InvalidFields(_) => FormOutcome::MissingField,
        ApiError::Forbidden(_) | ApiError::Unauthenticated => FormOutcome::Refused,
        _ => FormOutcome::Unavailable,
    }
}

/// Copies the `Set-Cookie` headers of `from` onto `to`.
pub fn with_cookies(mut to: Response, from: &Response) -> Response {
    for cookie in from.headers().get_all(header::SET_COOKIE) {
        to.headers_mut().append(header::SET_COOKIE, cookie.clone());
    }
    to
}

/// The site's stylesheet, named as the page shell names it (with the
/// build's hash when file names are hashed).
fn stylesheet(state: &AppState) -> String {
    let options = &state.leptos_options;
    let mut name = options.output_name.to_string();
    if options.hash_files {
        let hashes = hash_file_path()
            .and_then(|path| std::fs::read_to_string(path).ok())
            .unwrap_or_default();
        if let Some(hash) = recorded_hash(&hashes, "css") {
            name.push('.');
            name.push_str(hash);
        }
    }
    format!("/{}/{name}.css", options.site_pkg_dir)
}

/// A page of its own for what is shown once: `body` is HTML built with
/// [`escape`]. `no-store`, so neither the browser's back button nor a
/// cache brings it back.
pub fn shown_once(state: &AppState, title: &str, body: &str) -> Response {
    page(state, title, "", body)
}

/// A page that sends the browser on to `location` at once, with a link
/// for when it does not. A redirect would not do after a form post to
/// another site: the pages' `form-action 'self'` stops the whole chain.
/// A `<meta>` refresh is a navigation of its own, and needs no JavaScript.
pub fn onward(state: &AppState, title: &str, location: &str, words: &str) -> Response {
    let location = escape(location);
    page(
        state,
        title,
        &format!("<meta http-equiv=\"refresh\" content=\"0; url={location}\"/>"),
        &format!(
            "<p><a class=\"button\" href=\"{location}\" rel=\"external\">{}</a></p>",
            escape(words)
        ),
    )
}

/// A small page of the site's look, `no-store`: `head` and `body` are HTML
/// built with [`escape`].
fn page(state: &AppState, title: &str, head: &str, body: &str) -> Response {
    let html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>{head}\
         <title>{title} · Tally</title><link rel=\"stylesheet\" href=\"{css}\"/></head>\
         <body><main id=\"main\" class=\"container\"><section class=\"card\" aria-labelledby=\"once-title\">\
         <h1 id=\"once-title\">{title}</h1>{body}</section></main></body></html>",
        title = escape(title),
        css = escape(&stylesheet(state)),
    );
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html,
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, NO_STORE);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_no_markup() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn a_wrong_current_password_reads_as_one() {
        assert_eq!(
            failure(&ApiError::WrongCredentials),
            FormOutcome::WrongPassword
        );
        assert_eq!(
            failure(&ApiError::InvalidField {
                field: "newPassword".into(),
                description: "too short".into()
            }),
            FormOutcome::WeakPassword
        );
    }
}
