//! Data → "Import history from a spreadsheet", over the same services as
//! `/api/data/history/…`. The workbook goes up once, as
//! `multipart/form-data` (its `csrf_token` field first), and is kept for
//! an hour; the page names it in its address (`?history=<id>`), with the
//! sheet, what its rows are and which column is which, so every step is
//! an address and works without JavaScript. The import posts the mapping
//! and the rows the person left checked.

use std::collections::BTreeMap;

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, MultipartData, MultipartFormData};

use super::CsrfClient;
use crate::contract::data::Imported;
use crate::contract::error::ErrorBody;
use crate::contract::history::{HistoryMapping, HistoryPreview, HistorySheets, KeptWorkbook};

/// The upload form's file field.
pub const FILE_FIELD: &str = "file";
/// The Data page's query parameter naming the kept workbook.
pub const KEPT_PARAMETER: &str = "history";
/// The query parameter that asks for the preview (the mapping is chosen).
pub const STEP_PARAMETER: &str = "step";

/// The Data page at the kept workbook `id`, before its mapping.
pub fn kept_address(id: &str) -> String {
    format!("/data?{KEPT_PARAMETER}={id}#history-title")
}

#[cfg(feature = "ssr")]
const SHELF: &str = "workbooks";

/// Reads the workbook in the form's `file` field, keeps it and answers
/// its id and its sheets. A file that is not a workbook is refused at
/// once.
#[server(prefix = "/api/fn", endpoint = "data/history-upload", input = MultipartFormData, client = CsrfClient)]
pub async fn upload_workbook(data: MultipartData) -> Result<KeptWorkbook, ErrorBody> {
    use crate::backend::api_error::ApiError;
    use crate::backend::{kept_upload, workbook::cells::MAX_BYTES, workbook::history};
    use crate::domain::validation::FieldViolation;
    let me = super::signed_in::as_declared::<UploadWorkbook>().await?;
    let mut form = super::form_parts::file_form(data, FILE_FIELD, MAX_BYTES)
        .await?
        .ok_or(ApiError::PayloadTooLarge { limit: MAX_BYTES })?;
    let file = form
        .file()
        .ok_or_else(|| FieldViolation::new(FILE_FIELD, "choose an Excel workbook (.xlsx)"))?;
    let sheets = history::sheets(file.clone()).await?;
    let (scratch, user) = (&me.services.instance.scratch_dir, me.current.user.id);
    let id = kept_upload::keep(me.pool(), scratch, SHELF, user, "xlsx", &file).await?;
    super::form_post::then_open(&kept_address(&id));
    Ok(KeptWorkbook { id, sheets })
}

/// The kept workbook `id`'s sheets.
#[server(prefix = "/api/fn", endpoint = "data/history-sheets", input = GetUrl)]
pub async fn get_kept_sheets(id: String) -> Result<HistorySheets, ErrorBody> {
    use crate::backend::workbook::history;

    let (_, file) = kept_workbook(&id).await?;
    Ok(history::sheets(file).await?)
}

/// The kept workbook `id`'s sheet read through `mapping`: every row, with
/// what it becomes and its problems; nothing is written.
#[server(prefix = "/api/fn", endpoint = "data/history-preview", input = GetUrl)]
pub async fn get_kept_preview(
    id: String,
    mapping: HistoryMapping,
) -> Result<HistoryPreview, ErrorBody> {
    use crate::backend::workbook::history;

    let (me, file) = kept_workbook(&id).await?;
    Ok(history::preview(me.pool(), me.current.user.id, file, &mapping).await?)
}

/// Imports the rows of the kept workbook `id` the form left checked
/// (`chosen[<line>]`), read through `mapping`, all or none; then the
/// workbook is no longer kept.
#[server(prefix = "/api/fn", endpoint = "data/history-import", client = CsrfClient)]
pub async fn import_kept_history(
    id: String,
    mapping: HistoryMapping,
    chosen: Option<BTreeMap<String, String>>,
) -> Result<Imported, ErrorBody> {
    use crate::backend::kept_upload;
    use crate::backend::workbook::history;
    use crate::domain::form_outcome::FormOutcome;

    let mapping = mapping.with_chosen(chosen.as_ref())?;
    let (me, file) = kept_workbook(&id).await?;
    let (scratch, user) = (&me.services.instance.scratch_dir, me.current.user.id);
    let imported = history::import(me.pool(), user, file, &mapping).await?;
    kept_upload::forget(scratch, SHELF, user, &id).await;
    super::form_post::then_open(
        &(FormOutcome::HistoryImported.address("/data") + "#history-title"),
    );
    Ok(imported)
}

/// The signed-in person and the workbook they kept as `id`.
#[cfg(feature = "ssr")]
async fn kept_workbook(id: &str) -> Result<(super::signed_in::SignedIn, Vec<u8>), ErrorBody> {
    use crate::backend::kept_upload;

    let me = super::signed_in::signed_in().await?;
    let (_, file) = kept_upload::kept(
        &me.services.instance.scratch_dir,
        SHELF,
        me.current.user.id,
        id,
    )
    .await?;
    Ok((me, file))
}
