//! The bank-sync section: the switch's starting value, whether a local
//! http provider is allowed, each provider call's timeout, the demo bank
//! and each user's share of an automatic pass, as the app's own `BankSettings`.

use std::time::Duration;

use app::backend::bank::BankSettings;

use super::env::{parse_bool, parse_seconds, Env};
use super::ConfigError;

pub(super) fn bank<F>(env: &Env<F>) -> Result<BankSettings, ConfigError>
where
    F: Fn(&str) -> Option<Result<String, std::ffi::OsString>>,
{
    Ok(BankSettings {
        enabled: env.parse_or("BANK_SYNC_ENABLED", false, parse_bool)?,
        allow_http: env.parse_or("SIMPLEFIN_ALLOW_HTTP", false, parse_bool)?,
        timeout: env.parse_or(
            "SIMPLEFIN_TIMEOUT_SECONDS",
            Duration::from_secs(30),
            |raw| parse_seconds(raw, 1, 30),
        )?,
        demo: env.parse_or("BANK_SYNC_DEMO", false, parse_bool)?,
        user_budget: env.parse_or(
            "BANK_SYNC_USER_BUDGET_SECONDS",
            app::backend::bank::worker::USER_BUDGET,
            |raw| parse_seconds(raw, 1, 3600),
        )?,
    })
}
