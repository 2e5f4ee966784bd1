//! `POST /api/leads` and `POST /api/support`: the marketing site's forms.
//! Each request goes through, in this order: the rate limit, the 1 MiB size
//! limit, the JSON (an unknown field named), then `intake`: validation
//! (every bad field named), the bot check, one insert (committed together
//! with whatever else is waiting: `group_commit`), the 201 answer with the
//! new id, and only then (in the background) the CRM post.
//! `GET /api/contact/config` tells the forms whether the bot check is on
//! and its site key.

use std::net::IpAddr;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use app::backend::contact::intake;
use app::contract::contact::{ContactConfig, Created};
use app::domain::contact::{LeadForm, SupportForm};
use app::domain::validation::FieldViolation;

use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::client_ip::ClientIp;

/// The largest body accepted: 1 MiB.
pub const MAX_BODY: usize = 1024 * 1024;

#[utoipa::path(
    get,
    path = "/api/contact/config",
    tag = "contact",
    security(()),
    responses((status = 200, body = ContactConfig)),
)]
pub async fn config(State(state): State<AppState>) -> Json<ContactConfig> {
    Json(intake::config(&state.services.contact))
}

#[utoipa::path(
    post,
    path = "/api/leads",
    tag = "contact",
    request_body = LeadForm,
    security(()),
    responses((status = 201, description = "Stored", body = Created)),
)]
pub async fn create_lead(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    request: Request,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let form: LeadForm = admit(&state, ip, request.into_body()).await?;
    Ok((
        StatusCode::CREATED,
        Json(intake::lead(&state.services.contact, ip, form).await?),
    ))
}

#[utoipa::path(
    post,
    path = "/api/support",
    tag = "contact",
    request_body = SupportForm,
    security(()),
    responses((status = 201, description = "Stored", body = Created)),
)]
pub async fn create_support(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    request: Request,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let form: SupportForm = admit(&state, ip, request.into_body()).await?;
    Ok((
        StatusCode::CREATED,
        Json(intake::support(&state.services.contact, ip, form).await?),
    ))
}

/// The rate limit, then the size limit, then the JSON itself.
async fn admit<T: DeserializeOwned>(
    state: &AppState,
    ip: IpAddr,
    body: Body,
) -> Result<T, ApiError> {
    intake::admit(&state.services.contact, ip)?;
    let bytes = axum::body::to_bytes(body, MAX_BODY)
        .await
        .map_err(|_| ApiError::PayloadTooLarge { limit: MAX_BODY })?;
    serde_json::from_slice(&bytes).map_err(|error| match error.classify() {
        serde_json::error::Category::Data => {
            // A wrong type or an unknown field: name it when serde says which.
            let text = error.to_string();
            let field = text
                .split('`')
                .nth(1)
                .filter(|_| text.starts_with("unknown field"))
                .map(str::to_owned);
            match field {
                Some(field) => ApiError::InvalidFields(vec![FieldViolation {
                    field,
                    description: "this form has no such field".into(),
                }]),
                None => ApiError::BadRequest(format!("the JSON does not fit the form: {text}")),
            }
        }
        _ => ApiError::BadRequest(format!("the body is not valid JSON: {error}")),
    })
}
