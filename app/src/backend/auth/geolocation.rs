//! IP geolocation for the sign-in history. Opt-in per user (Profile →
//! Privacy, `geolocation_enabled`, default off) and off for everyone unless
//! the operator names a lookup service (`GEOLOCATION_URL`, a URL with an
//! `{ip}` placeholder answering JSON with `city`, `region`/`regionName` and
//! `country_name`/`country`). A slow or failing service costs the sign-in at
//! most `TIMEOUT` and leaves the location empty.

use std::net::IpAddr;
use std::time::Duration;

use serde::Deserialize;
use sqlx::SqlitePool;

use super::AuthError;
use crate::backend::settings::{self, Scope};

/// The per-user setting.
pub const GEOLOCATION_ENABLED: &str = "geolocation_enabled";
/// Longest a lookup may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct Geolocator {
    url_template: Option<String>,
    client: reqwest::Client,
}

impl Geolocator {
    /// `url_template` contains `{ip}`; `None` turns lookups off.
    pub fn new(url_template: Option<String>) -> Self {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .unwrap_or_default();
        Self {
            url_template,
            client,
        }
    }

    /// The location of `ip` for `user_id`, or `None` when the user has not
    /// opted in (then no request is made), no service is configured, or the
    /// lookup fails.
    pub async fn locate_for(
        &self,
        pool: &SqlitePool,
        user_id: i64,
        ip: IpAddr,
    ) -> Result<Option<String>, AuthError> {
        let Some(template) = &self.url_template else {
            return Ok(None);
        };
        if !enabled(pool, user_id).await? {
            return Ok(None);
        }
        let url = template.replace("{ip}", &ip.to_string());
        Ok(self.lookup(&url).await)
    }

    async fn lookup(&self, url: &str) -> Option<String> {
        let answer = self.client.get(url).send().await.ok()?;
        if !answer.status().is_success() {
            tracing::warn!(status = %answer.status(), "geolocation lookup failed");
            return None;
        }
        let found: Found = answer.json().await.ok()?;
        found.describe()
    }
}

/// Whether the user opted in to geolocation.
pub async fn enabled(pool: &SqlitePool, user_id: i64) -> Result<bool, AuthError> {
    Ok(settings::get_flag(pool, Scope::User(user_id), GEOLOCATION_ENABLED, false).await?)
}

pub async fn set_enabled(pool: &SqlitePool, user_id: i64, on: bool) -> Result<(), AuthError> {
    Ok(settings::set_flag(pool, Scope::User(user_id), GEOLOCATION_ENABLED, on).await?)
}

#[derive(Deserialize)]
struct Found {
    city: Option<String>,
    #[serde(alias = "regionName")]
    region: Option<String>,
    country_name: Option<String>,
    country: Option<String>,
}

impl Found {
    /// "City, Region, Country" from whatever parts the service gave.
    fn describe(self) -> Option<String> {
        let parts: Vec<String> = [self.city, self.region, self.country_name.or(self.country)]
            .into_iter()
            .flatten()
            .map(|part| part.trim().chars().take(100).collect::<String>())
            .filter(|part| !part.is_empty())
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::Found;

    #[test]
    fn describes_what_the_service_gave() {
        let found: Found = serde_json::from_str(
            r#"{"city":"Lisbon","regionName":"Lisbon","country":"PT","lat":1.0}"#,
        )
        .unwrap();
        assert_eq!(found.describe().as_deref(), Some("Lisbon, Lisbon, PT"));
        let nothing: Found = serde_json::from_str(r#"{"city":" "}"#).unwrap();
        assert_eq!(nothing.describe(), None);
    }
}
