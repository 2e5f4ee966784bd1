//! `/api/notifications/…`, `/api/admin/notifications…`, the calendar feed
//! and the email-confirmation link: thin doors onto
//! `app::backend::notifications`.

use app::backend::api_error::ApiError;
// `confirm` here is the email channel's link.
use app::backend::auth::admin::confirm as confirm_administrator;
use app::backend::auth::extractors::{AdminSession, AdminUser, CurrentUser};
use app::backend::client_ip::ClientIp;
use app::backend::notifications::{calendar, run, service};
use app::contract::notifications::{
    AdminNotifications, CalendarFeed, CalendarFeedState, Channel, ChannelChange, Channels,
    Deliveries, NewChannel, NotificationPreferences, SmtpChange, TestEmail, TestSent,
};
use app::contract::operations::Operation;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use serde::Deserialize;

use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::state::AppState;

#[utoipa::path(get, path = "/api/notifications/channels", tag = "notifications",
    responses((status = 200, body = Channels)))]
pub async fn channels(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Channels>, ApiError> {
    Ok(Json(service::list(&state.pool, current.user.id).await?))
}

/// A webhook channel's answer carries its signing secret, this once.
#[utoipa::path(post, path = "/api/notifications/channels", tag = "notifications",
    request_body = NewChannel,
    responses((status = 201, body = Channel)))]
pub async fn create_channel(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<NewChannel>,
) -> Result<(StatusCode, Json<Channel>), ApiError> {
    let created = service::create(&state.notifier, &state.pool, &current.user, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

#[utoipa::path(patch, path = "/api/notifications/channels/{id}", tag = "notifications",
    params(("id" = i64, Path, description = "The channel's id")),
    request_body = ChannelChange,
    responses((status = 200, body = Channel)))]
pub async fn change_channel(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<ChannelChange>,
) -> Result<Json<Channel>, ApiError> {
    Ok(Json(
        service::change(&state.notifier, &state.pool, &current.user, id, body).await?,
    ))
}

#[utoipa::path(delete, path = "/api/notifications/channels/{id}", tag = "notifications",
    params(("id" = i64, Path, description = "The channel's id")),
    responses((status = 204, description = "Removed")))]
pub async fn delete_channel(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    service::remove(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Sends a test through the same code as a scheduled run.
#[utoipa::path(post, path = "/api/notifications/channels/{id}/test", tag = "notifications",
    params(("id" = i64, Path, description = "The channel's id")),
    responses((status = 200, body = TestSent)))]
pub async fn test_channel(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<TestSent>, ApiError> {
    Ok(Json(
        service::test(&state.notifier, &state.pool, &current.user, id).await?,
    ))
}

#[utoipa::path(get, path = "/api/notifications/preferences", tag = "notifications",
    responses((status = 200, body = NotificationPreferences)))]
pub async fn preferences(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<NotificationPreferences>, ApiError> {
    Ok(Json(
        service::preferences(&state.pool, current.user.id).await?,
    ))
}

#[utoipa::path(put, path = "/api/notifications/preferences", tag = "notifications",
    request_body = NotificationPreferences,
    responses((status = 200, body = NotificationPreferences)))]
pub async fn set_preferences(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<NotificationPreferences>,
) -> Result<Json<NotificationPreferences>, ApiError> {
    Ok(Json(
        service::set_preferences(&state.pool, current.user.id, body).await?,
    ))
}

/// `pageSize` (1–200, 50) and `pageToken`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct DeliveriesQuery {
    page_size: Option<i64>,
    page_token: Option<String>,
}

#[utoipa::path(get, path = "/api/notifications/deliveries", tag = "notifications",
    params(DeliveriesQuery),
    responses((status = 200, body = Deliveries)))]
pub async fn deliveries(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<DeliveriesQuery>,
) -> Result<Json<Deliveries>, ApiError> {
    Ok(Json(
        service::deliveries(
            &state.pool,
            current.user.id,
            query.page_token.as_deref(),
            query.page_size,
        )
        .await?,
    ))
}

#[utoipa::path(get, path = "/api/notifications/calendar", tag = "notifications",
    responses((status = 200, body = CalendarFeedState)))]
