//! Sign-ins waiting for the provider's answer, kept in memory for ten
//! minutes: the state (by its hash), the nonce and PKCE verifier, where to
//! go after, and the browser that started it (by the hash of its cookie).
//! A restart forgets them; the person starts again.
//!
//! The list is bounded twice, and neither bound refuses a start: a client
//! address (an IPv6 /64 counts as one, `limiter::ClientKey`) keeps its
//! [`PER_CLIENT`] latest sign-ins, and when [`MAX_WAITING`] wait in all
//! the oldest gives way. Refusing instead let a few hundred /64s, each
//! within its start limit, fill the list until nobody could sign in.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use openidconnect::{Nonce, PkceCodeVerifier};

use crate::backend::limiter::ClientKey;

/// How long the provider's answer may take.
pub const TTL: Duration = Duration::from_secs(10 * 60);
/// The sign-ins one client address may have waiting at once; a start past
/// them forgets that address's oldest. A household or an office behind
/// one address rarely has more than a couple at the provider together.
pub const PER_CLIENT: usize = 8;
/// At most this many wait at once; a start past them forgets the oldest.
pub const MAX_WAITING: usize = 10_000;

pub struct Waiting {
    pub browser_hash: String,
    pub nonce: Nonce,
    pub verifier: PkceCodeVerifier,
    pub next: String,
    /// The account a linking from Profile adds the identity to (it must
    /// still be the one signed in when the provider answers).
    pub link_to: Option<i64>,
    started: Instant,
}

impl Waiting {
    pub fn new(
        browser_hash: String,
        nonce: Nonce,
        verifier: PkceCodeVerifier,
        next: String,
        link_to: Option<i64>,
    ) -> Self {
        Self {
            browser_hash,
            nonce,
            verifier,
            next,
            link_to,
            started: Instant::now(),
        }
    }
}

/// A waiting sign-in, the address that started it and its place in line.
struct Kept {
    waiting: Waiting,
    client: ClientKey,
    order: u64,
}

/// The sign-ins by their state's hash, and the orders to forget them in:
/// all of them oldest first, and each client address's oldest first.
#[derive(Default)]
struct Waitlist {
    by_state: HashMap<String, Kept>,
    oldest: BTreeMap<u64, String>,
    by_client: HashMap<ClientKey, VecDeque<u64>>,
    next_order: u64,
}

impl Waitlist {
    fn forget(&mut self, state_hash: &str) -> Option<Kept> {
        let kept = self.by_state.remove(state_hash)?;
        self.oldest.remove(&kept.order);
        if let Some(orders) = self.by_client.get_mut(&kept.client) {
            orders.retain(|order| *order != kept.order);
            if orders.is_empty() {
                self.by_client.remove(&kept.client);
            }
        }
        Some(kept)
    }

    fn forget_order(&mut self, order: u64) {
        if let Some(state_hash) = self.oldest.get(&order).cloned() {
            self.forget(&state_hash);
        }
    }

    /// Those past [`TTL`]; they are kept oldest first, so a look at the
    /// front finds them all.
    fn forget_expired(&mut self) {
        while let Some((&order, state_hash)) = self.oldest.first_key_value() {
            let expired = self
                .by_state
                .get(state_hash)
                .is_none_or(|kept| kept.waiting.started.elapsed() >= TTL);
            if !expired {
                return;
            }
            let state_hash = state_hash.clone();
            if self.forget(&state_hash).is_none() {
                self.oldest.remove(&order);
            }
        }
    }

    fn keep(&mut self, state_hash: String, client: ClientKey, waiting: Waiting) {
        self.forget_expired();
        self.forget(&state_hash);
        let client_full = self
            .by_client
            .get(&client)
            .filter(|orders| orders.len() >= PER_CLIENT)
            .and_then(|orders| orders.front().copied());
        if let Some(order) = client_full {
            self.forget_order(order);
        }
        if self.by_state.len() >= MAX_WAITING {
            if let Some(order) = self.oldest.keys().next().copied() {
                self.forget_order(order);
            }
        }
        let order = self.next_order;
        self.next_order += 1;
        self.oldest.insert(order, state_hash.clone());
        self.by_client.entry(client).or_default().push_back(order);
        self.by_state.insert(
            state_hash,
            Kept {
                waiting,
                client,
                order,
            },
        );
    }
}

#[derive(Default)]
pub struct Pending {
    list: Mutex<Waitlist>,
}

