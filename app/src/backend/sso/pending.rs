//! Sign-ins waiting for the provider's answer, kept in memory for ten
//! minutes: the state (by its hash), the nonce and PKCE verifier, where to
//! go after, and the browser that started it (by the hash of its cookie).
//! A restart forgets them; the person starts again.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use openidconnect::{Nonce, PkceCodeVerifier};

/// How long the provider's answer may take.
pub const TTL: Duration = Duration::from_secs(10 * 60);
/// At most this many wait at once (the start limit keeps one address far
/// below it).
const MAX_WAITING: usize = 10_000;

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

#[derive(Default)]
pub struct Pending {
    by_state: Mutex<HashMap<String, Waiting>>,
}

impl Pending {
    fn map(&self) -> MutexGuard<'_, HashMap<String, Waiting>> {
        self.by_state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps a sign-in under its state's hash; `false` when too many wait.
    pub fn keep(&self, state_hash: String, waiting: Waiting) -> bool {
        let mut map = self.map();
        if map.len() >= MAX_WAITING {
            map.retain(|_, waiting| waiting.started.elapsed() < TTL);
            if map.len() >= MAX_WAITING {
                return false;
            }
        }
        map.insert(state_hash, waiting);
        true
    }

    /// Takes the sign-in of a state, once: a second answer with the same
    /// state finds nothing. `None` when unknown or older than [`TTL`].
    pub fn take(&self, state_hash: &str) -> Option<Waiting> {
        self.map()
            .remove(state_hash)
            .filter(|waiting| waiting.started.elapsed() < TTL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(browser: &str) -> Waiting {
        Waiting::new(
            browser.into(),
            Nonce::new("n".into()),
            PkceCodeVerifier::new("v".repeat(43)),
            "/tracker".into(),
            None,
        )
    }

    #[test]
    fn a_state_is_taken_once() {
        let pending = Pending::default();
        assert!(pending.keep("s1".into(), waiting("b")));
        assert_eq!(pending.take("s1").map(|w| w.browser_hash), Some("b".into()));
        assert!(pending.take("s1").is_none());
        assert!(pending.take("unknown").is_none());
    }

    #[test]
    fn an_expired_state_is_not_taken() {
        let pending = Pending::default();
        let mut old = waiting("b");
        old.started = Instant::now()
            .checked_sub(TTL + Duration::from_secs(1))
            .unwrap();
        pending.keep("s1".into(), old);
        assert!(pending.take("s1").is_none());
    }
}
