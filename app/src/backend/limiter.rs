//! What the in-memory rate limiters (sign-in, public forms, `burst_limit`)
//! share: the key a client address counts under, and the timer that
//! forgets idle keys.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often idle keys are dropped: often enough that memory follows the
/// clients of the last minutes, rarely enough that the scan costs nothing.
pub const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// The client a per-address limit counts: an IPv4 address as it is (an
/// IPv4-mapped IPv6 address counts as its IPv4 address), an IPv6 address by
/// its /64. One customer line or host gets a whole /64, so counting single
/// IPv6 addresses would let a client walk past any limit by changing the
/// low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Self(IpAddr::V4(v4)),
                None => {
                    let net = u128::from(v6) & (u128::MAX << 64);
                    Self(IpAddr::V6(Ipv6Addr::from(net)))
                }
            },
        }
    }
}

impl From<IpAddr> for ClientKey {
    fn from(ip: IpAddr) -> Self {
        Self::of(ip)
    }
}

/// Calls `prune` on `limiter` every `every` until the limiter is dropped.
/// The task holds only a weak reference, so it never keeps a limiter alive.
pub fn spawn_pruning<T: Send + Sync + 'static>(limiter: &Arc<T>, every: Duration, prune: fn(&T)) {
    let weak: Weak<T> = Arc::downgrade(limiter);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The first tick is immediate; nothing is idle yet.
        ticks.tick().await;
        loop {
            ticks.tick().await;
            let Some(limiter) = weak.upgrade() else {
                return;
            };
            prune(&limiter);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> ClientKey {
        ClientKey::of(text.parse().unwrap())
    }

    #[test]
    fn ipv6_counts_by_its_64_and_ipv4_as_it_is() {
        assert_eq!(key("2001:db8::1"), key("2001:db8::2"));
        assert_eq!(key("2001:db8::1"), key("2001:db8:0:0:ffff:ffff:ffff:ffff"));
        assert_ne!(key("2001:db8::1"), key("2001:db8:0:1::1"));
        assert_ne!(key("192.0.2.1"), key("192.0.2.2"));
        assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
        assert_ne!(key("::ffff:192.0.2.1"), key("::ffff:192.0.2.2"));
    }

    #[tokio::test]
    async fn pruning_stops_when_the_limiter_is_dropped() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let limiter = Arc::new(AtomicUsize::new(0));
        spawn_pruning(&limiter, Duration::from_millis(5), |count| {
            count.fetch_add(1, Ordering::SeqCst);
        });
        while limiter.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let weak = Arc::downgrade(&limiter);
        drop(limiter);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            weak.upgrade().is_none(),
            "the task holds no strong reference"
        );
    }
}
