//! The parts of a `multipart/form-data` form, read with a bound: a form
//! posted without JavaScript sends its file and its choices together, and
//! no part may make the server hold more than the use case allows.

use futures::{Stream, StreamExt};

use crate::backend::api_error::ApiError;

/// A form whose parts cannot be read (cut off, malformed): the sender's.
pub fn unreadable(error: impl std::fmt::Display) -> ApiError {
    ApiError::BadRequest(format!("the form could not be read: {error}"))
}

/// A file form's body that is not `multipart/form-data`.
pub fn not_multipart() -> ApiError {
    ApiError::BadRequest("send the form as multipart/form-data".into())
}

/// The whole of one part, or `None` once it passes `limit` bytes (the
/// rest is not read). A chunk's error ends it with that error.
pub async fn bounded<T: AsRef<[u8]>, E>(
    chunks: impl Stream<Item = Result<T, E>>,
    limit: usize,
) -> Result<Option<Vec<u8>>, E> {
    let mut chunks = std::pin::pin!(chunks);
    let mut whole = Vec::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        if whole.len() + chunk.as_ref().len() > limit {
            return Ok(None);
        }
        whole.extend_from_slice(chunk.as_ref());
    }
    Ok(Some(whole))
}

/// A short text part (a choice from a list, a number), trimmed; `None`
/// when it is longer than `limit` bytes or not UTF-8.
pub async fn short_text<T: AsRef<[u8]>, E>(
    chunks: impl Stream<Item = Result<T, E>>,
    limit: usize,
) -> Result<Option<String>, E> {
    Ok(bounded(chunks, limit)
        .await?
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| text.trim().to_owned()))
}

/// The longest choice a file form's text field may hold (an account's
/// id, a date order, an app's name).
pub const MAX_CHOICE: usize = 20;

/// The most parts a file form may have. Tally's own have four at most
/// (the token, the file, two choices); without a cap a form of tiny
/// parts would be kept part by part, however many were sent.
pub const MAX_PARTS: usize = 16;

/// A form of more than [`MAX_PARTS`] parts, refused at the first part
/// too many: nothing after it is read.
pub fn too_many_parts() -> ApiError {
    ApiError::BadRequest(format!(
        "the form has more than {MAX_PARTS} parts: send its file and its fields only"
    ))
}

/// A file form as posted: its file and the file's name, and its other
/// fields, each a short choice.
#[derive(Default)]
pub struct FileForm {
    file: Option<Vec<u8>>,
    pub file_name: Option<String>,
    choices: Vec<(String, Option<String>)>,
}

impl FileForm {
    /// The file, unless none was chosen (an empty one counts as none).
    pub fn file(&mut self) -> Option<Vec<u8>> {
        self.file.take().filter(|file| !file.is_empty())
    }

    /// The field `name` as sent (trimmed): `None` when the form left it
    /// out, `Some(None)` when it was longer than [`MAX_CHOICE`] or not
    /// text.
    pub fn choice(&self, name: &str) -> Option<Option<&str>> {
        self.choices
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, text)| text.as_deref())
    }
}

/// Reads a `multipart/form-data` form: the part named `file_field` up to
/// `limit` bytes, every other part as a short choice, at most
/// [`MAX_PARTS`] parts in all (more is [`too_many_parts`]). `None` when
/// the file passes `limit` (each use case says so in its own words). The
/// body as a whole is bounded before it gets here
/// (`middleware::server_fns::limit_body`), so skipping a long choice
/// cannot take forever either.
pub async fn file_form(
    data: leptos::server_fn::codec::MultipartData,
    file_field: &str,
    limit: usize,
) -> Result<Option<FileForm>, ApiError> {
    let Some(mut parts) = data.into_inner() else {
        return Err(not_multipart());
    };
    let mut form = FileForm::default();
    let mut count = 0;
    while let Some(part) = parts.next_field().await.map_err(unreadable)? {
        count += 1;
        if count > MAX_PARTS {
            return Err(too_many_parts());
        }
        let Some(name) = part.name().map(str::to_owned) else {
            continue;
        };
        if name == file_field {
            form.file_name = part.file_name().map(str::to_owned);
            match bounded(part, limit).await.map_err(unreadable)? {
                Some(file) => form.file = Some(file),
                None => return Ok(None),
            }
        } else {
            let text = short_text(part, MAX_CHOICE).await.map_err(unreadable)?;
            form.choices.push((name, text));
        }
    }
    Ok(Some(form))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(parts: &[&'static [u8]]) -> impl Stream<Item = Result<&'static [u8], ()>> {
        futures::stream::iter(parts.iter().copied().map(Ok).collect::<Vec<_>>())
    }

    #[tokio::test]
    async fn a_part_is_read_whole_up_to_its_limit_and_no_further() {
        assert_eq!(
            bounded(chunks(&[b"OFX", b"HEADER"]), 9).await,
            Ok(Some(b"OFXHEADER".to_vec()))
        );
        assert_eq!(bounded(chunks(&[b"OFX", b"HEADER"]), 8).await, Ok(None));
        assert_eq!(bounded(chunks(&[]), 0).await, Ok(Some(Vec::new())));
        let failing = futures::stream::iter([Ok(b"OFX".as_slice()), Err("cut off")]);
        assert_eq!(bounded(failing, 100).await, Err("cut off"));
    }

    #[tokio::test]
    async fn a_short_text_is_trimmed_and_refused_when_long_or_not_text() {
        assert_eq!(
            short_text(chunks(&[b" 12", b"\r\n"]), 8).await,
            Ok(Some("12".to_owned()))
        );
        assert_eq!(short_text(chunks(&[b"123456789"]), 8).await, Ok(None));
        assert_eq!(short_text(chunks(&[b"\xff"]), 8).await, Ok(None));
    }
}
