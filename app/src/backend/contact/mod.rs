//! The marketing site's submissions: sales leads and support requests.
//! Each is stored once, then posted to the CRM by the outbox in the
//! background; nothing a visitor submitted is lost (DESIGN decision 7).

pub mod bot_check;
pub mod crm;
mod error;
pub mod group_commit;
pub mod intake;
pub mod outbox;
pub mod rate_limit;
pub mod review;
pub mod store;

pub use error::ContactError;

use std::sync::Arc;

use sqlx::SqlitePool;

/// What the submission use cases work with, assembled once at start-up:
/// the database, the per-address rate limit, the bot check, the writer
/// that commits submissions together, and the CRM outbox.
pub struct Contact {
    pub pool: SqlitePool,
    pub rate_limit: Arc<rate_limit::FormRateLimit>,
    pub bot_check: Arc<bot_check::BotCheck>,
    pub submissions: group_commit::SubmissionWriter,
    pub outbox: Arc<outbox::Outbox>,
}

/// Which form a submission came from (the contract's `SubmissionKind`).
pub use crate::contract::contact::SubmissionKind as Kind;

/// Which table a submission lives in.
impl Kind {
    pub const ALL: [Self; 2] = [Self::Lead, Self::Support];

    pub fn table(self) -> &'static str {
        match self {
            Self::Lead => "leads",
            Self::Support => "support_requests",
        }
    }
}
