//! Why the guard refused an address, and why an answer could not be read.
//! The texts are for logs and for the feature to turn into its own words;
//! none carries a URL or a credential.

use super::rules::Class;

/// Why an address was refused before any connection was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("only http and https addresses can be called")]
    Scheme,
    #[error("the address names no host")]
    NoHost,
    #[error("the host name could not be resolved")]
    Unresolvable,
    /// The host is, or resolves to, an address of a network Tally does not
    /// call unless an administrator allowed it (a cloud metadata service:
    /// not even then).
    #[error("the address is {0}, which Tally does not call{unless}", unless = unless_allowed(.0))]
    Address(Class),
}

fn unless_allowed(class: &Class) -> &'static str {
    if *class == Class::Metadata {
        ", whatever an administrator allows"
    } else {
        " unless an administrator allows it (OUTBOUND_ALLOW_PRIVATE, OUTBOUND_ALLOWED_HOSTS)"
    }
}

/// Why an answer's body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("the answer is larger than {0} bytes")]
    TooLarge(usize),
    #[error("the answer was cut off: {0}")]
    Cut(#[source] reqwest::Error),
}
