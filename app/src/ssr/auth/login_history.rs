//! The sign-in history: every attempt on an existing account, with the IP,
//! user agent and (for users who opted in) location sealed at rest.

use std::net::IpAddr;

use secrecy::ExposeSecret;
use serde::Serialize;
use sqlx::SqlitePool;

use super::geolocation::Geolocator;
use super::AuthError;
use crate::ssr::secrets::{Keyring, SecretColumn, LOGIN_IP, LOGIN_LOCATION, LOGIN_USER_AGENT};

/// How many rows Profile shows.
pub const RECENT: i64 = 20;

/// One sign-in attempt, opened for its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SignInRecord {
    pub at: String,
    pub success: bool,
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    pub location: Option<String>,
}

/// Where an attempt came from.
pub struct Origin<'a> {
    pub ip: IpAddr,
    pub user_agent: Option<&'a str>,
}

/// Records an attempt. The location is looked up only when the user opted
/// in (see `geolocation`).
pub async fn record(
    pool: &SqlitePool,
    keyring: &Keyring,
    geolocator: &Geolocator,
    user_id: i64,
    success: bool,
    origin: Origin<'_>,
) -> Result<(), AuthError> {
    let location = geolocator.locate_for(pool, user_id, origin.ip).await?;
    let seal = |column: SecretColumn, value: &str| {
        keyring
            .seal(column, value)
            .map_err(|error| AuthError::Sealing(error.to_string()))
    };
    let ip = seal(LOGIN_IP, &origin.ip.to_string())?;
    let agent = origin
        .user_agent
        .map(|agent| {
            seal(
                LOGIN_USER_AGENT,
                &agent.chars().take(300).collect::<String>(),
            )
        })
        .transpose()?;
    let location = location
        .map(|location| seal(LOGIN_LOCATION, &location))
        .transpose()?;
    sqlx::query(
        "INSERT INTO login_history (user_id, success, ip, user_agent, location) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(user_id)
    .bind(success)
    .bind(ip)
    .bind(agent)
    .bind(location)
    .execute(pool)
    .await?;
    Ok(())
}

/// The user's latest attempts, newest first.
pub async fn recent(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
) -> Result<Vec<SignInRecord>, AuthError> {
    type Row = (String, bool, Option<String>, Option<String>, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT at, success, ip, user_agent, location FROM login_history
         WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?",
    )
    .bind(user_id)
    .bind(RECENT)
    .fetch_all(pool)
    .await?;
    // A value that no longer opens (a lost key) shows as unknown rather than
    // hiding the whole history.
    let open = |column: SecretColumn, stored: Option<String>| {
        stored.and_then(|stored| {
            keyring
                .open(column, &stored)
                .ok()
                .map(|plain| plain.expose_secret().to_owned())
        })
    };
    Ok(rows
        .into_iter()
        .map(|(at, success, ip, agent, location)| SignInRecord {
            at,
            success,
            ip: open(LOGIN_IP, ip),
            user_agent: open(LOGIN_USER_AGENT, agent),
            location: open(LOGIN_LOCATION, location),
        })
        .collect())
}
