//! The two operations of an import: the preview (parse, find what is
//! already there, stage the rows, sum up) and the commit (add the new
//! rows, then match them to bills and check autopay as a bank sync does).
//! Both can run again after a restart: the preview starts over, the commit
//! adds only what is not there yet.

use std::collections::HashMap;

use sqlx::SqlitePool;

use super::parse::{self, Format, Options};
use super::rules::{self, Planned};
use super::service::parse_date_order;
use super::{store, ImportError};
use crate::contract::statements::ImportPreviewSummary;
use crate::ssr::secrets::{Keyring, BANK_ACCESS_SECRET};

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
pub async fn preview(
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
        let mut tx = crate::ssr::db::write(pool).await?;
        store::stage(&mut tx, import_id, done + 1, batch).await?;
        tx.commit().await?;
        done += i64::try_from(batch.len()).unwrap_or(0);
        progress.send_replace(Progress { done, total });
    }
    let summary = rules::summary(&statement, &planned, &targets);
    let text = serde_json::to_string(&summary)
        .map_err(|error| ImportError::NotNow(format!("the summary cannot be kept: {error}")))?;
    let mut tx = crate::ssr::db::write(pool).await?;
    store::previewed(&mut tx, import_id, &text).await?;
    tx.commit().await?;
    Ok(summary)
}

/// The `statement_import` operation's work.
pub async fn commit(
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
        let mut tx = crate::ssr::db::write(pool).await?;
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
        let mut tx = crate::ssr::db::write(pool).await?;
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
    let mut tx = crate::ssr::db::write(pool).await?;
    store::committed(&mut tx, import_id).await?;
    tx.commit().await?;

    // As after a bank sync: the new rows meet the bills' merchant rules and
    // the autopay check (each failure only logged: the rows are in).
    match crate::ssr::bank::matching::auto_match(pool, import.user_id).await {
        Ok(matched) => counts.matched = i64::from(matched),
        Err(error) => tracing::warn!(%error, "imported rows were not matched to bills"),
    }
    if let Err(error) = crate::ssr::bank::autopay::check(pool, import.user_id).await {
        tracing::warn!(%error, "the autopay check after an import failed");
    }
    Ok(counts)
}
