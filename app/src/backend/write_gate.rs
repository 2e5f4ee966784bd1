//! One writer at a time. SQLite takes one write lock per database anyway;
//! when several pool connections race for it, the losers sleep in SQLite's
//! busy handler for up to 100 ms a turn, which under load (the public forms
//! and the CRM outbox together) puts the 99th percentile in the hundreds of
//! milliseconds. Queuing writers on a fair async mutex first removes that
//! tail (see `scripts/bench-leads.sh`).

use tokio::sync::{Mutex, MutexGuard};

#[derive(Debug, Default)]
pub struct WriteGate(Mutex<()>);

impl WriteGate {
    /// Waits for the turn to write; the write happens while the guard lives.
    pub async fn enter(&self) -> MutexGuard<'_, ()> {
        self.0.lock().await
    }
}
