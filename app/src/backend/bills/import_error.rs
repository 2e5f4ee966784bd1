//! What a bill import can refuse, in its own words; `backend::api_error` maps
//! each to HTTP once.

use crate::domain::validation::FieldViolation;

#[derive(Debug, thiserror::Error)]
pub enum BillImportError {
    #[error("the file is not UTF-8 text")]
    NotText,
    /// The file is larger than `limit` bytes.
    #[error("the file is larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// One field of the request at fault (`file`, `from`).
    #[error("{}: {}", .0.field, .0.description)]
    Field(FieldViolation),
    /// Bad rows, each problem named `rows[i].field`.
    #[error("{} problems in the rows", .0.len())]
    Rows(Vec<FieldViolation>),
    /// The file cannot be read as the format it claims, or holds too many
    /// rows.
    #[error("{0}")]
    Unreadable(String),
    /// The previewed file the Data page's form asked for.
    #[error(transparent)]
    Kept(#[from] crate::backend::kept_upload::KeptError),
    #[error(transparent)]
    Bill(#[from] super::BillError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}
