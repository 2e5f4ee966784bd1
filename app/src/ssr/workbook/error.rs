//! What can go wrong writing the workbook.

#[derive(Debug, thiserror::Error)]
pub enum WorkbookError {
    #[error("the workbook cannot be written: {0}")]
    Write(String),
    #[error("the rows cannot be read back: {0}")]
    Rows(String),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("{0}")]
    Bills(#[from] crate::ssr::bills::BillError),
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
