//! The limits an operator sets (the `limits` section of the settings):
//! how many sign-in attempts and form submissions a client may make, and
//! how long a request may run. The limiters themselves are in `limiter`,
//! `auth::throttle` and `contact::rate_limit`.

use std::num::NonZeroU32;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Sign-in attempts per client address per minute
    /// (`SIGN_IN_ATTEMPTS_PER_MINUTE`, default 10).
    pub sign_in_attempts_per_minute: NonZeroU32,
    /// Attempts one account may make at once before it is slowed to one
    /// every three minutes (`SIGN_IN_ACCOUNT_BURST`, default 10).
    pub sign_in_account_burst: NonZeroU32,
    /// Public form submissions per client address per minute, leads and
    /// support together (`RATE_LIMIT_PER_MINUTE`, default 5).
    pub submissions_per_minute: NonZeroU32,
    /// Longest a request may take before it is answered 504
    /// (`REQUEST_TIMEOUT_SECONDS`; the spec's 30 s by default).
    pub request_timeout: Duration,
}
