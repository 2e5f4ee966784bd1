//! `/api/bank/…`: bank connections, their accounts and transactions, and
//! the syncs (answered with the operation that runs them). Thin adapters
//! onto `app::backend::bank`; the pages use server functions over the same.

use app::backend::bank::{matching, review, service, suggestions as suggested, transactions};
use app::contract::bank::{
    AutoMatches, BankAccount, BankConnections, BankSyncStatus, BankTransaction, ConnectBank,
    Connected, MatchTransaction, SetMonitored, SuggestionQuery, Suggestions, TransactionPage,
    TransactionQuery, UpdateBankSync,
};
use app::contract::operations::Operation;
use app::domain::bank::sync_window::SyncReason;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::{AdminUser, CurrentUser};

#[utoipa::path(
    get,
    path = "/api/bank/connections",
    tag = "bank",
    responses((status = 200, body = BankConnections)),
)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<BankConnections>, ApiError> {
    Ok(Json(
        service::overview(&state.services.bank, current.user.id).await?,
    ))
}

/// Claims the setup token (once), stores the access sealed, reads the
/// accounts and their balances, and starts the seed sync of the last 44
/// days. Counts against the 10-per-15-minutes limit; at most 10
/// connections per user; a setup token for a local or private address is
/// refused before any connection.
#[utoipa::path(
    post,
    path = "/api/bank/connections",
    tag = "bank",
    request_body = ConnectBank,
    responses(
        (status = 201, description = "Connected, with its accounts; the seed sync is running", body = Connected),
        (status = 400, description = "The setup token is not one, its address is refused, or the provider refused it; or the user has 10 connections"),
    ),
)]
pub async fn connect(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<ConnectBank>,
) -> Result<(StatusCode, Json<Connected>), ApiError> {
    let connected = service::connect(&state.services.bank, current.user.id, body, None).await?;
    Ok((StatusCode::CREATED, Json(connected)))
}

/// A new setup token for the same connection: its accounts and history
/// carry on, nothing is fetched twice.
#[utoipa::path(
    post,
    path = "/api/bank/connections/{id}/reconnect",
    tag = "bank",
    params(("id" = i64, Path, description = "The connection's id")),
    request_body = ConnectBank,
    responses(
        (status = 200, description = "Reconnected; the seed sync is running", body = Connected),
    ),
)]
pub async fn reconnect(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<ConnectBank>,
) -> Result<Json<Connected>, ApiError> {
    Ok(Json(
        service::connect(&state.services.bank, current.user.id, body, Some(id)).await?,
    ))
}

/// Stops syncing and forgets the access; the history stays.
#[utoipa::path(
    delete,
    path = "/api/bank/connections/{id}",
    tag = "bank",
    params(("id" = i64, Path, description = "The connection's id")),
    responses((status = 204, description = "Disconnected")),
)]
pub async fn disconnect(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    service::disconnect(&state.services.bank, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    patch,
    path = "/api/bank/accounts/{id}",
    tag = "bank",
    params(("id" = i64, Path, description = "The account's id")),
    request_body = SetMonitored,
    responses((status = 200, body = BankAccount)),
)]
pub async fn set_monitored(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<SetMonitored>,
) -> Result<Json<BankAccount>, ApiError> {
    Ok(Json(
        service::set_monitored(&state.services.bank, current.user.id, id, body.monitored).await?,
    ))
}

/// Syncs the last 30 days of one connection (10 requests per 15 minutes
/// per user, with sync-all and backfill).
#[utoipa::path(
    post,
    path = "/api/bank/connections/{id}/sync",
    tag = "bank",
    params(("id" = i64, Path, description = "The connection's id")),
    responses((status = 200, description = "The sync's operation (kind bank_sync)", body = Operation)),
)]
pub async fn sync(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Operation>, ApiError> {
    Ok(Json(
        service::sync_one(
            &state.services.bank,
            current.user.id,
            id,
            SyncReason::Routine,
        )
        .await?,
    ))
}

/// Syncs every connection of the user.
#[utoipa::path(
    post,
    path = "/api/bank/connections/sync-all",
    tag = "bank",
    responses((status = 200, description = "The sync's operation (kind bank_sync_all)", body = Operation)),
)]
pub async fn sync_all(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Operation>, ApiError> {
    Ok(Json(
        service::sync_all(&state.services.bank, current.user.id).await?,
    ))
}

/// Fetches the whole 44-day window again, to fill gaps.
#[utoipa::path(
    post,
    path = "/api/bank/connections/{id}/backfill",
    tag = "bank",
    params(("id" = i64, Path, description = "The connection's id")),
    responses((status = 200, description = "The backfill's operation (kind bank_backfill)", body = Operation)),
)]
pub async fn backfill(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Operation>, ApiError> {
    Ok(Json(
        service::sync_one(
            &state.services.bank,
            current.user.id,
            id,
            SyncReason::Backfill,
        )
        .await?,
    ))
}

#[utoipa::path(
    get,
    path = "/api/bank/transactions",
    tag = "bank",
    params(TransactionQuery),
    responses((status = 200, body = TransactionPage)),
)]
pub async fn list_transactions(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<TransactionQuery>,
) -> Result<Json<TransactionPage>, ApiError> {
    transactions::check(&query)?;
    Ok(Json(
        transactions::page(&state.pool, current.user.id, &query).await?,
    ))
}

