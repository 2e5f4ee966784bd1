//! Pure decisions: which network an address belongs to, and whether the
//! administrator's settings let Tally call it. No I/O here; the guard
//! resolves and asks.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A network Tally does not call unless an administrator allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `localhost`, 127.0.0.0/8, ::1.
    Loopback,
    /// 0.0.0.0/8 and ::, which reach this machine.
    Unspecified,
    /// 10/8, 172.16/12, 192.168/16.
    Private,
    /// 100.64.0.0/10, carrier-grade NAT (and some clouds' internal services).
    SharedCgnat,
    /// 169.254.0.0/16, fe80::/10.
    LinkLocal,
    /// fc00::/7 (and the deprecated site-local fec0::/10).
    UniqueLocal,
    /// 224.0.0.0/4, 255.255.255.255, ff00::/8.
    Multicast,
    /// A cloud provider's instance-metadata service (169.254.169.254,
    /// 100.100.100.200, fd00:ec2::254): never called on a blanket allow.
    Metadata,
    /// Documentation, benchmarking, protocol-assignment and reserved
    /// ranges: no real service lives there.
    Reserved,
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Loopback => "a loopback address",
            Self::Unspecified => "an unspecified (this-host) address",
            Self::Private => "a private-network address",
            Self::SharedCgnat => "a shared (CGNAT) address",
            Self::LinkLocal => "a link-local address",
            Self::UniqueLocal => "a unique-local address",
            Self::Multicast => "a multicast or broadcast address",
            Self::Metadata => "a cloud metadata address",
            Self::Reserved => "a reserved address",
        })
    }
}

