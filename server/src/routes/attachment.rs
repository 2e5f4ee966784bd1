//! A download: the body with its type and the file name a browser saves
//! it under (`Content-Disposition: attachment`). Every export and the
//! backups' download answer through it.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// `body` as the file `name` of `content_type`. A name that cannot be a
/// header (Tally makes them, so it never happens) leaves the browser to
/// name the file.
pub fn attachment(content_type: &'static str, name: &str, body: impl Into<Body>) -> Response {
    let mut response = (StatusCode::OK, body.into()).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_download_has_its_type_and_its_name() {
        let response = attachment("text/csv; charset=utf-8", "tally-bills.csv", "a,b\n");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/csv; charset=utf-8"
        );
        assert_eq!(
            response.headers()[header::CONTENT_DISPOSITION],
            "attachment; filename=\"tally-bills.csv\""
        );
        let odd = attachment("text/plain", "line\nbreak", "x");
        assert!(odd.headers().get(header::CONTENT_DISPOSITION).is_none());
    }
}
