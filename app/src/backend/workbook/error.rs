//! What can go wrong writing a workbook or importing one.

#[derive(Debug, thiserror::Error)]
pub enum WorkbookError {
    /// The uploaded file is not a workbook Tally can read; why, in words.
    #[error("file: {0}")]
    Unreadable(String),
    /// A field of the request (the mapping) is not valid.
    #[error("{field}: {description}")]
    Invalid {
        field: &'static str,
        description: String,
    },
    /// Rows or mapping fields with problems, each named.
    #[error("{} problems", .0.len())]
    Problems(Vec<crate::domain::validation::FieldViolation>),
    #[error("the workbook cannot be written: {0}")]
    Write(String),
    #[error("the rows cannot be read back: {0}")]
    Rows(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Bills(#[from] crate::backend::bills::BillError),
    /// The workbook the Data page's form asked for.
    #[error(transparent)]
    Kept(#[from] crate::backend::kept_upload::KeptError),
}

impl From<rust_xlsxwriter::XlsxError> for WorkbookError {
    fn from(error: rust_xlsxwriter::XlsxError) -> Self {
        Self::Write(error.to_string())
    }
}

impl From<csv::Error> for WorkbookError {
    fn from(error: csv::Error) -> Self {
        Self::Rows(error.to_string())
    }
}
