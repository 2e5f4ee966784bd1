//! The Data page's import, over the same service as `/api/data/import…`:
//! the chosen file's text is checked row by row, then written all or
//! nothing (JSON through [`CsrfClient`]; the exports stay plain downloads).

use leptos::prelude::*;
use leptos::server_fn::codec::Json;

use super::CsrfClient;
use crate::contract::data::{ImportPreview, Imported};
use crate::contract::error::ErrorBody;

/// Each row of `csv` with its problems; nothing is written. `from`: the
/// app that wrote the file (`tally`, the default, `wallos` or `firefly`).
#[server(prefix = "/api/fn", endpoint = "data/preview-import", input = Json, client = CsrfClient)]
pub async fn preview_import(csv: String, from: Option<String>) -> Result<ImportPreview, ErrorBody> {
    use crate::backend::bills::import;
    let me = super::signed_in::signed_in().await?;
    let source = import::source(from.as_deref())?;
    Ok(import::preview(me.pool(), me.current.user.id, source, csv.as_bytes()).await?)
}

/// Imports every row of `csv`, or none when any row is bad.
#[server(prefix = "/api/fn", endpoint = "data/import", input = Json, client = CsrfClient)]
pub async fn import_bills(csv: String, from: Option<String>) -> Result<Imported, ErrorBody> {
    use crate::backend::bills::import;
    let me = super::signed_in::signed_in().await?;
    let source = import::source(from.as_deref())?;
    Ok(import::import(me.pool(), me.current.user.id, source, csv.as_bytes()).await?)
}
