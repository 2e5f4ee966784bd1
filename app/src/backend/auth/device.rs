//! Device cookies (OWASP's defence against account lockout): a browser that
//! signed in to an account successfully gets a cookie, sealed by this
//! server, that names the account and a random device id. With it, that
//! browser's attempts count against its own small bucket rather than the
//! account's ceiling, so a stranger hammering the account from elsewhere
//! cannot keep its owner out. Without it (a new browser) the owner is still
//! counted per account and address, which a stranger at another address
//! does not share (`throttle`).

use std::time::{SystemTime, UNIX_EPOCH};

use rand::RngCore;

use super::throttle::AccountKey;
use crate::backend::secrets::Keyring;

/// What the cookie is sealed for (a sealed value for anything else does
/// not open as one).
const CONTEXT: &str = "tally_device cookie";
/// How long a browser stays known after its last successful sign-in.
pub const LIFETIME_DAYS: i64 = 180;

/// A browser known to have signed in to one account, as the throttle
/// counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeviceKey(pub [u8; 16]);

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 {
        return None;
    }
    let mut out = [0_u8; N];
    for (index, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(index * 2..index * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

/// A new cookie value for a browser that just signed in as `email`.
pub fn issue(keyring: &Keyring, email: &str) -> Option<String> {
    let account = AccountKey::of(email).ok()?;
    let mut device = [0_u8; 16];
    rand::rng().fill_bytes(&mut device);
    keyring.seal_token(
        CONTEXT,
        &format!("{}.{}.{}", hex(&account.0), hex(&device), now()),
    )
}

/// The device the cookie `value` names, when this server sealed it, for
/// the account `email`, and it is not too old.
pub fn recognised(keyring: &Keyring, value: &str, email: &str) -> Option<DeviceKey> {
    let opened = keyring.open_token(CONTEXT, value)?;
    let mut parts = opened.split('.');
    let account: [u8; 32] = unhex(parts.next()?)?;
    let device: [u8; 16] = unhex(parts.next()?)?;
    let issued: u64 = parts.next()?.parse().ok()?;
    let fresh = now().saturating_sub(issued) <= (LIFETIME_DAYS as u64) * 24 * 3600;
    (fresh && AccountKey::of(email).ok()? == AccountKey(account)).then_some(DeviceKey(device))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_keyring() -> (tempfile::TempDir, Keyring) {
        let dir = tempfile::tempdir().unwrap();
        let keyring = Keyring::load(dir.path(), None).unwrap();
        (dir, keyring)
    }

    #[test]
    fn a_cookie_names_one_account_of_one_server() {
        let (_dir, keyring) = new_keyring();
        let cookie = issue(&keyring, "Ada@Example.com").unwrap();
        let device = recognised(&keyring, &cookie, " ada@example.com").unwrap();
        assert_ne!(device, DeviceKey([0; 16]));
        assert_eq!(recognised(&keyring, &cookie, "bob@example.com"), None);
        let (_other_dir, other) = new_keyring();
        assert_eq!(recognised(&other, &cookie, "ada@example.com"), None);
        assert_eq!(recognised(&keyring, "forged", "ada@example.com"), None);
        let again = issue(&keyring, "ada@example.com").unwrap();
        assert_ne!(
            recognised(&keyring, &again, "ada@example.com"),
            Some(device),
            "each sign-in's browser is its own device"
        );
    }

    #[test]
    fn an_old_cookie_is_not_recognised() {
        let (_dir, keyring) = new_keyring();
        let account = AccountKey::of("ada@example.com").unwrap();
        let old = now() - (LIFETIME_DAYS as u64 + 1) * 24 * 3600;
        let cookie = keyring
            .seal_token(
                CONTEXT,
                &format!("{}.{}.{old}", hex(&account.0), hex(&[7; 16])),
            )
            .unwrap();
        assert_eq!(recognised(&keyring, &cookie, "ada@example.com"), None);
    }
}
