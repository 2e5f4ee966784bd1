//! "Your data, whole" imported from the Data page's form, over the same
//! service as `POST /api/data/import.sqlite`. The form posts the file as
//! `multipart/form-data` (its `csrf_token` field first), so it works
//! without JavaScript: the browser comes back to the Data page, which says
//! the data was added, or shows the refusal. With JavaScript the page
//! posts the same form data and shows what was added.

use leptos::prelude::*;
use leptos::server_fn::codec::{MultipartData, MultipartFormData};

use super::CsrfClient;
use crate::contract::data::PersonalImported;
use crate::contract::error::ErrorBody;

/// The form's file field.
pub const FILE_FIELD: &str = "file";

/// Adds the file in the form's `file` field (a "Download my data" export)
/// to the signed-in account, all or nothing.
#[server(prefix = "/api/fn", endpoint = "data/import-whole", input = MultipartFormData, client = CsrfClient)]
pub async fn import_whole(data: MultipartData) -> Result<PersonalImported, ErrorBody> {
    use crate::backend::api_error::ApiError;
    use crate::backend::personal_data::{service, upload, PersonalDataError};
    use futures::StreamExt;

    // The size is counted as the file is written; anything else that
    // goes wrong reading the form is the form's.
    let unreadable = |error: &dyn std::fmt::Display| {
        PersonalDataError::NotAnExport(format!("the form could not be read: {error}"))
    };
    let me = super::signed_in::as_declared::<ImportWhole>().await?;
    let turn = service::turn(me.pool(), &me.services.personal_imports, me.current.user.id).await?;
    let Some(mut form) = data.into_inner() else {
        return Err(super::form_parts::not_multipart().into());
    };
    let mut received = None;
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|error| ApiError::from(unreadable(&error)))?
    {
        if field.name() == Some(FILE_FIELD) {
            let chunks = field.map(|chunk| chunk.map_err(|error| unreadable(&error)));
            received = Some(upload::receive(&me.services.instance.scratch_dir, chunks).await?);
        }
    }
    let Some(upload) = received.filter(|upload| upload.bytes > 0) else {
        return Err(crate::domain::validation::FieldViolation::new(
            FILE_FIELD,
            "choose the file \"Download my data\" made",
        )
        .into());
    };
    let imported = service::import(me.pool(), &me.services.keyring, turn, upload).await?;
    super::form_post::then_open(
        &crate::domain::form_outcome::FormOutcome::PersonalDataImported.address("/data"),
    );
    Ok(imported)
}
