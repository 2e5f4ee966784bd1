//! The two operations of an import: the preview (parse, find what is
//! already there, stage the rows, sum up) and the commit (add the new
//! rows, then match them to bills and check autopay as a bank sync does).
//! Both can run again after a restart: the preview starts over, the commit
//! adds only what is not there yet. As operations: `statement_preview` and
//! `statement_import`, with progress row by row.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use sqlx::SqlitePool;

use super::parse::{self, Format, Options};
use super::rules::{self, Planned};
use super::service::parse_date_order;
use super::{store, ImportError};
use crate::backend::operations::messages::{
    Message, StatementImportMetadata, StatementImportResponse, StatementPreviewMetadata,
    StatementPreviewResponse,
};
use crate::backend::operations::{job, percent, Engine, Job, JobContext, Running, Status};
use crate::backend::secrets::{Keyring, BANK_ACCESS_SECRET};
use crate::contract::statements::ImportPreviewSummary;
use crate::domain::operation_kind::OperationKind;

/// Rows staged or added per write transaction.
const BATCH: usize = 2_000;

/// How far an import's step is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
}

/// What the commit did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    pub added: i64,
    pub already_there: i64,
    pub matched: i64,
}

type Cancelled<'a> = &'a (dyn Fn() -> bool + Sync);

/// The `statement_preview` operation's work.
async fn preview(
    pool: &SqlitePool,
    import_id: i64,
    progress: &tokio::sync::watch::Sender<Progress>,
    cancelled: Cancelled<'_>,
) -> Result<ImportPreviewSummary, ImportError> {
    let import = store::import(pool, import_id)
        .await?
        .ok_or_else(|| ImportError::NotFound(format!("no import {import_id}")))?;
    if import.state != "uploaded" {
        return import
            .preview()
            .ok_or_else(|| ImportError::NotNow("this import was previewed already".into()));
    }
    let file = store::file(pool, import_id)
        .await?
        .ok_or_else(|| ImportError::NotNow("the file is gone; send it again".into()))?;
    let format = Format::parse(&import.format)
        .ok_or_else(|| ImportError::NotNow(format!("unknown format {}", import.format)))?;
    let options = Options {
        date_order: import.date_order.as_deref().and_then(parse_date_order),
    };
    // Parsing ten megabytes is work for a blocking thread.
    let parsed = tokio::task::spawn_blocking(move || parse::parse(&file, format, &options))
        .await
        .map_err(|error| ImportError::NotNow(format!("reading the file stopped: {error}")))?;
    let statement = match parsed {
        Ok(statement) => statement,
        Err(error) => {
            store::failed(pool, import_id, &error.to_string()).await?;
            return Err(error.into());
        }
    };

    // Where each account of the file goes.
    let mut targets: HashMap<String, (String, String)> = HashMap::new();
    let mut prefixes: HashMap<String, String> = HashMap::new();
    if let Some(account_id) = import.account_id {
        if statement.accounts.len() > 1 {
            let why = format!(
                "the file holds {} accounts, so it cannot all go to one: import it without choosing an account",
                statement.accounts.len()
            );
            store::failed(pool, import_id, &why).await?;
            return Err(ImportError::NotNow(why));
        }
        let (name, prefix, currency) = store::account(pool, import.user_id, account_id)
            .await?
            .ok_or_else(|| ImportError::NotFound("the chosen account is gone".into()))?;
        for account in &statement.accounts {
            targets.insert(account.id.clone(), (name.clone(), currency.clone()));
            prefixes.insert(account.id.clone(), prefix.clone());
        }
    } else {
        for account in &statement.accounts {
            let name = account.name.clone().unwrap_or_else(|| {
                if account.id.is_empty() {
                    import.file_name.clone()
                } else {
                    format!("{} {}", import.file_name, account.id)
                }
            });
            let currency = account.currency.clone().unwrap_or_else(|| "USD".into());
            targets.insert(account.id.clone(), (name, currency));
            prefixes.insert(
                account.id.clone(),
                rules::imported_account_id(&account.id, &import.file_name),
            );
        }
    }

    let mut planned: Vec<Planned> = Vec::new();
    for account in &statement.accounts {
        let prefix = prefixes.get(&account.id).cloned().unwrap_or_default();
        let existing = store::existing_ids(pool, import.user_id, &prefix).await?;
        planned.extend(rules::plan(account, &prefix, &existing));
    }

    store::unstage(pool, import_id).await?;
    let total = i64::try_from(planned.len()).unwrap_or(i64::MAX);
    let mut done = 0_i64;
    for batch in planned.chunks(BATCH) {
        if cancelled() {
            return Err(ImportError::NotNow("cancelled".into()));
        }
        let mut tx = crate::backend::db::write(pool).await?;
        store::stage(&mut tx, import_id, done + 1, batch).await?;
        tx.commit().await?;
        done += i64::try_from(batch.len()).unwrap_or(0);
        progress.send_replace(Progress { done, total });
    }
    let summary = rules::summary(&statement, &planned, &targets);
    let text = serde_json::to_string(&summary)
        .map_err(|error| ImportError::NotNow(format!("the summary cannot be kept: {error}")))?;
    let mut tx = crate::backend::db::write(pool).await?;
    store::previewed(&mut tx, import_id, &text).await?;
    tx.commit().await?;
    Ok(summary)
}

