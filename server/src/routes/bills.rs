//! `/api/bills…`, `/api/payments…` and `/api/tracker`: the bill tracker for
//! the signed-in user. Every query is scoped to that user, so another
//! user's id answers 404, checked before the body is even read ([`OwnBill`]
//! is extracted from the request's head, before any body extractor runs).

use std::collections::HashMap;

use app::contract::bills::{
    AutopayFailure, BillList, BillOrder, BillRecord, Catalog, CatalogService, CategorySpending,
    Deactivation, Payment, Payments, Period, PeriodKind, RecordPayment, Spending, Tracker,
    TrackerEntry,
};
use app::domain::bill::BillForm;
use app::domain::date::Date;
use app::domain::tracker::{self, TrackedBill};
use app::ssr::bills::{self, Bill, BillError, NewPayment};
use axum::extract::{FromRequestParts, Query, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;

use crate::auth::CurrentUser;
use crate::error::ApiError;
use crate::extract::{ApiBytes, ApiJson, ApiPath};
use crate::state::AppState;

impl From<BillError> for ApiError {
    fn from(error: BillError) -> Self {
        match error {
            BillError::NotFound => Self::NotFound("no such bill or payment".into()),
            BillError::Invalid { field, description } => Self::InvalidField {
                field: field.to_owned(),
                description,
            },
            BillError::Database(error) => Self::Database(error),
        }
    }
}

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

/// The user's locale and default currency.
async fn preferences(state: &AppState, user: i64) -> Result<(String, String), ApiError> {
    Ok(
        sqlx::query_as("SELECT locale, currency FROM users WHERE id = ?")
            .bind(user)
            .fetch_one(&state.pool)
            .await?,
    )
}

/// A bill with what today (in the user's time zone) adds: its next due
/// date and, on a debt, the interest not yet charged.
fn shown(bill: &Bill, today: Date) -> BillRecord {
    let mut bill = bill.clone();
    bill.next_due = bill.due_on_or_after(today).map(|due| due.to_string());
    bill.interest_pending_minor = bill.interest_pending(today);
    bill
}

/// A bill as answered: with its next due date from today.
async fn answer(state: &AppState, user: i64, bill: &Bill) -> Result<Json<BillRecord>, ApiError> {
    let today = bills::today_for(&state.pool, user).await?;
    Ok(Json(shown(bill, today)))
}

pub async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<BillList>, ApiError> {
    let user = current.user.id;
    let today = bills::today_for(&state.pool, user).await?;
    let all = bills::list(&state.pool, user).await?;
    let bills = all.iter().map(|bill| shown(bill, today)).collect();
    let (locale, currency) = preferences(&state, user).await?;
    Ok(Json(BillList {
        today: today.to_string(),
        locale,
        currency,
        bills,
    }))
}

pub async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(form): ApiJson<BillForm>,
) -> Result<(StatusCode, Json<BillRecord>), ApiError> {
    let user = current.user.id;
    let valid = form.validate().map_err(ApiError::InvalidFields)?;
    let bill = bills::create(&state.pool, user, &valid).await?;
    Ok((StatusCode::CREATED, answer(&state, user, &bill).await?))
}

pub async fn get(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
) -> Result<Json<BillRecord>, ApiError> {
    answer(&state, user, &bill).await
}

pub async fn update(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
    ApiJson(form): ApiJson<BillForm>,
) -> Result<Json<BillRecord>, ApiError> {
    let valid = form.validate().map_err(ApiError::InvalidFields)?;
    let bill = bills::update(&state.pool, user, bill.id, &valid).await?;
    answer(&state, user, &bill).await
}

