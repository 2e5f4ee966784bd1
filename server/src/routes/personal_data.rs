//! `/api/data/export.sqlite` and `/api/data/import.sqlite`: everything that
//! is the person's as one SQLite file, and that file back into an account
//! (this Tally's or another's). The upload is the raw file as the body, up
//! to 64 MiB, written to a scratch file as it arrives.

use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use axum::Json;
use futures::StreamExt;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::bills;
use app::backend::personal_data::rules::MAX_BYTES;
use app::backend::personal_data::{service, upload, PersonalDataError};
use app::contract::data::PersonalImported;

use super::attachment::attachment;
use crate::state::AppState;

/// What `POST /api/data/import.sqlite` reads at most: the largest file, and room to say so.
pub const MAX_UPLOAD_BODY: usize = MAX_BYTES + 1;

/// Downloads everything that is the signed-in person's (bills, payments,
/// this-time changes, subscription choices, bank accounts and their
/// transactions, preferences) as one SQLite file; no password, second
/// factor, token or bank access secret is in it.
#[utoipa::path(
    get,
    path = "/api/data/export.sqlite",
    tag = "data",
    responses((status = 200, description = "The person's data as a SQLite database", content_type = "application/vnd.sqlite3")),
)]
pub async fn export(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let bytes = service::export(&state.pool, user, &state.settings.scratch_dir()).await?;
    let today = bills::today_for(&state.pool, user).await?;
    Ok(attachment(
        "application/vnd.sqlite3",
        &format!("tally-export-{today}.sqlite"),
        bytes,
    ))
}

/// Adds a personal export (the raw file as the body) to the signed-in
/// account, every row or none, with new ids; the account's locale,
/// currency and time zone become the file's. A file that is not one, or
/// one with a row Tally's own forms would refuse, is refused with
/// INVALID_ARGUMENT on `file` saying why. One import of a person's runs
/// at a time: another while one runs is RESOURCE_EXHAUSTED with a
/// `Retry-After` of a few seconds.
#[utoipa::path(
    post,
    path = "/api/data/import.sqlite",
    tag = "data",
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "A file made by GET /api/data/export.sqlite (a SQLite database), at most 64 MiB"),
    responses(
        (status = 200, body = PersonalImported),
        (status = 400, description = "INVALID_ARGUMENT on file: not a personal export, or one this version cannot take"),
        (status = 409, description = "FAILED_PRECONDITION on file: a backup was restored, or the account removed, while the file was copied; nothing of it was kept"),
        (status = 413, description = "Larger than 64 MiB"),
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    current: CurrentUser,
    body: Body,
) -> Result<Json<PersonalImported>, ApiError> {
    let turn = service::turn(
        &state.pool,
        &state.services.personal_imports,
        current.user.id,
    )
    .await?;
    // A body cut short by the route's limit ends the stream with an error.
    let chunks = body
        .into_data_stream()
        .map(|chunk| chunk.map_err(|_| PersonalDataError::TooLarge { limit: MAX_BYTES }));
    let upload = upload::receive(&state.settings.scratch_dir(), chunks).await?;
    let imported = service::import(&state.pool, &state.services.keyring, turn, upload).await?;
    Ok(Json(imported))
}
