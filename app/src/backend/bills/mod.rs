//! Bills, debts and their payments, always scoped to one user: every query
//! here takes the owner's id, so one user's id in another's request finds
//! nothing.

mod accrual;
pub mod forms;
pub mod held_import;
pub mod import;
mod import_error;
mod payments;
mod store;
pub mod transfer;
pub mod views;

pub use accrual::{accrue_interest, spawn_accrual, Accrued};
pub use import_error::BillImportError;
pub use payments::{
    flag_autopay_failure, list_all_payments, list_payments, payment_by_id, payment_problem,
    record_payment, record_payment_in, record_requested, record_typed, undo_payment,
    undo_payment_in, NewPayment, Payment,
};
pub use store::{
    check_catalog, create, create_in, date_in, deactivate, delete, get, known_time_zone, list,
    reactivate, reorder, today_for, update, Bill, BillError,
};
