//! `/api/data/…`: the Data page's export (bills, payments and per-month
//! overrides as CSV, each their own file; bills and payments as JSON) and
//! CSV import, previewed first. An import writes every row or
//! none; bad rows are named `rows[i].field` (i counts data rows from 0; the
//! preview also gives each row's line in the file).

use app::backend::bills::transfer;
use app::backend::bills::{self, import};
use app::contract::data::{Export, ImportPreview, ImportSource, Imported};
use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;

use super::attachment::attachment;
use crate::extract::{file_body, ApiQuery};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;

/// What the bill import's paths read at most: their body may be an Actual
/// budget file (a CSV is refused past 1 MiB).
pub const MAX_IMPORT_BODY: usize = import::MAX_BUDGET_FILE + 1;

/// A CSV export as a download named `tally-{what}-{today}.csv`.
fn csv_download(
    what: &str,
    today: app::domain::date::Date,
    text: Result<String, impl std::fmt::Display>,
) -> Result<Response, ApiError> {
    let text = text.map_err(|error| ApiError::Internal(error.to_string()))?;
    Ok(attachment(
        "text/csv; charset=utf-8",
        &format!("tally-{what}-{today}.csv"),
        text,
    ))
}

#[utoipa::path(
    get,
    path = "/api/data/bills.csv",
    tag = "data",
    responses((status = 200, description = "Every bill as CSV", body = String, content_type = "text/csv")),
)]
pub async fn export_csv(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let all = bills::list(&state.pool, user).await?;
    let today = bills::today_for(&state.pool, user).await?;
    csv_download("bills", today, transfer::to_csv(&all))
}

#[utoipa::path(
    get,
    path = "/api/data/payments.csv",
    tag = "data",
    responses((status = 200, description = "Every payment as CSV", body = String, content_type = "text/csv")),
)]
pub async fn export_payments_csv(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let all = bills::list(&state.pool, user).await?;
    let payments = bills::list_all_payments(&state.pool, user).await?;
    let today = bills::today_for(&state.pool, user).await?;
    csv_download(
        "payments",
        today,
        transfer::payments_to_csv(&all, &payments),
    )
}

#[utoipa::path(
    get,
    path = "/api/data/months.csv",
    tag = "data",
    responses((status = 200, description = "Every per-month override (this time's amount, skip, snooze, note) as CSV", body = String, content_type = "text/csv")),
)]
pub async fn export_months_csv(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let all = bills::list(&state.pool, user).await?;
    let months = app::backend::bill_months::service::all(&state.pool, user).await?;
    let today = bills::today_for(&state.pool, user).await?;
    csv_download("months", today, transfer::months_to_csv(&all, &months))
}

/// Bills, payments, this-time changes and bank transactions in one Excel
/// workbook, a sheet each (amounts as numbers, days as dates).
#[utoipa::path(
    get,
    path = "/api/data/export.xlsx",
    tag = "data",
    responses((status = 200, description = "The workbook", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")),
)]
pub async fn export_xlsx(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let bytes = app::backend::workbook::service::export(&state.pool, user).await?;
    let today = bills::today_for(&state.pool, user).await?;
    Ok(attachment(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        &format!("tally-{today}.xlsx"),
        bytes,
    ))
}

#[utoipa::path(
    get,
    path = "/api/data/export.json",
    tag = "data",
    responses((status = 200, description = "Every bill and payment", body = Export)),
)]
pub async fn export_json(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Response, ApiError> {
    let user = current.user.id;
    let all = bills::list(&state.pool, user).await?;
    let payments = bills::list_all_payments(&state.pool, user).await?;
    let today = bills::today_for(&state.pool, user).await?;
    let body = serde_json::to_string_pretty(&Export {
        bills: all,
        payments,
    })
    .map_err(|error| ApiError::Internal(error.to_string()))?;
    Ok(attachment(
        "application/json",
        &format!("tally-{today}.json"),
        body,
    ))
}

/// `POST /api/data/import/preview` (the file as the body): each row with
/// its problems, and what another app's file held that Tally did not take;
/// nothing is written.
#[utoipa::path(
    post,
    path = "/api/data/import/preview",
    tag = "data",
    params(ImportSource),
    request_body(content = String, content_type = "text/csv", description = "Tally's CSV export (up to 1 MiB), Wallos's subscription export (JSON or CSV), Firefly III's bill export, or Actual's budget file (db.sqlite or its export zip, up to 10 MiB)"),
    responses((status = 200, body = ImportPreview)),
)]
pub async fn preview(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<ImportSource>,
    body: Body,
) -> Result<Json<ImportPreview>, ApiError> {
    let source = import::source(query.from.as_deref())?;
    let body = file_body(body, import::MAX_BUDGET_FILE).await?;
    Ok(Json(
        import::preview(&state.pool, current.user.id, source, &body).await?,
    ))
}

/// `POST /api/data/import`: every row or none.
#[utoipa::path(
    post,
    path = "/api/data/import",
    tag = "data",
    params(ImportSource),
    request_body(content = String, content_type = "text/csv", description = "The file the preview read"),
    responses((status = 201, description = "Imported", body = Imported)),
)]
pub async fn import(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<ImportSource>,
    body: Body,
) -> Result<(StatusCode, Json<Imported>), ApiError> {
    let source = import::source(query.from.as_deref())?;
    let body = file_body(body, import::MAX_BUDGET_FILE).await?;
    let imported = import::import(&state.pool, current.user.id, source, &body).await?;
    Ok((StatusCode::CREATED, Json(imported)))
}
