//! Admin Status: the instance at a glance for administrators — version,
//! image and uptime, the database, migrations, backups, operations and
//! workers, the CRM outbox, bank sync, which key protects stored secrets,
//! who changed the sign-in or mail settings, and the last errors logged.
//! Worded here as rows, so a page (and `GET /api/admin/status`) only lays
//! them out; never a filesystem path or a secret. Also the database's
//! counts that `/metrics` reports (`database_counts`), read by the same
//! store.

mod metrics;
mod public_address;
mod recent_errors;
mod store;

pub use metrics::{database_counts, DatabaseCounts};
pub use recent_errors::{recent, LoggedError};

use sqlx::SqlitePool;

use crate::backend::secrets::KeySource;
use crate::backend::services::Services;
use crate::contract::admin::{StatusRow, StatusSection, SystemStatus};
use crate::domain::words::{size, span, without_paths};

/// How many logged errors Status lists.
const ERRORS_SHOWN: usize = 10;

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

/// Seconds since `modified`, in words.
fn age(modified: Option<std::time::SystemTime>) -> String {
    modified.and_then(|at| at.elapsed().ok()).map_or_else(
        || "unknown age".to_owned(),
        |gone| format!("{} ago", span(gone.as_secs())),
    )
}

/// Every section, in the order the page shows them.
pub async fn system_status(services: &Services) -> Result<SystemStatus, sqlx::Error> {
    let pool = &services.pool;
    let instance = &services.instance;
    let mut sections = Vec::new();

    let sqlite = store::sqlite_version(pool).await?;
    sections.push(section(
        "Tally",
        vec![
            row("Version", env!("CARGO_PKG_VERSION"), "info"),
            row("SQLite", sqlite, "info"),
            row(
                "Image",
                instance
                    .image_version
                    .clone()
                    .unwrap_or_else(|| "not running from an image".to_owned()),
                "info",
            ),
            row("Up for", span(instance.started.elapsed().as_secs()), "info"),
            public_address::row(&services.public_base_url),
        ],
    ));

    let file = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let mut wal = instance.database.clone().into_os_string();
    wal.push("-wal");
    let checked = store::last_finished(pool, "backup", false).await?;
    let check_failed = store::last_finished(pool, "backup", true).await?;
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
            row("Size", size(file(&instance.database)), "info"),
            row(
                "Write-ahead log",
                size(file(std::path::Path::new(&wal))),
                "info",
            ),
            integrity,
        ],
    ));

    sections.push(section("Migrations", migration_rows(pool).await?));

    let backups = crate::backend::backup::list(&instance.backups_dir).unwrap_or_default();
    let mut backup_rows = vec![match backups.first() {
        Some(latest) => row(
            "Latest",
            format!(
                "{} ({}, {}), {} kept",
                latest.name,
                size(latest.bytes),
                age(latest.modified),
                backups.len()
            ),
            "ok",
        ),
        None => row(
            "Latest",
            "none yet: take one in Admin → Backups or with `tally ops backup`",
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

    let (running, failed_today) = store::operation_counts(pool).await?;
    let worker = services.bank.worker.state();
    sections.push(section(
        "Operations and workers",
        vec![
            row("Operations running", running.to_string(), "info"),
            row(
                "Operations failed in the last day",
                failed_today.to_string(),
                if failed_today == 0 { "ok" } else { "warn" },
            ),
            row(
                "Bank sync worker",
                match (worker.running, worker.last_run_at) {
                    (true, _) => "running".to_owned(),
                    (false, Some(at)) => format!(
                        "idle; last run {at}: {} synced, {} failed",
                        worker.last_synced, worker.last_failed
                    ),
                    (false, None) => "idle; no run yet".to_owned(),
                },
                if worker.last_failed == 0 {
                    "ok"
                } else {
                    "warn"
                },
            ),
        ],
    ));

    let (pending, failed) = store::crm_counts(pool).await?;
    sections.push(section(
        "CRM",
        if instance.crm_configured {
            vec![
                row("Waiting", pending.to_string(), "info"),
                row(
                    "Failed",
                    failed.to_string(),
                    if failed == 0 { "ok" } else { "error" },
                ),
            ]
        } else {
            vec![row("Delivery", "off (CRM_LEAD_URL is unset)", "info")]
        },
    ));

    // The public forms say nothing of their configuration to visitors; the
    // operator reads it here.
    sections.push(section(
        "Public forms",
        vec![if services.contact.bot_check.site_key().is_some() {
            row("Bot check", "on", "ok")
        } else {
            row(
                "Bot check",
                "off: the lead and support forms take any visitor (set CAPTCHA_SITEVERIFY_URL, CAPTCHA_SECRET and CAPTCHA_SITE_KEY to turn it on)",
                "warn",
            )
        }],
    ));

    let enabled = services.bank.enabled().await?;
    let (connections, in_error) = store::bank_connection_counts(pool).await?;
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
        "Clients",
        vec![match services.trusted_proxies.untrusted_forwarder() {
            None => row(
                "Forwarded addresses",
                "no request forwarded by an unlisted proxy",
                "ok",
            ),
            Some(seen) => row(
                "Forwarded addresses",
                format!(
                    "{} sent X-Forwarded-For (first at {}) but TRUSTED_PROXIES does not list it: every client behind it shares one address's rate limits. Set TRUSTED_PROXIES to the proxy's address.",
                    seen.peer, seen.at
                ),
                "warn",
            ),
        }],
    ));

    let (protected_by, state) = match services.keyring.source() {
        KeySource::EnvironmentKey => ("TOKEN_ENCRYPTION_KEY from the environment", "ok"),
        KeySource::DatabaseKey => (
            "the key file in the data directory (set TOKEN_ENCRYPTION_KEY to keep it apart from backups)",
            "warn",
        ),
    };
    sections.push(section(
        "Secrets",
        vec![row("Protected by", protected_by, state)],
    ));

    // After a rollback below v1.11 the notification tables are gone; the
    // page still shows everything else.
    sections.push(section(
        "Notifications",
        match crate::backend::notifications::service::status_rows(&services.notifier, pool).await {
            Ok(rows) => rows
                .into_iter()
                .map(|(label, value, state)| row(label, value, state))
                .collect(),
            Err(error) => {
                tracing::warn!(%error, "notifications status unavailable");
                vec![row(
                    "State",
                    "unavailable: the database lacks the notifications tables (a migration is pending)",
                    "warn",
                )]
            }
        },
    ));

    // Who changed how people sign in or where mail goes (fields, never
    // values); after a rollback below v1.19 the list is gone, not the page.
    sections.push(section(
        "Settings changes",
        match crate::backend::settings_changes::status_rows(pool).await {
            Ok(rows) => rows
                .into_iter()
                .map(|(label, value, state)| row(&label, value, state))
                .collect(),
            Err(error) => {
                tracing::warn!(%error, "the settings changes are unavailable");
                vec![row(
                    "Changes",
                    "unavailable: the database lacks the list of settings changes (a migration is pending)",
                    "warn",
                )]
            }
        },
    ));

    let errors = recent(&instance.log_dir, ERRORS_SHOWN);
    sections.push(section(
        "Recent errors",
        if errors.is_empty() {
            vec![row("Logged", "none in the recent log files", "ok")]
        } else {
            errors
                .into_iter()
                .map(|error| row(&error.at, error.message, "error"))
                .collect()
        },
    ));
    Ok(SystemStatus { sections })
}