/// The `statement_import` operation's work.
async fn commit(
    pool: &SqlitePool,
    keyring: &Keyring,
    import_id: i64,
    progress: &tokio::sync::watch::Sender<Progress>,
    cancelled: Cancelled<'_>,
) -> Result<Committed, ImportError> {
    let import = store::import(pool, import_id)
        .await?
        .ok_or_else(|| ImportError::NotFound(format!("no import {import_id}")))?;
    if !matches!(import.state.as_str(), "previewed" | "committed") {
        return Err(ImportError::NotNow(
            "this import has no preview to commit".into(),
        ));
    }
    let summary: ImportPreviewSummary = import.preview().unwrap_or_default();

    // The accounts the rows go to: the chosen one, or imported accounts
    // (made now, under the user's connection for imported statements).
    let mut accounts: HashMap<String, i64> = HashMap::new();
    {
        let mut tx = crate::backend::db::write(pool).await?;
        match import.account_id {
            Some(account_id) => {
                for account in &summary.accounts {
                    accounts.insert(account.file_account.clone(), account_id);
                }
            }
            None => {
                let marker = keyring
                    .seal(BANK_ACCESS_SECRET, "imported statements")
                    .map_err(|error| ImportError::Sealing(error.to_string()))?;
                let connection = store::file_connection(&mut tx, import.user_id, &marker).await?;
                for account in &summary.accounts {
                    let provider_account_id =
                        rules::imported_account_id(&account.file_account, &import.file_name);
                    let id = store::imported_account(
                        &mut tx,
                        import.user_id,
                        connection,
                        &provider_account_id,
                        &account.target,
                        &account.currency,
                    )
                    .await?;
                    if let Some(balance) = &account.balance {
                        store::set_balance(&mut tx, id, balance.statement_minor, &balance.day)
                            .await?;
                    }
                    accounts.insert(account.file_account.clone(), id);
                }
            }
        }
        tx.commit().await?;
    }

    let total = store::staged_count(pool, import_id).await?;
    let mut counts = Committed::default();
    let mut after = 0_i64;
    let mut done = 0_i64;
    loop {
        if cancelled() {
            return Err(ImportError::NotNow("cancelled".into()));
        }
        let page = store::staged(
            pool,
            import_id,
            after,
            i64::try_from(BATCH).unwrap_or(2_000),
        )
        .await?;
        let Some(last) = page.last() else { break };
        after = last.row;
        let mut tx = crate::backend::db::write(pool).await?;
        for row in &page {
            let Some(account_id) = accounts.get(&row.file_account) else {
                continue;
            };
            if !row.duplicate
                && store::add_transaction(&mut tx, import.user_id, *account_id, row).await?
            {
                counts.added += 1;
            } else {
                counts.already_there += 1;
            }
        }
        tx.commit().await?;
        done += i64::try_from(page.len()).unwrap_or(0);
        progress.send_replace(Progress { done, total });
    }
    let mut tx = crate::backend::db::write(pool).await?;
    store::committed(&mut tx, import_id).await?;
    tx.commit().await?;

    // As after a bank sync: the new rows meet the bills' merchant rules and
    // the autopay check (each failure only logged: the rows are in).
    match crate::backend::bank::matching::auto_match(pool, import.user_id).await {
        Ok(matched) => counts.matched = i64::from(matched),
        Err(error) => tracing::warn!(%error, "imported rows were not matched to bills"),
    }
    if let Err(error) = crate::backend::bank::autopay::check(pool, import.user_id).await {
        tracing::warn!(%error, "the autopay check after an import failed");
    }
    Ok(counts)
}

/// What the statement jobs work with.
#[derive(Clone)]
pub struct StatementJobs {
    pool: SqlitePool,
    keyring: Arc<Keyring>,
}

