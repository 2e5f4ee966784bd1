//! Group commit for the public forms.
//!
//! Each submission used to be its own transaction, so every 201 waited for
//! an fsync of its own and the forms topped out at the disk's fsync rate.
//! Now one writer task takes every submission waiting in its queue, inserts
//! them in a single transaction, commits it (`synchronous=FULL`: one fsync
//! of the write-ahead log for the lot), and only then answers each request
//! with its id. An acknowledged submission is exactly as durable as before;
//! the requests that arrive together share the fsync.
//!
//! A batch that fails as a whole (a full disk, say) is retried one
//! submission per transaction, so one bad row never costs its neighbours.

use std::sync::Arc;

use sqlx::SqlitePool;
use tokio::sync::{mpsc, oneshot};

use super::store;
use crate::backend::write_gate::WriteGate;
use crate::domain::contact::{Lead, SupportRequest};

/// The most submissions one transaction takes.
const MAX_BATCH: usize = 256;
/// Submissions that may wait for the writer before senders wait too.
const QUEUE_DEPTH: usize = 4096;

/// A validated submission on its way to the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Submission {
    Lead(Lead),
    Support(SupportRequest),
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the database could not store the submission: {0}")]
    Database(String),
    #[error("the submission writer has stopped")]
    Stopped,
}

struct Pending {
    submission: Submission,
    client_ip: String,
    reply: oneshot::Sender<Result<i64, StoreError>>,
}

/// The handle requests use; cheap to clone.
#[derive(Clone)]
pub struct SubmissionWriter {
    queue: mpsc::Sender<Pending>,
}

impl SubmissionWriter {
    /// Starts the writer task. It ends when every handle is dropped.
    pub fn spawn(pool: SqlitePool, gate: Arc<WriteGate>, crm_configured: bool) -> Self {
        let (queue, receiver) = mpsc::channel(QUEUE_DEPTH);
        tokio::spawn(run(pool, gate, crm_configured, receiver));
        Self { queue }
    }

    /// Stores `submission` and returns its id once the transaction that
    /// holds it has committed.
    pub async fn store(
        &self,
        submission: Submission,
        client_ip: String,
    ) -> Result<i64, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Pending {
                submission,
                client_ip,
                reply,
            })
            .await
            .map_err(|_| StoreError::Stopped)?;
        answer.await.map_err(|_| StoreError::Stopped)?
    }
}

async fn run(
    pool: SqlitePool,
    gate: Arc<WriteGate>,
    crm_configured: bool,
    mut receiver: mpsc::Receiver<Pending>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let turn = gate.enter().await;
        // Whatever arrived while waiting for the gate joins this batch.
        while batch.len() < MAX_BATCH {
            match receiver.try_recv() {
                Ok(pending) => batch.push(pending),
                Err(_) => break,
            }
        }
        let outcomes = match write_all(&pool, crm_configured, &batch).await {
            Ok(ids) => ids.into_iter().map(Ok).collect(),
            Err(error) if batch.len() == 1 => vec![Err(StoreError::Database(error.to_string()))],
            Err(error) => {
                tracing::warn!(%error, size = batch.len(), "a group commit failed; storing its submissions one by one");
                write_one_by_one(&pool, crm_configured, &batch).await
            }
        };
        drop(turn);
        for (pending, outcome) in batch.drain(..).zip(outcomes) {
            // A request that gave up (its client left, or the deadline
            // passed) no longer listens; its row is stored all the same.
            let _ = pending.reply.send(outcome);
        }
    }
}

/// Every submission of the batch in one transaction.
async fn write_all(
    pool: &SqlitePool,
    crm_configured: bool,
    batch: &[Pending],
) -> Result<Vec<i64>, sqlx::Error> {
    let mut tx = crate::backend::db::write(pool).await?;
    let mut ids = Vec::with_capacity(batch.len());
    for pending in batch {
        ids.push(insert(&mut tx, crm_configured, pending).await?);
    }
    tx.commit().await?;
    Ok(ids)
}

async fn write_one_by_one(
    pool: &SqlitePool,
    crm_configured: bool,
    batch: &[Pending],
) -> Vec<Result<i64, StoreError>> {
    let mut outcomes = Vec::with_capacity(batch.len());
    for pending in batch {
        let outcome = async {
            let mut tx = crate::backend::db::write(pool).await?;
            let id = insert(&mut tx, crm_configured, pending).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(id)
        }
        .await
        .map_err(|error| StoreError::Database(error.to_string()));
        outcomes.push(outcome);
    }
    outcomes
}

async fn insert(
    connection: &mut sqlx::SqliteConnection,
    crm_configured: bool,
    pending: &Pending,
) -> Result<i64, sqlx::Error> {
    match &pending.submission {
        Submission::Lead(lead) => {
            store::insert_lead(connection, lead, &pending.client_ip, crm_configured).await
        }
        Submission::Support(request) => {
            store::insert_support(connection, request, &pending.client_ip, crm_configured).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead(n: usize) -> Submission {
        Submission::Lead(Lead {
            name: format!("Visitor {n}"),
            email: format!("v{n}@example.com"),
            message: "Hello".into(),
            company: None,
            phone: None,
        })
    }

    #[tokio::test]
    async fn concurrent_submissions_share_transactions_and_each_gets_its_own_id() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        let writer = SubmissionWriter::spawn(pool.clone(), Arc::default(), false);
        let tasks: Vec<_> = (0..200)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move { writer.store(lead(n), "192.0.2.1".into()).await })
            })
            .collect();
        let mut ids = Vec::new();
        for task in tasks {
            ids.push(task.await.unwrap().unwrap());
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 200, "every submission has its own id");
        let stored: i64 = sqlx::query_scalar!("SELECT count(*) FROM leads")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(stored, 200);
        let support = writer
            .store(
                Submission::Support(SupportRequest {
                    name: "Ann".into(),
                    email: "ann@example.com".into(),
                    subject: "Help".into(),
                    message: "Please".into(),
                    category: None,
                }),
                "192.0.2.2".into(),
            )
            .await
            .unwrap();
        let ip: String = sqlx::query_scalar!(
            r#"SELECT client_ip AS "client_ip!" FROM support_requests WHERE id = ?"#,
            support,
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        assert_eq!(ip, "192.0.2.2");
    }

    #[tokio::test]
    async fn one_bad_row_fails_alone_and_its_neighbours_are_stored() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        sqlx::raw_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON leads WHEN NEW.name = 'Visitor 3'
             BEGIN SELECT RAISE(ABORT, 'refused'); END",
        )
        .execute(&pool)
        .await
        .unwrap();
        let writer = SubmissionWriter::spawn(pool.clone(), Arc::default(), true);
        let tasks: Vec<_> = (0..20)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move { writer.store(lead(n), "192.0.2.1".into()).await })
            })
            .collect();
        for (n, task) in tasks.into_iter().enumerate() {
            match task.await.unwrap() {
                Err(StoreError::Database(message)) => {
                    assert_eq!(n, 3, "only the refused row fails");
                    assert!(message.contains("refused"), "{message}");
                }
                Ok(_) => assert_ne!(n, 3),
                Err(other) => panic!("{other}"),
            }
        }
        let stored: i64 = sqlx::query_scalar!("SELECT count(*) FROM leads")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(stored, 19);
    }
}
