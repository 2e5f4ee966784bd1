//! `/api/bills…`, `/api/payments…` and `/api/tracker`: the bill tracker for
//! the signed-in user. Every query is scoped to that user, so another
//! user's id answers 404, checked before the body is even read ([`OwnBill`]
//! is extracted from the request's head, before any body extractor runs).

use std::collections::HashMap;

use app::backend::bills::forms;
use app::backend::bills::views::{self, Shown};
use app::backend::bills::{self, Bill};
use app::contract::bills::{
    AutopayFailure, AutopayTrust, BillList, BillOrder, BillRecord, Deactivation, Payment, Payments,
    RecordPayment, Spending, Tracker,
};
use app::domain::bill::BillForm;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;

use crate::extract::{ApiBytes, ApiJson, ApiPath, ApiQuery};
use crate::state::AppState;
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::CurrentUser;

/// The signed-in user's bill named by the path's `{id}`; anyone else's,
/// or none, answers 404.
pub struct OwnBill {
    user: i64,
    bill: Bill,
}

impl FromRequestParts<AppState> for OwnBill {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        let ApiPath(id) = ApiPath::<i64>::from_request_parts(parts, state).await?;
        let bill = bills::get(&state.pool, current.user.id, id).await?;
        Ok(Self {
            user: current.user.id,
            bill,
        })
    }
}

/// A bill as answered: with its next due date from today.
async fn answer(state: &AppState, user: i64, bill: &Bill) -> Result<Json<BillRecord>, ApiError> {
    Ok(Json(views::shown_for(&state.pool, user, bill).await?))
}

#[utoipa::path(
    get,
    path = "/api/bills",
    tag = "bills",
    responses((status = 200, body = BillList)),
)]
pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<BillList>, ApiError> {
    Ok(Json(views::bill_list(&state.pool, current.user.id).await?))
}

#[utoipa::path(
    post,
    path = "/api/bills",
    tag = "bills",
    request_body = BillForm,
    responses((status = 201, description = "Created", body = BillRecord)),
)]
pub async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(form): ApiJson<BillForm>,
) -> Result<(StatusCode, Json<BillRecord>), ApiError> {
    let saved = forms::save(&state.pool, current.user.id, None, &form).await?;
    Ok((StatusCode::CREATED, Json(saved)))
}

#[utoipa::path(
    get,
    path = "/api/bills/{id}",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 200, body = BillRecord)),
)]
pub async fn get(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
) -> Result<Json<BillRecord>, ApiError> {
    answer(&state, user, &bill).await
}

#[utoipa::path(
    put,
    path = "/api/bills/{id}",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    request_body = BillForm,
    responses((status = 200, body = BillRecord)),
)]
pub async fn update(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
    ApiJson(form): ApiJson<BillForm>,
) -> Result<Json<BillRecord>, ApiError> {
    Ok(Json(
        forms::save(&state.pool, user, Some(bill.id), &form).await?,
    ))
}