pub async fn delete(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    bills::delete(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/bills/{id}/deactivate`, with `{"reason"}` or no body.
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

pub async fn reactivate(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<BillRecord>, ApiError> {
    let user = current.user.id;
    let bill = bills::reactivate(&state.pool, user, id).await?;
    answer(&state, user, &bill).await
}

pub async fn payments(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<Payments>, ApiError> {
    let payments = bills::list_payments(&state.pool, current.user.id, id).await?;
    Ok(Json(Payments { payments }))
}

pub async fn record_payment(
    State(state): State<AppState>,
    OwnBill { user, bill }: OwnBill,
    ApiJson(request): ApiJson<RecordPayment>,
) -> Result<(StatusCode, Json<Payment>), ApiError> {
    let paid_on = match request
        .paid_on
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        Some(text) => Date::parse(text).map_err(|_| ApiError::InvalidField {
            field: "paidOn".into(),
            description: "enter the payment date, like 2026-01-31".into(),
        })?,
        None => bills::today_for(&state.pool, user).await?,
    };
    let payment = NewPayment {
        // The bill's amount when none is given: "mark paid".
        amount_minor: request.amount_minor.unwrap_or(bill.amount_minor),
        paid_on,
        method: request.method,
    };
    let recorded = bills::record_payment(&state.pool, user, bill.id, &payment).await?;
    Ok((StatusCode::CREATED, Json(recorded)))
}

pub async fn undo_payment(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    bills::undo_payment(&state.pool, current.user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

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

/// `GET /api/tracker[?period=month|pay]`: this month, or this pay period,
/// at a glance. Without `period`, the pay period when the user has a pay
/// schedule (Profile → Preferences), else the month.
pub async fn tracker(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Tracker>, ApiError> {
    let user = current.user.id;
    let today = bills::today_for(&state.pool, user).await?;
    let schedule = super::preferences::pay_schedule(&state, user).await?;
    let pay_period = match query.get("period").map(String::as_str) {
        None => schedule.is_some(),
        Some("month") => false,
        Some("pay") if schedule.is_some() => true,
        Some("pay") => {
            return Err(ApiError::InvalidField {
                field: "period".into(),
                description: "set a pay schedule in Profile → Preferences first".into(),
            })
        }
        Some(_) => {
            return Err(ApiError::InvalidField {
                field: "period".into(),
                description: "use month or pay".into(),
            })
        }
    };
    let (first, last) = schedule
        .filter(|_| pay_period)
        .and_then(|(schedule, payday)| schedule.period_containing(payday, today))
        .unwrap_or_else(|| tracker::month_bounds(today));
    let all = bills::list(&state.pool, user).await?;
    let paid: Vec<(i64, String)> = sqlx::query_as(
        "SELECT bill_id, paid_on FROM payments
         WHERE user_id = ? AND kind = 'payment' AND autopay_failure = 0
             AND paid_on BETWEEN ? AND ?",
    )
    .bind(user)
    .bind(first.to_string())
    .bind(last.to_string())
    .fetch_all(&state.pool)
    .await?;
    let mut paid_by_bill: HashMap<i64, Vec<Date>> = HashMap::new();
    for (bill_id, paid_on) in paid {
        if let Ok(date) = Date::parse(&paid_on) {
            paid_by_bill.entry(bill_id).or_default().push(date);
        }
    }
    let tracked: Vec<TrackedBill> = all
        .iter()
        .filter(|bill| bill.active)
        .filter_map(|bill| {
            Some(TrackedBill {
                id: bill.id,
                cadence: bill.cadence()?,
                anchor: Date::parse(&bill.anchor_date).ok()?,
                due_day: u8::try_from(bill.due_day).ok()?,
                amount_minor: bill.amount_minor,
                paid_on: paid_by_bill.remove(&bill.id).unwrap_or_default(),
            })
        })
        .collect();
    let (entries, totals) = tracker::period_view(today, (first, last), &tracked);
    let by_id: HashMap<i64, &Bill> = all.iter().map(|bill| (bill.id, bill)).collect();
    let entries = entries
        .into_iter()
        .filter_map(|entry| {
            let bill = by_id.get(&entry.bill_id)?;
            Some(TrackerEntry {
                bill_id: entry.bill_id,
                name: bill.name.clone(),
                due: entry.due,
                status: entry.status,
                amount_minor: entry.amount_minor,
                currency: bill.currency.clone(),
                autopay: bill.autopay,
                category: bill.category.clone(),
            })
        })
        .collect();
    let (locale, currency) = preferences(&state, user).await?;
    Ok(Json(Tracker {
        today: today.to_string(),
        locale,
        currency,
        month: today.year_month().to_string(),
        period: Period {
            kind: if pay_period {
                PeriodKind::Pay
            } else {
                PeriodKind::Month
            },
            first: first.to_string(),
            last: last.to_string(),
        },
        pay_schedule: schedule.map(|(schedule, _)| schedule.as_str().to_owned()),
        entries,
        totals,
    }))
}

/// `PUT /api/bills/order` `{"ids": [3, 1, 2]}`: the Custom sort.
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
pub async fn spending(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Spending>, ApiError> {
    let user = current.user.id;
    let today = bills::today_for(&state.pool, user).await?;
    let mut months = vec![today.year_month()];
    for _ in 0..5 {
        months.insert(0, months[0].previous());
    }
    let first = format!("{}-01", months[0]);
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT b.category, substr(p.paid_on, 1, 7) AS month, sum(p.amount_cents)
         FROM payments p JOIN bills b ON b.id = p.bill_id
         WHERE p.user_id = ? AND p.paid_on >= ? AND p.autopay_failure = 0
             AND p.kind = 'payment'
         GROUP BY b.category, month ORDER BY b.category",
    )
    .bind(user)
    .bind(first)
    .fetch_all(&state.pool)
    .await?;
    let labels: Vec<String> = months.iter().map(ToString::to_string).collect();
    let mut categories: Vec<(String, Vec<i64>)> = Vec::new();
    for (category, month, total) in rows {
        let Some(slot) = labels.iter().position(|label| *label == month) else {
            continue;
        };
        match categories.iter_mut().find(|(name, _)| *name == category) {
            Some((_, totals)) => totals[slot] += total,
            None => {
                let mut totals = vec![0; labels.len()];
                totals[slot] = total;
                categories.push((category, totals));
            }
        }
    }
    let (locale, currency) = preferences(&state, user).await?;
    Ok(Json(Spending {
        locale,
        currency,
        months: labels,
        categories: categories
            .into_iter()
            .map(|(name, totals_minor)| CategorySpending { name, totals_minor })
            .collect(),
    }))
}

/// `GET /api/catalog`: the known subscription services a bill can link to.
pub async fn catalog(
    State(state): State<AppState>,
    _current: CurrentUser,
) -> Result<Json<Catalog>, ApiError> {
    let services: Vec<CatalogService> =
        sqlx::query_as("SELECT id, name, category FROM subscription_catalog ORDER BY name")
            .fetch_all(&state.pool)
            .await?;
    Ok(Json(Catalog { services }))
}
