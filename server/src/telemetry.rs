//! Logs: human-readable lines on stdout, and JSON lines in `LOG_DIR`, one file
//! per day (`tally.YYYY-MM-DD.log`). `RUST_LOG` sets the filter (default
//! `info`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter};

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("LOG_DIR {path} cannot be used for log files: {reason}")]
    LogDir { path: PathBuf, reason: String },
    #[error("RUST_LOG is invalid: {0}")]
    Filter(String),
    #[error("a global logger was already installed: {0}")]
    AlreadyInstalled(String),
}

/// Installs the global subscriber. The file writer is synchronous on purpose:
/// a panic exits the process at once, and its log line must already be on
/// disk by then.
pub fn init(log_dir: &Path) -> Result<(), TelemetryError> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => EnvFilter::try_new(directives)
            .map_err(|error| TelemetryError::Filter(error.to_string()))?,
        _ => EnvFilter::new("info"),
    };
    let log_dir_error = |reason: String| TelemetryError::LogDir {
        path: log_dir.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(log_dir).map_err(|error| log_dir_error(error.to_string()))?;
    let file = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix("tally")
        .filename_suffix("log")
        .build(log_dir)
        .map_err(|error| log_dir_error(error.to_string()))?;

    tracing_subscriber::registry()
        .with(filter)
        .with(
            fmt::layer()
                .with_ansi(std::io::stdout().is_terminal())
                .with_writer(std::io::stdout),
        )
        .with(
            fmt::layer()
                .json()
                .with_current_span(true)
                .with_span_list(false)
                .with_writer(file),
        )
        .try_init()
        .map_err(|error| TelemetryError::AlreadyInstalled(error.to_string()))
}

/// A plain stderr logger for short-lived subcommands (`tally health`).
pub fn init_stderr() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(EnvFilter::new("warn"))
        .try_init();
}
