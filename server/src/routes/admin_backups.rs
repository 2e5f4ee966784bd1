//! `/api/admin/backups…`: the backups in `DATA_DIR/backups`, listed and
//! downloaded (streamed, never read whole into memory) by administrators,
//! for `tally ops backup` and the Admin pages.

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::Json;

use app::backend::backup;
use app::contract::admin::BackupFiles;

use super::attachment::attachment;
use crate::extract::ApiPath;
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::BackupAdmin;

/// The backups, newest first, with their sizes.
#[utoipa::path(
    get,
    path = "/api/admin/backups",
    tag = "admin",
    responses((status = 200, body = BackupFiles)),
)]
pub async fn list(
    State(state): State<AppState>,
    _admin: BackupAdmin,
) -> Result<Json<BackupFiles>, ApiError> {
    Ok(Json(backup::files(&state.settings.backups_dir())?))
}

/// One backup's bytes, as a download.
#[utoipa::path(
    get,
    path = "/api/admin/backups/{name}",
    tag = "admin",
    params(("name" = String, Path, description = "The backup's file name, `bills-<timestamp>.db`")),
    responses((status = 200, description = "The SQLite database file", content_type = "application/vnd.sqlite3")),
)]
pub async fn download(
    State(state): State<AppState>,
    _admin: BackupAdmin,
    ApiPath(name): ApiPath<String>,
) -> Result<Response, ApiError> {
    let (file, bytes) = backup::open(&state.settings.backups_dir(), &name).await?;
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(file));
    let mut response = attachment("application/vnd.sqlite3", &name, body);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
