//! The settings changes' list as the features that change settings use
//! it: [`record`] in the change's own transaction (so a change is never
//! made without its entry), [`announce`] once it is committed, and
//! [`status_rows`] for Admin → Status.

use std::sync::Arc;

use sqlx::{SqliteConnection, SqlitePool};

use super::rules::{self, Area};
use super::store;
use crate::backend::notifications::notice::{self, Notice};
use crate::backend::notifications::transport::MailServer;
use crate::backend::notifications::Notifier;
use crate::contract::account::User;

/// How many changes Admin → Status lists.
const SHOWN: i64 = 20;

/// A change as it was recorded, for its notice.
#[derive(Clone, Debug)]
pub struct Recorded {
    by: String,
    area: Area,
    fields: String,
    identities_dropped: i64,
    at: String,
}

/// Records that `by` changed `fields` (their API names) of `area`, in
/// the transaction that changes them; `None`, and nothing recorded, when
/// no field changed.
pub async fn record(
    conn: &mut SqliteConnection,
    by: &User,
    area: Area,
    fields: &[&str],
    identities_dropped: u64,
) -> Result<Option<Recorded>, sqlx::Error> {
    if fields.is_empty() {
        return Ok(None);
    }
    let fields = rules::joined(fields);
    let identities_dropped = i64::try_from(identities_dropped).unwrap_or(i64::MAX);
    let at = store::add(
        conn,
        by.id,
        &by.email,
        area.name(),
        &fields,
        identities_dropped,
    )
    .await?;
    Ok(Some(Recorded {
        by: by.email.clone(),
        area,
        fields,
        identities_dropped,
        at,
    }))
}

/// Tells every administrator of `recorded` by email. The mail server and
/// the addresses are read now, in order with the change; the sending runs
/// in the background (an unreachable mail server must not hold the
/// change's answer, and the change is made and listed whatever becomes of
/// the mail). It goes through `previous` when given: for a change of the
/// mail server, the one in force before it, so the new server does not
/// decide whether administrators hear of it. Otherwise through the one in
/// force now; with none set up, nothing is sent and the list alone tells.
pub async fn announce(
    notifier: &Arc<Notifier>,
    pool: &SqlitePool,
    previous: Option<MailServer>,
    recorded: Recorded,
) {
    let through_previous = previous.is_some();
    let server = match previous {
        Some(server) => Some(server),
        None => notifier.mail_server(pool).await.unwrap_or_else(|error| {
            tracing::warn!(%error, "the settings change is not mailed: the mail server could not be read");
            None
        }),
    };
    let Some(server) = server else {
        tracing::info!(
            area = recorded.area.name(),
            "settings changed; no mail server is set up, so administrators were not mailed"
        );
        return;
    };
    let to = match store::administrators(pool).await {
        Ok(to) => to,
        Err(error) => {
            tracing::warn!(%error, "the settings change is not mailed: the administrators could not be read");
            return;
        }
    };
    let (title, paragraphs) = rules::notice(
        &recorded.by,
        recorded.area,
        &recorded.fields,
        recorded.identities_dropped,
        &recorded.at,
        through_previous,
    );
    let told = Notice {
        title,
        paragraphs,
        path: "/admin/status",
    };
    let notifier = Arc::clone(notifier);
    tokio::spawn(async move {
        let sent = notice::send(&notifier, &server, &to, &told).await;
        tracing::info!(
            area = recorded.area.name(),
            administrators = to.len(),
            sent,
            "administrators mailed of a settings change"
        );
    });
}

/// Admin → Status's rows: (label, value, state), the newest change first;
/// one row saying so when there is none.
pub async fn status_rows(
    pool: &SqlitePool,
) -> Result<Vec<(String, String, &'static str)>, sqlx::Error> {
    let changes = store::recent(pool, SHOWN).await?;
    if changes.is_empty() {
        return Ok(vec![(
            "Changes".to_owned(),
            "none yet: every change of the sign-in settings or the mail server is listed here"
                .to_owned(),
            "info",
        )]);
    }
    Ok(changes
        .into_iter()
        .map(|change| {
            // The table's CHECK allows only the two areas.
            let area = Area::parse(&change.area).unwrap_or(Area::SignIn);
            (
                change.changed_at,
                rules::status_line(
                    &change.changed_by_email,
                    area,
                    &change.fields,
                    change.identities_dropped,
                ),
                "info",
            )
        })
        .collect())
}
