//! The authenticator app of the tests: codes for a second factor's secret,
//! at the time the server sees.

use totp_rs::{Algorithm, Secret, TOTP};

use super::ADMIN_EMAIL;

/// An authenticator for `secret` (base32, as the enrolment shows it), set
/// up as the enrolment asks: SHA-1, 6 digits, 30 seconds.
pub fn authenticator(secret: &str) -> TOTP {
    let bytes = Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        30,
        bytes,
        Some("Tally".into()),
        ADMIN_EMAIL.into(),
    )
    .unwrap()
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}
