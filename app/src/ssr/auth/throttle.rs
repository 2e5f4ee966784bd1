//! Sign-in throttling, per client (an IPv6 client by its /64, see
//! `limiter::ClientKey`) and per account, in memory: a restart forgets it,
//! which costs an attacker nothing they could not get by waiting.
//!
//! Anyone can send attempts, so what is kept per attempt is small and fixed:
//! the account is keyed by a SHA-256 of its normalised email (checked for
//! length before anything is counted), and idle keys are dropped on a timer
//! (`spawn_pruning`), not when a request happens to notice the map is big.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};

use crate::ssr::limiter::{self, ClientKey};

/// The default per-IP limit (`SIGN_IN_ATTEMPTS_PER_MINUTE`).
pub const PER_IP_PER_MINUTE: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
/// Ten attempts at once by default (several devices signing in is normal),
/// then one more every three minutes (`SIGN_IN_ACCOUNT_BURST`).
pub const PER_ACCOUNT_BURST: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
const PER_ACCOUNT_PER_HOUR: NonZeroU32 = NonZeroU32::MIN.saturating_add(19);
/// The longest email an account can have (the `users.email` check).
pub const MAX_EMAIL_CHARS: usize = 254;

/// Why an attempt is not counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No account has such an email, and a long one would cost memory.
    #[error("email: use at most {MAX_EMAIL_CHARS} characters")]
    EmailTooLong,
    /// Over a limit: how long to wait.
    #[error("too many attempts; try again in {} seconds", .0.as_secs().max(1))]
    Wait(Duration),
}

/// An account as the throttle knows it: the SHA-256 of the trimmed,
/// lowercased email, so every key costs the same 32 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AccountKey([u8; 32]);

impl AccountKey {
    pub fn of(email: &str) -> Result<Self, Refusal> {
        let email = email.trim();
        if email.chars().count() > MAX_EMAIL_CHARS {
            return Err(Refusal::EmailTooLong);
        }
        Ok(Self(Sha256::digest(email.to_lowercase().as_bytes()).into()))
    }
}

pub struct SignInThrottle {
    by_client: DefaultKeyedRateLimiter<ClientKey>,
    by_account: DefaultKeyedRateLimiter<AccountKey>,
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
        Self::with_quotas(
            Quota::per_minute(per_ip_per_minute),
            Quota::per_hour(PER_ACCOUNT_PER_HOUR).allow_burst(per_account_burst),
        )
    }

    fn with_quotas(by_client: Quota, by_account: Quota) -> Self {
        Self {
            by_client: RateLimiter::keyed(by_client),
            by_account: RateLimiter::keyed(by_account),
            clock: DefaultClock::default(),
        }
    }

    /// Shares the throttle and drops its idle keys every
    /// `limiter::PRUNE_EVERY` for as long as it lives (needs the runtime).
    pub fn spawn_pruning(self) -> Arc<Self> {
        self.spawn_pruning_every(limiter::PRUNE_EVERY)
    }

    fn spawn_pruning_every(self, every: Duration) -> Arc<Self> {
        let throttle = Arc::new(self);
        limiter::spawn_pruning(&throttle, every, Self::prune);
        throttle
    }

    fn prune(&self) {
        self.by_client.retain_recent();
        self.by_account.retain_recent();
    }

    /// Counts one attempt: refused when the email is too long for any
    /// account (before anything is stored), or when the client or the
    /// account is over its limit.
    pub fn attempt(&self, ip: IpAddr, email: &str) -> Result<(), Refusal> {
        let account = AccountKey::of(email)?;
        let now = self.clock.now();
        let wait = |limit: governor::NotUntil<_>| Refusal::Wait(limit.wait_time_from(now));
        self.by_client.check_key(&ClientKey::of(ip)).map_err(wait)?;
        self.by_account.check_key(&account).map_err(wait)?;
        Ok(())
    }

    /// How many clients and accounts are remembered.
    pub fn keys(&self) -> (usize, usize) {
        (self.by_client.len(), self.by_account.len())
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
        let refusal = throttle
            .attempt(IpAddr::from([10, 0, 0, 99]), "ALICE@example.com ")
            .unwrap_err();
        assert!(matches!(refusal, Refusal::Wait(wait) if wait > Duration::ZERO));

        let ip = IpAddr::from([192, 0, 2, 1]);
        for n in 0..10 {
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"))
                .is_ok());
        }
        assert!(throttle.attempt(ip, "someone@example.com").is_err());
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let throttle = SignInThrottle::default();
        for n in 0..10u16 {
            let ip = IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, n + 1]);
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"))
                .is_ok());
        }
        let same_64 = IpAddr::from([0x2001, 0xdb8, 0, 0, 0xffff, 0, 0, 1]);
        assert!(throttle.attempt(same_64, "other@example.com").is_err());
        let next_64 = IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]);
        assert!(throttle.attempt(next_64, "other@example.com").is_ok());
    }

    #[test]
    fn a_long_email_is_refused_before_anything_is_counted() {
        let throttle = SignInThrottle::default();
        let long = format!("{}@example.com", "a".repeat(300));
        assert_eq!(
            throttle.attempt(IpAddr::from([192, 0, 2, 1]), &long),
            Err(Refusal::EmailTooLong)
        );
        assert_eq!(throttle.keys(), (0, 0), "nothing stored for it");
        let longest = format!("{}@example.com", "é".repeat(MAX_EMAIL_CHARS - 12));
        assert!(throttle
            .attempt(IpAddr::from([192, 0, 2, 1]), &longest)
            .is_ok());
    }

    #[test]
    fn an_account_key_is_the_normalised_email_hashed() {
        assert_eq!(
            AccountKey::of(" Alice@Example.COM ").unwrap(),
            AccountKey::of("alice@example.com").unwrap()
        );
        assert_ne!(
            AccountKey::of("alice@example.com").unwrap(),
            AccountKey::of("bob@example.com").unwrap()
        );
        // Whatever the email's length, the key is 32 bytes.
        assert_eq!(std::mem::size_of::<AccountKey>(), 32);
    }

    #[tokio::test]
    async fn the_timer_forgets_idle_clients_and_accounts() {
        // A quota that is whole again after a millisecond, so every key is
        // idle almost at once.
        let quick = Quota::with_period(Duration::from_millis(1)).unwrap();
        let throttle = SignInThrottle::with_quotas(quick, quick)
            .spawn_pruning_every(Duration::from_millis(20));
        for n in 0..200u8 {
            let ip = IpAddr::from([198, 51, 100, n]);
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"))
                .is_ok());
        }
        assert_eq!(throttle.keys(), (200, 200));
        // No more attempts arrive: only the timer can empty the maps.
        let mut waited = Duration::ZERO;
        while throttle.keys() != (0, 0) {
            assert!(waited < Duration::from_secs(10), "{:?}", throttle.keys());
            tokio::time::sleep(Duration::from_millis(20)).await;
            waited += Duration::from_millis(20);
        }
    }
}