impl StatementJobs {
    pub fn new(pool: SqlitePool, keyring: Arc<Keyring>) -> Self {
        Self { pool, keyring }
    }

    /// `statement_preview` of the import `import`.
    pub fn preview(&self, import: i64) -> impl Job {
        Step {
            jobs: self.clone(),
            kind: OperationKind::StatementPreview,
            import,
        }
    }

    /// `statement_import`: the previewed import `import`'s commit.
    pub fn commit(&self, import: i64) -> impl Job {
        Step {
            jobs: self.clone(),
            kind: OperationKind::StatementImport,
            import,
        }
    }

    /// Both steps start again after a restart: the preview starts over,
    /// the commit adds only what is not there yet.
    pub fn register(&self, engine: &Engine) {
        for kind in [
            OperationKind::StatementPreview,
            OperationKind::StatementImport,
        ] {
            let jobs = self.clone();
            engine.resume_with(
                kind,
                Box::new(move |fields| {
                    let import = job::int64_field(fields, "import")?;
                    Some(Box::new(Step {
                        jobs: jobs.clone(),
                        kind,
                        import,
                    }))
                }),
            );
        }
    }
}

/// A preview or a commit of one import.
struct Step {
    jobs: StatementJobs,
    kind: OperationKind,
    import: i64,
}

impl Job for Step {
    fn kind(&self) -> OperationKind {
        self.kind
    }

    /// A preview's and a commit's metadata have the same fields.
    fn parameters(&self) -> Value {
        parameters(self.import).to_json()
    }

    fn run<'a>(&'a self, context: &'a JobContext) -> Running<'a> {
        if self.kind == OperationKind::StatementImport {
            Box::pin(run_commit(context, &self.jobs, self.import))
        } else {
            Box::pin(run_preview(context, &self.jobs, self.import))
        }
    }
}

/// The metadata's parameters: the import (repeated in every report, so the
/// job can be rebuilt after a restart). A preview's and a commit's
/// metadata have the same fields.
fn parameters(import: i64) -> StatementPreviewMetadata {
    StatementPreviewMetadata {
        import,
        ..StatementPreviewMetadata::default()
    }
}

fn preview_progress(import: i64, progress: Progress) -> Value {
    StatementPreviewMetadata {
        import,
        rows_done: progress.done,
        rows_total: progress.total,
    }
    .to_json()
}

fn import_progress(import: i64, progress: Progress) -> Value {
    StatementImportMetadata {
        import,
        rows_done: progress.done,
        rows_total: progress.total,
    }
    .to_json()
}

fn status_of(error: ImportError) -> Status {
    match error {
        ImportError::File(error) => Status::new(Status::INVALID_ARGUMENT, format!("file: {error}")),
        ImportError::NotNow(message) if message == "cancelled" => {
            Status::new(Status::CANCELLED, "cancelled")
        }
        ImportError::NotNow(message) | ImportError::NotFound(message) => {
            Status::new(Status::FAILED_PRECONDITION, message)
        }
        other => Status::new(Status::INTERNAL, other.to_string()),
    }
}

async fn run_preview(
    context: &JobContext,
    jobs: &StatementJobs,
    import: i64,
) -> Result<Value, Status> {
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        preview(&jobs.pool, import, &sender, &cancelled).await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (preview_progress(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let summary = result.map_err(status_of)?;
    context.checkpoint()?;
    Ok(StatementPreviewResponse {
        import,
        rows: summary.rows,
        new_rows: summary.new_rows,
        duplicates: summary.duplicates,
        refused: summary.refused_count,
        first_day: summary.first_day.unwrap_or_default(),
        last_day: summary.last_day.unwrap_or_default(),
    }
    .to_json())
}

async fn run_commit(
    context: &JobContext,
    jobs: &StatementJobs,
    import: i64,
) -> Result<Value, Status> {
    let (sender, updates) = tokio::sync::watch::channel(Progress::default());
    let work = async move {
        let cancelled = || context.is_cancelled();
        commit(&jobs.pool, &jobs.keyring, import, &sender, &cancelled).await
    };
    let reports = context.report_progress(updates, |now: Progress| {
        (import_progress(import, now), percent(now.done, now.total))
    });
    let (result, ()) = tokio::join!(work, reports);
    let committed = result.map_err(status_of)?;
    context.checkpoint()?;
    Ok(StatementImportResponse {
        import,
        added: committed.added,
        already_there: committed.already_there,
        matched: committed.matched,
    }
    .to_json())
}
