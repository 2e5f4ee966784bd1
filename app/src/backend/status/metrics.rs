//! What `/metrics` reads from the database at each scrape. The route
//! renders it in the Prometheus text format; the statements are the
//! status store's, beside Admin Status's counts over the same tables.

use sqlx::SqlitePool;

use super::store;

/// The database's part of `/metrics`, each list in the order its query
/// sorts it (by its labels).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatabaseCounts {
    /// `tally_operations`: (kind, outcome, count).
    pub operations: Vec<(String, String, i64)>,
    /// `tally_crm_outbox`: (form, state, count).
    pub crm_outbox: Vec<(String, String, i64)>,
    /// `tally_bank_connections`: (status, count).
    pub bank_connections: Vec<(String, i64)>,
}

/// The counts as they stand now.
pub async fn database_counts(pool: &SqlitePool) -> Result<DatabaseCounts, sqlx::Error> {
    Ok(DatabaseCounts {
        operations: store::operations_by_outcome(pool).await?,
        crm_outbox: store::crm_outbox_by_state(pool).await?,
        bank_connections: store::bank_connections_by_status(pool).await?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(rows: &[(&str, &str, i64)]) -> Vec<(String, String, i64)> {
        rows.iter()
            .map(|(first, second, count)| ((*first).to_owned(), (*second).to_owned(), *count))
            .collect()
    }

    #[tokio::test]
    async fn counts_are_grouped_and_sorted_as_the_metrics_label_them() {
        let (_dir, pool) = crate::backend::db::migrated_for_test().await;
        assert_eq!(
            database_counts(&pool).await.unwrap(),
            DatabaseCounts::default()
        );
        sqlx::raw_sql(
            "INSERT INTO users (email) VALUES ('a@example.com');
             INSERT INTO operations (id, kind, metadata_type, done, error_code, error_message,
                                     response_type, response, deleted) VALUES
                 ('a', 'backup', 't', 0, NULL, NULL, NULL, NULL, 0),
                 ('b', 'backup', 't', 1, 1, 'cancelled', NULL, NULL, 0),
                 ('c', 'backup', 't', 1, 13, 'broke', NULL, NULL, 0),
                 ('d', 'bank_sync', 't', 1, NULL, NULL, 'r', '{}', 0),
                 ('e', 'bank_sync', 't', 0, NULL, NULL, NULL, NULL, 1);
             INSERT INTO leads (name, email, message, crm_state) VALUES
                 ('A', 'a@example.com', 'hi', 'failed'), ('B', 'b@example.com', 'hi', 'failed');
             INSERT INTO support_requests (name, email, subject, message)
                 VALUES ('C', 'c@example.com', 'help', 'hi');
             INSERT INTO bank_connections (user_id, access_secret, status)
                 VALUES (1, 'e1:x', 'error'), (1, 'e1:y', 'active');",
        )
        .execute(&pool)
        .await
        .unwrap();
        let counts = database_counts(&pool).await.unwrap();
        assert_eq!(
            counts.operations,
            owned(&[
                ("backup", "cancelled", 1),
                ("backup", "failed", 1),
                ("backup", "running", 1),
                ("bank_sync", "succeeded", 1),
            ]),
            "a deleted operation is not kept"
        );
        assert_eq!(
            counts.crm_outbox,
            owned(&[("lead", "failed", 2), ("support", "pending", 1)])
        );
        assert_eq!(
            counts.bank_connections,
            [("active".to_owned(), 1), ("error".to_owned(), 1)]
        );
    }
}