/// A network: an address and how many leading bits must match. An IPv4
/// network also holds the IPv4-mapped IPv6 spellings of its addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl Network {
    /// `10.0.0.0/8`, `fd00::/8`, or one address (`192.168.1.10`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let address: IpAddr = address
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or network like 10.0.0.0/8"))?;
        let max = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|prefix| *prefix <= max)
                .ok_or_else(|| format!("{text:?} has a prefix length outside 0–{max}"))?,
            None => max,
        };
        Ok(Self { address, prefix })
    }

    const fn v4(a: u8, b: u8, c: u8, d: u8, prefix: u8) -> Self {
        Self {
            address: IpAddr::V4(Ipv4Addr::new(a, b, c, d)),
            prefix,
        }
    }

    const fn v6(bits: u128, prefix: u8) -> Self {
        Self {
            address: IpAddr::V6(Ipv6Addr::from_bits(bits)),
            prefix,
        }
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.address, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is the IPv4 address it
/// maps: the kernel connects to that.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// The IPv4 address an IPv6 address carries inside where a translator or
/// tunnel would reach it: IPv4-compatible `::a.b.c.d` (deprecated, but
/// some stacks still route it), NAT64 `64:ff9b::/96` (the last 32 bits)
/// and 6to4 `2002::/16` (bits 16 to 48). The local-use NAT64 prefix
/// `64:ff9b:1::/48` may carry it anywhere (RFC 6052 lets a translator
/// choose), so it is refused whole as a range instead (`V6_RANGES`).
fn embedded_v4(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = v6.to_bits();
    let low = Ipv4Addr::from_bits((bits & 0xffff_ffff) as u32);
    if bits >> 32 == 0 && bits > 1 {
        return Some(low);
    }
    if bits >> 32 == 0x0064_ff9b_0000_0000_0000_0000 {
        return Some(low);
    }
    if bits >> 112 == 0x2002 {
        return Some(Ipv4Addr::from_bits(((bits >> 80) & 0xffff_ffff) as u32));
    }
    None
}

/// The IPv4 addresses a local-use NAT64 address (`64:ff9b:1::/48`, RFC
/// 8215) may carry. RFC 6052 places it by the length of the prefix the
/// translator was given inside this /48 (/48, /56, /64 or /96), always
/// skipping bits 64 to 72; which one a network uses is not in the address.
fn local_use_v4s(v6: Ipv6Addr) -> Option<[Ipv4Addr; 4]> {
    if v6.to_bits() >> 80 != 0x0064_ff9b_0001 {
        return None;
    }
    let o = v6.octets();
    Some([
        Ipv4Addr::new(o[6], o[7], o[9], o[10]),
        Ipv4Addr::new(o[7], o[9], o[10], o[11]),
        Ipv4Addr::new(o[9], o[10], o[11], o[12]),
        Ipv4Addr::new(o[12], o[13], o[14], o[15]),
    ])
}

const METADATA: [Network; 3] = [
    Network::v4(169, 254, 169, 254, 32),
    Network::v4(100, 100, 100, 200, 32),
    Network::v6(0xfd00_0ec2_0000_0000_0000_0000_0000_0254, 128),
];

const V4_RANGES: [(Network, Class); 15] = [
    (Network::v4(0, 0, 0, 0, 8), Class::Unspecified),
    (Network::v4(10, 0, 0, 0, 8), Class::Private),
    (Network::v4(100, 64, 0, 0, 10), Class::SharedCgnat),
    (Network::v4(127, 0, 0, 0, 8), Class::Loopback),
    (Network::v4(169, 254, 0, 0, 16), Class::LinkLocal),
    (Network::v4(172, 16, 0, 0, 12), Class::Private),
    (Network::v4(192, 0, 0, 0, 24), Class::Reserved),
    (Network::v4(192, 0, 2, 0, 24), Class::Reserved),
    (Network::v4(192, 88, 99, 0, 24), Class::Reserved),
    (Network::v4(192, 168, 0, 0, 16), Class::Private),
    (Network::v4(198, 18, 0, 0, 15), Class::Reserved),
    (Network::v4(198, 51, 100, 0, 24), Class::Reserved),
    (Network::v4(203, 0, 113, 0, 24), Class::Reserved),
    (Network::v4(224, 0, 0, 0, 4), Class::Multicast),
    // 240/4 holds 255.255.255.255 too; the broadcast reads as multicast.
    (Network::v4(240, 0, 0, 0, 4), Class::Reserved),
];

const V6_RANGES: [(Network, Class); 9] = [
    (Network::v6(0, 128), Class::Unspecified),
    (Network::v6(1, 128), Class::Loopback),
    (
        Network::v6(0x0100_0000_0000_0000_0000_0000_0000_0000, 64),
        Class::Reserved,
    ),
    // RFC 8215: translators of one's own network, whatever IPv4 they reach.
    (
        Network::v6(0x0064_ff9b_0001_0000_0000_0000_0000_0000, 48),
        Class::Private,
    ),
    (
        Network::v6(0x2001_0db8_0000_0000_0000_0000_0000_0000, 32),
        Class::Reserved,
    ),
    (
        Network::v6(0xfc00_0000_0000_0000_0000_0000_0000_0000, 7),
        Class::UniqueLocal,
    ),
    (
        Network::v6(0xfe80_0000_0000_0000_0000_0000_0000_0000, 10),
        Class::LinkLocal,
    ),
    (
        Network::v6(0xfec0_0000_0000_0000_0000_0000_0000_0000, 10),
        Class::UniqueLocal,
    ),
    (
        Network::v6(0xff00_0000_0000_0000_0000_0000_0000_0000, 8),
        Class::Multicast,
    ),
];

/// The network an address belongs to, `None` for a public address.
pub fn classify(ip: IpAddr) -> Option<Class> {
    let ip = canonical(ip);
    if METADATA.iter().any(|network| network.contains(ip)) {
        return Some(Class::Metadata);
    }
    match ip {
        IpAddr::V4(v4) => {
            if v4 == Ipv4Addr::BROADCAST {
                return Some(Class::Multicast);
            }
            V4_RANGES
                .iter()
                .find(|(network, _)| network.contains(ip))
                .map(|(_, class)| *class)
                // std's own view, in case a range is missing above.
                .or_else(|| (v4.is_private()).then_some(Class::Private))
                .or_else(|| (v4.is_loopback()).then_some(Class::Loopback))
                .or_else(|| (v4.is_link_local()).then_some(Class::LinkLocal))
                .or_else(|| (v4.is_multicast()).then_some(Class::Multicast))
        }
        IpAddr::V6(v6) => {
            if let Some(inner) = embedded_v4(v6) {
                if let Some(class) = classify(IpAddr::V4(inner)) {
                    return Some(class);
                }
            }
            // The whole range is refused below (as private); the metadata
            // service through it stays refused even when private ones
            // are allowed.
            if local_use_v4s(v6).is_some_and(|inner| {
                inner
                    .iter()
                    .any(|v4| classify(IpAddr::V4(*v4)) == Some(Class::Metadata))
            }) {
                return Some(Class::Metadata);
            }
            V6_RANGES
                .iter()
                .find(|(network, _)| network.contains(ip))
                .map(|(_, class)| *class)
                .or_else(|| (v6.is_loopback()).then_some(Class::Loopback))
                .or_else(|| (v6.is_unspecified()).then_some(Class::Unspecified))
                .or_else(|| (v6.is_multicast()).then_some(Class::Multicast))
                .or_else(|| (v6.is_unique_local()).then_some(Class::UniqueLocal))
                .or_else(|| (v6.is_unicast_link_local()).then_some(Class::LinkLocal))
        }
    }
}

/// A host name that means this machine whatever DNS says: `localhost`,
/// any `*.localhost` (RFC 6761), with or without the final dot.
pub fn is_local_name(host: &str) -> bool {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name == "localhost.localdomain"
        || name == "ip6-localhost"
        || name == "ip6-loopback"
}

/// What an administrator allowed besides public addresses
/// (`OUTBOUND_ALLOWED_HOSTS`): host names (matched as typed, without the
/// final dot, case-insensitively) and addresses or CIDR networks (matched
/// against every address a host resolves to).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowList {
    hosts: Vec<String>,
    networks: Vec<Network>,
}

