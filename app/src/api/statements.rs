//! Statement imports' server functions and the upload, over the same
//! services as `/api/imports`.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::{ApiFailure, CsrfClient};
#[cfg(feature = "ssr")]
use crate::backend::api_error::ApiError;
use crate::contract::error::ErrorBody;
use crate::contract::operations::Operation;
use crate::contract::statements::{ImportStarted, StatementImport};

/// An import and its preview.
#[server(prefix = "/api/fn", endpoint = "data/statement-import", input = GetUrl)]
pub async fn get_statement_import(id: i64) -> Result<StatementImport, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(
        crate::backend::statements::service::read(me.pool(), me.current.user.id, id)
            .await
            .map_err(ApiError::from)?,
    )
}

/// Adds the preview's new rows: the operation doing it.
#[server(prefix = "/api/fn", endpoint = "data/commit-statement-import", client = CsrfClient)]
pub async fn commit_statement_import(id: i64) -> Result<Operation, ErrorBody> {
    let me = super::signed_in::signed_in().await?;
    Ok(
        crate::backend::statements::service::commit(&me.services.imports, me.current.user.id, id)
            .await
            .map_err(ApiError::from)?,
    )
}

/// Sends the chosen statement file to `POST /api/imports` with `query`
/// (`accountId`, `dateOrder`); `None` when no file is chosen.
pub async fn upload_statement(
    input: &leptos::web_sys::HtmlInputElement,
    query: &str,
) -> Result<Option<ImportStarted>, ApiFailure> {
    let url = if query.is_empty() {
        "/api/imports".to_owned()
    } else {
        format!("/api/imports?{query}")
    };
    super::upload::upload_answer(input, &url, 202).await
}