pub async fn calendar_state(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<CalendarFeedState>, ApiError> {
    Ok(Json(
        service::feed_state(&state.notifier, &state.pool, current.user.id).await?,
    ))
}

/// Creates the feed, or replaces it (the old address stops working); its
/// address is answered this once.
#[utoipa::path(post, path = "/api/notifications/calendar", tag = "notifications",
    responses((status = 201, body = CalendarFeed)))]
pub async fn create_calendar(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<(StatusCode, Json<CalendarFeed>), ApiError> {
    let feed = service::create_feed(&state.notifier, &state.pool, current.user.id).await?;
    Ok((StatusCode::CREATED, Json(feed)))
}

#[utoipa::path(delete, path = "/api/notifications/calendar", tag = "notifications",
    responses((status = 204, description = "Revoked")))]
pub async fn delete_calendar(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<StatusCode, ApiError> {
    service::delete_feed(&state.pool, current.user.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /calendar/{token}.ics`: the feed, for calendar apps (no session;
/// the token is the credential). A revoked or unknown token is 404.
pub async fn feed(State(state): State<AppState>, Path(file): Path<String>) -> Response {
    let Some(token) = file.strip_suffix(".ics").filter(|token| {
        !token.is_empty()
            && token.len() <= 64
            && token
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    }) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match calendar::feed(&state.notifier, &state.pool, token).await {
        Ok(Some(body)) => {
            let mut response = body.into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/calendar; charset=utf-8"),
            );
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            headers.insert(
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("inline; filename=\"tally.ics\""),
            );
            response
        }
        Ok(None) => {
            let mut response = StatusCode::NOT_FOUND.into_response();
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// `GET /notifications/confirm/{token}`: the link sent to an email
/// channel's address.
pub async fn confirm(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match service::confirm(&state.pool, &token).await {
        Ok(true) => Redirect::to("/profile/notifications?confirmed=1").into_response(),
        Ok(false) => Redirect::to("/profile/notifications?confirmed=0").into_response(),
        Err(error) => ApiError::from(error).into_response(),
    }
}

#[utoipa::path(get, path = "/api/admin/notifications", tag = "admin",
    responses((status = 200, body = AdminNotifications)))]
pub async fn admin(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<AdminNotifications>, ApiError> {
    Ok(Json(service::admin(&state.notifier, &state.pool).await?))
}

/// The email server (the environment's `SMTP_*`, when set, still wins),
/// from an administrator's browser session with their password asked
/// again: no API token, whatever its scopes (403).
#[utoipa::path(put, path = "/api/admin/notifications", tag = "admin",
    request_body = SmtpChange,
    responses(
        (status = 200, body = AdminNotifications),
        (status = 400, description = "INVALID_ARGUMENT naming the field (currentPassword when missing or wrong)"),
        (status = 403, description = "An API token, or not an administrator"),
    ))]
pub async fn set_admin(
    State(state): State<AppState>,
    AdminSession(session): AdminSession,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<SmtpChange>,
) -> Result<Json<AdminNotifications>, ApiError> {
    let admin =
        confirm_administrator(&state.services.auth, session, ip, &body.current_password).await?;
    Ok(Json(
        service::set_mail(&state.notifier, &state.pool, &admin, body).await?,
    ))
}

#[utoipa::path(post, path = "/api/admin/notifications/test-email", tag = "admin",
    request_body = TestEmail,
    responses((status = 200, body = TestSent)))]
pub async fn test_email(
    State(state): State<AppState>,
    admin: AdminUser,
    ApiJson(body): ApiJson<TestEmail>,
) -> Result<Json<TestSent>, ApiError> {
    Ok(Json(
        service::test_email(&state.notifier, &state.pool, &admin.0.user, body.to).await?,
    ))
}

/// Starts a run now; while one runs, answers with it (the same `name`).
#[utoipa::path(post, path = "/api/admin/notifications/run", tag = "admin",
    responses((status = 200, body = Operation)))]
pub async fn run_now(
    State(state): State<AppState>,
    admin: AdminUser,
) -> Result<Json<Operation>, ApiError> {
    let record = run::start(&state.operations, &state.notifier, Some(admin.0.user.id)).await?;
    Ok(Json(record.to_operation()))
}