impl Pending {
    fn list(&self) -> MutexGuard<'_, Waitlist> {
        self.list.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps a sign-in started from `client` under its state's hash,
    /// making room by forgetting older ones (see the module's notes).
    pub fn keep(&self, state_hash: String, client: ClientKey, waiting: Waiting) {
        self.list().keep(state_hash, client, waiting);
    }

    /// Takes the sign-in of a state, once: a second answer with the same
    /// state finds nothing. `None` when unknown, forgotten or older than
    /// [`TTL`].
    pub fn take(&self, state_hash: &str) -> Option<Waiting> {
        self.list()
            .forget(state_hash)
            .map(|kept| kept.waiting)
            .filter(|waiting| waiting.started.elapsed() < TTL)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.list().by_state.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{IpAddr, Ipv6Addr};

    fn waiting(browser: &str) -> Waiting {
        Waiting::new(
            browser.into(),
            Nonce::new("n".into()),
            PkceCodeVerifier::new("v".repeat(43)),
            "/tracker".into(),
            None,
        )
    }

    /// An address in the `n`th /64 of a /32.
    fn in_64(n: u32, host: u16) -> ClientKey {
        let bits = (0x2001_0db8_u128 << 96) | (u128::from(n) << 64) | u128::from(host);
        ClientKey::of(IpAddr::V6(Ipv6Addr::from(bits)))
    }

    fn here() -> ClientKey {
        ClientKey::of(IpAddr::from([192, 0, 2, 1]))
    }

    #[test]
    fn a_state_is_taken_once() {
        let pending = Pending::default();
        pending.keep("s1".into(), here(), waiting("b"));
        assert_eq!(pending.take("s1").map(|w| w.browser_hash), Some("b".into()));
        assert!(pending.take("s1").is_none());
        assert!(pending.take("unknown").is_none());
        assert_eq!(pending.len(), 0);
    }

    #[test]
    fn an_expired_state_is_not_taken() {
        let pending = Pending::default();
        let mut old = waiting("b");
        old.started = Instant::now()
            .checked_sub(TTL + Duration::from_secs(1))
            .unwrap();
        pending.keep("s1".into(), here(), old);
        assert!(pending.take("s1").is_none());
    }

    #[test]
    fn expired_sign_ins_make_room_before_anyone_is_forgotten() {
        let pending = Pending::default();
        let mut old = waiting("old");
        old.started = Instant::now()
            .checked_sub(TTL + Duration::from_secs(1))
            .unwrap();
        pending.keep("old".into(), here(), old);
        pending.keep("new".into(), here(), waiting("new"));
        assert_eq!(pending.len(), 1, "the expired one went first");
        assert!(pending.take("new").is_some());
    }

    #[test]
    fn filling_the_list_from_many_64s_never_stops_a_new_start() {
        let pending = Pending::default();
        // A few hundred /64s, each with more than its share.
        let mut n = 0;
        for net in 0..2_000 {
            for host in 0..(PER_CLIENT as u16 + 2) {
                pending.keep(format!("flood{n}"), in_64(net, host), waiting("x"));
                n += 1;
            }
        }
        assert_eq!(pending.len(), MAX_WAITING);
        // Someone else starts, and their sign-in is there to finish.
        let someone = ClientKey::of(IpAddr::from([198, 51, 100, 7]));
        pending.keep("mine".into(), someone, waiting("mine"));
        assert_eq!(pending.len(), MAX_WAITING);
        assert_eq!(
            pending.take("mine").map(|w| w.browser_hash),
            Some("mine".into())
        );
        // The flood's oldest gave way; its latest is still there.
        assert!(pending.take("flood0").is_none());
        assert!(pending.take(&format!("flood{}", n - 1)).is_some());
    }

    #[test]
    fn one_64_keeps_only_its_latest_few() {
        let pending = Pending::default();
        for host in 0..(PER_CLIENT as u16 + 3) {
            pending.keep(format!("s{host}"), in_64(1, host), waiting("x"));
        }
        assert_eq!(pending.len(), PER_CLIENT);
        for host in 0..3 {
            assert!(pending.take(&format!("s{host}")).is_none(), "s{host}");
        }
        for host in 3..(PER_CLIENT as u16 + 3) {
            assert!(pending.take(&format!("s{host}")).is_some(), "s{host}");
        }
        // Another /64 is counted apart.
        pending.keep("other".into(), in_64(2, 0), waiting("x"));
        assert!(pending.take("other").is_some());
    }
}
