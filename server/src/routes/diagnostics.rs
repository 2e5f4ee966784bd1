//! Routes that exercise the process rules (crash on panic, graceful
//! shutdown) for tests and operators. Mounted only when `TALLY_DIAGNOSTICS`
//! is true, and for administrators only.

use std::time::Duration;

use crate::extract::ApiQuery;
use serde::Deserialize;

use super::use_case::Caller::Administrator;
use super::use_case::{case, UseCase};
use app::backend::api_error::ApiError;
use app::backend::auth::extractors::AdminUser;

const MAX_SLOW_MS: u64 = 20_000;

/// The diagnostics use cases, for administrators only.
pub fn use_cases() -> Vec<UseCase> {
    vec![
        case("diagnostics.slow", Administrator).get("/api/diagnostics/slow", slow),
        case("diagnostics.sleep", Administrator)
            .post("/v1/diagnostics:sleep", super::operations::start_sleep),
        case("diagnostics.panic", Administrator).post("/api/diagnostics/panic", panic_in_handler),
        case("diagnostics.panic_task", Administrator)
            .post("/api/diagnostics/panic-task", panic_in_task),
    ]
}

#[derive(Deserialize)]
pub struct SlowQuery {
    ms: u64,
}

/// Answers after `ms` milliseconds: an in-flight request to shut down under.
async fn slow(
    _admin: AdminUser,
    ApiQuery(query): ApiQuery<SlowQuery>,
) -> Result<&'static str, ApiError> {
    if query.ms > MAX_SLOW_MS {
        return Err(ApiError::BadRequest(format!(
            "ms must be at most {MAX_SLOW_MS}"
        )));
    }
    tracing::info!(ms = query.ms, "diagnostics: slow request started");
    tokio::time::sleep(Duration::from_millis(query.ms)).await;
    Ok("done")
}

#[allow(clippy::panic)]
async fn panic_in_handler(_admin: AdminUser) -> &'static str {
    panic!("diagnostics: deliberate panic in a request handler");
}

#[allow(clippy::panic)]
async fn panic_in_task(_admin: AdminUser) -> &'static str {
    tokio::spawn(async {
        panic!("diagnostics: deliberate panic in a spawned task");
    });
    "spawned"
}