impl AllowList {
    /// A comma-separated list: `ntfy.lan, 192.168.1.10, 10.0.0.0/8, fd00::/8`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut list = Self::default();
        for part in text
            .split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
        {
            let looks_like_address = part.contains('/')
                || part.contains(':')
                || part.parse::<IpAddr>().is_ok()
                || part.chars().all(|c| c.is_ascii_digit() || c == '.');
            if looks_like_address {
                list.networks.push(Network::parse(part)?);
            } else if part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_')
            {
                list.hosts
                    .push(part.trim_end_matches('.').to_ascii_lowercase());
            } else {
                return Err(format!(
                    "{part:?} is neither a host name, an address nor a network like 10.0.0.0/8"
                ));
            }
        }
        Ok(list)
    }

    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty() && self.networks.is_empty()
    }

    fn names(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.hosts.contains(&host)
    }

    fn holds(&self, ip: IpAddr) -> bool {
        self.networks.iter().any(|network| network.contains(ip))
    }
}

/// The administrator's choices: `OUTBOUND_ALLOW_PRIVATE` lets every
/// non-public address through, `OUTBOUND_ALLOWED_HOSTS` the hosts and
/// networks it lists. Neither lets a cloud metadata service through: no
/// feature of Tally calls one, and its answer holds the machine's
/// credentials, so an allowed name that resolves to it (or a network
/// around it) must not open it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutboundSettings {
    pub allow_private: bool,
    pub allowed: AllowList,
}

impl OutboundSettings {
    /// Whether the URL's host as typed is one the administrator listed.
    pub fn names(&self, host: &str) -> bool {
        self.allowed.names(host)
    }

    /// `Err(class)` when `ip`, reached through the host `host`, is refused.
    pub fn permits(&self, host: &str, ip: IpAddr) -> Result<(), Class> {
        let Some(class) = classify(ip) else {
            return Ok(());
        };
        if class == Class::Metadata {
            return Err(class);
        }
        if self.allowed.names(host) || self.allowed.holds(ip) {
            return Ok(());
        }
        if self.allow_private && class != Class::Metadata {
            return Ok(());
        }
        Err(class)
    }

