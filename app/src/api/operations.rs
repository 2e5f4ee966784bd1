//! The operations viewer and Admin's maintenance, over the same engine as
//! `/v1/operations…` and `/v1/admin:…`: the list (GET), so the first page
//! of operations is in the HTML and "Show more" asks for the next; and
//! (JSON through [`CsrfClient`]) following, cancelling and deleting an
//! operation, and starting a maintenance task.

use leptos::prelude::*;
use leptos::server_fn::codec::{GetUrl, Json};

use super::CsrfClient;
#[cfg(feature = "ssr")]
use crate::backend::{api_error::ApiError, operations::Viewer};
use crate::contract::error::ErrorBody;
use crate::contract::operations::{MaintenanceTask, Operation, OperationList};

/// How many operations a page of the viewer shows.
pub const PAGE_SIZE: i64 = 20;

/// The signed-in user's operations (everyone's for administrators) that
/// match `filter` (AIP-160, as `/v1/operations` takes it), newest first.
#[server(prefix = "/api/fn", endpoint = "operations", input = GetUrl)]
pub async fn list_operations(
    filter: String,
    page_token: Option<String>,
) -> Result<OperationList, ErrorBody> {
    use crate::backend::operations::{ListRequest, Record};

    let me = super::signed_in::as_declared::<ListOperations>().await?;
    let viewer = Viewer::of(&me.current.user);
    let request = ListRequest {
        owner: None,
        filter,
        page_size: Some(PAGE_SIZE),
        page_token,
    };
    let page = me.services.operations.list(viewer, &request).await?;
    Ok(OperationList {
        operations: page.operations.iter().map(Record::to_operation).collect(),
        next_page_token: page.next_page_token,
    })
}

/// `operations/{id}` → `id`; anything else is no operation of this API.
#[cfg(feature = "ssr")]
fn id_of(name: &str) -> Result<&str, ApiError> {
    name.strip_prefix("operations/")
        .filter(|id| !id.is_empty() && !id.contains('/'))
        .ok_or_else(|| ApiError::NotFound(format!("operation {name:?} not found")))
}

/// The operation once it is done, or after about a second with fresh
/// progress (what a live row or card re-draws from).
#[server(prefix = "/api/fn", endpoint = "operations/wait", input = Json, client = CsrfClient)]
pub async fn wait_operation(name: String) -> Result<Operation, ErrorBody> {
    let me = super::signed_in::as_declared::<WaitOperation>().await?;
    let id = id_of(&name)?;
    let record = me
        .services
        .operations
        .wait(
            Viewer::of(&me.current.user),
            id,
            std::time::Duration::from_secs(1),
        )
        .await?;
    Ok(record.to_operation())
}

/// Asks a running operation to stop: the viewer's Cancel, a form that
/// posts without JavaScript too.
#[server(prefix = "/api/fn", endpoint = "operations/cancel", client = CsrfClient)]
pub async fn cancel_operation(name: String) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<CancelOperation>().await?;
    let id = id_of(&name)?;
    me.services
        .operations
        .cancel(Viewer::of(&me.current.user), id)
        .await?;
    Ok(())
}

/// Forgets an operation (a running one keeps running): the viewer's
/// Delete, a form that posts without JavaScript too.
#[server(prefix = "/api/fn", endpoint = "operations/delete", client = CsrfClient)]
pub async fn delete_operation(name: String) -> Result<(), ErrorBody> {
    let me = super::signed_in::as_declared::<DeleteOperation>().await?;
    let id = id_of(&name)?;
    me.services
        .operations
        .delete(Viewer::of(&me.current.user), id)
        .await?;
    Ok(())
}

/// Starts a maintenance task as an operation (administrators only).
#[server(prefix = "/api/fn", endpoint = "operations/maintenance", client = CsrfClient)]
pub async fn start_maintenance(task: MaintenanceTask) -> Result<Operation, ErrorBody> {
    use crate::backend::operations::Job;
    let admin = super::signed_in::as_declared::<StartMaintenance>().await?;
    let services = &admin.services;
    let job: Box<dyn Job> = match task {
        MaintenanceTask::Backup => Box::new(services.backups.backup()),
        MaintenanceTask::RestoreCheck => Box::new(services.backups.restore_check(None)),
        MaintenanceTask::ReencryptSecrets => Box::new(services.reencrypt.clone()),
    };
    let record = services
        .operations
        .start_boxed(Some(admin.current.user.id), job)
        .await?;
    Ok(record.to_operation())
}
