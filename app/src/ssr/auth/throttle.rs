//! Sign-in throttling, per client IP and per account, in memory: a restart
//! forgets it, which costs an attacker nothing they could not get by waiting.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// The default per-IP limit (`SIGN_IN_ATTEMPTS_PER_MINUTE`).
pub const PER_IP_PER_MINUTE: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
/// Ten attempts at once by default (several devices signing in is normal),
/// then one more every three minutes (`SIGN_IN_ACCOUNT_BURST`).
pub const PER_ACCOUNT_BURST: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
const PER_ACCOUNT_PER_HOUR: NonZeroU32 = NonZeroU32::MIN.saturating_add(19);

pub struct SignInThrottle {
    by_ip: DefaultKeyedRateLimiter<IpAddr>,
    by_account: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
}

impl Default for SignInThrottle {
    fn default() -> Self {
        Self::new(PER_IP_PER_MINUTE, PER_ACCOUNT_BURST)
    }
}

impl SignInThrottle {
    /// `per_ip_per_minute` attempts per client IP (a household or office
    /// behind one address may need more than the default).
    pub fn new(per_ip_per_minute: NonZeroU32, per_account_burst: NonZeroU32) -> Self {
        Self {
            by_ip: RateLimiter::keyed(Quota::per_minute(per_ip_per_minute)),
            by_account: RateLimiter::keyed(
                Quota::per_hour(PER_ACCOUNT_PER_HOUR).allow_burst(per_account_burst),
            ),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one attempt; `Err(wait)` when the IP or the account is over its
    /// limit, with how long to wait.
    pub fn attempt(&self, ip: IpAddr, email: &str) -> Result<(), Duration> {
        let now = self.clock.now();
        self.by_ip
            .check_key(&ip)
            .map_err(|limit| limit.wait_time_from(now))?;
        self.by_account
            .check_key(&email.trim().to_lowercase())
            .map_err(|limit| limit.wait_time_from(now))?;
        if self.by_ip.len() > 10_000 || self.by_account.len() > 10_000 {
            self.by_ip.retain_recent();
            self.by_account.retain_recent();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_limited_across_ips_and_an_ip_across_accounts() {
        let throttle = SignInThrottle::default();
        for n in 0..10 {
            let ip = IpAddr::from([10, 0, 0, n]);
            assert!(throttle.attempt(ip, "alice@example.com").is_ok());
        }
        let wait = throttle
            .attempt(IpAddr::from([10, 0, 0, 99]), "ALICE@example.com ")
            .unwrap_err();
        assert!(wait > Duration::ZERO);

        let ip = IpAddr::from([192, 0, 2, 1]);
        for n in 0..10 {
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"))
                .is_ok());
        }
        assert!(throttle.attempt(ip, "someone@example.com").is_err());
    }
}
