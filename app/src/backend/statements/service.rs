//! The use cases of a statement import: upload a file (its preview starts
//! as an operation), read an import and its preview, commit it (another
//! operation) or discard it. Nothing reaches the transactions before the
//! commit.

use std::path::PathBuf;
use std::sync::Arc;

use sqlx::SqlitePool;

use super::jobs::StatementJobs;
use super::parse::{self, DateOrder, MAX_BYTES};
use super::{rules, store, ImportError, PREVIEW_HOURS};
use crate::backend::operations::Engine;
use crate::backend::secrets::Keyring;
use crate::backend::upload_quota;
use crate::contract::operations::Operation;
use crate::contract::statements::{ImportOptions, ImportRow, ImportStarted, StatementImport};

/// What statement imports work with, assembled once at start-up: the
/// database, the operations engine, the feature's own jobs, and the
/// scratch directory (where other waiting uploads are kept, counted with
/// these by `upload_quota`).
#[derive(Clone)]
pub struct Imports {
    pool: SqlitePool,
    operations: Arc<Engine>,
    jobs: StatementJobs,
    scratch: PathBuf,
}

impl Imports {
    /// The feature, its operation kinds registered with `operations`.
    pub fn new(
        pool: SqlitePool,
        operations: Arc<Engine>,
        keyring: Arc<Keyring>,
        scratch: PathBuf,
    ) -> Self {
        let jobs = StatementJobs::new(pool.clone(), keyring);
        jobs.register(&operations);
        Self {
            pool,
            operations,
            jobs,
            scratch,
        }
    }
}

/// How many rows `GET /api/imports/{id}` shows.
pub const ROWS_SHOWN: i64 = 200;

/// `POST /api/imports`: checks the file and the choices, keeps the file
/// and starts its preview.
pub async fn upload(
    imports: &Imports,
    user_id: i64,
    options: ImportOptions,
    file: &[u8],
) -> Result<ImportStarted, ImportError> {
    if file.len() > MAX_BYTES {
        return Err(ImportError::TooLarge { limit: MAX_BYTES });
    }
    if file.is_empty() {
        return Err(invalid("file", "the file is empty"));
    }
    let file_name = options
        .file_name
        .as_deref()
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .unwrap_or("statement");
    if file_name.chars().count() > 200 || file_name.chars().any(char::is_control) {
        return Err(invalid("fileName", "at most 200 characters, on one line"));
    }
    let date_order = match options.date_order.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(order) => Some(
            parse_date_order(order)
                .ok_or_else(|| invalid("dateOrder", "dmy (day first) or mdy (month first)"))?,
        ),
    };
    let format = parse::detect(file, Some(file_name))
        .ok_or_else(|| invalid("file", &parse::ParseError::NotRecognized.to_string()))?;
    if let Some(account_id) = options.account_id {
        if store::account(&imports.pool, user_id, account_id)
            .await?
            .is_none()
        {
            return Err(invalid("accountId", "no such bank account of yours"));
        }
    }
    store::forget_expired(&imports.pool).await?;
    upload_quota::one_import_at_a_time(&imports.pool, user_id).await?;
    no_personal_import(&imports.pool, user_id).await?;
    upload_quota::check(&imports.pool, &imports.scratch, user_id, file.len()).await?;
    let id = store::create(
        &imports.pool,
        user_id,
        file_name,
        format.as_str(),
        options.account_id,
        date_order.map(date_order_name),
        file,
        PREVIEW_HOURS,
    )
    .await?;
    // Read before the preview starts: the answer is the import as
    // uploaded, not whatever a fast preview has made of it meanwhile.
    let import = read(&imports.pool, user_id, id).await?;
    let record = imports
        .operations
        .start(Some(user_id), imports.jobs.preview(id))
        .await?;
    Ok(ImportStarted {
        import,
        operation: record.to_operation(),
    })
}

