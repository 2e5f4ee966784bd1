//! Sign-in throttling, in memory: a restart forgets it, which costs an
//! attacker nothing they could not get by waiting. Every attempt counts
//! against its client's address (an IPv6 client by its /64, see
//! `limiter::ClientKey`); then, by who is knocking ([`Standing`]):
//! - a stranger against the account *from that client* (a small burst,
//!   then one every few minutes) and against a much higher ceiling for the
//!   account alone (50 in 15 minutes), so one address guessing a password
//!   cannot lock the owner, who comes from another, out;
//! - a browser holding the account's device cookie (`device`) against its
//!   own bucket only, so not even a botnet that fills the ceiling keeps the
//!   owner's own browser out;
//! - a signed-in user confirming their password against the account from
//!   that client only.
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

use super::device::DeviceKey;
use crate::backend::limiter::{self, ClientKey};

/// The default per-IP limit (`SIGN_IN_ATTEMPTS_PER_MINUTE`).
pub const PER_IP_PER_MINUTE: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
/// Ten attempts at once by default (several devices signing in is normal),
/// then one more every three minutes (`SIGN_IN_ACCOUNT_BURST`).
pub const PER_ACCOUNT_BURST: NonZeroU32 = NonZeroU32::MIN.saturating_add(9);
const PER_ACCOUNT_PER_HOUR: NonZeroU32 = NonZeroU32::MIN.saturating_add(19);
/// The ceiling for one account from every stranger together: 50 attempts
/// at once, then one every 18 seconds (50 in 15 minutes).
const ACCOUNT_CEILING: u32 = 50;
const ACCOUNT_CEILING_PERIOD: Duration = Duration::from_secs(15 * 60 / ACCOUNT_CEILING as u64);
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
pub struct AccountKey(pub(super) [u8; 32]);

