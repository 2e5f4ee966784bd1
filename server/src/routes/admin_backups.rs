//! `/api/admin/backups…`: the backups in `DATA_DIR/backups`, listed and
//! downloaded (streamed, never read whole into memory) by administrators,
//! for `tally ops backup` and the Admin pages.

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use app::backend::backup::{self, BackupError};
use app::contract::admin::BackupFiles;

use crate::extract::ApiPath;
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::BackupAdmin;

fn failed(error: BackupError) -> ApiError {
    match error {
        BackupError::NotFound(name) => {
            ApiError::NotFound(format!("there is no backup named {name:?}"))
        }
        BackupError::BadName(_) => ApiError::invalid(&format!("name: {error}")),
        other => ApiError::Internal(other.to_string()),
    }
}

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
    Ok(Json(
        backup::files(&state.settings.backups_dir()).map_err(failed)?,
    ))
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
    if !backup::is_backup_name(&name) {
        return Err(failed(BackupError::BadName(name)));
    }
    let path = state.settings.backups_dir().join(&name);
    let file = match tokio::fs::File::open(&path).await {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(failed(BackupError::NotFound(name)))
        }
        Err(error) => return Err(ApiError::Internal(format!("opening a backup: {error}"))),
    };
    let bytes = file
        .metadata()
        .await
        .map_err(|error| ApiError::Internal(format!("reading a backup's size: {error}")))?
        .len();
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .map_err(|_| ApiError::invalid("name: not a backup name"))?;
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(file));
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/vnd.sqlite3"),
            ),
            (header::CONTENT_LENGTH, HeaderValue::from(bytes)),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response())
}
