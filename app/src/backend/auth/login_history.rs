//! The sign-in history: every attempt on an existing account, with the IP,
//! user agent and (for users who opted in) location sealed at rest. Failed
//! attempts are written after they are answered (see `LoginHistory`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use secrecy::ExposeSecret;
use sqlx::SqlitePool;
use tokio::sync::Notify;

use super::geolocation::{self, Geolocator};
use super::store::login_history as stored;
use super::AuthError;
use crate::backend::secrets::{Keyring, SecretColumn, LOGIN_IP, LOGIN_LOCATION, LOGIN_USER_AGENT};

/// How many rows Profile shows.
pub const RECENT: i64 = 20;

pub use crate::contract::account::{SignInMethod, SignInRecord};

/// Where an attempt came from.
pub struct Origin<'a> {
    pub ip: IpAddr,
    pub user_agent: Option<&'a str>,
}

/// Longest a history read waits for the user's attempts still being
/// written: a location lookup's limit and then some for the write.
const WAIT_FOR_PENDING: Duration = geolocation::TIMEOUT.saturating_add(Duration::from_secs(3));

/// Writes the sign-in history. A failed attempt is written after it has
/// been answered: its location lookup and durable write would otherwise
/// make a wrong password for a known email answer later than an unknown
/// email, telling an attacker which emails have accounts. Each row carries
/// the time of its attempt, not of its write, so the order stays true; and
/// reading a user's history first waits for their writes still under way,
/// so it is complete.
#[derive(Clone)]
pub struct LoginHistory {
    geolocator: Geolocator,
    pending: Arc<Pending>,
}

/// Failed attempts answered but not yet written, per user.
#[derive(Default)]
struct Pending {
    per_user: Mutex<HashMap<i64, usize>>,
    written: Notify,
}

impl Pending {
    fn per_user(&self) -> MutexGuard<'_, HashMap<i64, usize>> {
        // The map only holds counts; one a panicking thread left is still
        // as good as any.
        self.per_user.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn count(&self, user_id: i64) -> usize {
        self.per_user().get(&user_id).copied().unwrap_or(0)
    }
}

/// One pending write; done (even when it failed) when dropped.
struct PendingWrite {
    pending: Arc<Pending>,
    user_id: i64,
}

impl PendingWrite {
    fn start(pending: &Arc<Pending>, user_id: i64) -> Self {
        *pending.per_user().entry(user_id).or_insert(0) += 1;
        Self {
            pending: pending.clone(),
            user_id,
        }
    }
}

impl Drop for PendingWrite {
    fn drop(&mut self) {
        {
            let mut per_user = self.pending.per_user();
            if let Some(count) = per_user.get_mut(&self.user_id) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    per_user.remove(&self.user_id);
                }
            }
        }
        self.pending.written.notify_waiters();
    }
}

impl LoginHistory {
    pub fn new(geolocator: Geolocator) -> Self {
        Self {
            geolocator,
            pending: Arc::default(),
        }
    }

    /// Records an attempt before returning: a correct password, or a
    /// security key's answer (whose timing tells nothing: the challenge it
    /// answers already proved the password).
    pub async fn record(
        &self,
        pool: &SqlitePool,
        keyring: &Keyring,
        user_id: i64,
        method: SignInMethod,
        success: bool,
        origin: Origin<'_>,
    ) -> Result<(), AuthError> {
        self.write_now(pool, keyring, user_id, success, origin, method)
            .await
    }

    /// Records a sign-in through the identity provider (`method` `oidc`).
    pub async fn record_provider_sign_in(
        &self,
        pool: &SqlitePool,
        keyring: &Keyring,
        user_id: i64,
        origin: Origin<'_>,
    ) -> Result<(), AuthError> {
        self.write_now(pool, keyring, user_id, true, origin, SignInMethod::Oidc)
            .await
    }

    async fn write_now(
        &self,
        pool: &SqlitePool,
        keyring: &Keyring,
        user_id: i64,
        success: bool,
        origin: Origin<'_>,
        method: SignInMethod,
    ) -> Result<(), AuthError> {
        let at = now();
        write(
            pool,
            keyring,
            &self.geolocator,
            Row {
                user_id,
                success,
                at: &at,
                origin,
                method,
            },
        )
        .await
    }

    /// Records a wrong password in the background, so the caller can
    /// answer first. A failure to write is logged: the attempt was
    /// answered already.
    pub fn record_after_answer(
        &self,
        pool: &SqlitePool,
        keyring: &Arc<Keyring>,
        user_id: i64,
        success: bool,
        origin: Origin<'_>,
    ) {
        let at = now();
        let ip = origin.ip;
        let user_agent = origin.user_agent.map(str::to_owned);
        let pending = PendingWrite::start(&self.pending, user_id);
        let (pool, keyring, geolocator) = (pool.clone(), keyring.clone(), self.geolocator.clone());
        tokio::spawn(async move {
            let row = Row {
                user_id,
                success,
                at: &at,
                origin: Origin {
                    ip,
                    user_agent: user_agent.as_deref(),
                },
                method: SignInMethod::Password,
            };
            if let Err(error) = write(&pool, &keyring, &geolocator, row).await {
                tracing::warn!(user = user_id, %error, "sign-in attempt not recorded");
            }
            drop(pending);
        });
    }

