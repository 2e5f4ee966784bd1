//! The operations viewer's list: a server function (GET) over the same
//! engine as `GET /v1/operations`, so the first page of operations is in
//! the HTML and "Show more" asks for the next.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use crate::contract::error::ErrorBody;
use crate::contract::operations::OperationList;

/// How many operations a page of the viewer shows.
pub const PAGE_SIZE: i64 = 20;

/// The signed-in user's operations (everyone's for administrators) that
/// match `filter` (AIP-160, as `/v1/operations` takes it), newest first.
#[server(prefix = "/api/fn", endpoint = "operations", input = GetUrl)]
pub async fn list_operations(
    filter: String,
    page_token: Option<String>,
) -> Result<OperationList, ErrorBody> {
    use crate::ssr::api_error::ApiError;
    use crate::ssr::operations::{ListRequest, Record, Viewer};

    let me = super::signed_in::signed_in().await?;
    let viewer = Viewer {
        user_id: me.user.id,
        admin: me.user.is_admin(),
    };
    let request = ListRequest {
        owner: None,
        filter,
        page_size: Some(PAGE_SIZE),
        page_token,
    };
    let page = me
        .services
        .operations
        .list(viewer, &request)
        .await
        .map_err(ApiError::from)?;
    Ok(OperationList {
        operations: page.operations.iter().map(Record::to_operation).collect(),
        next_page_token: page.next_page_token,
    })
}
