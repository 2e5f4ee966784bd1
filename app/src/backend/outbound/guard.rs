//! The guard itself: vet a URL (resolve once, check every address), build
//! a client pinned to what was vetted, read an answer up to a cap.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;

use super::error::{BodyError, Refused};
use super::rules::OutboundSettings;

/// How long resolving a host name may take.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest a connection may take to open, within the call's timeout.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The guard, cheap to clone; built once from the settings at start-up.
#[derive(Clone, Debug, Default)]
pub struct Outbound {
    settings: Arc<OutboundSettings>,
}

/// A URL the guard let through, and the only addresses it may reach.
#[derive(Clone, Debug)]
pub struct Vetted {
    url: Url,
    /// The host name to pin, `None` when the URL names an address.
    name: Option<String>,
    addresses: Vec<SocketAddr>,
}

impl Vetted {
    pub fn url(&self) -> &Url {
        &self.url
    }

    pub fn addresses(&self) -> &[SocketAddr] {
        &self.addresses
    }
}

impl Outbound {
    pub fn from_settings(settings: &OutboundSettings) -> Self {
        Self {
            settings: Arc::new(settings.clone()),
        }
    }

    /// Resolves the URL's host once and checks every address it gives;
    /// nothing is connected. Refused when any address is on a network the
    /// settings do not allow: a name resolving to one public and one private
    /// address is refused, not half-trusted.
    pub async fn vet(&self, url: &Url) -> Result<Vetted, Refused> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refused::Scheme);
        }
        let port = url.port_or_known_default().ok_or(Refused::Scheme)?;
        let host_text = url
            .host_str()
            .filter(|host| !host.is_empty())
            .ok_or(Refused::NoHost)?
            .to_owned();
        let (name, addresses) = self.vet_host(&host_text, port).await?;
        Ok(Vetted {
            url: url.clone(),
            name,
            addresses,
        })
    }

    /// [`Outbound::vet`] for a host and port that are not a URL (a mail
    /// server): the addresses to connect to, and the host name when it is
    /// one (for TLS).
    pub async fn vet_host(
        &self,
        host_text: &str,
        port: u16,
    ) -> Result<(Option<String>, Vec<SocketAddr>), Refused> {
        if host_text.is_empty() {
            return Err(Refused::NoHost);
        }
        // The url crate has already read every IPv4 spelling (decimal
        // `2130706433`, hex `0x7f.1`, octal) into dotted form, and an IPv6
        // host comes in brackets.
        let literal = host_text
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok();
        let (name, ips): (Option<String>, Vec<IpAddr>) = match literal {
            Some(ip) => (None, vec![ip]),
            None => {
                self.settings
                    .permits_name(host_text)
                    .map_err(Refused::Address)?;
                (Some(host_text.to_owned()), resolve(host_text, port).await?)
            }
        };
        for ip in &ips {
            self.settings
                .permits(host_text, *ip)
                .map_err(Refused::Address)?;
        }
        Ok((
            name,
            ips.into_iter()
                .map(|ip| SocketAddr::new(ip, port))
                .collect(),
        ))
    }

    /// A client that reaches only the vetted addresses (no lookup of its
    /// own, no proxy), follows no redirect and gives up after `timeout`.
    pub fn client_for(
        &self,
        vetted: &Vetted,
        timeout: Duration,
    ) -> Result<reqwest::Client, reqwest::Error> {
        let mut builder = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(CONNECT_TIMEOUT.min(timeout))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy();
        if let Some(name) = &vetted.name {
            builder = builder.resolve_to_addrs(name, &vetted.addresses);
        }
        builder.build()
    }
}

async fn resolve(name: &str, port: u16) -> Result<Vec<IpAddr>, Refused> {
    let found = tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((name, port)))
        .await
        .map_err(|_| Refused::Unresolvable)?
        .map_err(|_| Refused::Unresolvable)?;
    let mut ips: Vec<IpAddr> = found.map(|address| address.ip()).collect();
    ips.sort();
    ips.dedup();
    if ips.is_empty() {
        Err(Refused::Unresolvable)
    } else {
        Ok(ips)
    }
}