    /// The user's latest attempts, newest first, once the ones still being
    /// written are in (waiting at most `WAIT_FOR_PENDING`).
    pub async fn recent(
        &self,
        pool: &SqlitePool,
        keyring: &Keyring,
        user_id: i64,
    ) -> Result<Vec<SignInRecord>, AuthError> {
        if !self.settled(user_id).await {
            tracing::warn!(
                user = user_id,
                "sign-in history read with attempts still being written"
            );
        }
        recent(pool, keyring, user_id).await
    }

    /// Waits until none of the user's attempts is being written, at most
    /// `WAIT_FOR_PENDING`; whether none is.
    async fn settled(&self, user_id: i64) -> bool {
        let deadline = tokio::time::Instant::now() + WAIT_FOR_PENDING;
        loop {
            // Created before the count is read, so a write finishing in
            // between still wakes it.
            let written = self.pending.written.notified();
            if self.pending.count(user_id) == 0 {
                return true;
            }
            if tokio::time::timeout_at(deadline, written).await.is_err() {
                return false;
            }
        }
    }
}

/// Now, as the `login_history.at` column's default writes it.
fn now() -> String {
    jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

struct Row<'a> {
    user_id: i64,
    success: bool,
    at: &'a str,
    origin: Origin<'a>,
    method: SignInMethod,
}

/// Writes an attempt. The location is looked up only when the user opted
/// in (see `geolocation`).
async fn write(
    pool: &SqlitePool,
    keyring: &Keyring,
    geolocator: &Geolocator,
    row: Row<'_>,
) -> Result<(), AuthError> {
    let Row {
        user_id,
        success,
        at,
        origin,
        method,
    } = row;
    let location = geolocator.locate_for(pool, user_id, origin.ip).await?;
    let seal = |column: SecretColumn, value: &str| {
        keyring
            .seal(column, value)
            .map_err(|error| AuthError::Sealing(error.to_string()))
    };
    let ip = seal(LOGIN_IP, &origin.ip.to_string())?;
    let agent = origin
        .user_agent
        .map(|agent| {
            seal(
                LOGIN_USER_AGENT,
                &agent.chars().take(300).collect::<String>(),
            )
        })
        .transpose()?;
    let location = location
        .map(|location| seal(LOGIN_LOCATION, &location))
        .transpose()?;
    let attempt = stored::SealedAttempt {
        user_id,
        at,
        success,
        ip: &ip,
        user_agent: agent.as_deref(),
        location: location.as_deref(),
        method,
    };
    stored::insert(pool, &attempt).await?;
    Ok(())
}

/// The user's latest attempts, newest first, as stored now.
async fn recent(
    pool: &SqlitePool,
    keyring: &Keyring,
    user_id: i64,
) -> Result<Vec<SignInRecord>, AuthError> {
    let rows = stored::recent(pool, user_id, RECENT).await?;
    // A value that no longer opens (a lost key) shows as unknown rather than
    // hiding the whole history.
    let open = |column: SecretColumn, stored: Option<String>| {
        stored.and_then(|stored| {
            keyring
                .open(column, &stored)
                .ok()
                .map(|plain| plain.expose_secret().to_owned())
        })
    };
    Ok(rows
        .into_iter()
        .map(|row| SignInRecord {
            at: row.at,
            success: row.success,
            ip: open(LOGIN_IP, row.ip),
            user_agent: open(LOGIN_USER_AGENT, row.user_agent),
            location: open(LOGIN_LOCATION, row.location),
            method: row.method,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempt_times_look_like_the_column_default() {
        // `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`: 2024-05-06T07:08:09.123Z
        let at = now();
        assert_eq!(at.len(), 24, "{at}");
        assert!(at.ends_with('Z') && at.as_bytes()[10] == b'T' && at.as_bytes()[19] == b'.');
    }

    #[tokio::test]
    async fn a_read_waits_only_for_its_users_pending_writes() {
        let history = LoginHistory::new(Geolocator::new(None));
        let pending = PendingWrite::start(&history.pending, 7);
        assert_eq!(history.pending.count(7), 1);
        assert_eq!(history.pending.count(8), 0);
        assert!(
            history.settled(8).await,
            "another user's write does not hold it"
        );
        let reader = {
            let history = history.clone();
            tokio::spawn(async move { history.settled(7).await })
        };
        tokio::task::yield_now().await;
        assert!(!reader.is_finished());
        drop(pending);
        assert!(
            reader.await.unwrap(),
            "woken by the write, not the deadline"
        );
        assert_eq!(history.pending.count(7), 0);
    }
}