/// `GET /api/imports/{id}`: the import, its preview's summary and first
/// rows.
pub async fn read(
    pool: &sqlx::SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<StatementImport, ImportError> {
    let import = owned(pool, user_id, id).await?;
    let (preview, error) = match import.state.as_str() {
        "previewed" | "committed" => (import.preview(), None),
        "failed" => (None, import.summary.clone()),
        _ => (None, None),
    };
    let rows = store::staged(pool, id, 0, ROWS_SHOWN)
        .await?
        .into_iter()
        .map(|row| ImportRow {
            file_account: row.file_account,
            day: row.posted_day,
            amount_minor: row.amount_cents,
            description: row.description,
            memo: row.memo,
            duplicate: row.duplicate,
        })
        .collect();
    Ok(StatementImport {
        id: import.id,
        file_name: import.file_name,
        format: import.format,
        state: import.state,
        account_id: import.account_id,
        created_at: import.created_at,
        expires_at: import.expires_at,
        error,
        preview,
        rows,
    })
}

/// `POST /api/imports/{id}/commit`: starts adding the new rows.
pub async fn commit(imports: &Imports, user_id: i64, id: i64) -> Result<Operation, ImportError> {
    let import = owned(&imports.pool, user_id, id).await?;
    match import.state.as_str() {
        "committed" => {
            return Err(ImportError::NotNow(
                "this import is committed already".into(),
            ))
        }
        "failed" => {
            return Err(ImportError::NotNow(
                "the file was refused, so there is nothing to import; send a corrected file".into(),
            ))
        }
        "uploaded" => {
            return Err(ImportError::NotNow(
                "the preview is not ready yet; wait for its operation to finish".into(),
            ))
        }
        _ => {}
    }
    if import.expired {
        return Err(ImportError::NotNow(format!(
            "this preview expired after {PREVIEW_HOURS} hours; send the file again"
        )));
    }
    upload_quota::one_import_at_a_time(&imports.pool, user_id).await?;
    no_personal_import(&imports.pool, user_id).await?;
    let record = imports
        .operations
        .start(Some(user_id), imports.jobs.commit(id))
        .await?;
    Ok(record.to_operation())
}

/// `DELETE /api/imports/{id}`: forgets a preview the person does not
/// want, with its staged rows, so it no longer counts toward the uploads
/// they may leave waiting (`upload_quota`). Another person's import is
/// not found, as for `read`; one whose preview or commit is running, or
/// that is committed, is refused (409).
pub async fn discard(imports: &Imports, user_id: i64, id: i64) -> Result<(), ImportError> {
    // The look and the delete are one write transaction, so no job of the
    // import starts between them (a commit asked for meanwhile starts
    // after it, and finds the import gone).
    let mut tx = crate::backend::db::write(&imports.pool).await?;
    let import = store::import(&mut *tx, id)
        .await?
        .filter(|import| import.user_id == user_id)
        .ok_or_else(|| not_yours(id))?;
    let running = store::running(&mut tx, user_id, id).await?;
    if let Some(why) = rules::discard_refusal(&import.state, running) {
        return Err(ImportError::CannotDiscard(why.into()));
    }
    if !store::discard(&mut tx, user_id, id).await? {
        return Err(not_yours(id));
    }
    tx.commit().await?;
    Ok(())
}

/// The import `id` when it is the user's.
async fn owned(
    pool: &sqlx::SqlitePool,
    user_id: i64,
    id: i64,
) -> Result<store::Import, ImportError> {
    store::import(pool, id)
        .await?
        .filter(|import| import.user_id == user_id)
        .ok_or_else(|| not_yours(id))
}

/// No import `id` of the person's: theirs or nobody's, said the same way.
fn not_yours(id: i64) -> ImportError {
    ImportError::NotFound(format!("no import {id} of yours"))
}

fn invalid(field: &'static str, description: &str) -> ImportError {
    ImportError::Invalid {
        field,
        description: description.into(),
    }
}

pub fn parse_date_order(text: &str) -> Option<DateOrder> {
    match text {
        "dmy" => Some(DateOrder::DayFirst),
        "mdy" => Some(DateOrder::MonthFirst),
        _ => None,
    }
}

fn date_order_name(order: DateOrder) -> &'static str {
    match order {
        DateOrder::DayFirst => "dmy",
        DateOrder::MonthFirst => "mdy",
    }
}

/// A statement job does not start while the person's own data import is
/// being copied: one import of theirs at a time, whichever kind (the
/// personal import's turn refuses while a statement job runs).
async fn no_personal_import(pool: &sqlx::SqlitePool, user_id: i64) -> Result<(), ImportError> {
    if crate::backend::personal_data::service::importing(pool, user_id).await? {
        return Err(upload_quota::UploadQuotaError::Importing {
            retry_after: upload_quota::rules::RUNNING_RETRY,
        }
        .into());
    }
    Ok(())
}
