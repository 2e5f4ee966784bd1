//! `/v1/operations…`: Google's `google.longrunning.Operations` over REST,
//! in the proto3 JSON mapping, plus the methods that start operations.
//!
//! | method | binding |
//! | --- | --- |
//! | ListOperations | `GET /v1/operations`, `GET /v1/users/{user}/operations` |
//! | GetOperation | `GET /v1/{name=operations/*}` |
//! | DeleteOperation | `DELETE /v1/{name=operations/*}` → `{}` |
//! | CancelOperation | `POST /v1/{name=operations/*}:cancel` → `{}` |
//! | WaitOperation | `POST /v1/{name=operations/*}:wait` `{"timeout": "5s"}` |
//!
//! Users see and act on their own operations; administrators on all.

use std::collections::HashMap;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use app::contract::operations::{
    Empty, Operation, OperationList, RestoreCheckRequest, RestoreRequest, WaitOperation,
};

use app::backend::diagnostics::Sleep;
use app::backend::operations::{proto_json, ListRequest, Record, Viewer};

use crate::extract::{ApiBytes, ApiJson, ApiQuery};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{AdminSession, AdminUser, BackupAdmin, OperationsCaller};
use app::backend::client_ip::ClientIp;
use app::domain::validation::FieldViolation;

fn operation(record: &Record) -> Json<Operation> {
    Json(record.to_operation())
}

/// The query parameters of ListOperations, in either spelling.
fn list_request(query: &HashMap<String, String>) -> Result<ListRequest, ApiError> {
    let pick = |camel: &str, snake: &str| query.get(camel).or_else(|| query.get(snake)).cloned();
    let page_size = match pick("pageSize", "page_size") {
        Some(raw) if !raw.trim().is_empty() => Some(raw.trim().parse::<i64>().map_err(|_| {
            FieldViolation::new("pageSize", format!("{raw:?} is not a whole number"))
        })?),
        _ => None,
    };
    Ok(ListRequest {
        owner: None,
        filter: query.get("filter").cloned().unwrap_or_default(),
        page_size,
        page_token: pick("pageToken", "page_token"),
    })
}

async fn list_as(
    state: &AppState,
    viewer: Viewer,
    request: ListRequest,
) -> Result<Json<OperationList>, ApiError> {
    let page = state.operations.list(viewer, &request).await?;
    Ok(Json(OperationList {
        operations: page.operations.iter().map(Record::to_operation).collect(),
        next_page_token: page.next_page_token,
    }))
}

/// `GET /v1/operations`: the caller's operations (everyone's for admins).
#[utoipa::path(
    get,
    path = "/v1/operations",
    tag = "operations",
    params(("filter" = Option<String>, Query, description = "AIP-160 filter: done, kind, error.code"), ("pageSize" = Option<i64>, Query), ("pageToken" = Option<String>, Query)),
    responses((status = 200, body = OperationList)),
)]
pub async fn list(
    State(state): State<AppState>,
    OperationsCaller(current): OperationsCaller,
    ApiQuery(query): ApiQuery<HashMap<String, String>>,
) -> Result<Json<OperationList>, ApiError> {
    list_as(&state, Viewer::of(&current.user), list_request(&query)?).await
}

/// `GET /v1/users/{user}/operations`: one user's (`me` for the caller).
#[utoipa::path(
    get,
    path = "/v1/users/{user}/operations",
    tag = "operations",
    params(("user" = String, Path, description = "A user id, or me"), ("filter" = Option<String>, Query), ("pageSize" = Option<i64>, Query), ("pageToken" = Option<String>, Query)),
    responses((status = 200, body = OperationList)),
)]
pub async fn list_for_user(
    State(state): State<AppState>,
    OperationsCaller(current): OperationsCaller,
    Path(user): Path<String>,
    ApiQuery(query): ApiQuery<HashMap<String, String>>,
) -> Result<Json<OperationList>, ApiError> {
    let viewer = Viewer::of(&current.user);
    let owner = if user == "me" {
        viewer.user_id
    } else {
        user.parse::<i64>().map_err(|_| {
            FieldViolation::new(
                "user",
                format!("{user:?} is not a user id (a number, or me)"),
            )
        })?
    };
    let mut request = list_request(&query)?;
    request.owner = Some(owner);
    list_as(&state, viewer, request).await
}

/// `operations/{id}` with an optional `:verb`.
fn split(rest: &str) -> Result<(&str, Option<&str>), ApiError> {
    let (id, verb) = match rest.split_once(':') {
        Some((id, verb)) => (id, Some(verb)),
        None => (rest, None),
    };
    if id.is_empty() || id.contains('/') {
        return Err(ApiError::NotFound(format!(
            "operation \"operations/{rest}\" not found"
        )));
    }
    Ok((id, verb))
}

