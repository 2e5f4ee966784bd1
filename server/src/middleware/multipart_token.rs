//! The CSRF token of a file form posted without JavaScript: the
//! `multipart/form-data` body's first field, which the pages' forms put
//! first (`components::csrf_field`). It is read from the front of the body
//! without holding the rest: the body goes on whole, what was read first
//! and then the rest as it arrives.

use axum::body::{Body, Bytes};
use futures::StreamExt;

use app::domain::csrf::FIELD;

/// A token is short; a first field longer than this is not one.
const MAX_FIRST_FIELD: u64 = 1024;

/// How much of the body is looked through for the first field (its
/// headers and its value, past one chunk of the network's): a body that
/// has not finished its first field by then has no token, and what was
/// read to find it is never more than this and one chunk.
const MAX_LOOKED_THROUGH: usize = 16 * 1024;

/// The value of the body's first field when it is the CSRF field (the
/// boundary from `content_type`), and the body, unchanged.
pub async fn first_field_token(content_type: &str, body: Body) -> (Option<String>, Body) {
    let Ok(boundary) = multer::parse_boundary(content_type) else {
        return (None, body);
    };
    let mut rest = body.into_data_stream();
    let mut read: Vec<Bytes> = Vec::new();
    let mut looked_through = 0;
    let token = {
        let recorded = rest.by_ref().map(|chunk| {
            if looked_through >= MAX_LOOKED_THROUGH {
                // Ends the parser's search; the chunk is dropped, and the
                // body with it, since a form without a token is refused.
                return Err(axum::Error::new("the first field is too long"));
            }
            if let Ok(bytes) = &chunk {
                looked_through += bytes.len();
                read.push(bytes.clone());
            }
            chunk
        });
        let limits = multer::Constraints::new()
            .size_limit(multer::SizeLimit::new().for_field(FIELD, MAX_FIRST_FIELD));
        let mut form = multer::Multipart::with_constraints(recorded, boundary, limits);
        match form.next_field().await {
            Ok(Some(field)) if field.name() == Some(FIELD) => field.text().await.ok(),
            _ => None,
        }
    };
    let again = futures::stream::iter(read.into_iter().map(Ok)).chain(rest);
    (token, Body::from_stream(again))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPE: &str = "multipart/form-data; boundary=XyZ";

    fn form(first: &str, value: &str) -> String {
        format!(
            "--XyZ\r\nContent-Disposition: form-data; name=\"{first}\"\r\n\r\n{value}\r\n\
             --XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.sqlite\"\r\n\
             Content-Type: application/octet-stream\r\n\r\nSQLite format 3 and more\r\n--XyZ--\r\n"
        )
    }

    async fn whole(body: Body) -> String {
        let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn the_first_field_is_the_token_and_the_body_goes_on_whole() {
        let sent = form(FIELD, "the-token");
        // In small chunks, as a network delivers it.
        let chunks: Vec<Result<Bytes, std::io::Error>> = sent
            .as_bytes()
            .chunks(7)
            .map(|chunk| Ok(Bytes::copy_from_slice(chunk)))
            .collect();
        let body = Body::from_stream(futures::stream::iter(chunks));
        let (token, body) = first_field_token(TYPE, body).await;
        assert_eq!(token.as_deref(), Some("the-token"));
        assert_eq!(whole(body).await, sent);
    }

    #[tokio::test]
    async fn a_form_whose_first_field_is_not_the_token_has_none() {
        let sent = form("name", "the-token");
        let (token, body) = first_field_token(TYPE, Body::from(sent.clone())).await;
        assert_eq!(token, None);
        assert_eq!(whole(body).await, sent);
        let (token, _) = first_field_token("multipart/form-data", Body::from(sent)).await;
        assert_eq!(token, None, "no boundary, no field");
        let long = form(FIELD, &"x".repeat(5000));
        let (token, _) = first_field_token(TYPE, Body::from(long)).await;
        assert_eq!(token, None, "a first field too long to be a token");
    }

    #[tokio::test]
    async fn a_first_part_without_an_end_is_not_looked_through_to_the_end() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Arc;

        // Headers that never end, in chunks: the search stops after a few.
        let pulled = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&pulled);
        let endless = futures::stream::repeat_with(move || {
            let chunk = if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                Bytes::from_static(b"--XyZ\r\nContent-Disposition: form-data; name=\"")
            } else {
                Bytes::from(vec![b'x'; 4096])
            };
            Ok::<_, std::io::Error>(chunk)
        })
        .take(10_000);
        let (token, _) = first_field_token(TYPE, Body::from_stream(endless)).await;
        assert_eq!(token, None);
        let pulled = pulled.load(Ordering::SeqCst);
        assert!(pulled < 10, "{pulled} chunks were read");
    }
}
