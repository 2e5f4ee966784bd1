//! Excel workbooks (issue 32): "Download everything (Excel)", one workbook
//! with the person's bills, payments and bank transactions, a sheet each,
//! beside the CSV files; and "Import history from a spreadsheet", a sheet
//! of bills or payments read through the person's column mapping.
//!
//! - `sheets`: the rows as typed cells (numbers, dates, yes/no), pure;
//!   `cells`: a workbook read back, bounded; `mapping`: a sheet's rows
//!   as bills or payments through the mapping, pure.
//! - `store`: every SQL statement; `service` (the export) and `history`
//!   (the import): the use cases.

pub mod cells;
mod error;
pub mod history;
mod mapping;
pub mod service;
pub mod sheets;
mod store;

pub use error::WorkbookError;