/// The schema history against this build's migrations (read only: the
/// checksums are checked at every start, which refuses an edited one).
async fn migration_rows(pool: &SqlitePool) -> Result<Vec<StatusRow>, sqlx::Error> {
    let applied = store::applied_migrations(pool).await?;
    let known: Vec<String> = crate::backend::migrate::registry::all()
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
    let latest = known
        .iter()
        .rev()
        .find(|version| applied.contains(version))
        .cloned()
        .unwrap_or_default();
    let mut rows = vec![
        row(
            "Applied",
            format!("{} (latest {latest})", applied.len()),
            "ok",
        ),
        row(
            "Pending",
            if pending == 0 {
                "0".to_owned()
            } else {
                format!("{pending}: restart Tally to apply, or run the version this database belongs to")
            },
            if pending == 0 { "ok" } else { "warn" },
        ),
    ];
    if unknown > 0 {
        rows.push(row("Not known to this build", unknown.to_string(), "error"));
    }
    rows.push(failed_row(pool, &applied).await?);
    Ok(rows)
}

/// Failed attempts (v1.09 keeps them): the newest of a migration still
/// not applied is an error; when every failed one was applied since, the
/// newest is history.
async fn failed_row(pool: &SqlitePool, applied: &[String]) -> Result<StatusRow, sqlx::Error> {
    let failures = store::migration_failures(pool).await?;
    let newest = failures
        .iter()
        .find(|(version, _, _)| !applied.contains(version))
        .or(failures.first())
        .cloned();
    Ok(match newest {
        None => row("Failed", "none".to_owned(), "ok"),
        Some((version, at, _)) if applied.contains(&version) => row(
            "Failed",
            format!("none now ({version} failed at {at} and was applied since)"),
            "ok",
        ),
        Some((version, at, message)) => row(
            "Failed",
            format!(
                "{version} at {at}, rolled back: {}",
                without_paths(&message)
            ),
            "error",
        ),
    })
}
