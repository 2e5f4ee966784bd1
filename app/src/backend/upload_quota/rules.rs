//! The bounds on waiting uploads (pure).

use std::time::Duration;

use super::UploadQuotaError;

/// Uploads one person may have waiting at once (pinned: the 6th is 429).
pub const MAX_WAITING: usize = 5;
/// Bytes one person's waiting uploads may hold together.
pub const MAX_WAITING_BYTES: u64 = 50 * 1024 * 1024;
/// How long a person waits for their running import before trying again.
pub const RUNNING_RETRY: Duration = Duration::from_secs(5);

/// One upload waiting for its import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// What it keeps on the server.
    pub bytes: u64,
    /// Until it expires.
    pub left: Duration,
}

/// Whether one more upload of `bytes` may wait beside `waiting` (expired
/// ones already left out); if not, for how long to wait: until the oldest
/// expires, which is when there is room again.
pub fn admit(waiting: &[Waiting], bytes: u64) -> Result<(), UploadQuotaError> {
    let soonest = || {
        waiting
            .iter()
            .map(|upload| upload.left)
            .min()
            .unwrap_or(Duration::ZERO)
            .max(Duration::from_secs(1))
    };
    if waiting.len() >= MAX_WAITING {
        return Err(UploadQuotaError::TooMany {
            retry_after: soonest(),
        });
    }
    let held: u64 = waiting.iter().map(|upload| upload.bytes).sum();
    if held.saturating_add(bytes) > MAX_WAITING_BYTES {
        return Err(UploadQuotaError::TooLarge {
            retry_after: soonest(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(bytes: u64, minutes: u64) -> Waiting {
        Waiting {
            bytes,
            left: Duration::from_secs(minutes * 60),
        }
    }

    #[test]
    fn the_sixth_waiting_upload_waits_for_the_oldest_to_expire() {
        let four: Vec<Waiting> = (1..=4).map(|n| upload(1_000, n * 60)).collect();
        assert!(admit(&four, 1_000).is_ok());
        let mut five = four.clone();
        five.push(upload(1_000, 30));
        match admit(&five, 1_000) {
            Err(UploadQuotaError::TooMany { retry_after }) => {
                assert_eq!(retry_after, Duration::from_secs(30 * 60));
            }
            other => panic!("{other:?}"),
        }
        assert!(admit(&[], 1).is_ok());
    }

    #[test]
    fn the_waiting_bytes_are_bounded_together() {
        let big = [upload(30 * 1024 * 1024, 10), upload(15 * 1024 * 1024, 20)];
        assert!(admit(&big, 5 * 1024 * 1024).is_ok());
        assert!(matches!(
            admit(&big, 5 * 1024 * 1024 + 1),
            Err(UploadQuotaError::TooLarge { retry_after }) if retry_after == Duration::from_secs(600)
        ));
        // One file alone over the bound is refused too (the route's own
        // size limit usually comes first).
        assert!(admit(&[], MAX_WAITING_BYTES + 1).is_err());
    }

    #[test]
    fn the_message_says_how_to_clear_them() {
        let error = UploadQuotaError::TooMany {
            retry_after: Duration::from_secs(90),
        };
        let text = error.to_string();
        assert!(text.contains("5 uploads waiting"), "{text}");
        assert!(text.contains("import them on the Data page"), "{text}");
        assert!(text.contains("discard a statement's preview"), "{text}");
        assert!(text.contains("in 2 minutes"), "{text}");
        assert_eq!(error.retry_after(), Some(Duration::from_secs(90)));
        let day = UploadQuotaError::TooLarge {
            retry_after: Duration::from_secs(24 * 3600 - 5),
        };
        assert!(day.to_string().contains("in about 24 hours"), "{day}");
        assert!(
            day.to_string().contains("discard a statement's preview"),
            "{day}"
        );
    }
}