/// Admin → Bank Sync: the switch, the interval, the windows, the worker,
/// the key source and every connection's last result.
#[utoipa::path(
    get,
    path = "/api/admin/bank-sync",
    tag = "admin",
    responses((status = 200, body = BankSyncStatus)),
)]
pub async fn admin_status(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<BankSyncStatus>, ApiError> {
    Ok(Json(service::status(&state.services.bank).await?))
}

#[utoipa::path(
    put,
    path = "/api/admin/bank-sync",
    tag = "admin",
    request_body = UpdateBankSync,
    responses((status = 200, body = BankSyncStatus)),
)]
pub async fn admin_update(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(body): ApiJson<UpdateBankSync>,
) -> Result<Json<BankSyncStatus>, ApiError> {
    Ok(Json(service::update(&state.services.bank, body).await?))
}

/// Runs the automatic sync now rather than at its next time.
#[utoipa::path(
    post,
    path = "/api/admin/bank-sync/run",
    tag = "admin",
    responses((status = 202, description = "The automatic sync is starting", body = BankSyncStatus)),
)]
pub async fn admin_run(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<(StatusCode, Json<BankSyncStatus>), ApiError> {
    Ok((
        StatusCode::ACCEPTED,
        Json(service::run_now(&state.services.bank).await?),
    ))
}

/// Bills each recent unmatched debit (or one, `transactionId`) may have
/// paid, scored on amount, date, name and past matches; never applied.
#[utoipa::path(
    get,
    path = "/api/bank/suggestions",
    tag = "bank",
    params(SuggestionQuery),
    responses((status = 200, body = Suggestions)),
)]
pub async fn suggestions(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<SuggestionQuery>,
) -> Result<Json<Suggestions>, ApiError> {
    Ok(Json(
        suggested::suggestions(&state.pool, current.user.id, &query).await?,
    ))
}

/// The automatic matches of the last seven days, to review; unmatch undoes
/// one.
#[utoipa::path(
    get,
    path = "/api/bank/auto-matches",
    tag = "bank",
    responses((status = 200, body = AutoMatches)),
)]
pub async fn auto_matches(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<AutoMatches>, ApiError> {
    Ok(Json(
        review::auto_matches(&state.pool, current.user.id).await?,
    ))
}

/// Matches a transaction to a bill by hand: the payment is recorded (or a
/// payment already made by hand is linked); `remember` teaches a rule.
#[utoipa::path(
    post,
    path = "/api/bank/transactions/{id}/match",
    tag = "bank",
    params(("id" = i64, Path, description = "The transaction's id")),
    request_body = MatchTransaction,
    responses((status = 200, body = BankTransaction)),
)]
pub async fn match_transaction(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(body): ApiJson<MatchTransaction>,
) -> Result<Json<BankTransaction>, ApiError> {
    Ok(Json(
        matching::match_by_hand(&state.pool, current.user.id, id, body).await?,
    ))
}

/// Undoes a match and the payment it recorded.
#[utoipa::path(
    post,
    path = "/api/bank/transactions/{id}/unmatch",
    tag = "bank",
    params(("id" = i64, Path, description = "The transaction's id")),
    responses((status = 200, body = BankTransaction)),
)]
pub async fn unmatch_transaction(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<BankTransaction>, ApiError> {
    Ok(Json(
        matching::unmatch(&state.pool, current.user.id, id).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/bank/transactions/{id}/ignore",
    tag = "bank",
    params(("id" = i64, Path, description = "The transaction's id")),
    responses((status = 200, body = BankTransaction)),
)]
pub async fn ignore_transaction(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<BankTransaction>, ApiError> {
    Ok(Json(
        matching::set_ignored(&state.pool, current.user.id, id, true).await?,
    ))
}

#[utoipa::path(
    post,
    path = "/api/bank/transactions/{id}/unignore",
    tag = "bank",
    params(("id" = i64, Path, description = "The transaction's id")),
    responses((status = 200, body = BankTransaction)),
)]
pub async fn unignore_transaction(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<BankTransaction>, ApiError> {
    Ok(Json(
        matching::set_ignored(&state.pool, current.user.id, id, false).await?,
    ))
}
