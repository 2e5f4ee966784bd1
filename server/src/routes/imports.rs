//! `/api/imports`: statement files (OFX, QFX, QIF, CAMT.053) as bank
//! transactions. The file is the body of `POST /api/imports` (up to
//! 10 MiB, the one route allowed more than the API's 1 MiB); its preview
//! and its commit are long-running operations; a preview nobody wants is
//! discarded with `DELETE /api/imports/{id}`.

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::statements::parse::MAX_BYTES;
use app::backend::statements::service;
use app::contract::operations::Operation;
use app::contract::statements::{ImportOptions, ImportStarted, StatementImport};

use crate::extract::{ApiPath, ApiQuery};
use crate::state::AppState;

/// What `POST /api/imports` reads at most: the largest file, and room to say so.
pub const MAX_UPLOAD_BODY: usize = MAX_BYTES + 1;

/// Sends a statement file (the raw bytes as the body); answers the import
/// and the operation previewing it. Nothing is written to the
/// transactions before `POST /api/imports/{id}/commit`.
#[utoipa::path(
    post,
    path = "/api/imports",
    tag = "data",
    params(ImportOptions),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The statement file, at most 10 MiB"),
    responses(
        (status = 202, body = ImportStarted),
        (status = 400, description = "INVALID_ARGUMENT naming the field (file, fileName, accountId, dateOrder)"),
        (status = 413, description = "Larger than 10 MiB"),
    ),
)]
pub async fn upload(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(options): ApiQuery<ImportOptions>,
    body: Body,
) -> Result<(StatusCode, Json<ImportStarted>), ApiError> {
    let file = crate::extract::file_body(body, MAX_BYTES).await?;
    let started = service::upload(&state.imports, current.user.id, options, &file).await?;
    Ok((StatusCode::ACCEPTED, Json(started)))
}

/// The import and its preview: what is new, what is already there, what
/// was refused and why, the balance check, the first rows.
#[utoipa::path(
    get,
    path = "/api/imports/{id}",
    tag = "data",
    params(("id" = i64, Path, description = "The import's id")),
    responses((status = 200, body = StatementImport)),
)]
pub async fn read(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<StatementImport>, ApiError> {
    Ok(Json(service::read(&state.pool, current.user.id, id).await?))
}

/// Adds the preview's new rows (an operation); refused with
/// `FAILED_PRECONDITION` before the preview is ready, after it expired
/// (24 hours) or once committed.
#[utoipa::path(
    post,
    path = "/api/imports/{id}/commit",
    tag = "data",
    params(("id" = i64, Path, description = "The import's id")),
    responses((status = 202, body = Operation)),
)]
pub async fn commit(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<(StatusCode, Json<Operation>), ApiError> {
    let operation = service::commit(&state.imports, current.user.id, id).await?;
    Ok((StatusCode::ACCEPTED, Json(operation)))
}

/// Discards a waiting preview: the import and its staged rows are
/// forgotten, so it no longer counts toward the uploads a person may leave
/// waiting (5). `NOT_FOUND` when there is no such import of yours;
/// `FAILED_PRECONDITION` (409) while its preview or commit runs, or once
/// it is committed.
#[utoipa::path(
    delete,
    path = "/api/imports/{id}",
    tag = "data",
    params(("id" = i64, Path, description = "The import's id")),
    responses(
        (status = 204, description = "Discarded"),
        (status = 409, description = "FAILED_PRECONDITION: its preview or commit is running, or it is committed"),
    ),
)]
pub async fn discard(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    service::discard(&state.imports, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
