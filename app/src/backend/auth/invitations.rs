//! Joining Tally: one-time invitation links made by an admin (or, on a
//! fresh install without bootstrap settings, the setup link), and open
//! registration when an admin has turned it on. A link's token is shown once;
//! `invitations.token_hash` keeps only its SHA-256.

use secrecy::SecretString;
use sqlx::SqlitePool;

use super::store::invitations as stored;
use super::token::{random_token, sha256_hex};
use super::users::{self, Role, User};
use super::AuthError;
use crate::backend::settings::{self, Scope};

/// How long an invitation link works.
pub const LIFETIME_DAYS: i64 = 7;
/// The instance setting that lets anyone register without an invitation.
pub const OPEN_REGISTRATION: &str = "open_registration";

/// A pending invitation, as an admin sees it (never with its token).
pub use crate::contract::admin::Invitation;

/// A new invitation and the token for its link (shown once).
pub struct NewInvitation {
    pub invitation: Invitation,
    pub token: String,
}

/// Makes an invitation. `email`, when given, is the only address that may
/// use it.
pub async fn create(
    pool: &SqlitePool,
    created_by: Option<i64>,
    email: Option<&str>,
    role: Role,
) -> Result<NewInvitation, AuthError> {
    let email = email
        .map(str::trim)
        .filter(|email| !email.is_empty())
        .map(users::check_email)
        .transpose()?;
    let token = random_token();
    let token_hash = sha256_hex(&token);
    let lifetime = format!("+{LIFETIME_DAYS} days");
    let invitation = stored::insert(
        pool,
        &token_hash,
        email.as_deref(),
        role,
        created_by,
        &lifetime,
    )
    .await?;
    Ok(NewInvitation { invitation, token })
}

/// The one-time registration link of an invitation `token`, on the public
/// base URL.
pub fn link(public_base_url: &str, token: &str) -> String {
    format!("{public_base_url}/register?invitation={token}")
}

/// The setup link for a fresh install: an admin invitation, replacing any
/// earlier setup link (so only the one in the latest log works).
pub async fn create_setup_link(pool: &SqlitePool) -> Result<NewInvitation, AuthError> {
    stored::delete_setup_links(pool).await?;
    create(pool, None, None, Role::Admin).await
}

/// Invitations not yet used and not expired, newest first.
pub async fn pending(pool: &SqlitePool) -> Result<Vec<Invitation>, AuthError> {
    Ok(stored::pending(pool).await?)
}

/// Withdraws an unused invitation; false when there was none.
pub async fn revoke(pool: &SqlitePool, id: i64) -> Result<bool, AuthError> {
    Ok(stored::revoke(pool, id).await?)
}

/// The invitation behind a link's token, when it can still be used.
pub async fn find(pool: &SqlitePool, token: &str) -> Result<Option<Invitation>, AuthError> {
    let token_hash = sha256_hex(token);
    Ok(stored::usable(pool, &token_hash).await?)
}

/// Whether anyone may register without an invitation.
pub async fn open_registration(pool: &SqlitePool) -> Result<bool, AuthError> {
    Ok(settings::get_flag(pool, Scope::Instance, OPEN_REGISTRATION, false).await?)
}

pub async fn set_open_registration(pool: &SqlitePool, open: bool) -> Result<(), AuthError> {
    Ok(settings::set_flag(pool, Scope::Instance, OPEN_REGISTRATION, open).await?)
}

/// What someone registering sends.
pub struct Registration {
    pub invitation: Option<String>,
    pub email: String,
    pub name: String,
    pub password: SecretString,
}

/// Creates an account: with a valid invitation (which is then used up), or
/// without one while open registration is on.
pub async fn register(pool: &SqlitePool, registration: Registration) -> Result<User, AuthError> {
    let Some(token) = registration.invitation.filter(|token| !token.is_empty()) else {
        if !open_registration(pool).await? {
            return Err(AuthError::field(
                "invitation",
                "registration needs an invitation link from an administrator",
            ));
        }
        return users::create(
            pool,
            &registration.email,
            &registration.name,
            registration.password,
            Role::User,
        )
        .await;
    };
    let invitation = claim(pool, &token).await?;
    if let Some(invited) = &invitation.email {
        if !invited.eq_ignore_ascii_case(registration.email.trim()) {
            release(pool, invitation.id).await?;
            return Err(AuthError::field(
                "email",
                "this invitation is for a different address",
            ));
        }
    }
    let role = invitation.role;
    let created = users::create(
        pool,
        &registration.email,
        &registration.name,
        registration.password,
        role,
    )
    .await;
    match created {
        Ok(user) => {
            stored::set_used_by(pool, invitation.id, user.id).await?;
            Ok(user)
        }
        Err(error) => {
            release(pool, invitation.id).await?;
            Err(error)
        }
    }
}

/// Marks the invitation used, atomically, so two people cannot both use it.
async fn claim(pool: &SqlitePool, token: &str) -> Result<Invitation, AuthError> {
    let token_hash = sha256_hex(token);
    let claimed = stored::claim(pool, &token_hash).await?;
    claimed.ok_or_else(|| {
        AuthError::field(
            "invitation",
            "this invitation link is not valid; it may have expired or been used",
        )
    })
}

/// Gives back an invitation whose registration failed, so the person can
/// fix their input and try again.
async fn release(pool: &SqlitePool, id: i64) -> Result<(), AuthError> {
    stored::release(pool, id).await?;
    Ok(())
}
