//! v0.93: `transactions.provider_transaction_id` stops depending on the bank
//! connection. v0.36 stored `<connection id>:<provider transaction id>`, so a
//! disconnect and reconnect of the same bank account fetched every
//! transaction again under a new id. The new id is
//! `<provider account id>:<provider transaction id>`, the same across
//! reconnects. The duplicates this exposes are removed in place: of each
//! group, the copy a person linked to a bill or payment is kept, else the one
//! they edited, else the newest; links from the removed copies move to the
//! kept one.
//!
//! Set-based where it can be: the new ids are computed once into a temporary
//! table, only duplicate groups are handled row by row, and one UPDATE
//! rewrites every id.

use std::collections::BTreeMap;

use sqlx::SqliteConnection;

use crate::backend::migrate::{StepError, StepFuture};

/// A transaction that shares its new id with another of the same user.
#[derive(sqlx::FromRow)]
struct Duplicate {
    id: i64,
    user_id: i64,
    new_id: String,
    bill_id: Option<i64>,
    edited: bool,
    paid: bool,
}

impl Duplicate {
    /// Higher ranks are kept: a copy that carries a person's work wins.
    fn rank(&self) -> (bool, bool, i64) {
        (self.paid || self.bill_id.is_some(), self.edited, self.id)
    }
}

pub fn rewrite(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let malformed: Option<(i64, String)> = sqlx::query_as(
            "SELECT id, provider_transaction_id FROM transactions
             WHERE instr(provider_transaction_id, ':') IN (0, length(provider_transaction_id))
             LIMIT 1",
        )
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((id, old_id)) = malformed {
            return Err(StepError::Data(format!(
                "transaction {id} has provider_transaction_id {old_id:?}, not <connection>:<id>"
            )));
        }

        sqlx::query("DROP TABLE IF EXISTS temp.v093_ids")
            .execute(&mut *conn)
            .await?;
        sqlx::query("CREATE TEMP TABLE v093_ids (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, new_id TEXT NOT NULL)")
            .execute(&mut *conn)
            .await?;
        sqlx::query(
            "INSERT INTO temp.v093_ids (id, user_id, new_id)
             SELECT t.id, t.user_id,
                    a.provider_account_id || substr(t.provider_transaction_id, instr(t.provider_transaction_id, ':'))
             FROM transactions t JOIN bank_accounts a ON a.id = t.account_id",
        )
        .execute(&mut *conn)
        .await?;
        sqlx::query("CREATE INDEX temp.v093_ids_key ON v093_ids (user_id, new_id)")
            .execute(&mut *conn)
            .await?;

        let duplicates: Vec<Duplicate> = sqlx::query_as(
            "SELECT k.id, k.user_id, k.new_id, t.bill_id, t.user_edited_at IS NOT NULL AS edited,
                    EXISTS (SELECT 1 FROM payments p WHERE p.transaction_id = t.id) AS paid
             FROM temp.v093_ids k JOIN transactions t ON t.id = k.id
             WHERE (k.user_id, k.new_id) IN (
                 SELECT user_id, new_id FROM temp.v093_ids GROUP BY user_id, new_id HAVING count(*) > 1
             )
             ORDER BY k.id",
        )
        .fetch_all(&mut *conn)
        .await?;
        let mut groups: BTreeMap<(i64, String), Vec<Duplicate>> = BTreeMap::new();
        for duplicate in duplicates {
            groups
                .entry((duplicate.user_id, duplicate.new_id.clone()))
                .or_default()
                .push(duplicate);
        }
        for (_, mut group) in groups {
            group.sort_by_key(Duplicate::rank);
            let Some(keep) = group.pop() else { continue };
            for removed in &group {
                sqlx::query("UPDATE payments SET transaction_id = ? WHERE transaction_id = ?")
                    .bind(keep.id)
                    .bind(removed.id)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query("DELETE FROM transactions WHERE id = ?")
                    .bind(removed.id)
                    .execute(&mut *conn)
                    .await?;
            }
            if keep.bill_id.is_none() {
                if let Some(bill_id) = group.iter().rev().find_map(|removed| removed.bill_id) {
                    sqlx::query("UPDATE transactions SET bill_id = ? WHERE id = ?")
                        .bind(bill_id)
                        .bind(keep.id)
                        .execute(&mut *conn)
                        .await?;
                }
            }
        }

        sqlx::query(
            "UPDATE transactions SET provider_transaction_id = k.new_id
             FROM temp.v093_ids k WHERE k.id = transactions.id",
        )
        .execute(&mut *conn)
        .await?;
        sqlx::query("DROP TABLE temp.v093_ids")
            .execute(&mut *conn)
            .await?;
        Ok(())
    })
}
