//! The limits section: sign-in attempts, form submissions and the request
//! deadline, as the app's own `Limits`.

use std::time::Duration;

use app::backend::limits::Limits;

use super::env::{parse_per_minute, parse_seconds, Env};
use super::ConfigError;

pub(super) fn limits<F>(env: &Env<F>) -> Result<Limits, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(Limits {
        sign_in_attempts_per_minute: env.parse_or(
            "SIGN_IN_ATTEMPTS_PER_MINUTE",
            app::backend::auth::throttle::PER_IP_PER_MINUTE,
            parse_per_minute,
        )?,
        sign_in_account_burst: env.parse_or(
            "SIGN_IN_ACCOUNT_BURST",
            app::backend::auth::throttle::PER_ACCOUNT_BURST,
            parse_per_minute,
        )?,
        submissions_per_minute: env.parse_or(
            "RATE_LIMIT_PER_MINUTE",
            std::num::NonZeroU32::MIN.saturating_add(4),
            parse_per_minute,
        )?,
        request_timeout: env.parse_or(
            "REQUEST_TIMEOUT_SECONDS",
            Duration::from_secs(30),
            |raw| parse_seconds(raw, 1, 300),
        )?,
    })
}
