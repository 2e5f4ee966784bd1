//! One import at a time per person for imports that run as a request
//! (the personal import, "Import my data"), not as an operation: the
//! operations table cannot say that one runs, so the process does. Tally
//! is one process (one database), so its memory is the whole truth; a
//! turn ends when its guard is dropped, whatever ended the request
//! (answered, refused, or cut off at the deadline).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::rules::RUNNING_RETRY;
use super::UploadQuotaError;

/// The people whose import is running, one turn each. Cloned, it is the
/// same set.
#[derive(Clone, Debug, Default)]
pub struct Turns(Arc<Mutex<HashSet<i64>>>);

impl Turns {
    fn running(&self) -> MutexGuard<'_, HashSet<i64>> {
        // The set only holds ids; one a panicking thread left is still
        // as good as any.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `user`'s turn, theirs until the [`Turn`] is dropped; refused with
    /// a short `Retry-After` while they hold one.
    pub fn take(&self, user: i64) -> Result<Turn, UploadQuotaError> {
        if !self.running().insert(user) {
            return Err(UploadQuotaError::Importing {
                retry_after: RUNNING_RETRY,
            });
        }
        Ok(Turn {
            turns: self.clone(),
            user,
        })
    }
}

/// A person's turn to import; over when dropped.
#[derive(Debug)]
pub struct Turn {
    turns: Turns,
    user: i64,
}

impl Turn {
    /// Whose turn it is.
    pub fn user(&self) -> i64 {
        self.user
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.turns.running().remove(&self.user);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_person_imports_one_at_a_time_and_the_turn_ends_when_dropped() {
        let turns = Turns::default();
        let first = turns.take(7).unwrap();
        assert_eq!(first.user(), 7);
        match turns.take(7) {
            Err(error @ UploadQuotaError::Importing { .. }) => {
                assert_eq!(error.retry_after(), Some(Duration::from_secs(5)));
                assert!(error.to_string().contains("still running"), "{error}");
            }
            other => panic!("{other:?}"),
        }
        // Someone else is not held up, and a clone is the same set.
        let other = turns.clone().take(8).unwrap();
        assert!(turns.take(8).is_err());
        drop(first);
        let again = turns.take(7).unwrap();
        drop(again);
        drop(other);
        assert!(turns.running().is_empty());
    }

    #[tokio::test]
    async fn a_turn_ends_when_its_request_is_dropped_midway() {
        let turns = Turns::default();
        let held = turns.clone();
        let request = tokio::spawn(async move {
            let _turn = held.take(3).unwrap();
            std::future::pending::<()>().await;
        });
        // Until the request has its turn, nothing to see.
        while turns.running().is_empty() {
            tokio::task::yield_now().await;
        }
        assert!(turns.take(3).is_err());
        request.abort();
        let _ = request.await;
        assert!(turns.take(3).is_ok());
    }
}