/// `GET /v1/operations/{id}`.
#[utoipa::path(
    get,
    path = "/v1/operations/{operation}",
    tag = "operations",
    params(("operation" = String, Path, description = "The operation's id (its name without operations/)")),
    responses((status = 200, body = Operation)),
)]
pub async fn get(
    State(state): State<AppState>,
    OperationsCaller(current): OperationsCaller,
    Path(rest): Path<String>,
) -> Result<Json<Operation>, ApiError> {
    let (id, verb) = split(&rest)?;
    // Someone else's operation is 404 whatever the verb.
    let record = state.operations.get(Viewer::of(&current.user), id).await?;
    match verb {
        None => Ok(operation(&record)),
        Some(verb) => Err(unknown_verb(verb, "GET")),
    }
}

/// `DELETE /v1/operations/{id}` → `{}`.
#[utoipa::path(
    delete,
    path = "/v1/operations/{operation}",
    tag = "operations",
    params(("operation" = String, Path, description = "The operation's id")),
    responses((status = 200, body = Empty)),
)]
pub async fn delete(
    State(state): State<AppState>,
    OperationsCaller(current): OperationsCaller,
    Path(rest): Path<String>,
) -> Result<Json<Empty>, ApiError> {
    let (id, verb) = split(&rest)?;
    let viewer = Viewer::of(&current.user);
    state.operations.get(viewer, id).await?;
    match verb {
        None => {
            state.operations.delete(viewer, id).await?;
            Ok(Json(Empty {}))
        }
        Some(verb) => Err(unknown_verb(verb, "DELETE")),
    }
}

/// `POST /v1/operations/{id}:cancel` → `{}` and `…:wait` → Operation. The
/// body may be empty, even when it says it is JSON.
pub async fn post(
    State(state): State<AppState>,
    OperationsCaller(current): OperationsCaller,
    Path(rest): Path<String>,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    let viewer = Viewer::of(&current.user);
    let (id, verb) = split(&rest)?;
    state.operations.get(viewer, id).await?;
    match (id, verb) {
        (id, Some("cancel")) => Ok(cancel(&state, viewer, id).await?.into_response()),
        (id, Some("wait")) => Ok(wait(&state, viewer, id, &body).await?.into_response()),
        (_, Some(verb)) => Err(unknown_verb(verb, "POST")),
        (_, None) => Err(ApiError::Unimplemented(
            "operations are created by the methods that start them, not by POST /v1/operations/{id}".into(),
        )),
    }
}

/// `POST /v1/operations/{id}:cancel` → `{}`.
#[utoipa::path(
    post,
    path = "/v1/operations/{operation}:cancel",
    tag = "operations",
    params(("operation" = String, Path, description = "The operation's id")),
    request_body(content = Option<Empty>, description = "Empty, or {}"),
    responses((status = 200, body = Empty)),
)]
async fn cancel(state: &AppState, viewer: Viewer, id: &str) -> Result<Json<Empty>, ApiError> {
    state.operations.cancel(viewer, id).await?;
    Ok(Json(Empty {}))
}

/// `POST /v1/operations/{id}:wait`: the operation once it is done, or
/// when the timeout (capped under the request deadline) runs out.
#[utoipa::path(
    post,
    path = "/v1/operations/{operation}:wait",
    tag = "operations",
    params(("operation" = String, Path, description = "The operation's id")),
    request_body(content = Option<WaitOperation>, description = "How long to wait at most; empty waits as long as allowed"),
    responses((status = 200, body = Operation)),
)]
async fn wait(
    state: &AppState,
    viewer: Viewer,
    id: &str,
    body: &[u8],
) -> Result<Json<Operation>, ApiError> {
    let cap = wait_cap(state.settings.limits.request_timeout);
    let timeout = wait_timeout(body)?.map_or(cap, |asked| asked.min(cap));
    Ok(operation(
        &state.operations.wait(viewer, id, timeout).await?,
    ))
}

fn unknown_verb(verb: &str, method: &str) -> ApiError {
    ApiError::Unimplemented(format!(
        "{method} …:{verb} is not a method of google.longrunning.Operations here; use :cancel or :wait (POST)"
    ))
}

/// The longest a wait may block: under the request deadline, so the
/// answer is the operation rather than a 504.
fn wait_cap(request_timeout: Duration) -> Duration {
    request_timeout.mul_f64(0.9)
}

/// `timeout` from a WaitOperation body, if any (`{}` or nothing: none).
fn wait_timeout(body: &[u8]) -> Result<Option<Duration>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(body)
        .map_err(|error| ApiError::BadRequest(format!("the body is not JSON: {error}")))?;
    match value.get("timeout") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => {
            proto_json::parse_duration(text)
                .map(Some)
                .map_err(|description| ApiError::InvalidField {
                    field: "timeout".into(),
                    description,
                })
        }
        Some(other) => Err(ApiError::InvalidField {
            field: "timeout".into(),
            description: format!("{other} is not a duration like \"5s\""),
        }),
    }
}

/// `POST /v1/admin:backup`: takes a backup as an operation.
#[utoipa::path(
    post,
    path = "/v1/admin:backup",
    tag = "operations",
    responses((status = 200, description = "The backup operation", body = Operation)),
)]
pub async fn start_backup(
    State(state): State<AppState>,
    BackupAdmin(admin): BackupAdmin,
) -> Result<Json<Operation>, ApiError> {
    let record = state
        .operations
        .start(Some(admin.user.id), state.backups.backup())
        .await?;
    Ok(operation(&record))
}