    /// `Err` when the host name alone says "this machine" (`localhost.`).
    pub fn permits_name(&self, host: &str) -> Result<(), Class> {
        if is_local_name(host) && !self.allow_private && !self.allowed.names(host) {
            Err(Class::Loopback)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn every_non_public_range_is_classified() {
        let table: &[(&str, Option<Class>)] = &[
            ("127.0.0.1", Some(Class::Loopback)),
            ("127.255.255.254", Some(Class::Loopback)),
            ("0.0.0.0", Some(Class::Unspecified)),
            ("0.1.2.3", Some(Class::Unspecified)),
            ("10.0.0.1", Some(Class::Private)),
            ("172.16.0.1", Some(Class::Private)),
            ("172.31.255.255", Some(Class::Private)),
            ("192.168.1.1", Some(Class::Private)),
            ("100.64.0.1", Some(Class::SharedCgnat)),
            ("100.127.255.255", Some(Class::SharedCgnat)),
            ("169.254.0.1", Some(Class::LinkLocal)),
            ("169.254.169.254", Some(Class::Metadata)),
            ("100.100.100.200", Some(Class::Metadata)),
            ("224.0.0.1", Some(Class::Multicast)),
            ("239.255.255.250", Some(Class::Multicast)),
            ("255.255.255.255", Some(Class::Multicast)),
            ("240.0.0.1", Some(Class::Reserved)),
            ("192.0.2.1", Some(Class::Reserved)),
            ("198.18.0.1", Some(Class::Reserved)),
            ("::1", Some(Class::Loopback)),
            ("::", Some(Class::Unspecified)),
            ("fd00::1", Some(Class::UniqueLocal)),
            ("fc00::1", Some(Class::UniqueLocal)),
            ("fe80::1", Some(Class::LinkLocal)),
            ("febf::1", Some(Class::LinkLocal)),
            ("fec0::1", Some(Class::UniqueLocal)),
            ("ff02::1", Some(Class::Multicast)),
            ("fd00:ec2::254", Some(Class::Metadata)),
            ("2001:db8::1", Some(Class::Reserved)),
            ("::ffff:127.0.0.1", Some(Class::Loopback)),
            ("::ffff:10.1.2.3", Some(Class::Private)),
            ("::ffff:169.254.169.254", Some(Class::Metadata)),
            ("::127.0.0.1", Some(Class::Loopback)),
            ("64:ff9b::a9fe:a9fe", Some(Class::Metadata)),
            ("64:ff9b::8.8.8.8", None),
            ("2002:7f00:1::", Some(Class::Loopback)),
            ("2002:c0a8:101::1", Some(Class::Private)),
            ("2002:a9fe:a9fe::", Some(Class::Metadata)),
            ("2002:808:808::1", None),
            ("64:ff9b::10.0.0.1", Some(Class::Private)),
            ("64:ff9b::127.0.0.1", Some(Class::Loopback)),
            ("64:ff9b::100.100.100.200", Some(Class::Metadata)),
            // Local-use NAT64 (RFC 8215) is the operator's own network,
            // whatever it embeds; the metadata service in any RFC 6052
            // place stays the metadata service.
            ("64:ff9b:1::8.8.8.8", Some(Class::Private)),
            ("64:ff9b:1:ffff::1", Some(Class::Private)),
            ("64:ff9b:1::169.254.169.254", Some(Class::Metadata)),
            ("64:ff9b:1:a9fe:a9:fea9::", Some(Class::Metadata)),
            ("64:ff9b:1:0:a9:fea9:fe00:0", Some(Class::Metadata)),
            ("64:ff9b:2::1", None),
            // Public addresses, just beside the ranges.
            ("8.8.8.8", None),
            ("1.1.1.1", None),
            ("100.63.255.255", None),
            ("100.128.0.0", None),
            ("172.15.255.255", None),
            ("172.32.0.0", None),
            ("169.253.255.255", None),
            ("11.0.0.1", None),
            ("2606:4700:4700::1111", None),
            ("2a00:1450:4001::200e", None),
            ("fe00::1", None),
        ];
        for (text, expected) in table {
            assert_eq!(classify(ip(text)), *expected, "{text}");
        }
    }

    #[test]
    fn local_names_are_local_in_every_spelling() {
        for name in [
            "localhost",
            "LOCALHOST",
            "localhost.",
            "api.localhost",
            "x.Localhost.",
        ] {
            assert!(is_local_name(name), "{name}");
        }
        for name in ["localhost.example.com", "notlocalhost", "example.com"] {
            assert!(!is_local_name(name), "{name}");
        }
    }

    #[test]
    fn the_allow_list_takes_names_addresses_and_networks() {
        let list = AllowList::parse(" ntfy.lan., 192.168.1.10, 10.0.0.0/8 , fd00::/8,").unwrap();
        let settings = OutboundSettings {
            allow_private: false,
            allowed: list,
        };
        assert!(settings.permits("NTFY.LAN", ip("192.168.7.7")).is_ok());
        assert!(settings.permits("x", ip("192.168.1.10")).is_ok());
        assert!(settings.permits("x", ip("::ffff:192.168.1.10")).is_ok());
        assert_eq!(
            settings.permits("x", ip("192.168.1.11")),
            Err(Class::Private)
        );
        assert!(settings.permits("x", ip("10.9.9.9")).is_ok());
        assert!(settings.permits("x", ip("fd12::1")).is_ok());
        assert_eq!(settings.permits("x", ip("127.0.0.1")), Err(Class::Loopback));
        assert!(settings.permits("x", ip("93.184.216.34")).is_ok());
        assert!(AllowList::parse("10.0.0.0/33").is_err());
        assert!(AllowList::parse("http://x").is_err());
        assert!(AllowList::parse("").unwrap().is_empty());
    }

    #[test]
    fn a_blanket_allow_still_keeps_the_metadata_service_out() {
        let settings = OutboundSettings {
            allow_private: true,
            allowed: AllowList::default(),
        };
        assert!(settings.permits("x", ip("127.0.0.1")).is_ok());
        assert!(settings.permits_name("localhost").is_ok());
        assert_eq!(
            settings.permits("x", ip("169.254.169.254")),
            Err(Class::Metadata)
        );
        assert_eq!(
            settings.permits("x", ip("64:ff9b:1::a9fe:a9fe")),
            Err(Class::Metadata)
        );
        assert!(settings.permits("x", ip("64:ff9b:1::a00:1")).is_ok());
        assert_eq!(
            OutboundSettings::default().permits_name("localhost."),
            Err(Class::Loopback)
        );
    }

    #[test]
    fn no_allow_list_lets_a_metadata_service_through() {
        let listed = OutboundSettings {
            allow_private: true,
            allowed: AllowList::parse(
                "metadata.lan, 169.254.169.254, 100.100.100.200, fd00:ec2::254, \
                 169.254.0.0/16, 100.64.0.0/10, fd00::/8, 64:ff9b::/96",
            )
            .unwrap(),
        };
        for address in [
            "169.254.169.254",
            "100.100.100.200",
            "fd00:ec2::254",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:a9fe:a9fe::1",
        ] {
            assert_eq!(
                listed.permits("metadata.lan", ip(address)),
                Err(Class::Metadata),
                "{address} by an allowed name"
            );
            assert_eq!(
                listed.permits("x", ip(address)),
                Err(Class::Metadata),
                "{address} in an allowed network"
            );
        }
        // The rest of those networks stays allowed.
        assert!(listed.permits("metadata.lan", ip("169.254.1.1")).is_ok());
        assert!(listed.permits("x", ip("fd00:ec2::253")).is_ok());
        assert!(listed.permits("x", ip("64:ff9b::a00:1")).is_ok());
    }

    #[test]
    fn translated_private_addresses_are_refused_unless_allowed() {
        let strict = OutboundSettings::default();
        for (address, class) in [
            ("64:ff9b::c0a8:101", Class::Private),
            ("64:ff9b::7f00:1", Class::Loopback),
            ("64:ff9b:1::1", Class::Private),
            ("2002:a00:1::1", Class::Private),
            ("2002:6440:1::", Class::SharedCgnat),
        ] {
            assert_eq!(strict.permits("x", ip(address)), Err(class), "{address}");
        }
        assert!(strict.permits("x", ip("64:ff9b::808:808")).is_ok());
        assert!(strict.permits("x", ip("2002:808:808::")).is_ok());
    }
}
