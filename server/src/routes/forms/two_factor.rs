//! Setting up two-factor sign-in with an authenticator app, without
//! JavaScript: `POST /profile/two-factor` starts (a page with the QR code,
//! the key and the code form), `…/confirm` turns it on with a first code (a
//! page with the recovery codes, shown once). The same services as
//! `/api/auth/totp/…`. Turning it off is Profile's form posting to the
//! `totp/stop` server function.

use axum::extract::State;
use axum::response::Response;
use axum::Form;
use serde::Deserialize;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::auth::totp;

use super::answer::{escape, failure, outcome, shown_once, sign_in_first};
use super::PROFILE as PAGE;
use crate::state::AppState;

/// `…/confirm`'s field.
#[derive(Deserialize)]
pub struct CodeForm {
    #[serde(default)]
    code: String,
}

pub async fn start(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    current: Result<CurrentUser, ApiError>,
) -> Response {
    // The confirm form is a form post too: it carries the token the start
    // was posted with (the CSRF check let it through, so it is the one
    // bound to this session).
    let csrf = app::backend::cookies::csrf_token(&headers, &state.keyring).unwrap_or_default();
    let Ok(current) = current else {
        return sign_in_first(PAGE);
    };
    let begun = match current.browser_session() {
        Ok(session) => totp::begin_enrolment(&state.pool, &state.keyring, &session.user)
            .await
            .map_err(ApiError::from),
        Err(error) => Err(ApiError::from(error)),
    };
    match begun {
        // The QR code is Tally's own SVG, not anything a person typed.
        Ok(started) => shown_once(
            &state,
            "Set up two-factor sign-in",
            &format!(
                "<p>Scan this code with your authenticator app, or type the key by hand.</p>\
                 <div class=\"qr\">{qr}</div>\
                 <p>Key: <code data-testid=\"totp-secret\">{secret}</code></p>\
                 <form class=\"inline-form\" method=\"post\" action=\"{PAGE}/two-factor/confirm\">\
                 <input type=\"hidden\" name=\"{field}\" value=\"{csrf}\"/>\
                 <label for=\"totp-code\">Code from the app</label>\
                 <input id=\"totp-code\" name=\"code\" type=\"text\" inputmode=\"numeric\" \
                 autocomplete=\"one-time-code\" required/>\
                 <button type=\"submit\" class=\"button\">Turn on</button></form>\
                 <p><a href=\"{PAGE}\">Cancel</a></p>",
                qr = started.qr_svg,
                secret = escape(&started.secret),
                field = app::domain::csrf::FIELD,
                csrf = escape(&csrf),
            ),
        ),
        Err(error) => outcome(PAGE, failure(&error)),
    }
}

pub async fn confirm(
    State(state): State<AppState>,
    current: Result<CurrentUser, ApiError>,
    Form(form): Form<CodeForm>,
) -> Response {
    let Ok(current) = current else {
        return sign_in_first(PAGE);
    };
    let confirmed = match current.browser_session() {
        Ok(session) => {
            totp::confirm_enrolment(&state.pool, &state.keyring, &session.user, form.code.trim())
                .await
                .map_err(ApiError::from)
        }
        Err(error) => Err(ApiError::from(error)),
    };
    match confirmed {
        Ok(codes) => {
            let items: String = codes
                .iter()
                .map(|code| format!("<li><code>{}</code></li>", escape(code)))
                .collect();
            shown_once(
                &state,
                "Two-factor sign-in is on",
                &format!(
                    "<div class=\"notice\" role=\"status\"><p>Keep these recovery codes \
                     somewhere safe; each works once, and they will not be shown again:</p>\
                     <ul class=\"recovery-codes\" data-testid=\"recovery-codes\">{items}</ul></div>\
                     <p><a class=\"button\" href=\"{PAGE}\">Back to your profile</a></p>"
                ),
            )
        }
        Err(error) => outcome(PAGE, failure(&error)),
    }
}
