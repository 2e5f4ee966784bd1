//! Who the client is. Behind a reverse proxy every request comes from the
//! proxy, so the proxy's `X-Forwarded-For` / `X-Forwarded-Proto` say who and
//! how; but anyone can send those headers, so they count only when the
//! direct peer is a proxy listed in `TRUSTED_PROXIES`.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::backend::outbound::Network;
use crate::backend::services::Services;

/// The proxies whose forwarding headers are believed (`TRUSTED_PROXIES`),
/// and the first peer seen sending `X-Forwarded-For` without being one.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Vec<Network>, Arc<OnceLock<UntrustedForwarder>>);

/// A peer that sent `X-Forwarded-For` though `TRUSTED_PROXIES` does not
/// list it: most likely a reverse proxy nobody declared, behind which every
/// client shares the proxy's address and so its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UntrustedForwarder {
    pub peer: IpAddr,
    /// When it was first seen (RFC 3339, UTC).
    pub at: String,
}

impl PartialEq for TrustedProxies {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for TrustedProxies {}

impl TrustedProxies {
    /// A comma-separated list of addresses and networks.
    pub fn parse(text: &str) -> Result<Self, String> {
        text.split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(Network::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(|networks| Self(networks, Arc::default()))
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|network| network.contains(ip))
    }

    /// The client behind `peer`: walking `X-Forwarded-For` from the right,
    /// the first address that is not a trusted proxy.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            if headers.contains_key("x-forwarded-for") {
                self.note_untrusted(peer);
            }
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .filter_map(|part| part.trim().parse().ok())
            .collect();
        let mut client = peer;
        for hop in forwarded.into_iter().rev() {
            client = hop;
            if !self.trusts(hop) {
                break;
            }
        }
        client
    }

    /// Whether the client reached the proxy over plain HTTP (only a trusted
    /// proxy's word counts).
    /// Remembers the first untrusted peer that forwarded, and warns once.
    fn note_untrusted(&self, peer: IpAddr) {
        if self.1.get().is_some() {
            return;
        }
        let seen = UntrustedForwarder {
            peer,
            at: jiff::Timestamp::now()
                .strftime("%Y-%m-%dT%H:%M:%SZ")
                .to_string(),
        };
        if self.1.set(seen).is_ok() {
            tracing::warn!(
                %peer,
                "requests arrive with X-Forwarded-For from {peer}, which TRUSTED_PROXIES does not list: every client behind it shares that one address's rate limits; set TRUSTED_PROXIES to the proxy's address"
            );
        }
    }

    /// The first untrusted peer seen forwarding, if any (Admin → Status).
    pub fn untrusted_forwarder(&self) -> Option<&UntrustedForwarder> {
        self.1.get()
    }

    pub fn forwarded_plain_http(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        self.trusts(peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.split(',').next())
                .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("http"))
    }
}

/// The client's IP address, for rate limits and the stored submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The client of a request that came from `peer` (the loopback address
    /// when the server was not told, as in tests driving the router).
    pub fn of(proxies: &TrustedProxies, peer: Option<SocketAddr>, headers: &HeaderMap) -> Self {
        let peer = peer.map_or(IpAddr::from([127, 0, 0, 1]), |addr| addr.ip());
        Self(proxies.client_ip(peer, headers))
    }
}

impl<S> FromRequestParts<S> for ClientIp
where
    Arc<Services>: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| *addr);
        let services = Arc::<Services>::from_ref(state);
        Ok(Self::of(&services.trusted_proxies, peer, &parts.headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untrusted_peer_forwarding_is_noted_once() {
        let trusted = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let plain = HeaderMap::new();
        trusted.client_ip("203.0.113.9".parse().unwrap(), &plain);
        assert_eq!(
            trusted.untrusted_forwarder(),
            None,
            "no header, nothing to say"
        );
        let proxy: IpAddr = "192.0.2.50".parse().unwrap();
        assert_eq!(trusted.client_ip(proxy, &headers("198.51.100.7")), proxy);
        let clone = trusted.clone();
        clone.client_ip("192.0.2.51".parse().unwrap(), &headers("198.51.100.8"));
        let seen = trusted.untrusted_forwarder().unwrap();
        assert_eq!(seen.peer, proxy, "the first one, shared by every clone");
        trusted.client_ip("10.1.1.1".parse().unwrap(), &headers("198.51.100.9"));
        assert_eq!(trusted.untrusted_forwarder().unwrap().peer, proxy);
    }

    fn headers(xff: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", xff.parse().unwrap());
        headers
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let trusted = TrustedProxies::parse("10.0.0.0/8, 192.0.2.7").unwrap();
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        assert_eq!(trusted.client_ip(stranger, &headers("1.2.3.4")), stranger);
        assert_eq!(
            trusted.client_ip(proxy, &headers("1.2.3.4")),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        // A client cannot hide behind a forged left-most entry.
        assert_eq!(
            trusted.client_ip(proxy, &headers("6.6.6.6, 1.2.3.4, 192.0.2.7")),
            "1.2.3.4".parse::<IpAddr>().unwrap()
        );
        assert_eq!(trusted.client_ip(proxy, &HeaderMap::new()), proxy);
    }

    #[test]
    fn networks_parse_and_match() {
        let trusted = TrustedProxies::parse("172.16.0.0/12,::1").unwrap();
        assert!(trusted.trusts("172.31.255.1".parse().unwrap()));
        assert!(!trusted.trusts("172.32.0.1".parse().unwrap()));
        assert!(trusted.trusts("::1".parse().unwrap()));
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.local").is_err());
        assert_eq!(
            TrustedProxies::parse("").unwrap(),
            TrustedProxies::default()
        );
    }
}
