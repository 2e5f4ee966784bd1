//! A bills file kept between its preview and its import (the Data page's
//! form), on the `bills` shelf of [`kept_upload`], labelled with the app
//! that made it.

use std::path::Path;

use super::import_error::BillImportError;
use crate::backend::kept_upload::{self, KeptError};
use crate::backend::other_apps::Source;

const SHELF: &str = "bills";

/// Keeps `file`, read as `source`, for `user`; its id.
pub async fn keep(
    pool: &sqlx::SqlitePool,
    scratch: &Path,
    user: i64,
    source: Source,
    file: &[u8],
) -> Result<String, BillImportError> {
    Ok(kept_upload::keep(pool, scratch, SHELF, user, source.name(), file).await?)
}

/// The file `user` kept as `id`, and what it was read as.
pub async fn kept(
    scratch: &Path,
    user: i64,
    id: &str,
) -> Result<(Source, Vec<u8>), BillImportError> {
    let (label, file) = kept_upload::kept(scratch, SHELF, user, id).await?;
    let source = Source::parse(&label).ok_or(KeptError::NotKept)?;
    Ok((source, file))
}

/// Removes the file `user` kept as `id`.
pub async fn forget(scratch: &Path, user: i64, id: &str) {
    kept_upload::forget(scratch, SHELF, user, id).await;
}
