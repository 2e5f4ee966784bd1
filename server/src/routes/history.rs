//! `/api/data/history/…`: bills and payments from a spreadsheet (`.xlsx`)
//! of the person's own. The workbook is the raw body of each step, up to
//! 10 MiB: its sheets, a preview of one sheet through the column mapping
//! in the query, and the import of the chosen rows.

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;
use app::backend::workbook::cells::MAX_BYTES;
use app::backend::workbook::history;
use app::contract::data::Imported;
use app::contract::history::{HistoryMapping, HistoryPreview, HistorySheets};

use crate::extract::ApiQuery;
use crate::state::AppState;

/// What these paths read at most: the largest workbook, and room to say so.
pub const MAX_UPLOAD_BODY: usize = MAX_BYTES + 1;

async fn workbook(body: Body) -> Result<Vec<u8>, ApiError> {
    Ok(crate::extract::file_body(body, MAX_BYTES).await?.to_vec())
}

/// The workbook's sheets: each one's column headings, row count and first
/// rows, to map its columns.
#[utoipa::path(
    post,
    path = "/api/data/history/sheets",
    tag = "data",
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "An Excel workbook (.xlsx), at most 10 MiB"),
    responses(
        (status = 200, body = HistorySheets),
        (status = 400, description = "INVALID_ARGUMENT on file: not a workbook, or one past the bounds"),
        (status = 413, description = "Larger than 10 MiB"),
    ),
)]
pub async fn sheets(_current: CurrentUser, body: Body) -> Result<Json<HistorySheets>, ApiError> {
    Ok(Json(history::sheets(workbook(body).await?).await?))
}

/// One sheet read through the mapping: every row with what it becomes,
/// its problems and whether the account has it already; nothing is
/// written.
#[utoipa::path(
    post,
    path = "/api/data/history/preview",
    tag = "data",
    params(HistoryMapping),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The same workbook"),
    responses(
        (status = 200, body = HistoryPreview),
        (status = 400, description = "INVALID_ARGUMENT naming the mapping's field (sheet, kind, name, bill, amount, date, …) or file"),
    ),
)]
pub async fn preview(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(mapping): ApiQuery<HistoryMapping>,
    body: Body,
) -> Result<Json<HistoryPreview>, ApiError> {
    let bytes = workbook(body).await?;
    Ok(Json(
        history::preview(&state.pool, current.user.id, bytes, &mapping).await?,
    ))
}

/// Imports the chosen rows (`rows=`, else those the preview marks), all or
/// none; a chosen row with a problem is named `rows[line].field`.
#[utoipa::path(
    post,
    path = "/api/data/history/import",
    tag = "data",
    params(HistoryMapping),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The same workbook"),
    responses(
        (status = 201, body = Imported),
        (status = 400, description = "INVALID_ARGUMENT naming the field or rows[line].field"),
    ),
)]
pub async fn import(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(mapping): ApiQuery<HistoryMapping>,
    body: Body,
) -> Result<(StatusCode, Json<Imported>), ApiError> {
    let bytes = workbook(body).await?;
    let imported = history::import(&state.pool, current.user.id, bytes, &mapping).await?;
    Ok((StatusCode::CREATED, Json(imported)))
}
