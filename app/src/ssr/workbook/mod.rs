//! "Download everything (Excel)": one workbook with the person's bills,
//! payments and bank transactions, a sheet each, beside the CSV files
//! (issue 32).
//!
//! - `sheets`: the rows as typed cells (numbers, dates, yes/no), pure.
//! - `store`: the transactions' rows; `service`: the use case.

mod error;
pub mod service;
pub mod sheets;
mod store;

pub use error::WorkbookError;
