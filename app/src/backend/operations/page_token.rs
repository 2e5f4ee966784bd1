//! ListOperations page tokens: opaque, tamper-evident and stable under
//! concurrent inserts. A token holds the keyset position of the last
//! operation shown (creation time and id; the list runs newest first, so new
//! operations never shift later pages) and a digest of the query it belongs
//! to, sealed with an HMAC under an instance key kept in `settings`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Where the next page starts: after (`created_at`, `id`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub created_at: String,
    pub id: String,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PageTokenError {
    #[error("page_token is not a token this server issued, or it was changed")]
    Forged,
    #[error("page_token belongs to a different filter or list; start again without it")]
    OtherQuery,
}

/// Seals and opens page tokens with one key.
pub struct PageTokens {
    key: Vec<u8>,
}

/// A new key: 32 random bytes, as URL-safe base64 (it is kept as text).
pub fn fresh_key() -> String {
    use rand::RngCore;
    let mut bytes = [0_u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

impl PageTokens {
    pub fn new(key: Vec<u8>) -> Self {
        Self { key }
    }

    /// The HMAC over `payload`; HMAC takes keys of any length, so
    /// `new_from_slice` cannot fail.
    fn mac(&self, payload: &[u8]) -> Option<HmacSha256> {
        let mut mac = HmacSha256::new_from_slice(&self.key).ok()?;
        mac.update(payload);
        Some(mac)
    }

    /// A token for the page after `position` of the query `scope`.
    pub fn seal(&self, scope: &str, position: &Position) -> String {
        let payload = format!(
            "{}\n{}\n{}",
            query_digest(scope),
            position.created_at,
            position.id
        );
        let mut bytes = payload.into_bytes();
        if let Some(mac) = self.mac(&bytes) {
            bytes.extend_from_slice(&mac.finalize().into_bytes()[..16]);
        }
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The position in `token`, if this server sealed it for `scope`.
    pub fn open(&self, scope: &str, token: &str) -> Result<Position, PageTokenError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| PageTokenError::Forged)?;
        if bytes.len() < 16 {
            return Err(PageTokenError::Forged);
        }
        let (payload, mac) = bytes.split_at(bytes.len() - 16);
        // Constant-time comparison of the first 16 bytes of the HMAC.
        let genuine = self
            .mac(payload)
            .is_some_and(|expected| expected.verify_truncated_left(mac).is_ok());
        if !genuine {
            return Err(PageTokenError::Forged);
        }
        let text = std::str::from_utf8(payload).map_err(|_| PageTokenError::Forged)?;
        let mut parts = text.splitn(3, '\n');
        let (Some(digest), Some(created_at), Some(id)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(PageTokenError::Forged);
        };
        if digest != query_digest(scope) {
            return Err(PageTokenError::OtherQuery);
        }
        Ok(Position {
            created_at: created_at.to_owned(),
            id: id.to_owned(),
        })
    }
}

/// A short digest of the query (filter and whose operations), so a token
/// cannot be replayed against another query.
fn query_digest(scope: &str) -> String {
    let digest = Sha256::digest(scope.as_bytes());
    URL_SAFE_NO_PAD.encode(&digest[..12])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position() -> Position {
        Position {
            created_at: "2026-11-22T04:50:00.123Z".into(),
            id: "0123abcd".into(),
        }
    }

    #[test]
    fn a_token_opens_for_its_own_query_only() {
        let tokens = PageTokens::new(b"key".to_vec());
        let token = tokens.seal("done = true|all", &position());
        assert_eq!(tokens.open("done = true|all", &token), Ok(position()));
        assert_eq!(
            tokens.open("done = false|all", &token),
            Err(PageTokenError::OtherQuery)
        );
        let other_key = PageTokens::new(b"another".to_vec());
        assert_eq!(
            other_key.open("done = true|all", &token),
            Err(PageTokenError::Forged)
        );
    }

    #[test]
    fn any_changed_character_is_noticed() {
        let tokens = PageTokens::new(b"key".to_vec());
        let token = tokens.seal("|all", &position());
        for at in 0..token.len() {
            let mut changed: Vec<char> = token.chars().collect();
            changed[at] = if changed[at] == 'A' { 'B' } else { 'A' };
            let changed: String = changed.into_iter().collect();
            if changed != token {
                assert!(tokens.open("|all", &changed).is_err(), "position {at}");
            }
        }
        assert!(tokens.open("|all", "not base64!").is_err());
        assert!(tokens.open("|all", "").is_err());
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use crate::small_stack::on_small_stack;
    use proptest::prelude::*;

    /// Tokens as a hostile client sends them: random text, random bytes in
    /// valid base64, very long ones, and genuine tokens with bytes changed.
    fn hostile_token() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            prop::collection::vec(any::<u8>(), 0..600)
                .prop_map(|bytes| URL_SAFE_NO_PAD.encode(bytes)),
            (0_usize..70_000).prop_map(|n| "A".repeat(n)),
            (any::<u64>(), any::<usize>(), any::<u8>()).prop_map(|(at, index, byte)| {
                let token = PageTokens::new(b"key".to_vec()).seal(
                    "|all",
                    &Position {
                        created_at: at.to_string(),
                        id: "x".into(),
                    },
                );
                let mut bytes = URL_SAFE_NO_PAD.decode(token).unwrap_or_default();
                if !bytes.is_empty() {
                    let index = index % bytes.len();
                    bytes[index] ^= byte.max(1);
                }
                URL_SAFE_NO_PAD.encode(bytes)
            }),
        ]
    }

    proptest! {
        #[test]
        fn hostile_tokens_are_refused_without_panicking(token in hostile_token()) {
            let opened = on_small_stack(move || PageTokens::new(b"key".to_vec()).open("|all", &token));
            prop_assert!(opened.is_err());
        }

        #[test]
        fn any_position_round_trips(
            scope in any::<String>(),
            created_at in "[^\n]{0,40}",
            id in any::<String>(),
        ) {
            let tokens = PageTokens::new(b"key".to_vec());
            let position = Position { created_at, id };
            let token = tokens.seal(&scope, &position);
            prop_assert_eq!(tokens.open(&scope, &token), Ok(position));
        }
    }
}
