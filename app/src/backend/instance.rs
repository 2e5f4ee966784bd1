//! Facts about this running instance that its Admin Status reports: when it
//! started, which image it runs, and where its files are (never shown, only
//! measured).

use std::path::PathBuf;
use std::time::Instant;

pub struct Instance {
    pub started: Instant,
    /// The image's `org.opencontainers.image.version` label, which the
    /// Dockerfile also sets as `TALLY_IMAGE_VERSION`; `None` outside an image.
    pub image_version: Option<String>,
    /// `DATA_DIR/db/bills.db`.
    pub database: PathBuf,
    /// `DATA_DIR/backups`.
    pub backups_dir: PathBuf,
    /// `DATA_DIR/tmp`, where uploads are written as they arrive.
    pub scratch_dir: PathBuf,
    /// `LOG_DIR`, whose JSON log files hold the errors Status lists.
    pub log_dir: PathBuf,
    /// Whether `CRM_LEAD_URL` is set.
    pub crm_configured: bool,
}
