//! v0.93: `transactions.provider_transaction_id` stops depending on the bank
//! connection. v0.36 stored `<connection id>:<provider transaction id>`, so a
//! disconnect and reconnect of the same bank account fetched every
//! transaction again under a new id. The new id is
//! `<provider account id>:<provider transaction id>`, the same across
//! reconnects. The duplicates this exposes are removed in place: of each
//! group, the copy a person edited or linked to a bill or payment is kept
//! (else the newest); links from the removed copies move to the kept one.

use std::collections::BTreeMap;

use sqlx::SqliteConnection;

use crate::ssr::migrate::{StepError, StepFuture};

/// A v0.36 transaction as stored.
#[derive(sqlx::FromRow)]
struct Stored {
    id: i64,
    user_id: i64,
    old_id: String,
    account: String,
    bill_id: Option<i64>,
    edited: bool,
    paid: bool,
}

struct Row {
    id: i64,
    user_id: i64,
    new_id: String,
    bill_id: Option<i64>,
    edited: bool,
    paid: bool,
}

impl Row {
    /// Higher ranks are kept: a copy that carries a person's work wins.
    fn rank(&self) -> (bool, bool, i64) {
        (self.paid || self.bill_id.is_some(), self.edited, self.id)
    }
}

pub fn rewrite(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let rows: Vec<Stored> = sqlx::query_as(
            "SELECT t.id, t.user_id, t.provider_transaction_id AS old_id, a.provider_account_id AS account,
                    t.bill_id, t.user_edited_at IS NOT NULL AS edited,
                    EXISTS (SELECT 1 FROM payments p WHERE p.transaction_id = t.id) AS paid
             FROM transactions t JOIN bank_accounts a ON a.id = t.account_id
             ORDER BY t.id",
        )
        .fetch_all(&mut *conn)
        .await?;

        let mut groups: BTreeMap<(i64, String), Vec<Row>> = BTreeMap::new();
        for Stored {
            id,
            user_id,
            old_id,
            account,
            bill_id,
            edited,
            paid,
        } in rows
        {
            let provider_id = old_id
                .split_once(':')
                .map(|(_, rest)| rest)
                .filter(|rest| !rest.is_empty())
                .ok_or_else(|| {
                    StepError::Data(format!(
                        "transaction {id} has provider_transaction_id {old_id:?}, not <connection>:<id>"
                    ))
                })?;
            let new_id = format!("{account}:{provider_id}");
            groups
                .entry((user_id, new_id.clone()))
                .or_default()
                .push(Row {
                    id,
                    user_id,
                    new_id,
                    bill_id,
                    edited,
                    paid,
                });
        }

        for (_, mut group) in groups {
            group.sort_by_key(Row::rank);
            let Some(keep) = group.pop() else { continue };
            let inherited_bill = keep
                .bill_id
                .or_else(|| group.iter().rev().find_map(|r| r.bill_id));
            for duplicate in &group {
                sqlx::query("UPDATE payments SET transaction_id = ? WHERE transaction_id = ?")
                    .bind(keep.id)
                    .bind(duplicate.id)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query("DELETE FROM transactions WHERE id = ? AND user_id = ?")
                    .bind(duplicate.id)
                    .bind(duplicate.user_id)
                    .execute(&mut *conn)
                    .await?;
            }
            sqlx::query(
                "UPDATE transactions SET provider_transaction_id = ?, bill_id = ? WHERE id = ?",
            )
            .bind(&keep.new_id)
            .bind(inherited_bill)
            .bind(keep.id)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    })
}
