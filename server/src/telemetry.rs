//! Logs: human-readable lines on stdout, and JSON lines in `LOG_DIR`, one file
//! per day (`tally.YYYY-MM-DD.log`). `RUST_LOG` sets the filter (default
//! `info`).
//!
//! What each request costs: one JSON line (the access line, with its
//! request id as a field: `middleware::edge`), formatted once and appended to the buffer a
//! background thread writes out (`log_writer`), so no request waits on the
//! disk. The access line goes to
//! the file only; stdout carries the rest (start-up, warnings, errors),
//! which is what an operator reads in `docker logs`. Writing every request
//! twice cost more than the health handler itself.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

use crate::log_writer::BatchedWriter;
use crate::middleware::edge::ACCESS_TARGET;

/// The file writer. It is process-wide like the subscriber it serves;
/// `flush` writes out what it holds before the process exits (a panic exits
/// at once, and its log line must be on disk by then).
static FILE_WRITER: Mutex<Option<BatchedWriter<RollingFileAppender>>> = Mutex::new(None);

/// Writes out every log line still buffered. Call before the process exits.
pub fn flush() {
    let writer = match FILE_WRITER.lock() {
        Ok(mut writer) => writer.take(),
        Err(poisoned) => poisoned.into_inner().take(),
    };
    if let Some(Err(error)) = writer.map(|writer| writer.stop()) {
        eprintln!("cannot write the log file: {error}");
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("LOG_DIR {path} cannot be used for log files: {reason}")]
    LogDir { path: PathBuf, reason: String },
    #[error("RUST_LOG is invalid: {0}")]
    Filter(String),
    #[error("a global logger was already installed: {0}")]
    AlreadyInstalled(String),
}

/// Installs the global subscriber.
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
    let file = BatchedWriter::start(file).map_err(|error| log_dir_error(error.to_string()))?;
    match FILE_WRITER.lock() {
        Ok(mut writer) => *writer = Some(file.clone()),
        Err(poisoned) => *poisoned.into_inner() = Some(file.clone()),
    }

    tracing_subscriber::registry()
        .with(filter)
        .with(
            fmt::layer()
                .with_ansi(std::io::stdout().is_terminal())
                .with_writer(std::io::stdout)
                .with_filter(filter_fn(|metadata| {
                    !metadata.target().starts_with(ACCESS_TARGET)
                })),
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