/// Reads an answer's body, chunk by chunk, and stops at `cap` bytes: a
/// larger answer is never held whole.
pub async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<Vec<u8>, BodyError> {
    if response
        .content_length()
        .is_some_and(|length| length > cap as u64)
    {
        return Err(BodyError::TooLarge(cap));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Cut)? {
        if body.len() + chunk.len() > cap {
            return Err(BodyError::TooLarge(cap));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A URL as a log line may show it: scheme, host and port; no credentials,
/// and no path or query (a setup token's claim path is a credential too).
pub fn redact(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{}://{host}:{port}", url.scheme()),
        (Some(host), None) => format!("{}://{host}", url.scheme()),
        _ => format!("{}://", url.scheme()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{AllowList, Class};
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[tokio::test]
    async fn every_spelling_of_this_machine_is_refused_before_connecting() {
        let guard = Outbound::default();
        for text in [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.1/",
            "http://127.1/",
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:7f00:1]/",
            "http://localhost/",
            "http://localhost./",
            "http://LocalHost:8080/",
            "http://api.localhost/",
            "https://0.0.0.0/",
            "http://0/",
        ] {
            let refused = guard.vet(&url(text)).await.unwrap_err();
            assert!(
                matches!(
                    refused,
                    Refused::Address(Class::Loopback | Class::Unspecified)
                ),
                "{text}: {refused:?}"
            );
        }
    }

    #[tokio::test]
    async fn private_metadata_and_other_networks_are_refused_in_every_spelling() {
        let guard = Outbound::default();
        let table = [
            ("http://169.254.169.254/latest/meta-data/", Class::Metadata),
            ("http://2852039166/", Class::Metadata),
            ("http://[::ffff:a9fe:a9fe]/", Class::Metadata),
            ("http://[fd00:ec2::254]/", Class::Metadata),
            ("http://[fd00::1]/", Class::UniqueLocal),
            ("http://[fe80::1]/", Class::LinkLocal),
            ("http://100.64.0.1/", Class::SharedCgnat),
            ("http://10.0.0.1/", Class::Private),
            ("http://0xa.0.0.1/", Class::Private),
            ("http://192.168.0.1:8443/", Class::Private),
            ("http://[::ffff:192.168.0.1]/", Class::Private),
            ("http://224.0.0.1/", Class::Multicast),
            ("http://[ff02::1]/", Class::Multicast),
        ];
        for (text, class) in table {
            assert_eq!(
                guard.vet(&url(text)).await.unwrap_err(),
                Refused::Address(class),
                "{text}"
            );
        }
        assert_eq!(
            guard.vet(&url("ftp://8.8.8.8/")).await.unwrap_err(),
            Refused::Scheme
        );
    }

    #[test]
    fn the_url_crate_reads_numeric_ipv4_spellings_as_addresses() {
        for text in [
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.01/",
            "http://127.1/",
        ] {
            assert_eq!(url(text).host_str(), Some("127.0.0.1"), "{text}");
        }
    }

    #[tokio::test]
    async fn public_addresses_pass_and_allowed_ones_are_pinned() {
        let guard = Outbound::default();
        let vetted = guard
            .vet(&url("https://93.184.216.34:8443/x"))
            .await
            .unwrap();
        assert_eq!(vetted.addresses(), &["93.184.216.34:8443".parse().unwrap()]);

        let allowed = Outbound::from_settings(&OutboundSettings {
            allow_private: false,
            allowed: AllowList::parse("127.0.0.1").unwrap(),
        });
        let vetted = allowed.vet(&url("http://127.0.0.1:9/")).await.unwrap();
        assert_eq!(vetted.addresses(), &["127.0.0.1:9".parse().unwrap()]);
        // A name resolving to a listed address passes too (localhost via
        // /etc/hosts may also give ::1, which is not listed: refused).
        let by_name = allowed.vet(&url("http://localhost:9/")).await;
        assert!(by_name.is_err(), "{by_name:?}");
        let named = Outbound::from_settings(&OutboundSettings {
            allow_private: false,
            allowed: AllowList::parse("localhost").unwrap(),
        });
        let vetted = named.vet(&url("http://localhost:9/")).await.unwrap();
        assert!(vetted.addresses().iter().all(|a| a.ip().is_loopback()));
        assert!(named.client_for(&vetted, Duration::from_secs(1)).is_ok());
    }

    #[test]
    fn a_redacted_url_keeps_no_credentials_path_or_query() {
        let shown = redact(&url(
            "https://user:s3cret@bridge.example.com:8443/claim/TOKEN?x=1",
        ));
        assert_eq!(shown, "https://bridge.example.com:8443");
    }
}
