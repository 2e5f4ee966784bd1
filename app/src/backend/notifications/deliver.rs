//! Sending claimed delivery rows as one message, with the in-run retries,
//! and recording what came of it: on the rows, on the channel (its last
//! success or error) and in the counters. The daily run and the test
//! button both send through [`send_rows`].

use sqlx::SqlitePool;

use super::notifier::Notifier;
use super::render::{self, Item};
use super::rules;
use super::service;
use super::store::{self, ChannelRow, Outcome};
use super::transport::MailServer;
use crate::domain::notification::Event;

/// A row this run holds.
#[derive(Clone, Debug)]
pub struct Claimed {
    pub id: i64,
    /// `None` for a test message.
    pub event: Option<Event>,
    pub line: String,
}

/// Sends `rows` to `channel` as one message: `Ok(Ok(()))` when it went
/// out, `Ok(Err(why))` when every attempt failed.
pub async fn send_rows(
    notifier: &Notifier,
    pool: &SqlitePool,
    channel: &ChannelRow,
    rows: &[Claimed],
    account_email: &str,
    mail: Option<&MailServer>,
) -> Result<Result<(), String>, sqlx::Error> {
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let message = render::message(
        rules::message_id(channel.id, &ids),
        rows.iter()
            .map(|row| Item {
                event: row.event,
                line: row.line.clone(),
            })
            .collect(),
        &notifier.public_base_url,
    );
    let secrets = service::secrets(notifier, channel);
    let mut made = 0_u32;
    let result = loop {
        made += 1;
        let attempt = notifier
            .transports
            .send(channel, &secrets, &message, account_email, mail)
            .await;
        match attempt {
            Ok(sent) => break Ok(sent),
            Err(failed) => match rules::retry_after(made, failed.failure) {
                Some(wait) => tokio::time::sleep(wait).await,
                None => break Err(failed),
            },
        }
    };
    let (sent, http_status, error) = match &result {
        Ok(sent) => (true, sent.status, None),
        Err(failed) => (false, failed.failure.status, Some(failed.error.clone())),
    };
    store::finish(
        pool,
        &ids,
        &Outcome {
            sent,
            attempts: i64::from(made),
            http_status: http_status.map(i64::from),
            error: error.as_deref(),
            message_id: &message.id,
        },
    )
    .await?;
    store::record_result(pool, channel.id, error.as_deref()).await?;
    notifier.count(channel.kind, sent);
    if let Some(error) = &error {
        tracing::warn!(channel = channel.id, kind = channel.kind.name(), attempts = made, %error, "notification not delivered");
    }
    Ok(match error {
        None => Ok(()),
        Some(error) => Err(error),
    })
}