#[utoipa::path(
    delete,
    path = "/api/bills/{id}",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn delete(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    bills::delete(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/bills/{id}/deactivate`, with `{"reason"}` or no body.
#[utoipa::path(
    post,
    path = "/api/bills/{id}/deactivate",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    request_body(content = Option<Deactivation>, description = "Why; the body may be empty"),
    responses((status = 200, body = BillRecord)),
)]
pub async fn deactivate(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
    ApiBytes(body): ApiBytes,
) -> Result<Json<BillRecord>, ApiError> {
    let request: Deactivation = if body.iter().all(u8::is_ascii_whitespace) {
        Deactivation::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|error| ApiError::BadRequest(format!("the body is not JSON: {error}")))?
    };
    let bill = bills::deactivate(&state.pool, user, bill.id, &request.reason).await?;
    answer(&state, user, &bill).await
}

#[utoipa::path(
    post,
    path = "/api/bills/{id}/reactivate",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 200, body = BillRecord)),
)]
pub async fn reactivate(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<BillRecord>, ApiError> {
    let user = current.user.id;
    let bill = bills::reactivate(&state.pool, user, id).await?;
    answer(&state, user, &bill).await
}

#[utoipa::path(
    get,
    path = "/api/bills/{id}/payments",
    tag = "payments",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 200, body = Payments)),
)]
pub async fn payments(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Payments>, ApiError> {
    let payments = bills::list_payments(&state.pool, current.user.id, id).await?;
    Ok(Json(Payments { payments }))
}

#[utoipa::path(
    post,
    path = "/api/bills/{id}/payments",
    tag = "payments",
    params(("id" = i64, Path, description = "The bill's id")),
    request_body = RecordPayment,
    responses((status = 201, description = "Recorded", body = Payment)),
)]
pub async fn record_payment(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
    ApiJson(request): ApiJson<RecordPayment>,
) -> Result<(StatusCode, Json<Payment>), ApiError> {
    let recorded = bills::record_requested(&state.pool, user, bill.id, &request).await?;
    Ok((StatusCode::CREATED, Json(recorded)))
}

#[utoipa::path(
    delete,
    path = "/api/payments/{id}",
    tag = "payments",
    params(("id" = i64, Path, description = "The payment's id")),
    responses((status = 204, description = "Done")),
)]
pub async fn undo_payment(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    bills::undo_payment(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    put,
    path = "/api/payments/{id}/autopay-failure",
    tag = "payments",
    params(("id" = i64, Path, description = "The payment's id")),
    request_body = AutopayFailure,
    responses((status = 200, body = Payment)),
)]
pub async fn flag_autopay_failure(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiBytes(body): ApiBytes,
) -> Result<Json<Payment>, ApiError> {
    let user = current.user.id;
    bills::payment_by_id(&state.pool, user, id).await?;
    let request: AutopayFailure =
        serde_json::from_slice(&body).map_err(|_| ApiError::InvalidField {
            field: "failed".into(),
            description: "send {\"failed\": true} or {\"failed\": false}".into(),
        })?;
    let payment = bills::flag_autopay_failure(&state.pool, user, id, request.failed).await?;
    Ok(Json(payment))
}

/// How an autopay bill has fared against the bank: its last twelve due
/// dates (`✓ 12/12`, `⚠ 11/12`) and when a debit last verified it.
#[utoipa::path(
    get,
    path = "/api/bills/{id}/autopay",
    tag = "bills",
    params(("id" = i64, Path, description = "The bill's id")),
    responses((status = 200, body = AutopayTrust)),
)]
pub async fn autopay_trust(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<AutopayTrust>, ApiError> {
    Ok(Json(
        app::backend::bank::autopay::trust(&state.pool, current.user.id, id).await?,
    ))
}

/// `GET /api/tracker[?period=month|pay][&year=&month=|&from=]`: a month,
/// or a pay period, at a glance, with what is coming in the next 30 days.
/// Without `period`, the pay period when the user has a pay schedule
/// (Profile → Preferences), else the month; today's unless `year` and
/// `month` name a month or `from` a day of the pay period.
#[utoipa::path(
    get,
    path = "/api/tracker",
    tag = "bills",
    params(
        ("period" = Option<app::contract::bills::PeriodKind>, Query, description = "month or pay; the pay period when the user has a pay schedule, else the month"),
        ("year" = Option<i32>, Query, description = "with month: the month shown (1970-9999)"),
        ("month" = Option<u8>, Query, description = "with year: the month shown (1-12)"),
        ("from" = Option<String>, Query, description = "with period=pay: a day (YYYY-MM-DD) of the pay period shown"),
    ),
    responses((status = 200, body = Tracker)),
)]
pub async fn tracker(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiQuery(query): ApiQuery<HashMap<String, String>>,
) -> Result<Json<Tracker>, ApiError> {
    let field = |name: &str| query.get(name).map(String::as_str);
    let shown = Shown::parse(
        field("period"),
        field("year"),
        field("month"),
        field("from"),
    )?;
    Ok(Json(
        views::tracker(&state.pool, current.user.id, shown).await?,
    ))
}

/// `PUT /api/bills/order` `{"ids": [3, 1, 2]}`: the Custom sort.
#[utoipa::path(
    put,
    path = "/api/bills/order",
    tag = "bills",
    request_body = BillOrder,
    responses((status = 204, description = "Done")),
)]
pub async fn reorder(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(order): ApiJson<BillOrder>,
) -> Result<StatusCode, ApiError> {
    bills::reorder(&state.pool, current.user.id, &order.ids).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/reports/spending`: payments per category per month for the
/// last six months (this one included), for the Tracker's chart.
#[utoipa::path(
    get,
    path = "/api/reports/spending",
    tag = "bills",
    responses((status = 200, body = Spending)),
)]
pub async fn spending(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Spending>, ApiError> {
    Ok(Json(views::spending(&state.pool, current.user.id).await?))
}
