//! `POST /profile/tokens`: making an API token without JavaScript. The same
//! service as `POST /api/tokens`; the token is shown once, on a page of its
//! own that no cache keeps, never in an address.

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;

use app::backend::api_error::ApiError;
use app::backend::auth::api_tokens;
use app::backend::auth::extractors::CurrentUser;
use app::contract::tokens::CreateToken;
use app::domain::form_outcome::FormOutcome;

use super::answer::{escape, failure, outcome, shown_once, sign_in_first};
use super::PROFILE as PAGE;
use crate::state::AppState;

/// The form's fields: `name`, `days` and one `scopes` per ticked box.
fn request(body: &[u8]) -> CreateToken {
    let mut request = CreateToken {
        name: String::new(),
        expires_in_days: None,
        scopes: Some(Vec::new()),
    };
    for (key, value) in form_urlencoded::parse(body) {
        match key.as_ref() {
            "name" => request.name = value.trim().to_owned(),
            "days" => request.expires_in_days = value.parse().ok(),
            "scopes" => request
                .scopes
                .get_or_insert_with(Vec::new)
                .push(value.into_owned()),
            _ => {}
        }
    }
    request
}

pub async fn submit(
    State(state): State<AppState>,
    current: Result<CurrentUser, ApiError>,
    body: Bytes,
) -> Response {
    let Ok(current) = current else {
        return sign_in_first(PAGE);
    };
    let request = request(&body);
    if request.name.is_empty() || request.scopes.as_ref().is_some_and(Vec::is_empty) {
        return outcome(PAGE, FormOutcome::MissingField);
    }
    match api_tokens::create_requested(&state.pool, &current, &request).await {
        Ok(created) => shown_once(
            &state,
            "Your new API token",
            &format!(
                "<div class=\"notice\" role=\"status\"><p>Copy your new token \
                 “{name}” now; it will not be shown again:</p>\
                 <code data-testid=\"new-token\">{token}</code></div>\
                 <p><a class=\"button\" href=\"{PAGE}\">Back to your profile</a></p>",
                name = escape(&created.info.name),
                token = escape(&created.token),
            ),
        ),
        Err(error) => outcome(PAGE, failure(&ApiError::from(error))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ticked_scope_is_read() {
        let read = request(b"name=backup+script&days=30&scopes=read&scopes=admin%3Abackup");
        assert_eq!(read.name, "backup script");
        assert_eq!(read.expires_in_days, Some(30));
        assert_eq!(
            read.scopes,
            Some(vec!["read".to_owned(), "admin:backup".to_owned()])
        );
        assert_eq!(request(b"name=x").scopes, Some(Vec::new()));
    }
}
