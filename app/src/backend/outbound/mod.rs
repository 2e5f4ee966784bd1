//! The one outbound guard. Every request Tally makes to an address a user
//! or an administrator typed goes through it: the SimpleFIN provider now,
//! notification channels (webhooks, ntfy, Gotify) and OpenID Connect next.
//!
//! Use it in three steps: [`Outbound::vet`] resolves the URL's host once and
//! refuses loopback, private, link-local, unique-local, CGNAT, multicast,
//! reserved and cloud-metadata addresses in every spelling, translated
//! IPv6 forms included (all but the metadata services may be allowed by
//! the administrator: `OUTBOUND_ALLOW_PRIVATE`,
//! `OUTBOUND_ALLOWED_HOSTS`); [`Outbound::client_for`] builds a client that
//! connects only to the vetted addresses (no second lookup, so no DNS
//! rebinding), follows no redirect, uses no proxy and times out; and
//! [`read_capped`] reads the answer up to a byte cap. Nothing is connected
//! before `vet` said yes. [`redact`] gives the form of a URL fit for a log
//! line (no credentials, no path or query, which can carry a token).

mod error;
mod guard;
mod rules;

pub use error::{BodyError, Refused};
pub use guard::{read_capped, redact, Outbound, Vetted};
pub use rules::{classify, AllowList, Class, Network, OutboundSettings};
