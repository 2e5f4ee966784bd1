//! "Download my data" and "Import my data".

use std::path::Path;

use sqlx::{Connection, SqlitePool};
use tokio::io::AsyncReadExt;

use super::upload::Upload;
use super::{rules, store, PersonalDataError};
use crate::backend::secrets::{Keyring, BANK_ACCESS_SECRET};
use crate::backend::upload_quota::{self, Turn, Turns};
use crate::contract::data::PersonalImported;

/// The person's export: a SQLite file of this build's schema with their
/// rows only, built in a scratch directory under `scratch` and removed
/// once read.
pub async fn export(
    pool: &SqlitePool,
    user_id: i64,
    scratch: &Path,
) -> Result<Vec<u8>, PersonalDataError> {
    tokio::fs::create_dir_all(scratch).await?;
    let dir = tempfile::Builder::new()
        .prefix("export-")
        .tempdir_in(scratch)?;
    let path = dir.path().join("tally-export.sqlite");
    store::migrate_file(&path, true).await?;
    let mut conn = store::live_connection(pool).await?;
    let copied = store::copy_out(&mut conn, &path, user_id).await;
    let _ = conn.close().await;
    copied?;
    Ok(tokio::fs::read(&path).await?)
}

/// The person's turn to import their data, taken before the file is
/// received and theirs until dropped: refused (429, `Retry-After` of a few
/// seconds) while an import of theirs runs, another of these or a
/// statement job, so one person's imports take turns at the writer.
pub async fn turn(
    pool: &SqlitePool,
    turns: &Turns,
    user_id: i64,
) -> Result<Turn, PersonalDataError> {
    upload_quota::one_import_at_a_time(pool, user_id).await?;
    Ok(turns.take(user_id)?)
}

/// Adds the export `upload` (a scratch copy, which this changes) to the
/// account whose `turn` it is: refused unless it is a personal export of
/// Tally's schema at a version this build knows; brought to this build's
/// schema first; refused when a row breaks a rule of the forms that write
/// its like (`form_rules`); then every row or none, copied in batches
/// (`store::copy_in`). The copy runs as a task of its own that holds the
/// turn and the file: a request cut off while it runs does not stop it
/// half done.
pub async fn import(
    pool: &SqlitePool,
    keyring: &Keyring,
    turn: Turn,
    upload: Upload,
) -> Result<PersonalImported, PersonalDataError> {
    let file = upload.file.path();
    let mut header = Vec::with_capacity(100);
    tokio::fs::File::open(file)
        .await?
        .take(100)
        .read_to_end(&mut header)
        .await?;
    if let Some(why) = rules::header_refusal(&header) {
        return Err(PersonalDataError::NotAnExport(why.to_owned()));
    }
    let known = crate::backend::backup::known_schema(file)
        .await
        .map_err(|error| PersonalDataError::NotAnExport(error.to_string()))?;
    if known.pending > 0 {
        store::migrate_file(file, false).await?;
    }
    if let Some(why) = store::form_refusal(file).await? {
        return Err(PersonalDataError::NotAnExport(why));
    }
    let marker = keyring
        .seal(BANK_ACCESS_SECRET, "imported personal data")
        .map_err(|error| PersonalDataError::Sealing(error.to_string()))?;
    let pool = pool.clone();
    let copy = tokio::spawn(async move {
        let import = uuid::Uuid::new_v4().simple().to_string();
        let mut pace = store::Pace {
            rows: rules::BATCH_ROWS,
            between: |held| tokio::time::sleep(rules::pause_after(held)),
        };
        let mut conn = store::live_connection(&pool).await?;
        let imported = store::copy_in(
            &mut conn,
            upload.file.path(),
            turn.user(),
            &marker,
            &import,
            &mut pace,
        )
        .await;
        let _ = conn.close().await;
        drop((turn, upload));
        imported
    });
    copy.await.map_err(|error| {
        PersonalDataError::Scratch(format!("the import's copy stopped: {error}"))
    })?
}

/// Removes what imports that did not finish added (the server stopped
/// while they ran, or a restored backup caught one): run at start, before
/// anyone is served, and after a live restore; `when` names which, for
/// the log. A failure is logged, not raised: the ranges stay, and the
/// next start tries again.
pub async fn drop_unfinished(pool: &SqlitePool, when: &'static str) {
    let dropped = async {
        let mut conn = store::live_connection(pool).await?;
        let dropped = store::drop_unfinished(&mut conn, None).await;
        let _ = conn.close().await;
        dropped
    }
    .await;
    match dropped {
        Ok(0) => {}
        Ok(rows) => tracing::warn!(
            when,
            rows,
            "removed the rows of a personal import that did not finish"
        ),
        Err(error) => {
            tracing::warn!(when, %error, "the rows of an unfinished personal import stay until the next start")
        }
    }
}

/// Whether an import of `user`'s is being copied: what reminders and
/// automatic matching wait for, since they would act on half of it.
pub async fn importing(pool: &SqlitePool, user: i64) -> Result<bool, sqlx::Error> {
    store::importing(pool, user).await
}
