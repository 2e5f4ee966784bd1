//! `GET /api/admin/status`: the instance at a glance for administrators —
//! version and uptime, the database, migrations, backups, operations, the
//! CRM outbox, bank sync and which key protects stored secrets. Worded here
//! as rows, so a page only lays them out; never a filesystem path or a
//! secret.

use axum::extract::State;
use axum::Json;
use sqlx::SqlitePool;

use app::contract::admin::{StatusRow, StatusSection, SystemStatus};
use app::ssr::secrets::KeySource;

use crate::state::AppState;
use app::ssr::api_error::ApiError;
use app::ssr::auth::extractors::AdminUser;

fn row(label: &str, value: impl Into<String>, state: &str) -> StatusRow {
    StatusRow {
        label: label.to_owned(),
        value: value.into(),
        state: state.to_owned(),
    }
}

fn section(title: &str, rows: Vec<StatusRow>) -> StatusSection {
    StatusSection {
        title: title.to_owned(),
        rows,
    }
}

/// Bytes in words: 1.2 MB.
fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}

/// Seconds in words: 3 d 4 h, 5 h 2 min, 7 min.
fn span(seconds: u64) -> String {
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60);
    match (days, hours) {
        (0, 0) => format!("{minutes} min"),
        (0, _) => format!("{hours} h {minutes} min"),
        _ => format!("{days} d {hours} h"),
    }
}

