//! The engine every slow task runs on. It starts a job as a task with a
//! cancellation token, records its progress and its one outcome, wakes
//! waiters the moment an operation ends (a `watch` channel per running
//! operation: no polling), and on start-up resumes or aborts what a previous
//! run left unfinished. It knows no kind: a feature hands it jobs to run
//! and registers how to resume its own kinds (`Engine::resume_with`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::context::JobContext;
use super::filter::{self, FilterError};
use super::job::{Job, Resume};
use super::page_token::{self, PageTokenError, PageTokens, Position};
use super::record::{Outcome, Record, Status};
use super::store;
use crate::backend::settings::{self, Scope};
use crate::contract::account::User;
use crate::domain::operation_kind::OperationKind;

pub const DEFAULT_PAGE_SIZE: u32 = 50;
pub const MAX_PAGE_SIZE: u32 = 1000;
const PAGE_TOKEN_KEY: &str = "operations_page_token_key";

#[derive(Debug, thiserror::Error)]
pub enum OperationsError {
    #[error("operation {0:?} not found")]
    NotFound(String),
    #[error(transparent)]
    Filter(#[from] FilterError),
    #[error(transparent)]
    PageToken(#[from] PageTokenError),
    #[error("page_size must be between 0 and {MAX_PAGE_SIZE}; got {0}")]
    PageSize(i64),
    /// Someone who is no administrator asked for another's operations.
    #[error("you can list only your own operations")]
    NotYours,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Who is asking: users see their own operations, administrators all.
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    pub user_id: i64,
    pub admin: bool,
}

impl Viewer {
    /// `user`, who sees every operation when an administrator.
    pub fn of(user: &User) -> Self {
        Self {
            user_id: user.id,
            admin: user.is_admin(),
        }
    }

    fn may_see(self, record: &Record) -> bool {
        self.admin || record.owner_id == Some(self.user_id)
    }
}

/// What ListOperations asks for.
#[derive(Clone, Debug, Default)]
pub struct ListRequest {
    /// Only this owner's operations (the per-user binding).
    pub owner: Option<i64>,
    pub filter: String,
    pub page_size: Option<i64>,
    pub page_token: Option<String>,
}

pub struct Page {
    pub operations: Vec<Record>,
    pub next_page_token: Option<String>,
}

/// A running operation, as this process knows it.
struct Live {
    done: watch::Sender<bool>,
    cancel: CancellationToken,
}

pub struct Engine {
    pool: SqlitePool,
    live: Mutex<HashMap<String, Live>>,
    /// How each resumable kind is taken back up, as its feature registered.
    resumes: Mutex<HashMap<OperationKind, Resume>>,
    page_tokens: PageTokens,
    retention: Duration,
}

impl Engine {
    /// The engine, with its page-token key (made on first use and kept in
    /// `settings`, so tokens survive a restart).
    pub async fn new(pool: SqlitePool, retention: Duration) -> Result<Arc<Self>, sqlx::Error> {
        let key = match settings::get(&pool, Scope::Instance, PAGE_TOKEN_KEY).await? {
            Some(key) => key,
            None => {
                let key = page_token::fresh_key();
                settings::set(&pool, Scope::Instance, PAGE_TOKEN_KEY, &key).await?;
                key
            }
        };
        Ok(Arc::new(Self {
            pool,
            live: Mutex::new(HashMap::new()),
            resumes: Mutex::new(HashMap::new()),
            page_tokens: PageTokens::new(key.into_bytes()),
            retention,
        }))
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        // A poisoned map still holds valid entries; keep going.
        self.live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A feature's way to take an unfinished operation of `kind` back up
    /// after a restart ([`Engine::recover`]). A kind with none registered
    /// is ended with ABORTED instead.
    pub fn resume_with(&self, kind: OperationKind, resume: Resume) {
        self.resumes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(kind, resume);
    }

    /// Records a new operation for `owner` and starts its job.
    pub async fn start(
        self: &Arc<Self>,
        owner: Option<i64>,
        job: impl Job,
    ) -> Result<Record, OperationsError> {
        self.start_boxed(owner, Box::new(job)).await
    }

    /// [`Engine::start`] for a job whose type is chosen at run time.
    pub async fn start_boxed(
        self: &Arc<Self>,
        owner: Option<i64>,
        job: Box<dyn Job>,
    ) -> Result<Record, OperationsError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let record = store::insert(&self.pool, &id, owner, job.kind(), &job.parameters()).await?;
        self.spawn(record.clone(), job);
        Ok(record)
    }

    /// Registers an operation as running without a job: the caller ends it
    /// with [`Engine::finish`]. Tests of the state machine drive it this way.
    pub async fn start_external(
        &self,
        owner: Option<i64>,
        kind: OperationKind,
    ) -> Result<Record, OperationsError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let record = store::insert(&self.pool, &id, owner, kind, &serde_json::json!({})).await?;
        self.register(&record.id);
        Ok(record)
    }

    fn register(&self, id: &str) -> CancellationToken {
        let (done, _) = watch::channel(false);
        let cancel = CancellationToken::new();
        self.live().insert(
            id.to_owned(),
            Live {
                done,
                cancel: cancel.clone(),
            },
        );
        cancel
    }

    fn spawn(self: &Arc<Self>, record: Record, job: Box<dyn Job>) {
        let cancel = self.register(&record.id);
        let engine = Arc::clone(self);
        tokio::spawn(async move {
            let context = JobContext::new(engine.pool.clone(), record.id.clone(), cancel);
            let outcome = match job.run(&context).await {
                Ok(response) => Outcome::Response(response),
                Err(status) => Outcome::Error(status),
            };
            let kind = job.kind();
            if let Err(error) = engine.finish(&record.id, kind, outcome).await {
                tracing::error!(operation = %record.id, %error, "could not record the end of an operation");
            }
        });
    }

    /// Records the outcome (ignored if the operation already ended) and
    /// wakes everyone waiting on it.
    pub async fn finish(
        &self,
        id: &str,
        kind: OperationKind,
        outcome: Outcome,
    ) -> Result<bool, sqlx::Error> {
        let ended = store::finish(&self.pool, id, Some(kind), &outcome).await;
        if let Some(live) = self.live().remove(id) {
            live.done.send_replace(true);
        }
        let ended = ended?;
        if ended {
            match &outcome {
                Outcome::Response(_) => {
                    tracing::info!(operation = %id, kind = kind.name(), "operation succeeded")
                }
                Outcome::Error(status) => {
                    tracing::info!(operation = %id, kind = kind.name(), code = status.code, message = %status.message, "operation ended with an error")
                }
            }
        }
        Ok(ended)
    }

    pub async fn get(&self, viewer: Viewer, id: &str) -> Result<Record, OperationsError> {
        match store::get(&self.pool, id).await? {
            Some(record) if viewer.may_see(&record) => Ok(record),
            // Someone else's operation reads as missing: names are not a way
            // to learn what others run.
            _ => Err(OperationsError::NotFound(format!("operations/{id}"))),
        }
    }

    pub async fn list(
        &self,
        viewer: Viewer,
        request: &ListRequest,
    ) -> Result<Page, OperationsError> {
        let size = match request.page_size {
            None | Some(0) => DEFAULT_PAGE_SIZE,
            Some(size) if size < 0 => return Err(OperationsError::PageSize(size)),
            Some(size) => {
                u32::try_from(size.min(i64::from(MAX_PAGE_SIZE))).unwrap_or(MAX_PAGE_SIZE)
            }
        };
        let owner = match (viewer.admin, request.owner) {
            (false, Some(owner)) if owner != viewer.user_id => {
                return Err(OperationsError::NotYours)
            }
            (_, Some(owner)) => Some(owner),
            (true, None) => None,
            (false, None) => Some(viewer.user_id),
        };
        let filter = filter::parse(&request.filter)?;
        let scope = format!(
            "{}|{}",
            request.filter.trim(),
            owner.map_or("all".to_owned(), |o| o.to_string())
        );
        let after = match request
            .page_token
            .as_deref()
            .filter(|token| !token.is_empty())
        {
            Some(token) => Some(self.page_tokens.open(&scope, token)?),
            None => None,
        };
        let mut operations =
            store::page(&self.pool, owner, filter.as_ref(), after.as_ref(), size).await?;
        let next_page_token = if operations.len() > size as usize {
            operations.truncate(size as usize);
            operations.last().map(|last| {
                self.page_tokens.seal(
                    &scope,
                    &Position {
                        created_at: last.created_at.clone(),
                        id: last.id.clone(),
                    },
                )
            })
        } else {
            None
        };
        Ok(Page {
            operations,
            next_page_token,
        })
    }

    /// Asks a running operation to stop (best effort). A done one is left
    /// as it is.
    pub async fn cancel(&self, viewer: Viewer, id: &str) -> Result<(), OperationsError> {
        self.get(viewer, id).await?;
        if store::request_cancel(&self.pool, id).await? {
            if let Some(live) = self.live().get(id) {
                live.cancel.cancel();
            }
        }
        Ok(())
    }

    /// The client no longer wants the result. Does not cancel.
    pub async fn delete(&self, viewer: Viewer, id: &str) -> Result<(), OperationsError> {
        self.get(viewer, id).await?;
        store::delete(&self.pool, id).await?;
        Ok(())
    }

    /// Returns as soon as the operation is done, or after `timeout`.
    pub async fn wait(
        &self,
        viewer: Viewer,
        id: &str,
        timeout: Duration,
    ) -> Result<Record, OperationsError> {
        let record = self.get(viewer, id).await?;
        if record.done {
            return Ok(record);
        }
        let subscription = self.live().get(id).map(|live| live.done.subscribe());
        if let Some(mut done) = subscription {
            // Ends early when the operation ends (or the sender is dropped
            // because it just ended).
            let _ = tokio::time::timeout(timeout, done.wait_for(|done| *done)).await;
        }
        self.get(viewer, id).await
    }

    /// Whether the operation is running in this process.
    pub fn is_live(&self, id: &str) -> bool {
        self.live().contains_key(id)
    }

    /// The job an unfinished record stands for, if its kind's feature
    /// registered a way to resume it.
    fn resumed(&self, record: &Record) -> Option<Box<dyn Job>> {
        let kind = record.kind()?;
        let resumes = self
            .resumes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        resumes.get(&kind)?(&record.metadata_fields())
    }

    /// Start-up, once every feature registered its kinds: resumes the
    /// unfinished operations a feature can take back up and ends the
    /// others with ABORTED (a cancelled one with CANCELLED).
    pub async fn recover(self: &Arc<Self>) -> Result<(usize, usize), sqlx::Error> {
        let (mut resumed, mut aborted) = (0, 0);
        for record in store::unfinished(&self.pool).await? {
            let job = if record.cancel_requested {
                None
            } else {
                self.resumed(&record)
            };
            match job {
                Some(job) => {
                    tracing::info!(operation = %record.id, kind = %record.kind, "resuming an operation after a restart");
                    store::set_metadata(&self.pool, &record.id, &job.parameters()).await?;
                    self.spawn(record, job);
                    resumed += 1;
                }
                _ => {
                    let status = if record.cancel_requested {
                        Status::cancelled()
                    } else {
                        Status::new(
                            Status::ABORTED,
                            "the server restarted while this operation ran; start it again",
                        )
                    };
                    store::finish(
                        &self.pool,
                        &record.id,
                        record.kind(),
                        &Outcome::Error(status),
                    )
                    .await?;
                    aborted += 1;
                }
            }
        }
        Ok((resumed, aborted))
    }

    /// Removes done operations older than the retention.
    pub async fn expire(&self) -> Result<u64, sqlx::Error> {
        let cutoff = jiff::Timestamp::now()
            .checked_sub(
                jiff::SignedDuration::try_from(self.retention).unwrap_or(jiff::SignedDuration::MAX),
            )
            .unwrap_or(jiff::Timestamp::MIN);
        let before = cutoff.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        store::expire(&self.pool, &before).await
    }

    /// Expires old operations now and then every hour, until the pool closes.
    pub fn spawn_expiry(self: &Arc<Self>) {
        let engine = Arc::clone(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(3600));
            loop {
                every.tick().await;
                if engine.pool.is_closed() {
                    return;
                }
                match engine.expire().await {
                    Ok(0) => {}
                    Ok(removed) => tracing::info!(removed, "expired finished operations"),
                    Err(error) => tracing::warn!(%error, "expiring operations failed"),
                }
            }
        });
    }
}