/// Who is knocking, as far as the throttle is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Anyone: a sign-in or registration from a browser not known to the
    /// account.
    Stranger,
    /// A browser with the account's device cookie (checked by the caller).
    Device(DeviceKey),
    /// A signed-in user asked for their password again.
    SignedIn,
}

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
    by_account_client: DefaultKeyedRateLimiter<(AccountKey, ClientKey)>,
    by_device: DefaultKeyedRateLimiter<(AccountKey, DeviceKey)>,
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

    fn with_quotas(by_client: Quota, by_account_client: Quota) -> Self {
        let ceiling = Quota::with_period(ACCOUNT_CEILING_PERIOD)
            .unwrap_or(by_account_client)
            .allow_burst(NonZeroU32::new(ACCOUNT_CEILING).unwrap_or(NonZeroU32::MIN));
        Self::with_ceiling(by_client, by_account_client, ceiling)
    }

    fn with_ceiling(by_client: Quota, by_account_client: Quota, ceiling: Quota) -> Self {
        Self {
            by_client: RateLimiter::keyed(by_client),
            by_account_client: RateLimiter::keyed(by_account_client),
            by_device: RateLimiter::keyed(by_account_client),
            by_account: RateLimiter::keyed(ceiling),
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
        self.by_account_client.retain_recent();
        self.by_device.retain_recent();
        self.by_account.retain_recent();
    }

    /// Counts one attempt: refused when the email is too long for any
    /// account (before anything is stored), or when the client, or the
    /// bucket its standing counts against, is over its limit.
    pub fn attempt(&self, ip: IpAddr, email: &str, standing: Standing) -> Result<(), Refusal> {
        let account = AccountKey::of(email)?;
        let client = ClientKey::of(ip);
        let now = self.clock.now();
        let wait = |limit: governor::NotUntil<_>| Refusal::Wait(limit.wait_time_from(now));
        self.by_client.check_key(&client).map_err(wait)?;
        match standing {
            Standing::Device(device) => {
                self.by_device.check_key(&(account, device)).map_err(wait)?;
            }
            Standing::SignedIn => {
                self.by_account_client
                    .check_key(&(account, client))
                    .map_err(wait)?;
            }
            Standing::Stranger => {
                self.by_account_client
                    .check_key(&(account, client))
                    .map_err(wait)?;
                self.by_account.check_key(&account).map_err(wait)?;
            }
        }
        Ok(())
    }

    /// How many clients and accounts are remembered (accounts counted in
    /// every bucket that keys on one).
    pub fn keys(&self) -> (usize, usize) {
        (
            self.by_client.len(),
            self.by_account_client.len() + self.by_device.len() + self.by_account.len(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use Standing::{SignedIn, Stranger};

    #[test]
    fn an_account_is_limited_per_client_and_an_ip_across_accounts() {
        let throttle = SignInThrottle::default();
        let attacker = IpAddr::from([203, 0, 113, 9]);
        for _ in 0..10 {
            assert!(throttle
                .attempt(attacker, "alice@example.com", Stranger)
                .is_ok());
        }
        let refusal = throttle
            .attempt(attacker, "ALICE@example.com ", Stranger)
            .unwrap_err();
        assert!(matches!(refusal, Refusal::Wait(wait) if wait > Duration::ZERO));
        // The owner, at another address, is not locked out by that.
        let owner = IpAddr::from([198, 51, 100, 7]);
        assert!(throttle
            .attempt(owner, "alice@example.com", Stranger)
            .is_ok());

        let ip = IpAddr::from([192, 0, 2, 1]);
        for n in 0..10 {
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"), Stranger)
                .is_ok());
        }
        assert!(throttle
            .attempt(ip, "someone@example.com", Stranger)
            .is_err());
    }

    #[test]
    fn many_strangers_fill_the_ceiling_but_not_the_owners_known_browser() {
        let throttle = SignInThrottle::default();
        // 50 addresses, one guess each: the account's ceiling is full.
        for n in 0..50u8 {
            let ip = IpAddr::from([10, 1, 0, n]);
            assert!(throttle.attempt(ip, "admin@example.com", Stranger).is_ok());
        }
        let owner = IpAddr::from([198, 51, 100, 7]);
        assert!(
            throttle
                .attempt(owner, "admin@example.com", Stranger)
                .is_err(),
            "a new browser waits for the ceiling"
        );
        let device = DeviceKey([7; 16]);
        for _ in 0..5 {
            assert!(throttle
                .attempt(owner, "admin@example.com", Standing::Device(device))
                .is_ok());
        }
        // The same cookie from other addresses shares the device's bucket.
        for n in 0..5u8 {
            let elsewhere = IpAddr::from([10, 2, 0, n]);
            assert!(throttle
                .attempt(elsewhere, "admin@example.com", Standing::Device(device))
                .is_ok());
        }
        assert!(
            throttle
                .attempt(
                    IpAddr::from([10, 2, 0, 99]),
                    "admin@example.com",
                    Standing::Device(device)
                )
                .is_err(),
            "a stolen device cookie is limited too"
        );
        // A signed-in user confirming their password is not held by it.
        let other = IpAddr::from([198, 51, 100, 8]);
        assert!(throttle
            .attempt(other, "admin@example.com", SignedIn)
            .is_ok());
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let throttle = SignInThrottle::default();
        for n in 0..10u16 {
            let ip = IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, n + 1]);
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"), Stranger)
                .is_ok());
        }
        let same_64 = IpAddr::from([0x2001, 0xdb8, 0, 0, 0xffff, 0, 0, 1]);
        assert!(throttle
            .attempt(same_64, "other@example.com", Stranger)
            .is_err());
        let next_64 = IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1]);
        assert!(throttle
            .attempt(next_64, "other@example.com", Stranger)
            .is_ok());
    }

    #[test]
    fn a_long_email_is_refused_before_anything_is_counted() {
        let throttle = SignInThrottle::default();
        let long = format!("{}@example.com", "a".repeat(300));
        assert_eq!(
            throttle.attempt(IpAddr::from([192, 0, 2, 1]), &long, Stranger),
            Err(Refusal::EmailTooLong)
        );
        assert_eq!(throttle.keys(), (0, 0), "nothing stored for it");
        let longest = format!("{}@example.com", "é".repeat(MAX_EMAIL_CHARS - 12));
        assert!(throttle
            .attempt(IpAddr::from([192, 0, 2, 1]), &longest, Stranger)
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
        let throttle = SignInThrottle::with_ceiling(quick, quick, quick)
            .spawn_pruning_every(Duration::from_millis(20));
        for n in 0..200u8 {
            let ip = IpAddr::from([198, 51, 100, n]);
            assert!(throttle
                .attempt(ip, &format!("user{n}@example.com"), Stranger)
                .is_ok());
        }
        assert_eq!(throttle.keys(), (200, 400));
        // No more attempts arrive: only the timer can empty the maps.
        let mut waited = Duration::ZERO;
        while throttle.keys() != (0, 0) {
            assert!(waited < Duration::from_secs(10), "{:?}", throttle.keys());
            tokio::time::sleep(Duration::from_millis(20)).await;
            waited += Duration::from_millis(20);
        }
    }
}
