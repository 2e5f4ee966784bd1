//! A statement file's bytes as text. Banks still export OFX 1 and QIF in
//! windows-1252 (`CHARSET:1252`, or Latin-1 that is the same for letters),
//! while OFX 2 and CAMT are UTF-8, sometimes with a byte order mark. Valid
//! UTF-8 is taken as UTF-8 whatever a header claims, because a file that
//! decodes as UTF-8 is almost never meant as anything else; otherwise
//! windows-1252, which maps every byte, so decoding never fails.

use std::borrow::Cow;

/// The text of `bytes`: by byte order mark (UTF-8, UTF-16), else UTF-8 when
/// valid, else windows-1252.
pub(super) fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let rest = bytes.get(bom..).unwrap_or_default();
        return encoding.decode_without_bom_handling(rest).0;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_stays_utf8_and_other_bytes_read_as_windows_1252() {
        assert_eq!(decode("Café".as_bytes()), "Café");
        assert_eq!(decode(b"Caf\xe9 \x80"), "Café €");
        assert_eq!(decode(b"\xef\xbb\xbfabc"), "abc");
        assert_eq!(decode(b"\xff\xfea\0b\0"), "ab");
    }
}