/// `POST /v1/admin:restoreCheck` `{"backupFile": "bills-….db"}` (newest
/// when left out).
#[utoipa::path(
    post,
    path = "/v1/admin:restoreCheck",
    tag = "operations",
    request_body(content = Option<RestoreCheckRequest>, description = "The backup to check; the newest when left out"),
    responses((status = 200, description = "The restore-check operation", body = Operation)),
)]
pub async fn start_restore_check(
    State(state): State<AppState>,
    BackupAdmin(admin): BackupAdmin,
    ApiBytes(body): ApiBytes,
) -> Result<Json<Operation>, ApiError> {
    let backup_file = if body.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        let value: Value = serde_json::from_slice(&body)
            .map_err(|error| ApiError::BadRequest(format!("the body is not JSON: {error}")))?;
        match value.get("backupFile") {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) if app::backend::backup::is_backup_name(name) => {
                Some(name.clone())
            }
            Some(other) => {
                return Err(ApiError::InvalidField {
                    field: "backupFile".into(),
                    description: format!("{other} is not a backup name (bills-<timestamp>.db)"),
                })
            }
        }
    };
    let record = state
        .operations
        .start(
            Some(admin.user.id),
            state.backups.restore_check(backup_file),
        )
        .await?;
    Ok(operation(&record))
}

/// `POST /v1/admin:restore` `{"backupFile": "bills-….db", "confirm":
/// "bills-….db"}`: the current database is saved as a backup, then
/// replaced by the backup's contents.
#[utoipa::path(
    post,
    path = "/v1/admin:restore",
    tag = "operations",
    request_body = RestoreRequest,
    responses((status = 200, description = "The restore operation", body = Operation)),
)]
pub async fn start_restore(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiJson(request): ApiJson<RestoreRequest>,
) -> Result<Json<Operation>, ApiError> {
    let admin = app::backend::auth::admin::confirm(
        &state.services.auth,
        session,
        ip,
        &request.current_password,
    )
    .await?;
    let record = app::backend::backup::start_restore(
        &state.operations,
        &state.backups,
        &admin,
        &request.backup_file,
        &request.confirm,
    )
    .await?;
    Ok(operation(&record))
}

/// `POST /v1/admin:reencryptSecrets`.
#[utoipa::path(
    post,
    path = "/v1/admin:reencryptSecrets",
    tag = "operations",
    responses((status = 200, description = "The re-encryption operation", body = Operation)),
)]
pub async fn start_reencrypt_secrets(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
) -> Result<Json<Operation>, ApiError> {
    let record = state
        .operations
        .start(Some(admin.user.id), state.reencrypt.clone())
        .await?;
    Ok(operation(&record))
}

/// The longest diagnostics sleep.
const MAX_SLEEP: Duration = Duration::from_secs(3600);

/// `POST /v1/diagnostics:sleep` `{"duration": "2.5s", "fail": false}`
/// (`TALLY_DIAGNOSTICS` only, administrators only).
pub async fn start_sleep(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiBytes(body): ApiBytes,
) -> Result<Json<Operation>, ApiError> {
    let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        serde_json::from_slice(&body)
            .map_err(|error| ApiError::BadRequest(format!("the body is not JSON: {error}")))?
    };
    let duration = match value.get("duration") {
        Some(Value::String(text)) => {
            proto_json::parse_duration(text).map_err(|description| ApiError::InvalidField {
                field: "duration".into(),
                description,
            })?
        }
        _ => {
            return Err(ApiError::InvalidField {
                field: "duration".into(),
                description: "give a duration like \"2.5s\"".into(),
            })
        }
    };
    if duration > MAX_SLEEP {
        return Err(ApiError::InvalidField {
            field: "duration".into(),
            description: "at most 3600s".into(),
        });
    }
    let fail = match value.get("fail") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(fail)) => *fail,
        Some(other) => {
            return Err(ApiError::InvalidField {
                field: "fail".into(),
                description: format!("{other} is not true or false"),
            })
        }
    };
    let record = state
        .operations
        .start(Some(admin.user.id), Sleep { duration, fail })
        .await?;
    Ok(operation(&record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wait_bodies_are_read_leniently_and_bad_timeouts_named() {
        assert_eq!(wait_timeout(b"").unwrap(), None);
        assert_eq!(wait_timeout(b"{}").unwrap(), None);
        assert_eq!(
            wait_timeout(br#"{"timeout": "2.5s"}"#).unwrap(),
            Some(Duration::from_millis(2500))
        );
        assert!(matches!(
            wait_timeout(br#"{"timeout": 5}"#),
            Err(ApiError::InvalidField { field, .. }) if field == "timeout"
        ));
        assert!(wait_cap(Duration::from_secs(30)) < Duration::from_secs(30));
    }

    #[test]
    fn names_split_into_id_and_verb() {
        assert_eq!(split("abc").unwrap(), ("abc", None));
        assert_eq!(split("abc:wait").unwrap(), ("abc", Some("wait")));
        assert!(split("a/b").is_err());
        assert!(split(":cancel").is_err());
    }
}
