//! v0.96: link existing subscription bills to their catalog service by name.
//! A bill matches when its name, reduced to letters and digits, equals a
//! service's name or one of its slang terms reduced the same way ("Disney+",
//! "DISNEY +" and "disney+" all find Disney+). Keys shorter than three
//! characters are too vague to trust, and names shared by several services
//! stay unlinked; the user links those by hand.

use std::collections::HashMap;

use sqlx::SqliteConnection;

use crate::backend::catalog::name_key;
use crate::backend::migrate::StepFuture;

const MIN_KEY_CHARS: usize = 3;

pub fn backfill(conn: &mut SqliteConnection) -> StepFuture<'_> {
    Box::pin(async move {
        let names: Vec<(i64, String)> = sqlx::query_as(
            "SELECT id, name FROM subscription_catalog
             UNION ALL
             SELECT catalog_id, descriptor FROM subscription_catalog_descriptors WHERE kind = 'slang'",
        )
        .fetch_all(&mut *conn)
        .await?;
        // key -> the one service it names, or None when several share it.
        let mut index: HashMap<String, Option<i64>> = HashMap::new();
        for (catalog_id, name) in names {
            let key = name_key(&name);
            if key.chars().count() < MIN_KEY_CHARS {
                continue;
            }
            index
                .entry(key)
                .and_modify(|found| {
                    if *found != Some(catalog_id) {
                        *found = None;
                    }
                })
                .or_insert(Some(catalog_id));
        }

        let bills: Vec<(i64, String)> = sqlx::query_as(
            "SELECT id, name FROM bills WHERE is_subscription = 1 AND catalog_id IS NULL ORDER BY id",
        )
        .fetch_all(&mut *conn)
        .await?;
        for (bill_id, name) in bills {
            if let Some(Some(catalog_id)) = index.get(&name_key(&name)) {
                sqlx::query("UPDATE bills SET catalog_id = ? WHERE id = ?")
                    .bind(catalog_id)
                    .bind(bill_id)
                    .execute(&mut *conn)
                    .await?;
            }
        }
        Ok(())
    })
}