/// `text` with every absolute filesystem path replaced by `…`: an
/// operation's error may name the file it failed on, and this answer
/// never shows a path.
fn without_paths(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let bare = word.trim_start_matches(['(', '"', '\'']);
            if bare.starts_with('/') && bare.len() > 1 {
                "…"
            } else {
                word
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The newest finished operation of `kind`: (ended, error message).
async fn last_of(
    pool: &SqlitePool,
    kind: &str,
    failed: bool,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT coalesce(ended_at, updated_at), error_message FROM operations
         WHERE kind = ? AND done = 1 AND (error_code IS NOT NULL) = ?
         ORDER BY coalesce(ended_at, updated_at) DESC LIMIT 1",
    )
    .bind(kind)
    .bind(failed)
    .fetch_optional(pool)
    .await
}

/// The status rows.
#[utoipa::path(
    get,
    path = "/api/admin/status",
    tag = "admin",
    responses((status = 200, body = SystemStatus)),
)]
pub async fn status(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> Result<Json<SystemStatus>, ApiError> {
    let pool = &state.pool;
    let mut sections = Vec::new();

    sections.push(section(
        "Tally",
        vec![
            row("Version", env!("CARGO_PKG_VERSION"), "info"),
            row("Up for", span(state.started.elapsed().as_secs()), "info"),
        ],
    ));

    let file = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let database = state.settings.database_path();
    let mut wal = database.clone().into_os_string();
    wal.push("-wal");
    let checked = last_of(pool, "backup", false).await?;
    let check_failed = last_of(pool, "backup", true).await?;
    let integrity = match (&checked, &check_failed) {
        (_, Some((at, message))) if checked.as_ref().is_none_or(|(ok, _)| ok < at) => row(
            "Last integrity check",
            format!(
                "failed {at}: {}",
                without_paths(&message.clone().unwrap_or_default())
            ),
            "error",
        ),
        (Some((at, _)), _) => row(
            "Last integrity check",
            format!("ok, with the backup of {at}"),
            "ok",
        ),
        (None, _) => row(
            "Last integrity check",
            "none yet (every backup runs one)",
            "warn",
        ),
    };
    sections.push(section(
        "Database",
        vec![
            row("Size", size(file(&database)), "info"),
            row(
                "Write-ahead log",
                size(file(std::path::Path::new(&wal))),
                "info",
            ),
            integrity,
        ],
    ));

    // The schema history against this build's migrations (read only: the
    // checksums are checked at every start, which refuses an edited one).
    let applied: Vec<String> =
        sqlx::query_scalar("SELECT version FROM schema_migrations ORDER BY applied_at")
            .fetch_all(pool)
            .await?;
    let known: Vec<String> = app::ssr::migrate::registry::all()
        .iter()
        .map(|migration| migration.version.to_string())
        .collect();
    let pending = known
        .iter()
        .filter(|version| !applied.contains(version))
        .count();
    let unknown = applied
        .iter()
        .filter(|version| !known.contains(version))
        .count();
    let mut migrations = vec![
        row(
            "Applied",
            format!(
                "{} (latest {})",
                applied.len(),
                known
                    .iter()
                    .rev()
                    .find(|version| applied.contains(version))
                    .cloned()
                    .unwrap_or_default()
            ),
            "ok",
        ),
        row(
            "Pending",
            pending.to_string(),
            if pending == 0 { "ok" } else { "warn" },
        ),
    ];
    if unknown > 0 {
        migrations.push(row("Not known to this build", unknown.to_string(), "error"));
    }
    sections.push(section("Migrations", migrations));

    let backups = app::ssr::backup::list(&state.settings.backups_dir()).unwrap_or_default();
    let mut backup_rows = vec![match backups.first() {
        Some(latest) => row(
            "Latest",
            format!(
                "{} ({}), {} kept",
                latest.name,
                size(latest.bytes),
                backups.len()
            ),
            "ok",
        ),
        None => row(
            "Latest",
            "none yet: take one in Admin or with `tally ops backup`",
            "warn",
        ),
    }];
    if let Some((at, message)) = check_failed {
        backup_rows.push(row(
            "Last failure",
            format!("{at}: {}", without_paths(&message.unwrap_or_default())),
            "error",
        ));
    }
    sections.push(section("Backups", backup_rows));

    let (running, failed_today): (i64, i64) = sqlx::query_as(
        "SELECT
             (SELECT count(*) FROM operations WHERE done = 0 AND deleted = 0),
             (SELECT count(*) FROM operations WHERE done = 1 AND error_code IS NOT NULL AND error_code <> 1
                 AND coalesce(ended_at, updated_at) >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'))",
    )
    .fetch_one(pool)
    .await?;
    sections.push(section(
        "Operations",
        vec![
            row("Running", running.to_string(), "info"),
            row(
                "Failed in the last day",
                failed_today.to_string(),
                if failed_today == 0 { "ok" } else { "warn" },
            ),
        ],
    ));

    let (pending, failed): (i64, i64) = sqlx::query_as(
        "SELECT
             (SELECT count(*) FROM leads WHERE crm_state = 'pending') +
             (SELECT count(*) FROM support_requests WHERE crm_state = 'pending'),
             (SELECT count(*) FROM leads WHERE crm_state = 'failed') +
             (SELECT count(*) FROM support_requests WHERE crm_state = 'failed')",
    )
    .fetch_one(pool)
    .await?;
    sections.push(section(
        "CRM",
        if state.settings.crm.is_none() {
            vec![row("Delivery", "off (CRM_LEAD_URL is unset)", "info")]
        } else {
            vec![
                row("Waiting", pending.to_string(), "info"),
                row(
                    "Failed",
                    failed.to_string(),
                    if failed == 0 { "ok" } else { "error" },
                ),
            ]
        },
    ));

    let enabled = state.bank.enabled(pool).await.map_err(ApiError::from)?;
    let (connections, in_error): (i64, i64) = sqlx::query_as(
        "SELECT count(*), coalesce(sum(status = 'error'), 0) FROM bank_connections WHERE status <> 'disconnected'",
    )
    .fetch_one(pool)
    .await?;
    sections.push(section(
        "Bank sync",
        vec![
            row("Switch", if enabled { "on" } else { "off" }, "info"),
            row(
                "Connections",
                format!("{connections}, {in_error} failing"),
                if in_error == 0 { "ok" } else { "warn" },
            ),
        ],
    ));

    sections.push(section(
        "Secrets",
        vec![row(
            "Protected by",
            match state.keyring.source() {
                KeySource::EnvironmentKey => "TOKEN_ENCRYPTION_KEY from the environment",
                KeySource::DatabaseKey => "the key file in the data directory (set TOKEN_ENCRYPTION_KEY to keep it apart from backups)",
            },
            match state.keyring.source() {
                KeySource::EnvironmentKey => "ok",
                KeySource::DatabaseKey => "warn",
            },
        )],
    ));
    Ok(Json(SystemStatus { sections }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_left_out_of_failures() {
        assert_eq!(
            without_paths("backup directory /srv/tally/data/backups: permission denied"),
            "backup directory … permission denied"
        );
        assert_eq!(
            without_paths("cannot open (/data/db/bills.db) now"),
            "cannot open … now"
        );
        assert_eq!(
            without_paths("integrity check: ok / fine"),
            "integrity check: ok / fine"
        );
    }

    #[test]
    fn sizes_and_spans_read_as_words() {
        assert_eq!(size(999), "999 B");
        assert_eq!(size(1_250_000), "1.2 MB");
        assert_eq!(span(7 * 60), "7 min");
        assert_eq!(span(5 * 3600 + 120), "5 h 2 min");
        assert_eq!(span(3 * 86_400 + 4 * 3600), "3 d 4 h");
    }
}
