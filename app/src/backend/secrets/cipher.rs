use base64::engine::general_purpose::{STANDARD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use secrecy::{ExposeSecret, SecretBox};
use sha2::Sha256;

const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;

/// A 256-bit key. Deliberately neither `Debug` nor `Serialize`; the bytes are
/// zeroed when dropped.
pub struct Key(SecretBox<[u8; KEY_BYTES]>);

#[derive(Debug, thiserror::Error)]
#[error("expected 32 bytes as base64 (44 characters) or hex (64 characters)")]
pub struct KeyFormatError;

#[derive(Debug, thiserror::Error)]
pub enum CipherError {
    #[error("the value is not in the sealed format")]
    Format,
    #[error("the value does not open with this key (wrong key, or the value was altered)")]
    Open,
}

impl Key {
    pub fn generate() -> Self {
        let mut bytes = Box::new([0_u8; KEY_BYTES]);
        rand::rng().fill_bytes(bytes.as_mut_slice());
        Self(SecretBox::new(bytes))
    }

    /// Parses a key written as base64 (standard or URL-safe) or hex.
    pub fn parse(text: &str) -> Result<Self, KeyFormatError> {
        let text = text.trim();
        let decoded = if text.len() == KEY_BYTES * 2 && text.chars().all(|c| c.is_ascii_hexdigit())
        {
            (0..KEY_BYTES)
                .map(|i| u8::from_str_radix(&text[i * 2..i * 2 + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| KeyFormatError)?
        } else {
            STANDARD
                .decode(text)
                .or_else(|_| URL_SAFE.decode(text))
                .or_else(|_| URL_SAFE_NO_PAD.decode(text))
                .map_err(|_| KeyFormatError)?
        };
        let bytes: [u8; KEY_BYTES] = decoded.try_into().map_err(|_| KeyFormatError)?;
        Ok(Self(SecretBox::new(Box::new(bytes))))
    }

    /// The key as base64, for writing the database key file.
    pub fn to_base64(&self) -> String {
        STANDARD.encode(self.0.expose_secret())
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(self.0.expose_secret().into())
    }

    /// Seals `plaintext`, bound to `context` (the column it belongs in, so a
    /// sealed value copied into another column does not open there).
    pub fn seal(&self, context: &str, plaintext: &[u8]) -> Result<String, CipherError> {
        let mut nonce = [0_u8; NONCE_BYTES];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher()
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: plaintext,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| CipherError::Format)?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(out))
    }

    /// HMAC-SHA256 of `message` under a key derived from this one for
    /// `purpose` alone (the HMAC of `purpose` under this key), so a value
    /// made for one purpose is worth nothing for another. `None` only if
    /// HMAC refused a key, which it never does (it takes any length).
    pub fn mac(&self, purpose: &str, message: &[u8]) -> Option<[u8; 32]> {
        let derived = hmac_sha256(self.0.expose_secret(), purpose.as_bytes())?;
        hmac_sha256(&derived, message)
    }

    pub fn open(&self, context: &str, sealed: &str) -> Result<Vec<u8>, CipherError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(sealed)
            .map_err(|_| CipherError::Format)?;
        if bytes.len() < NONCE_BYTES + 16 {
            return Err(CipherError::Format);
        }
        let (nonce, sealed) = bytes.split_at(NONCE_BYTES);
        self.cipher()
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: context.as_bytes(),
                },
            )
            .map_err(|_| CipherError::Open)
    }
}

fn hmac_sha256(key: &[u8], message: &[u8]) -> Option<[u8; 32]> {
    // Named in full: `KeyInit` (for the cipher) offers `new_from_slice` too.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).ok()?;
    mac.update(message);
    mac.finalize().into_bytes().as_slice().try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_then_open_round_trips_and_binds_the_context() {
        let key = Key::generate();
        let sealed = key.seal("users.totp_secret", b"JBSWY3DPEHPK3PXP").unwrap();
        assert!(!sealed.contains("JBSWY3DP"));
        assert_eq!(
            key.open("users.totp_secret", &sealed).unwrap(),
            b"JBSWY3DPEHPK3PXP"
        );
        assert!(matches!(
            key.open("mail_settings.password", &sealed),
            Err(CipherError::Open)
        ));
        assert!(matches!(
            Key::generate().open("users.totp_secret", &sealed),
            Err(CipherError::Open)
        ));
        assert_ne!(
            sealed,
            key.seal("users.totp_secret", b"JBSWY3DPEHPK3PXP").unwrap(),
            "fresh nonce"
        );
    }

    #[test]
    fn a_mac_depends_on_the_key_the_purpose_and_the_message() {
        let key = Key::generate();
        let mac = key.mac("purpose", b"message").unwrap();
        assert_eq!(
            key.mac("purpose", b"message"),
            Some(mac),
            "the same each time"
        );
        assert_ne!(key.mac("other purpose", b"message"), Some(mac));
        assert_ne!(key.mac("purpose", b"other message"), Some(mac));
        assert_ne!(Key::generate().mac("purpose", b"message"), Some(mac));
    }

    #[test]
    fn keys_parse_from_base64_and_hex_only_at_32_bytes() {
        let key = Key::generate();
        let text = key.to_base64();
        let again = Key::parse(&text).unwrap();
        let sealed = key.seal("c", b"x").unwrap();
        assert_eq!(again.open("c", &sealed).unwrap(), b"x");
        assert!(Key::parse(&"ab".repeat(32)).is_ok());
        for bad in [
            "",
            "short",
            &"ab".repeat(31),
            &STANDARD.encode([1_u8; 31]),
            "not base64 at all!!",
        ] {
            assert!(Key::parse(bad).is_err(), "{bad:?}");
        }
    }
}
