//! Admin → Backups and Admin → Status: server functions over the same
//! services as `/api/admin/backups`, `/api/admin/status` and
//! `/v1/admin:restore`, for administrators only. Its writes are the
//! page's forms, which post without JavaScript too.

use leptos::prelude::*;
use leptos::server_fn::codec::GetUrl;

use super::CsrfClient;
use crate::contract::admin::{BackupFiles, SchemaState, SystemStatus};
use crate::contract::error::ErrorBody;
use crate::contract::operations::Operation;
use crate::contract::operations::RestoreRequest;
#[cfg(feature = "ssr")]
use crate::domain::validation::FieldViolation;

/// How the instance is, worded as rows.
#[server(prefix = "/api/fn", endpoint = "admin/status", input = GetUrl)]
pub async fn get_system_status() -> Result<SystemStatus, ErrorBody> {
    let admin = super::signed_in::as_declared::<GetSystemStatus>().await?;
    Ok(crate::backend::status::system_status(&admin.services).await?)
}

/// The backups, newest first.
#[server(prefix = "/api/fn", endpoint = "admin/backups", input = GetUrl)]
pub async fn list_backup_files() -> Result<BackupFiles, ErrorBody> {
    let admin = super::signed_in::as_declared::<ListBackupFiles>().await?;
    Ok(crate::backend::backup::files(
        &admin.services.instance.backups_dir,
    )?)
}

/// The newest migration and whether it can be rolled back.
#[server(prefix = "/api/fn", endpoint = "admin/schema", input = GetUrl)]
pub async fn get_schema_state() -> Result<SchemaState, ErrorBody> {
    let admin = super::signed_in::as_declared::<GetSchemaState>().await?;
    Ok(crate::backend::migrate::admin::schema_state(admin.pool()).await?)
}

/// Replays one backup into a scratch database (an operation).
#[server(prefix = "/api/fn", endpoint = "admin/check-backup", client = CsrfClient)]
pub async fn check_backup_file(name: String) -> Result<Operation, ErrorBody> {
    let admin = super::signed_in::as_declared::<CheckBackupFile>().await?;
    if !crate::backend::backup::is_backup_name(&name) {
        return Err(FieldViolation::new("name", format!("{name:?} is not a backup name")).into());
    }
    let record = admin
        .services
        .operations
        .start(
            Some(admin.current.user.id),
            admin.services.backups.restore_check(Some(name)),
        )
        .await?;
    Ok(record.to_operation())
}

/// Restores a backup into the live database (an operation), when `confirm`
/// repeats its name and the administrator's password is right.
#[server(prefix = "/api/fn", endpoint = "admin/restore-backup", client = CsrfClient)]
pub async fn restore_backup_file(request: RestoreRequest) -> Result<Operation, ErrorBody> {
    let (services, admin) =
        super::signed_in::confirmed_administrator(&request.current_password).await?;
    let record = crate::backend::backup::start_restore(
        &services.operations,
        &services.backups,
        &admin,
        &request.backup_file,
        &request.confirm,
    )
    .await?;
    // Without JavaScript, back to the list (not its restore form).
    super::form_post::then_open("/admin/backups");
    Ok(record.to_operation())
}

/// Rolls back the newest migration, when `confirm` names its version.
#[server(prefix = "/api/fn", endpoint = "admin/roll-back-migration", client = CsrfClient)]
pub async fn roll_back_migration(confirm: String) -> Result<SchemaState, ErrorBody> {
    let admin = super::signed_in::as_declared::<RollBackMigration>().await?;
    Ok(crate::backend::migrate::admin::roll_back_latest(admin.pool(), &confirm).await?)
}
