//! `GET`/`PUT /api/profile/preferences`: how the tracker shows money and
//! dates for this user: locale (number format), default currency for new
//! bills, and time zone (what "today" is).

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use app::domain::money::{Currency, LOCALES};

use crate::auth::CurrentUser;
use crate::error::ApiError;
use crate::state::AppState;

#[derive(Debug, Serialize, Deserialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preferences {
    locale: String,
    currency: String,
    time_zone: String,
}

pub async fn get(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<Preferences>, ApiError> {
    let preferences = sqlx::query_as("SELECT locale, currency, time_zone FROM users WHERE id = ?")
        .bind(current.user.id)
        .fetch_one(&state.pool)
        .await?;
    Ok(Json(preferences))
}

pub async fn set(
    State(state): State<AppState>,
    current: CurrentUser,
    crate::extract::ApiJson(wanted): crate::extract::ApiJson<Preferences>,
) -> Result<Json<Preferences>, ApiError> {
    let mut problems = Vec::new();
    let violation = |field: &str, description: &str| app::domain::contact::FieldViolation {
        field: field.to_owned(),
        description: description.to_owned(),
    };
    if !LOCALES.iter().any(|(tag, _)| *tag == wanted.locale) {
        problems.push(violation("locale", "choose one of the offered locales"));
    }
    let currency = Currency::parse(&wanted.currency);
    if currency.is_err() {
        problems.push(violation(
            "currency",
            "enter a currency code like USD or EUR",
        ));
    }
    if !app::ssr::bills::known_time_zone(&wanted.time_zone) {
        problems.push(violation(
            "timeZone",
            "enter a time zone like Europe/Berlin or America/New_York",
        ));
    }
    if !problems.is_empty() {
        return Err(ApiError::InvalidFields(problems));
    }
    let code = currency
        .map(|c| c.code().to_owned())
        .unwrap_or_else(|_| "USD".into());
    sqlx::query(
        "UPDATE users SET locale = ?, currency = ?, time_zone = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?",
    )
    .bind(&wanted.locale)
    .bind(&code)
    .bind(&wanted.time_zone)
    .bind(current.user.id)
    .execute(&state.pool)
    .await?;
    get(State(state), current).await
}
