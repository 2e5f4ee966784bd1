//! Statement imports' server functions and the upload, over the same
//! services as `/api/imports`.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, MultipartData, MultipartFormData};

use super::CsrfClient;
use crate::contract::error::ErrorBody;
use crate::contract::operations::Operation;
use crate::contract::statements::{ImportStarted, StatementImport};
use crate::domain::form_outcome::FormOutcome;

/// An import and its preview.
#[server(prefix = "/api/fn", endpoint = "data/statement-import", input = GetUrl)]
pub async fn get_statement_import(id: i64) -> Result<StatementImport, ErrorBody> {
    let me = super::signed_in::as_declared::<GetStatementImport>().await?;
    Ok(crate::backend::statements::service::read(me.pool(), me.current.user.id, id).await?)
}

/// Adds the preview's new rows: the operation doing it.
#[server(prefix = "/api/fn", endpoint = "data/commit-statement-import", client = CsrfClient)]
pub async fn commit_statement_import(id: i64) -> Result<Operation, ErrorBody> {
    let me = super::signed_in::as_declared::<CommitStatementImport>().await?;
    let operation =
        crate::backend::statements::service::commit(&me.services.imports, me.current.user.id, id)
            .await?;
    super::form_post::then_open(&import_address(
        id,
        Some(FormOutcome::StatementImportStarted),
    ));
    Ok(operation)
}

/// Forgets a preview the person does not want (its rows with it), so it
/// no longer counts toward the uploads they may leave waiting. Without
/// JavaScript the browser then opens the Data page with the upload form
/// and the words saying so.
#[server(prefix = "/api/fn", endpoint = "data/discard-statement-import", client = CsrfClient)]
pub async fn discard_statement_import(id: i64) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<DiscardStatementImport>().await?;
    crate::backend::statements::service::discard(&me.services.imports, me.current.user.id, id)
        .await?;
    super::form_post::then_open(&discarded_address());
    Ok(())
}

/// The Data page after a preview was discarded: no import shown, and the
/// words saying so.
pub fn discarded_address() -> String {
    FormOutcome::StatementImportDiscarded.address("/data") + "#statement-title"
}

/// The upload form's fields: the file, the account it goes to (empty:
/// new imported accounts) and a QIF file's date order (empty: told from
/// the file).
pub const FILE_FIELD: &str = "file";
pub const ACCOUNT_FIELD: &str = "accountId";
pub const DATE_ORDER_FIELD: &str = "dateOrder";

/// Data → "Import a bank statement": the form's file and choices, as
/// `multipart/form-data` (its `csrf_token` field first), the same use case
/// as `POST /api/imports`. Without JavaScript the browser then opens the
/// Data page at this import (`?statement=<id>`), which shows its preview.
#[server(prefix = "/api/fn", endpoint = "data/statement-upload", input = MultipartFormData, client = CsrfClient)]
pub async fn upload_statement(data: MultipartData) -> Result<ImportStarted, ErrorBody> {
    use crate::backend::statements::{parse::MAX_BYTES, service, ImportError};
    let me = super::signed_in::as_declared::<UploadStatement>().await?;
    let too_large = ImportError::TooLarge { limit: MAX_BYTES };
    let mut form = super::form_parts::file_form(data, FILE_FIELD, MAX_BYTES)
        .await?
        .ok_or(too_large)?;
    let options = statement_options(&form)?;
    let file = form.file().ok_or_else(|| ImportError::Invalid {
        field: FILE_FIELD,
        description: "choose a statement file".into(),
    })?;
    let started = service::upload(&me.services.imports, me.current.user.id, options, &file).await?;
    super::form_post::then_open(&import_address(started.import.id, None));
    Ok(started)
}

/// The upload form's choices: the account (empty: new imported accounts)
/// and a QIF file's date order.
#[cfg(feature = "ssr")]
fn statement_options(
    form: &super::form_parts::FileForm,
) -> Result<crate::contract::statements::ImportOptions, crate::backend::statements::ImportError> {
    use crate::backend::statements::ImportError;
    let invalid = |field, description: &str| ImportError::Invalid {
        field,
        description: description.into(),
    };
    let account_id = match form.choice(ACCOUNT_FIELD) {
        None | Some(Some("")) => None,
        Some(number) => Some(
            number
                .and_then(|number| number.parse().ok())
                .ok_or_else(|| invalid(ACCOUNT_FIELD, "no such bank account of yours"))?,
        ),
    };
    let date_order = form
        .choice(DATE_ORDER_FIELD)
        .map(|order| {
            order
                .map(str::to_owned)
                .ok_or_else(|| invalid(DATE_ORDER_FIELD, "dmy (day first) or mdy (month first)"))
        })
        .transpose()?;
    Ok(crate::contract::statements::ImportOptions {
        file_name: form.file_name.clone(),
        account_id,
        date_order,
    })
}

/// The Data page at the import `id`, with what just happened to it.
pub fn import_address(id: i64, outcome: Option<FormOutcome>) -> String {
    let page = format!("/data?{IMPORT_PARAMETER}={id}");
    let page = match outcome {
        Some(outcome) => outcome.address(&page),
        None => page,
    };
    page + "#statement-title"
}

/// The Data page's query parameter naming the import it shows.
pub const IMPORT_PARAMETER: &str = "statement";
