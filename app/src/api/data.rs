//! The Data page's "Import bills" form, over the same service as
//! `/api/data/import…`: the file goes up once, as `multipart/form-data`
//! (its `csrf_token` field first), is checked row by row and kept for its
//! import, and the page names the kept file in its address
//! (`?bills=<id>`); "Import these bills" then writes every row of the kept
//! file, or none. So the form works without JavaScript; with it, the page
//! posts the same forms itself.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, MultipartData, MultipartFormData};

use super::CsrfClient;
use crate::contract::data::{ImportPreview, Imported, KeptImport};
use crate::contract::error::ErrorBody;

/// The form's fields: the app that made the file, and the file.
pub const FROM_FIELD: &str = "from";
pub const FILE_FIELD: &str = "file";
/// The Data page's query parameter naming the kept file it previews.
pub const KEPT_PARAMETER: &str = "bills";

/// The Data page previewing the kept file `id`.
pub fn kept_address(id: &str) -> String {
    format!("/data?{KEPT_PARAMETER}={id}#import-title")
}

/// Checks the form's file (made by the app in `from`: `tally`, the
/// default, `wallos`, `firefly` or `actual`) row by row and keeps it for
/// its import; nothing is written. A file that cannot be read is refused
/// at once.
#[server(prefix = "/api/fn", endpoint = "data/bills-preview", input = MultipartFormData, client = CsrfClient)]
pub async fn preview_bills_file(data: MultipartData) -> Result<KeptImport, ErrorBody> {
    use crate::backend::bills::{held_import, import, BillImportError};
    use crate::domain::validation::FieldViolation;
    let me = super::signed_in::as_declared::<PreviewBillsFile>().await?;
    let limit = import::MAX_BUDGET_FILE;
    let mut form = super::form_parts::file_form(data, FILE_FIELD, limit)
        .await?
        .ok_or(BillImportError::TooLarge { limit })?;
    let source = import::source(form.choice(FROM_FIELD).map(|from| from.unwrap_or("?")))?;
    let file = form.file().ok_or_else(|| {
        BillImportError::Field(FieldViolation::new(FILE_FIELD, "choose the file to import"))
    })?;
    let (scratch, user) = (&me.services.instance.scratch_dir, me.current.user.id);
    let preview = import::preview(me.pool(), user, source, &file).await?;
    let id = held_import::keep(me.pool(), scratch, user, source, &file).await?;
    super::form_post::then_open(&kept_address(&id));
    Ok(KeptImport { id, preview })
}

/// The kept file `id`'s rows with their problems, for the page that names
/// it in its address.
#[server(prefix = "/api/fn", endpoint = "data/bills-kept", input = GetUrl)]
pub async fn get_kept_bills(id: String) -> Result<ImportPreview, ErrorBody> {
    use crate::backend::bills::{held_import, import};

    let me = super::signed_in::as_declared::<GetKeptBills>().await?;
    let (source, file) =
        held_import::kept(&me.services.instance.scratch_dir, me.current.user.id, &id).await?;
    Ok(import::preview(me.pool(), me.current.user.id, source, &file).await?)
}

/// Imports every row of the kept file `id`, or none when any row is bad;
/// once imported, the file is no longer kept.
#[server(prefix = "/api/fn", endpoint = "data/bills-import", client = CsrfClient)]
pub async fn import_kept_bills(id: String) -> Result<Imported, ErrorBody> {
    use crate::backend::bills::{held_import, import};
    use crate::domain::form_outcome::FormOutcome;

    let me = super::signed_in::as_declared::<ImportKeptBills>().await?;
    let scratch = &me.services.instance.scratch_dir;
    let (source, file) = held_import::kept(scratch, me.current.user.id, &id).await?;
    let imported = import::import(me.pool(), me.current.user.id, source, &file).await?;
    held_import::forget(scratch, me.current.user.id, &id).await;
    super::form_post::then_open(&(FormOutcome::BillsImported.address("/data") + "#import-title"));
    Ok(imported)
}
