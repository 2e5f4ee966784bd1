//! Statement imports' server functions and the upload, over the same
//! services as `/api/imports`.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, MultipartData, MultipartFormData};

use super::CsrfClient;
#[cfg(feature = "ssr")]
use crate::backend::api_error::ApiError;
use crate::contract::error::ErrorBody;
use crate::contract::operations::Operation;
use crate::contract::statements::{ImportStarted, StatementImport};
use crate::domain::form_outcome::FormOutcome;

/// An import and its preview.
#[server(prefix = "/api/fn", endpoint = "data/statement-import", input = GetUrl)]
pub async fn get_statement_import(id: i64) -> Result<StatementImport, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(crate::backend::statements::service::read(me.pool(), me.current.user.id, id).await?)
}

/// Adds the preview's new rows: the operation doing it.
#[server(prefix = "/api/fn", endpoint = "data/commit-statement-import", client = CsrfClient)]
pub async fn commit_statement_import(id: i64) -> Result<Operation, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    let operation =
        crate::backend::statements::service::commit(&me.services.imports, me.current.user.id, id)
            .await?;
    super::form_post::then_open(&import_address(
        id,
        Some(FormOutcome::StatementImportStarted),
    ));
    Ok(operation)
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
    use super::form_parts::{bounded, not_multipart, short_text, unreadable};
    use crate::backend::statements::parse::MAX_BYTES;
    use crate::backend::statements::ImportError;
    use crate::contract::statements::ImportOptions;

    let me = super::signed_in::signed_in().await?;
    let Some(mut form) = data.into_inner() else {
        return Err(not_multipart().into());
    };
    let invalid = |field: &'static str, description: &str| {
        ApiError::from(ImportError::Invalid {
            field,
            description: description.into(),
        })
    };
    let mut options = ImportOptions::default();
    let mut file = None;
    while let Some(field) = form.next_field().await.map_err(unreadable)? {
        match field.name() {
            Some(FILE_FIELD) => {
                options.file_name = field.file_name().map(str::to_owned);
                file = Some(
                    bounded(field, MAX_BYTES)
                        .await
                        .map_err(unreadable)?
                        .ok_or(ApiError::from(ImportError::TooLarge { limit: MAX_BYTES }))?,
                );
            }
            Some(ACCOUNT_FIELD) => {
                let text = short_text(field, 20).await.map_err(unreadable)?;
                options.account_id = match text.as_deref() {
                    Some("") => None,
                    Some(number) => Some(
                        number
                            .parse()
                            .map_err(|_| invalid(ACCOUNT_FIELD, "no such bank account of yours"))?,
                    ),
                    None => {
                        return Err(invalid(ACCOUNT_FIELD, "no such bank account of yours").into())
                    }
                };
            }
            Some(DATE_ORDER_FIELD) => {
                options.date_order = Some(
                    short_text(field, 20)
                        .await
                        .map_err(unreadable)?
                        .ok_or_else(|| {
                            invalid(DATE_ORDER_FIELD, "dmy (day first) or mdy (month first)")
                        })?,
                );
            }
            _ => {}
        }
    }
    let Some(file) = file.filter(|file| !file.is_empty()) else {
        return Err(invalid(FILE_FIELD, "choose a statement file").into());
    };
    let started = crate::backend::statements::service::upload(
        &me.services.imports,
        me.current.user.id,
        options,
        &file,
    )
    .await?;
    super::form_post::then_open(&import_address(started.import.id, None));
    Ok(started)
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
